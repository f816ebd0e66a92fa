// The billing calls (docs/architecture.md "Billing API"): the caller's subscription, upgrading by
// payment, downgrading, changing the card, commission and history, and Stripe's webhook (public: Stripe signs it).
// The test-mode confirmation exists only in the opted-in test mode (PAYMENTS_TEST_MODE). `pay-commission` with a
// body `{userId, amount}` is the admin's: recording a payment a traveller made outside the app.
import { Hono } from 'hono';
import { adminCommissionPaymentSchema } from '../../_shared/schemas/admin.ts';
import {
  billingHistoryQuerySchema,
  changeCardSchema,
  checkoutSessionSchema,
  paymentIntentSchema,
  testModeConfirmSchema,
  updateSubscriptionSchema,
} from '../../_shared/schemas/billing.ts';
import type { AppEnv } from '../context.ts';
import { HttpError } from '../errors.ts';
import { readJson } from '../lib/body.ts';
import { readQuery } from '../lib/query-string.ts';
import { requireAdmin } from '../middleware/require-admin.ts';
import { billingHistory, commissionSummary } from '../queries/billing.ts';
import { changeCard } from '../services/billing/card.ts';
import { createCheckoutSession, createPlanPaymentIntent } from '../services/billing/checkout.ts';
import { payCommission, recordCommissionPayment } from '../services/billing/commission.ts';
import { currentSubscription, updateSubscription } from '../services/billing/subscription.ts';
import { confirmTestPayment } from '../services/billing/test-mode.ts';
import { handleWebhook } from '../services/billing/webhook.ts';

/** An empty body (or none) reads as `{}`; anything else must be a JSON object. */
async function optionalJson<S extends Parameters<typeof readJson>[1]>(c: Parameters<typeof readJson>[0], schema: S) {
  const text = await c.req.raw.clone().text();
  if (text.trim() === '') return schema.parse({});
  return await readJson(c, schema);
}

/** No body, or an empty JSON object: the traveller's own commission payment (spec: "none (user view)"). */
async function isTravellerView(c: Parameters<typeof readJson>[0]): Promise<boolean> {
  const text = (await c.req.raw.clone().text()).trim();
  if (text === '') return true;
  try {
    const body: unknown = JSON.parse(text);
    return typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).length === 0;
  } catch {
    return false;
  }
}

export const subscriptionRouter = new Hono<AppEnv>()
  .get('/current', async (c) => c.json(await currentSubscription(c.var.deps, c.var.claims.sub)))
  .post('/update', async (c) => {
    const body = await readJson(c, updateSubscriptionSchema);
    return c.json(await updateSubscription(c.var.deps, c.var.claims.sub, body));
  });

export const stripeRouter = new Hono<AppEnv>()
  .post('/create-checkout-session', async (c) => {
    const body = await optionalJson(c, checkoutSessionSchema);
    return c.json(await createCheckoutSession(c.var.deps, c.var.claims.sub, body));
  })
  .post('/payment-intent', async (c) => {
    const body = await readJson(c, paymentIntentSchema);
    return c.json(await createPlanPaymentIntent(c.var.deps, c.var.claims.sub, body));
  })
  .post('/pay-commission', async (c) => {
    if (await isTravellerView(c)) return c.json(await payCommission(c.var.deps, c.var.claims.sub));
    // the admin view: refused to anyone else before the body is even read
    await requireAdmin(c, () => Promise.resolve());
    const body = await readJson(c, adminCommissionPaymentSchema);
    return c.json(await recordCommissionPayment(c.var.deps, c.var.claims.sub, body));
  })
  .post('/test-mode/confirm', async (c) => {
    // only in the local test mode: with Stripe configured this path does not exist; with no
    // payments configured it answers 503 as every payment call does (confirmTestPayment)
    if (c.var.deps.payments.mode === 'stripe') throw new HttpError(404, 'Not found');
    const body = await readJson(c, testModeConfirmSchema);
    return c.json(await confirmTestPayment(c.var.deps, c.var.claims.sub, body));
  });

export const billingRouter = new Hono<AppEnv>()
  .get('/commission', async (c) => {
    const claims = c.var.claims;
    return c.json(await c.var.deps.db.asUser(claims, (tx) => commissionSummary(tx, claims.sub)));
  })
  .get('/history', async (c) => {
    const claims = c.var.claims;
    const query = readQuery(c, billingHistoryQuerySchema);
    return c.json(await c.var.deps.db.asUser(claims, (tx) => billingHistory(tx, claims.sub, query)));
  })
  .post('/card', async (c) => {
    const body = await optionalJson(c, changeCardSchema);
    return c.json(await changeCard(c.var.deps, c.var.claims.sub, body));
  });

export const publicStripeRouter = new Hono<AppEnv>().post('/webhook', async (c) => {
  // the signature covers the exact bytes Stripe sent: read the raw text, never re-serialized JSON
  const rawBody = await c.req.text();
  return c.json(await handleWebhook(c.var.deps, rawBody, c.req.header('stripe-signature') ?? null));
});
