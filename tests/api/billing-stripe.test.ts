// The billing calls with Stripe configured, performed over HTTP against a stack whose payments
// adapter is the real `stripe` SDK talking to the local Stripe stand-in: checkout, the card
// form's payment intent, signed webhook deliveries (a bad signature, a replay, events out of
// order, failed payments), commission paid with the saved card, and the monthly statement.
import type postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStripeStub, type StripeStub } from '../../supabase/functions/_shared/payments/testing/stripe-stub.ts';
import type {
  ChangeCardResponse,
  CheckoutSessionResponse,
  CurrentSubscriptionResponse,
  PaymentIntentResponse,
  UpdateSubscriptionResponse,
  WebhookResponse,
} from '../../supabase/functions/_shared/types/billing.ts';
import type { SubscriptionPlansResponse } from '../../supabase/functions/_shared/types/plans.ts';
import type { Stack } from '../../dev/stack.ts';
import type { ApiClient } from './client.ts';
import { registerUser, type RegisteredUser } from './factories.ts';
import { notificationEmails } from './notification-emails.ts';
import { startOwnStack, type OwnStack } from './own-stack.ts';

let stub: StripeStub;
let own: OwnStack;
let stack: Stack;
let api: ApiClient;
let sql: postgres.Sql;
let webhookUrl: string;

beforeAll(async () => {
  stub = await startStripeStub();
  own = await startOwnStack('stripe', {
    apiEnv: {
      STRIPE_SECRET_KEY: stub.secretKey,
      STRIPE_WEBHOOK_SECRET: stub.webhookSecret,
      STRIPE_API_URL: stub.url,
      // the stack opts in to the local test mode; beside a Stripe key it is refused
      PAYMENTS_TEST_MODE: 'false',
    },
  });
  ({ stack, api, sql } = own);
  webhookUrl = `${stack.apiUrl}/stripe/webhook`;
});

afterAll(async () => {
  await own?.stop();
  await stub?.close();
});

const auth = (user: RegisteredUser) => ({ token: user.session.access_token });

async function traveller() {
  const user = await registerUser(api);
  await sql`update public.profiles set email_confirmed_at = now() where id = ${user.id}`;
  return user;
}

async function premiumPlan() {
  const res = await api.get<SubscriptionPlansResponse>('/subscription/plans');
  const plan = res.body.plans.find((p) => p.name.toLowerCase() === 'premium');
  if (!plan) throw new Error('no premium plan');
  return plan;
}

async function subscription(user: RegisteredUser) {
  return (await api.get<CurrentSubscriptionResponse>('/subscription/current', auth(user))).body.subscription;
}

async function deliver(type: string, object: Record<string, unknown>) {
  const event = stub.event(type, object);
  const res = await stub.deliver(webhookUrl, event);
  const body = (await res.json()) as WebhookResponse;
  expect(res.status, JSON.stringify(body)).toBe(200);
  return { event, body };
}

async function billingRows(userId: string) {
  return sql<{ type: string; amount: number; status: string; payment_reference: string | null }[]>`
    select type, amount, status, payment_reference from public.billing_transactions
     where user_id = ${userId} order by id`;
}

async function ledger(userId: string) {
  const [row] = await sql<{ owed: number; paid: number }[]>`
    select commission_owed as owed, commission_paid as paid from public.profiles where id = ${userId}`;
  return row;
}

async function failedNotices(userId: string) {
  return sql<{ data: Record<string, unknown> }[]>`
    select data from public.notification_history where user_id = ${userId} and type = 'payment_failed'`;
}

/** A traveller subscribed through Checkout (card pm_card_visa saved). */
async function subscribed() {
  const user = await traveller();
  const checkout = await api.post<CheckoutSessionResponse>('/stripe/create-checkout-session', undefined, auth(user));
  expect(checkout.status, JSON.stringify(checkout.body)).toBe(200);
  const session = [...stub.checkoutSessions.values()].find((s) => s.url === checkout.body.url);
  if (!session) throw new Error('no session at the stub');
  const { subscriptionId, invoiceId } = stub.completeCheckout(session.id as string);
  return { user, session, subscriptionId, invoiceId };
}

describe('checkout and the webhook', () => {
  it('Checkout at the plan price; checkout.session.completed makes the traveller premium; a replay does nothing', async () => {
    const plan = await premiumPlan();
    const { user, session, subscriptionId, invoiceId } = await subscribed();
    expect(session).toMatchObject({ mode: 'subscription', metadata: { userId: user.id, planId: String(plan.id) } });
    expect(session.line_items_requested).toMatchObject({
      0: { price_data: { unit_amount: String(plan.price), currency: 'usd', recurring: { interval: 'year' } } },
    });
    expect(String(session.success_url)).toContain('/dashboard');
    const customer = stub.customers.get(String(session.customer));
    expect(customer).toMatchObject({ email: user.email, metadata: { userId: user.id } });
    expect((await subscription(user)).tier).toBe('free'); // nothing before Stripe says so

    const completed = await deliver('checkout.session.completed', session);
    expect(completed.body).toEqual({ received: true, processed: true });
    const sub = await subscription(user);
    expect(sub).toMatchObject({
      tier: 'premium',
      status: 'active',
      renews: true,
      hasSavedCard: true,
      paymentMode: 'stripe',
    });
    const period = stub.subscriptions.get(subscriptionId)?.items as { data: { current_period_end: number }[] };
    expect(new Date(sub.endDate ?? 0).getTime()).toBe((period.data[0]?.current_period_end ?? 0) * 1000);

    await deliver('invoice.paid', stub.invoices.get(invoiceId) ?? {});
    const rows = await billingRows(user.id);
    expect(rows).toEqual([
      { type: 'subscription', amount: plan.price, status: 'completed', payment_reference: invoiceId },
    ]);

    // the same event again: answered 200, nothing done
    const replay = await stub.deliver(webhookUrl, completed.event);
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual({ received: true, processed: false });
    expect(await billingRows(user.id)).toEqual(rows);
    const [events] = await sql<
      { n: number }[]
    >`select count(*)::int as n from private.stripe_events where id = ${completed.event.id as string}`;
    expect(events?.n).toBe(1);
  });

  it('refuses a bad signature or a tampered body with 400, storing and changing nothing', async () => {
    const user = await traveller();
    const checkout = await api.post<CheckoutSessionResponse>('/stripe/create-checkout-session', undefined, auth(user));
    const session = [...stub.checkoutSessions.values()].find((s) => s.url === checkout.body.url) ?? {};
    stub.completeCheckout(session.id as string);
    for (const options of [{ wrongSecret: true }, { tamper: true }]) {
      const event = stub.event('checkout.session.completed', session);
      const res = await stub.deliver(webhookUrl, event, options);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toBe('Invalid webhook signature');
      const [row] = await sql<
        { n: number }[]
      >`select count(*)::int as n from private.stripe_events where id = ${event.id as string}`;
      expect(row?.n).toBe(0);
    }
    const unsigned = await fetch(webhookUrl, { method: 'POST', body: JSON.stringify(stub.event('invoice.paid', {})) });
    expect(unsigned.status).toBe(400);
    expect((await subscription(user)).tier).toBe('free');
  });

  it('events out of order end in the state Stripe holds now, not the last one to arrive', async () => {
    const { user, session, subscriptionId } = await subscribed();
    await deliver('checkout.session.completed', session);
    const activeCopy = structuredClone(stub.subscriptions.get(subscriptionId) ?? {});
    stub.updateSubscription(subscriptionId, { status: 'canceled' });
    // the deletion arrives first, then the older update that still says active
    await deliver('customer.subscription.deleted', stub.subscriptions.get(subscriptionId) ?? {});
    const late = await deliver('customer.subscription.updated', activeCopy);
    expect(late.body.processed).toBe(true);
    const sub = await subscription(user);
    expect(sub).toMatchObject({ tier: 'free', status: 'expired', renews: false });
  });

  it('a failed renewal: past due, a failed billing row and a notice; premium kept while Stripe retries', async () => {
    const { user, session, subscriptionId } = await subscribed();
    await deliver('checkout.session.completed', session);
    const invoiceId = stub.failRenewal(subscriptionId);
    await deliver('invoice.payment_failed', stub.invoices.get(invoiceId) ?? {});
    expect(await subscription(user)).toMatchObject({ tier: 'premium', status: 'past_due', renews: false });
    expect((await billingRows(user.id)).find((r) => r.payment_reference === invoiceId)?.status).toBe('failed');
    expect(await failedNotices(user.id)).toHaveLength(1);
  });

  it('downgrading cancels the Stripe subscription at the period end', async () => {
    const { user, session, subscriptionId } = await subscribed();
    await deliver('checkout.session.completed', session);
    const res = await api.post<UpdateSubscriptionResponse>('/subscription/update', { tier: 'free' }, auth(user));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.message).toContain("Premium ended today, before the paid year's end on");
    expect(stub.subscriptions.get(subscriptionId)?.cancel_at_period_end).toBe(true);
    // Stripe then reports the cancellation at period end: still canceled, still free
    await deliver('customer.subscription.updated', stub.subscriptions.get(subscriptionId) ?? {});
    expect(await subscription(user)).toMatchObject({ tier: 'free', status: 'canceled', renews: false });
  });
});

// Issue 25: a failed renewal is money owed, not 'Already Subscribed'; the card changes in the
// Billing Portal and comes back by customer.updated; Stripe's retry then pays it, whatever order
// the events arrive in; a downgrade at the period end keeps Premium and can be taken back.
describe('a Stripe renewal that failed, the card changed, the downgrade scheduled (issue 25)', () => {
  it('past due: refused checkout says to update the card; the Billing Portal; customer.updated; paid again', async () => {
    const { user, session, subscriptionId } = await subscribed();
    await deliver('checkout.session.completed', session);
    const invoiceId = stub.failRenewal(subscriptionId);
    await deliver('invoice.payment_failed', stub.invoices.get(invoiceId) ?? {});
    const failed = await subscription(user);
    expect(failed).toMatchObject({ tier: 'premium', status: 'past_due' });
    expect(failed.paymentIssue).toMatchObject({ purpose: 'subscription', amount: 2499, retry: null });
    expect(failed.paymentIssue?.outcome).toMatch(/Stripe tries your card again/);

    const checkout = await api.post<{ message: string }>('/stripe/create-checkout-session', undefined, auth(user));
    expect(checkout.status).toBe(409);
    expect(checkout.body.message).toBe(
      'Your renewal payment failed: update your card on the Subscription tab and Stripe charges it again.',
    );
    expect(checkout.body.message).not.toMatch(/Already Subscribed/);

    const card = await api.post<ChangeCardResponse>('/billing/card', undefined, auth(user));
    expect(card.status, JSON.stringify(card.body)).toBe(200);
    const portal = stub.portalSessions.at(-1);
    expect(portal).toMatchObject({ customer: session.customer, return_url: `${stack.url}/dashboard?tab=plan` });
    expect(card.body).toMatchObject({ url: portal?.url, paymentMode: 'stripe', renewal: null });

    const customer = stub.changeDefaultCard(String(session.customer), 'pm_card_mastercard');
    await deliver('customer.updated', customer);
    const [account] = await sql<{ card: string }[]>`
      select payment_method_id as card from private.billing_accounts where user_id = ${user.id}`;
    expect(account?.card).toBe('pm_card_mastercard');

    // Stripe's retry pays; the older past_due update arrives after the payment and changes nothing
    const pastDue = structuredClone(stub.subscriptions.get(subscriptionId) ?? {});
    stub.updateSubscription(subscriptionId, { status: 'active' });
    const paid = stub.renew(subscriptionId, 2499);
    await deliver('invoice.paid', stub.invoices.get(paid) ?? {});
    await deliver('customer.subscription.updated', pastDue);
    const after = await subscription(user);
    expect(after).toMatchObject({ tier: 'premium', status: 'active', renews: true, paymentIssue: null });
    expect(after.renewal).toEqual({ date: after.endDate, amount: 2499 });
  });

  it('downgrade at the period end: Stripe cancels then, Premium kept and scheduled; renewal back on resumes it', async () => {
    const { user, session, subscriptionId } = await subscribed();
    await deliver('checkout.session.completed', session);
    const res = await api.post<UpdateSubscriptionResponse>(
      '/subscription/update',
      { tier: 'free', at: 'period_end' },
      auth(user),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(stub.subscriptions.get(subscriptionId)?.cancel_at_period_end).toBe(true);
    await deliver('customer.subscription.updated', stub.subscriptions.get(subscriptionId) ?? {});
    const scheduled = await subscription(user);
    expect(scheduled).toMatchObject({ tier: 'premium', renews: false, renewal: null });
    expect(scheduled.scheduledChange).toEqual({ tier: 'free', at: scheduled.endDate });

    const resumed = await api.post<UpdateSubscriptionResponse>('/subscription/update', { tier: 'premium' }, auth(user));
    expect(resumed.status, JSON.stringify(resumed.body)).toBe(200);
    expect(stub.subscriptions.get(subscriptionId)?.cancel_at_period_end).toBe(false);
    await deliver('customer.subscription.updated', stub.subscriptions.get(subscriptionId) ?? {});
    expect(await subscription(user)).toMatchObject({ tier: 'premium', renews: true, scheduledChange: null });
  });
});

describe('the card form: POST /api/stripe/payment-intent', () => {
  it('an intent for the plan price with a client secret; a failure then a retried success, delivered out of order', async () => {
    const user = await traveller();
    const plan = await premiumPlan();
    const res = await api.post<PaymentIntentResponse>(
      '/stripe/payment-intent',
      { amount: plan.price, planId: plan.id },
      auth(user),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ success: true, paymentMode: 'stripe', status: 'requires_payment_method' });
    expect(res.body.clientSecret).toMatch(/_secret_/);
    const intent = stub.paymentIntents.get(res.body.paymentIntentId);
    expect(intent).toMatchObject({ amount: plan.price, setup_future_usage: 'off_session' });

    const failedCopy = structuredClone(stub.failIntent(res.body.paymentIntentId, 'Your card has insufficient funds.'));
    const failed = await deliver('payment_intent.payment_failed', failedCopy);
    expect(failed.body.processed).toBe(true);
    expect((await subscription(user)).tier).toBe('free');
    expect((await failedNotices(user.id))[0]?.data).toMatchObject({
      amount: plan.price,
      reason: 'Your card has insufficient funds.',
    });

    // the traveller retries: the success arrives, then a second (older) failure event
    stub.payIntent(res.body.paymentIntentId, 'pm_card_mastercard');
    await deliver('payment_intent.succeeded', stub.paymentIntents.get(res.body.paymentIntentId) ?? {});
    await deliver('payment_intent.payment_failed', failedCopy);
    expect(await subscription(user)).toMatchObject({ tier: 'premium', status: 'active', hasSavedCard: true });
    expect((await billingRows(user.id)).map((r) => [r.type, r.status])).toEqual([['subscription', 'completed']]);
  });
});

describe('commission with the saved card', () => {
  async function owing(amount: number, monthsAgo = 0) {
    const { user, session } = await subscribed();
    await deliver('checkout.session.completed', session);
    await sql`update public.profiles set commission_owed = ${amount}, total_credits_earned = ${amount * 4} where id = ${user.id}`;
    await sql`insert into public.billing_transactions (user_id, amount, status, type, description, transaction_date, credits_earned_in_period)
              values (${user.id}, ${amount}, 'pending', 'commission', 'commission on a rebooking',
                      date_trunc('month', now()) - ${`${monthsAgo} months`}::interval + interval '3 days', ${amount * 4})`;
    return user;
  }

  it('pay-commission charges the saved card off-session', async () => {
    const user = await owing(1250);
    const res = await api.post<PaymentIntentResponse>('/stripe/pay-commission', undefined, auth(user));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ success: true, status: 'succeeded', amount: 1250, clientSecret: null });
    expect(stub.paymentIntents.get(res.body.paymentIntentId)).toMatchObject({
      payment_method: 'pm_card_visa',
      amount: 1250,
    });
    expect(await ledger(user.id)).toEqual({ owed: 0, paid: 1250 });
    // its webhook later changes nothing more
    await deliver('payment_intent.succeeded', stub.paymentIntents.get(res.body.paymentIntentId) ?? {});
    expect(await ledger(user.id)).toEqual({ owed: 0, paid: 1250 });
    // refunded in full at Stripe: owed again, the payment's row refunded (a replay changes nothing more)
    const refunded = await deliver('charge.refunded', stub.refund(res.body.paymentIntentId));
    expect(refunded.body.processed).toBe(true);
    await deliver('charge.refunded', (refunded.event.data as { object: Record<string, unknown> }).object);
    expect(await ledger(user.id)).toEqual({ owed: 1250, paid: 0 });
    expect((await billingRows(user.id)).find((r) => r.payment_reference === res.body.paymentIntentId)?.status).toBe(
      'refunded',
    );
  });

  it('a declined card: 402 with the decline, still owed, a failed row and a notice', async () => {
    const user = await owing(900);
    stub.declineCard('pm_card_visa_declining');
    await sql`update private.billing_accounts set payment_method_id = 'pm_card_visa_declining' where user_id = ${user.id}`;
    const res = await api.post<{ message: string }>('/stripe/pay-commission', undefined, auth(user));
    expect(res.status).toBe(402);
    expect(res.body.message).toBe('Your card was declined.');
    expect(await ledger(user.id)).toEqual({ owed: 900, paid: 0 });
    expect((await billingRows(user.id)).filter((r) => r.type === 'commission').map((r) => r.status)).toEqual([
      'pending',
      'failed',
    ]);
    expect((await failedNotices(user.id))[0]?.data).toMatchObject({ amount: 900 });
  });

  it("the monthly statement closes last month's period and charges the saved card once; a decline leaves it owed", async () => {
    const paying = await owing(2000, 1);
    const declining = await owing(700, 1);
    stub.declineCard('pm_card_statement_declines');
    await sql`update private.billing_accounts set payment_method_id = 'pm_card_statement_declines' where user_id = ${declining.id}`;
    const run = async () => {
      const res = await fetch(`${stack.apiUrl}/internal/jobs`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${stack.cronSecret}` },
      });
      expect(res.status).toBe(200);
    };
    await run();
    await run(); // a second run finds the month's job done: nothing is charged twice

    const statements = await sql<
      {
        user_id: string;
        amount: number;
        status: string;
        credits_earned_in_period: number;
        billing_period_start: Date;
        billing_period_end: Date;
      }[]
    >`select user_id, amount, status, credits_earned_in_period, billing_period_start, billing_period_end
        from public.billing_transactions
       where user_id in ${sql([paying.id, declining.id])} and billing_period_start is not null`;
    const mine = statements.find((s) => s.user_id === paying.id);
    expect(mine).toMatchObject({ amount: 2000, status: 'completed', credits_earned_in_period: 8000 });
    const start = new Date(mine?.billing_period_start ?? 0);
    const end = new Date(mine?.billing_period_end ?? 0);
    expect(start.getDate()).toBe(1);
    expect(end.getMonth()).toBe(start.getMonth());
    expect(await ledger(paying.id)).toEqual({ owed: 0, paid: 2000 });
    const charges = [...stub.paymentIntents.values()].filter(
      (pi) => (pi.metadata as { userId?: string }).userId === paying.id && pi.amount === 2000,
    );
    expect(charges).toHaveLength(1);

    expect(statements.find((s) => s.user_id === declining.id)).toMatchObject({ amount: 700, status: 'failed' });
    expect(await ledger(declining.id)).toEqual({ owed: 700, paid: 0 });
    expect((await failedNotices(declining.id))[0]?.data).toMatchObject({ amount: 700 });
    const [notice] = await sql<{ data: Record<string, unknown> }[]>`
      select data from public.notification_history where user_id = ${paying.id} and type = 'commission_statement'`;
    expect(notice?.data).toMatchObject({ commissionDue: 2000, credits: 8000, charged: true });
  });
});

describe('chargebacks: charge.dispute.created and charge.dispute.closed (issue 21, finding 10)', () => {
  async function tierOf(userId: string) {
    const [row] = await sql<{ tier: string }[]>`
      select sp.tier from public.profiles p join public.subscription_plans sp on sp.id = p.plan_id where p.id = ${userId}`;
    return row?.tier;
  }

  async function paymentRow(id: string) {
    const [row] = await sql<{ status: string; dispute_id: string | null; dispute_status: string | null }[]>`
      select status, dispute_id, dispute_status from private.payments where id = ${id}`;
    return row;
  }

  async function disputeAudit(userId: string) {
    return sql<{ actor_id: string | null; after: Record<string, unknown> }[]>`
      select actor_id, after from public.admin_audit_log
       where action = 'payment.dispute' and target_id = ${userId} order by id`;
  }

  it('a disputed card-form subscription payment suspends Premium; closed as won restores it', async () => {
    const user = await traveller();
    const plan = await premiumPlan();
    const started = await api.post<PaymentIntentResponse>(
      '/stripe/payment-intent',
      { amount: plan.price, planId: plan.id },
      auth(user),
    );
    const intentId = started.body.paymentIntentId;
    stub.payIntent(intentId);
    await deliver('payment_intent.succeeded', stub.paymentIntents.get(intentId) ?? {});
    expect(await tierOf(user.id)).toBe('premium');
    expect((await api.post('/auto-rebooking/toggle', { enabled: true }, auth(user))).status).toBe(200);

    const dispute = stub.dispute(intentId);
    const created = await deliver('charge.dispute.created', dispute);
    expect(created.body.processed).toBe(true);
    expect(await tierOf(user.id)).toBe('free');
    const [profile] = await sql<{ auto_rebooking: boolean }[]>`
      select auto_rebooking from public.profiles where id = ${user.id}`;
    expect(profile?.auto_rebooking).toBe(false);
    expect(await paymentRow(intentId)).toEqual({
      status: 'disputed',
      dispute_id: dispute.id,
      dispute_status: 'needs_response',
    });
    // premium-only calls are refused while it is disputed
    expect((await api.post('/auto-rebooking/toggle', { enabled: true }, auth(user))).status).toBe(403);

    await deliver('charge.dispute.closed', stub.closeDispute(dispute.id as string, 'won'));
    expect(await tierOf(user.id)).toBe('premium');
    expect(await paymentRow(intentId)).toMatchObject({ status: 'succeeded', dispute_status: 'won' });
    const audit = await disputeAudit(user.id);
    expect(audit.map((a) => [a.actor_id, a.after.status, a.after.disputeStatus])).toEqual([
      [null, 'disputed', 'needs_response'],
      [null, 'succeeded', 'won'],
    ]);
  });

  it('a disputed commission payment is owed again; closed as lost it stays owed (a replay changes nothing)', async () => {
    const { user, session } = await subscribed();
    await deliver('checkout.session.completed', session);
    await sql`update public.profiles set commission_owed = 1800, total_credits_earned = 7200 where id = ${user.id}`;
    const paid = await api.post<PaymentIntentResponse>('/stripe/pay-commission', undefined, auth(user));
    expect(paid.body.status).toBe('succeeded');
    expect(await ledger(user.id)).toEqual({ owed: 0, paid: 1800 });

    const dispute = stub.dispute(paid.body.paymentIntentId);
    await deliver('charge.dispute.created', dispute);
    expect(await ledger(user.id)).toEqual({ owed: 1800, paid: 0 });
    expect(await tierOf(user.id)).toBe('premium'); // a commission dispute leaves the plan alone

    const lost = await deliver('charge.dispute.closed', stub.closeDispute(dispute.id as string, 'lost'));
    expect(lost.body.processed).toBe(true);
    expect(await ledger(user.id)).toEqual({ owed: 1800, paid: 0 });
    expect(await paymentRow(paid.body.paymentIntentId)).toMatchObject({ status: 'disputed', dispute_status: 'lost' });
    expect((await billingRows(user.id)).find((r) => r.payment_reference === paid.body.paymentIntentId)?.status).toBe(
      'refunded',
    );
    // the same closing as a new event: nothing more moves
    await deliver('charge.dispute.closed', stub.disputes.get(dispute.id as string) ?? {});
    expect(await ledger(user.id)).toEqual({ owed: 1800, paid: 0 });
    expect(await disputeAudit(user.id)).toHaveLength(2);
  });

  /**
   * A traveller subscribed through Checkout whose subscription invoice's charge (one the api never
   * created) is disputed: charge.dispute.created delivered, Premium suspended.
   */
  async function disputedCheckoutSubscription() {
    const { user, session, subscriptionId } = await subscribed();
    await deliver('checkout.session.completed', session);
    expect(await tierOf(user.id)).toBe('premium');
    const plan = await premiumPlan();
    const invoiceIntent = `pi_invoice_${user.id.replaceAll('-', '')}`;
    const dispute = stub.dispute(invoiceIntent, { customer: String(session.customer), amount: plan.price });
    await deliver('charge.dispute.created', dispute);
    expect(await tierOf(user.id)).toBe('free');
    return { user, subscriptionId, plan, invoiceIntent, disputeId: dispute.id as string };
  }

  it("a disputed Checkout subscription invoice (a charge the api never created) suspends its customer's Premium", async () => {
    const { user, invoiceIntent, disputeId } = await disputedCheckoutSubscription();
    expect(await paymentRow(invoiceIntent)).toMatchObject({ status: 'disputed', dispute_id: disputeId });
    // lost: Premium stays removed
    await deliver('charge.dispute.closed', stub.closeDispute(disputeId, 'lost'));
    expect(await tierOf(user.id)).toBe('free');
    expect(await paymentRow(invoiceIntent)).toMatchObject({ status: 'disputed', dispute_status: 'lost' });
  });

  it("while a Checkout subscription's payment is disputed its renewal events leave the traveller Free; lost cancels it at Stripe", async () => {
    const { user, subscriptionId, plan, disputeId } = await disputedCheckoutSubscription();

    // Stripe still holds the subscription active: it renews and reports it
    const renewal = stub.renew(subscriptionId, plan.price);
    const updated = await deliver('customer.subscription.updated', stub.subscriptions.get(subscriptionId) ?? {});
    expect(updated.body.processed).toBe(true);
    expect(await tierOf(user.id)).toBe('free');
    await deliver('invoice.paid', stub.invoices.get(renewal) ?? {});
    expect(await tierOf(user.id)).toBe('free');

    const cancels = () =>
      stub.requests.filter((r) => r.method === 'DELETE' && r.path === `/v1/subscriptions/${subscriptionId}`);
    expect(cancels()).toHaveLength(0);
    const lost = await deliver('charge.dispute.closed', stub.closeDispute(disputeId, 'lost'));
    expect(lost.body.processed).toBe(true);
    expect(cancels()).toHaveLength(1);
    expect(stub.subscriptions.get(subscriptionId)?.status).toBe('canceled');
    // lost for good: a later report of the subscription gives nothing back, a replay cancels nothing more
    await deliver('customer.subscription.deleted', stub.subscriptions.get(subscriptionId) ?? {});
    await deliver('charge.dispute.closed', stub.disputes.get(disputeId) ?? {});
    expect(await tierOf(user.id)).toBe('free');
    expect(cancels()).toHaveLength(1);
    expect(await subscription(user)).toMatchObject({ tier: 'free', status: 'expired', renews: false });
  });

  it('a Checkout subscription whose dispute is won is Premium again, and its renewals apply as before', async () => {
    const { user, subscriptionId, plan, disputeId } = await disputedCheckoutSubscription();
    await deliver('customer.subscription.updated', stub.subscriptions.get(subscriptionId) ?? {});
    expect(await tierOf(user.id)).toBe('free');

    await deliver('charge.dispute.closed', stub.closeDispute(disputeId, 'won'));
    expect(await tierOf(user.id)).toBe('premium');
    const renewal = stub.renew(subscriptionId, plan.price);
    await deliver('invoice.paid', stub.invoices.get(renewal) ?? {});
    expect(await tierOf(user.id)).toBe('premium');
    const [row] = await sql<
      { end: Date }[]
    >`select subscription_end_date as end from public.profiles where id = ${user.id}`;
    expect(row?.end.getTime()).toBe(
      Number(
        (stub.subscriptions.get(subscriptionId)?.items as { data: { current_period_end: number }[] }).data[0]
          ?.current_period_end,
      ) * 1000,
    );
    expect(stub.subscriptions.get(subscriptionId)?.status).toBe('active');
  });
});

describe('large events (issue 21, finding 12)', () => {
  it('a signed event of about 200 KB is processed; one over the 1 MB bound is refused with 413', async () => {
    const { user, session, subscriptionId } = await subscribed();
    // Stripe's events carry the whole object: a subscription with many items and long metadata
    const large = {
      ...(stub.subscriptions.get(subscriptionId) ?? {}),
      description: 'x'.repeat(200 * 1024),
    };
    const event = stub.event('checkout.session.completed', { ...session, large });
    expect(JSON.stringify(event).length).toBeGreaterThan(200 * 1024);
    const res = await stub.deliver(webhookUrl, event);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true, processed: true });
    expect((await subscription(user)).tier).toBe('premium');

    const hostile = stub.event('invoice.paid', { id: 'in_hostile', padding: 'x'.repeat(1100 * 1024) });
    const refused = await stub.deliver(webhookUrl, hostile);
    expect(refused.status).toBe(413);
    const [row] = await sql<{ n: number }[]>`
      select count(*)::int as n from private.stripe_events where id = ${hostile.id as string}`;
    expect(row?.n).toBe(0);
  });
});

// Issue 21, finding 5: these run after the statement test above, whose month's job they must not
// run first (each calls /internal/jobs).
describe('one charge per commission debt, and money that finds nothing owed goes back', () => {
  async function runJobs() {
    const res = await fetch(`${stack.apiUrl}/internal/jobs`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${stack.cronSecret}` },
    });
    expect(res.status).toBe(200);
  }

  const commissionIntentsOf = (userId: string) =>
    [...stub.paymentIntents.values()].filter((pi) => {
      const metadata = pi.metadata as { userId?: string; purpose?: string };
      return metadata.userId === userId && metadata.purpose === 'commission';
    });

  it('five concurrent pay-commission calls charge the saved card once', async () => {
    const { user, session } = await subscribed();
    await deliver('checkout.session.completed', session);
    await sql`update public.profiles set commission_owed = 1500 where id = ${user.id}`;

    const calls = await Promise.all(
      Array.from({ length: 5 }, () => api.post<PaymentIntentResponse>('/stripe/pay-commission', undefined, auth(user))),
    );
    // each call answers the one charge, or (once it is applied) that nothing is owed
    for (const res of calls) expect([200, 400], JSON.stringify(res.body)).toContain(res.status);
    expect(calls.some((res) => res.status === 200)).toBe(true);
    const charges = commissionIntentsOf(user.id);
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({ amount: 1500, status: 'succeeded', payment_method: 'pm_card_visa' });
    const keys = stub.requests
      .filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents' && r.body.customer === session.customer)
      .map((r) => r.idempotencyKey);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(new RegExp(`^commission:${user.id}:0:1500$`));
    expect(await ledger(user.id)).toEqual({ owed: 0, paid: 1500 });
    const payments = await sql`select id, status, amount, applied from private.payments
                                where user_id = ${user.id} and purpose = 'commission'`;
    expect(payments).toEqual([{ id: charges[0]?.id, status: 'succeeded', amount: 1500, applied: 1500 }]);
  });

  it('a card payment completing after an admin recorded the debt as paid is refunded, recorded and told', async () => {
    const admin = await traveller();
    await sql`update public.profiles set is_admin = true where id = ${admin.id}`;
    const user = await traveller(); // no saved card: the card form
    await sql`update public.profiles set commission_owed = 1800, total_credits_earned = 7200 where id = ${user.id}`;

    const started = await api.post<PaymentIntentResponse>('/stripe/pay-commission', undefined, auth(user));
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body).toMatchObject({ status: 'requires_payment_method', amount: 1800 });
    const intentId = started.body.paymentIntentId;
    // the card completes at Stripe while the admin records the same debt as paid by transfer
    stub.payIntent(intentId);
    const recorded = await api.post('/stripe/pay-commission', { userId: user.id, amount: 1800 }, auth(admin));
    expect(recorded.status, JSON.stringify(recorded.body)).toBe(200);
    await deliver('payment_intent.succeeded', stub.paymentIntents.get(intentId) ?? {});
    // charged, applied as 0: the debt was already paid
    expect(await ledger(user.id)).toEqual({ owed: 0, paid: 1800 });

    await runJobs();
    await runJobs(); // a second run refunds nothing more
    const refunds = [...stub.refunds.values()].filter((r) => r.payment_intent === intentId);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ amount: 1800, status: 'succeeded' });
    const [payment] = await sql`select status, amount, applied, unapplied_refunded, unapplied_refund_id
                                  from private.payments where id = ${intentId}`;
    expect(payment).toEqual({
      status: 'succeeded',
      amount: 1800,
      applied: 0,
      unapplied_refunded: 1800,
      unapplied_refund_id: refunds[0]?.id,
    });
    const rows = await billingRows(user.id);
    expect(rows).toEqual(
      expect.arrayContaining([
        { type: 'refund', amount: 1800, status: 'completed', payment_reference: refunds[0]?.id },
      ]),
    );
    // the ledger never counted the refunded money
    expect(await ledger(user.id)).toEqual({ owed: 0, paid: 1800 });
    const [told] = await notificationEmails(sql, user.id, 'payment_refunded');
    expect(told?.data).toMatchObject({ amount: 1800, applied: 0 });
    expect(told?.text).toContain('$18.00 has been refunded to your card');
    const [alert] = await notificationEmails(sql, admin.id, 'admin_alert');
    expect(alert?.data).toMatchObject({ userId: user.id, paymentId: intentId, amount: 1800 });
  });

  it('a refund Stripe refuses alerts the admins once, and on its last attempt holds the money and tells the traveller', async () => {
    const admin = await traveller();
    await sql`update public.profiles set is_admin = true where id = ${admin.id}`;
    const user = await traveller();
    await sql`update public.profiles set commission_owed = 1200, total_credits_earned = 4800 where id = ${user.id}`;
    const started = await api.post<PaymentIntentResponse>('/stripe/pay-commission', undefined, auth(user));
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const intentId = started.body.paymentIntentId;
    stub.payIntent(intentId);
    const recorded = await api.post('/stripe/pay-commission', { userId: user.id, amount: 1200 }, auth(admin));
    expect(recorded.status, JSON.stringify(recorded.body)).toBe(200);
    stub.refuseRefunds(intentId);
    await deliver('payment_intent.succeeded', stub.paymentIntents.get(intentId) ?? {});

    const job = async () => {
      const [row] = await sql<{ id: number; status: string; attempts: number; max_attempts: number }[]>`
        select id::int, status, attempts, max_attempts from public.jobs where dedupe_key = ${`commission_refund:${intentId}`}`;
      if (!row) throw new Error('no commission_refund job');
      return row;
    };
    const alerts = () => notificationEmails(sql, admin.id, 'admin_alert', { paymentId: intentId });
    const held = async () => {
      const [row] = await sql<{ held: boolean; refunded: number }[]>`
        select unapplied_held_at is not null as held, unapplied_refunded as refunded
          from private.payments where id = ${intentId}`;
      return row;
    };

    await runJobs(); // first attempt: refused
    expect(await job()).toMatchObject({ status: 'queued', attempts: 1 });
    const first = await alerts();
    expect(first).toHaveLength(1);
    expect(first[0]?.data).toMatchObject({ userId: user.id, paymentId: intentId, amount: 1200 });
    expect(first[0]?.text).toContain('$12.00');
    expect(first[0]?.text).toContain(user.username);
    expect(first[0]?.text).toContain('can no longer receive refunds');
    expect(first[0]?.text).toContain('will be retried');
    expect(await held()).toEqual({ held: false, refunded: 0 });

    // the backoff's wait skipped: a second refused attempt alerts nobody again
    await sql`update public.jobs set run_at = now() where id = ${(await job()).id}`;
    await runJobs();
    expect(await job()).toMatchObject({ status: 'queued', attempts: 2 });
    expect(await alerts()).toHaveLength(1);

    // the last attempt (as if the ones between had been refused too): the job dies, the money is held
    const { id, max_attempts } = await job();
    await sql`update public.jobs set run_at = now(), attempts = ${max_attempts - 1} where id = ${id}`;
    await runJobs();
    expect(await job()).toMatchObject({ status: 'dead', attempts: max_attempts });
    expect(await held()).toEqual({ held: true, refunded: 0 });
    const final = await alerts();
    expect(final).toHaveLength(2);
    // the heading the alert's email opens with (the row's title before notifications became type and data)
    expect(final[1]?.text).toContain('Commission refund given up: money held');
    expect(final[1]?.data).toMatchObject({ userId: user.id, paymentId: intentId, amount: 1200 });
    const told = await notificationEmails(sql, user.id, 'refund_held', { paymentId: intentId });
    expect(told).toHaveLength(1);
    expect(told[0]?.text).toContain('We could not refund $12.00');
    expect(told[0]?.data).toMatchObject({ amount: 1200 });
    expect([...stub.refunds.values()].filter((r) => r.payment_intent === intentId)).toEqual([]);
    // the ledger never counted the unapplied money
    expect(await ledger(user.id)).toEqual({ owed: 0, paid: 1200 });
  });
});
