// Issue 21, finding 1: a deployment with neither a Stripe key nor the test-mode opt-in
// (PAYMENTS_TEST_MODE) used to fall back to the local test mode, where a checkout and a confirm
// made any account Premium with no card and the monthly statement marked commission paid. On a
// stack of its own WITHOUT the flag and without a key, every payment call answers 503, the plan
// list still works, and the statement job leaves what is owed owed.
import type postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CurrentSubscriptionResponse,
  PAYMENTS_UNAVAILABLE,
} from '../../supabase/functions/_shared/types/billing.ts';
import type { SubscriptionPlansResponse } from '../../supabase/functions/_shared/types/plans.ts';
import type { Stack } from '../../dev/stack.ts';
import type { ApiClient } from './client.ts';
import { registerUser, type RegisteredUser } from './factories.ts';
import { startOwnStack, type OwnStack } from './own-stack.ts';

let own: OwnStack;
let stack: Stack;
let api: ApiClient;
let sql: postgres.Sql;

beforeAll(async () => {
  // the stack opts in to the test mode; a deployment that did not set up Stripe has neither
  own = await startOwnStack('no-payments', { apiEnv: { PAYMENTS_TEST_MODE: 'false' } });
  ({ stack, api, sql } = own);
});

afterAll(async () => {
  await own?.stop();
});

const auth = (user: RegisteredUser) => ({ token: user.session.access_token });

async function traveller() {
  const user = await registerUser(api);
  await sql`update public.profiles set email_confirmed_at = now() where id = ${user.id}`;
  return user;
}

async function tierOf(userId: string) {
  const [row] = await sql<{ tier: string; owed: number; paid: number }[]>`
    select sp.tier, p.commission_owed as owed, p.commission_paid as paid
      from public.profiles p join public.subscription_plans sp on sp.id = p.plan_id where p.id = ${userId}`;
  return row;
}

describe('payments with neither a Stripe key nor the test mode', () => {
  it('refuses checkout, payment-intent, pay-commission, the test-mode confirm and the webhook with 503; nothing is paid', async () => {
    const plans = await api.get<SubscriptionPlansResponse>('/subscription/plans');
    expect(plans.status).toBe(200);
    const premium = plans.body.plans.find((p) => p.name.toLowerCase() === 'premium');
    expect(premium).toBeDefined();

    const user = await traveller();
    const current = await api.get<CurrentSubscriptionResponse>('/subscription/current', auth(user));
    expect(current.status).toBe(200);
    expect(current.body.subscription.paymentMode).toBe('unavailable');

    // the attack of the issue: a checkout, then the test-mode confirm of what it started
    const checkout = await api.post<{ message: string }>('/stripe/create-checkout-session', undefined, auth(user));
    expect(checkout.status).toBe(503);
    expect(checkout.body).toEqual({ message: PAYMENTS_UNAVAILABLE });
    // a test-mode intent left from before (or guessed): its confirmation is refused too
    const intentId = `pi_test_${user.id.replaceAll('-', '')}`;
    await sql`insert into private.local_payment_intents (id, customer_id, amount, metadata)
              values (${intentId}, 'cus_test', ${premium?.price ?? 2499},
                      ${sql.json({ userId: user.id, purpose: 'subscription', planId: String(premium?.id) })})`;
    await sql`insert into private.payments (id, user_id, purpose, plan_id, amount)
              values (${intentId}, ${user.id}, 'subscription', ${premium?.id ?? 0}, ${premium?.price ?? 2499})`;
    const confirm = await api.post<{ message: string }>(
      '/stripe/test-mode/confirm',
      { paymentIntentId: intentId, outcome: 'succeeded' },
      auth(user),
    );
    expect(confirm.status).toBe(503);
    expect(confirm.body.message).toBe(PAYMENTS_UNAVAILABLE);

    const intent = await api.post<{ message: string }>(
      '/stripe/payment-intent',
      { amount: premium?.price, planId: premium?.id },
      auth(user),
    );
    expect(intent.status).toBe(503);
    expect(intent.body.message).toBe(PAYMENTS_UNAVAILABLE);

    await sql`update public.profiles set commission_owed = 2221 where id = ${user.id}`;
    const commission = await api.post<{ message: string }>('/stripe/pay-commission', undefined, auth(user));
    expect(commission.status).toBe(503);
    expect(commission.body.message).toBe(PAYMENTS_UNAVAILABLE);

    const webhook = await fetch(`${stack.apiUrl}/stripe/webhook`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Stripe-Signature': 't=1,v1=00' },
      body: JSON.stringify({ id: 'evt_1', type: 'payment_intent.succeeded', data: { object: { id: intentId } } }),
    });
    expect(webhook.status).toBe(503);
    expect(await webhook.json()).toEqual({ message: PAYMENTS_UNAVAILABLE });

    expect(await tierOf(user.id)).toEqual({ tier: 'free', owed: 2221, paid: 0 });
    const [payment] = await sql<{ status: string }[]>`select status from private.payments where id = ${intentId}`;
    expect(payment?.status).toBe('pending');
    const payments = await sql`select 1 from private.payments where user_id = ${user.id} and id <> ${intentId}`;
    expect(payments).toHaveLength(0);
    const rows = await sql`select 1 from public.billing_transactions where user_id = ${user.id}`;
    expect(rows).toHaveLength(0);
  });

  it('the monthly statement job marks nothing paid: the statement stays pending and the commission owed', async () => {
    const user = await traveller();
    // a card saved while the server ran in test mode: nothing may charge it now
    await sql`update public.profiles set commission_owed = 2221 where id = ${user.id}`;
    await sql`insert into private.billing_accounts (user_id, customer_id, payment_method_id)
              values (${user.id}, ${`cus_test_${user.id.replaceAll('-', '')}`}, 'pm_test_card')`;
    const run = async () => {
      const res = await fetch(`${stack.apiUrl}/internal/jobs`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${stack.cronSecret}` },
      });
      expect(res.status).toBe(200);
    };
    await run();
    await run();
    const [job] = await sql<{ status: string }[]>`
      select status from public.jobs where kind = 'commission_statements' order by id desc limit 1`;
    expect(job?.status).toBe('done');
    const statements = await sql<{ amount: number; status: string; payment_reference: string | null }[]>`
      select amount, status, payment_reference from public.billing_transactions
       where user_id = ${user.id} and billing_period_start is not null`;
    expect(statements).toEqual([{ amount: 2221, status: 'pending', payment_reference: null }]);
    expect(await tierOf(user.id)).toEqual({ tier: 'free', owed: 2221, paid: 0 });
    expect(await sql`select 1 from private.payments where user_id = ${user.id}`).toHaveLength(0);
    const [notice] = await sql<{ data: Record<string, unknown> }[]>`
      select data from public.notification_history where user_id = ${user.id} and type = 'commission_statement'`;
    expect(notice?.data).toMatchObject({ commissionDue: 2221, charged: false });
  });
});
