// The billing calls on the local stack, which has no Stripe key: payments run in the local test
// mode, completed by POST /api/stripe/test-mode/confirm, writing what a real payment writes.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  type BillingHistoryResponse,
  type CheckoutSessionResponse,
  type CommissionSummaryResponse,
  type CurrentSubscriptionResponse,
  type PaymentIntentResponse,
  TEST_MODE_NOTICE,
  type TestModeConfirmResponse,
  type UpdateSubscriptionResponse,
} from '../../supabase/functions/_shared/types/billing.ts';
import type { SubscriptionPlansResponse } from '../../supabase/functions/_shared/types/plans.ts';
import { apiClient, databaseClient } from './client.ts';
import { putOnPremium, registerUser, type RegisteredUser } from './factories.ts';

const api = apiClient();
const sql = databaseClient();
const auth = (user: RegisteredUser) => ({ token: user.session.access_token });

async function premiumPlan() {
  const res = await api.get<SubscriptionPlansResponse>('/subscription/plans');
  const plan = res.body.plans.find((p) => p.name.toLowerCase() === 'premium');
  if (!plan) throw new Error('no premium plan');
  return plan;
}

async function subscription(user: RegisteredUser) {
  const res = await api.get<CurrentSubscriptionResponse>('/subscription/current', auth(user));
  expect(res.status).toBe(200);
  return res.body.subscription;
}

async function history(user: RegisteredUser, query = '') {
  const res = await api.get<BillingHistoryResponse>(`/billing/history${query}`, auth(user));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

async function ledger(userId: string) {
  const [row] = await sql<{ owed: number; paid: number }[]>`
    select commission_owed as owed, commission_paid as paid from public.profiles where id = ${userId}`;
  return row;
}

/** Mail goes only to confirmed addresses (the outbox's rule). */
async function confirmedUser() {
  const user = await registerUser(api);
  await sql`update public.profiles set email_confirmed_at = now() where id = ${user.id}`;
  return user;
}

async function notifications(userId: string, type: string) {
  return sql<{ data: Record<string, unknown> }[]>`
    select data from public.notification_history where user_id = ${userId} and type = ${type}`;
}

/** Commission recorded for the traveller as a rebooking records it (pending row, owed). */
async function owe(userId: string, commission: number, credit: number) {
  await sql`update public.profiles set commission_owed = commission_owed + ${commission},
              total_credits_earned = total_credits_earned + ${credit} where id = ${userId}`;
  await sql`insert into public.billing_transactions (user_id, amount, status, type, description, credits_earned_in_period)
            values (${userId}, ${commission}, 'pending', 'commission', 'commission on a rebooking', ${credit})`;
}

async function watchFlights(userId: string, n: number) {
  for (let i = 0; i < n; i += 1) {
    const code = `BL${randomBytes(3).toString('hex').toUpperCase()}`;
    await sql`
      insert into public.flights (user_id, airline, flight_number, booking_code, passenger_last_name,
                                  departure_airport, arrival_airport, departure_date, original_price,
                                  fare_type, is_eligible_for_rebooking, rebooking_method)
      values (${userId}, 'United Airlines', ${`UA${100 + i}`}, ${code}, 'Smith', 'ORD', 'SFO',
              current_date + 45, 40000, 'Flexible Economy', true, 'source')`;
  }
}

async function upgrade(user: RegisteredUser) {
  const plan = await premiumPlan();
  const started = await api.post<PaymentIntentResponse>(
    '/stripe/payment-intent',
    { amount: plan.price, planId: plan.id },
    auth(user),
  );
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const done = await api.post<TestModeConfirmResponse>(
    '/stripe/test-mode/confirm',
    { paymentIntentId: started.body.paymentIntentId, outcome: 'succeeded' },
    auth(user),
  );
  expect(done.status).toBe(200);
  return started.body;
}

describe('GET /api/subscription/current', () => {
  it('answers a new traveller: free plan, no paid subscription, local test mode', async () => {
    const user = await registerUser(api);
    const sub = await subscription(user);
    expect(sub).toMatchObject({
      tier: 'free',
      status: 'none',
      startDate: null,
      endDate: null,
      renews: false,
      hasSavedCard: false,
      paymentMode: 'test',
    });
    expect(sub.plan).toMatchObject({ name: 'Free', flightLimit: 5, commissionRate: 0 });
  });

  it('needs a session', async () => {
    for (const [method, path] of [
      ['GET', '/subscription/current'],
      ['POST', '/subscription/update'],
      ['POST', '/stripe/payment-intent'],
      ['POST', '/stripe/create-checkout-session'],
      ['POST', '/stripe/pay-commission'],
      ['GET', '/billing/commission'],
      ['GET', '/billing/history'],
    ] as const) {
      const res = await api.request(method, path, method === 'POST' ? {} : undefined);
      expect(res.status, path).toBe(401);
    }
  });
});

describe('upgrading: POST /api/stripe/payment-intent and the test-mode confirmation', () => {
  it('refuses an amount that is not the plan price, an unknown plan and a free plan, writing nothing', async () => {
    const user = await registerUser(api);
    const plan = await premiumPlan();
    const free = (await api.get<SubscriptionPlansResponse>('/subscription/plans')).body.plans.find(
      (p) => p.name === 'Free',
    );
    const cases: [unknown, number, string][] = [
      [{ amount: 1, planId: plan.id }, 400, 'Amount does not match the plan price'],
      [{ amount: plan.price, planId: 987654321 }, 404, 'Plan not found'],
      [{ amount: 100, planId: free?.id }, 400, 'This plan has no price to pay.'],
      [{ amount: -5, planId: plan.id }, 400, 'Amount must be above 0'],
      [{ planId: plan.id }, 400, 'Amount must be a number of cents'],
    ];
    for (const [body, status, message] of cases) {
      const res = await api.post<{ message: string }>('/stripe/payment-intent', body, auth(user));
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.message).toContain(message);
    }
    expect((await history(user)).total).toBe(0);
    expect((await subscription(user)).tier).toBe('free');
  });

  it('a failed test payment leaves the traveller free, records the failure and tells them; a retry succeeds', async () => {
    const user = await confirmedUser();
    const plan = await premiumPlan();
    const started = await api.post<PaymentIntentResponse>(
      '/stripe/payment-intent',
      { amount: plan.price, planId: plan.id },
      auth(user),
    );
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({
      success: true,
      clientSecret: null,
      status: 'requires_payment_method',
      amount: plan.price,
      paymentMode: 'test',
    });
    expect(started.body.message).toContain(TEST_MODE_NOTICE);
    expect(started.body.paymentIntentId).toMatch(/^pi_test_/);
    expect((await history(user)).transactions).toMatchObject([
      { type: 'subscription', status: 'pending', amount: plan.price },
    ]);

    const failed = await api.post<TestModeConfirmResponse>(
      '/stripe/test-mode/confirm',
      { paymentIntentId: started.body.paymentIntentId, outcome: 'failed' },
      auth(user),
    );
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({ success: false, status: 'requires_payment_method' });
    expect(failed.body.message).toContain('Your card was declined.');
    expect((await subscription(user)).tier).toBe('free');
    expect((await history(user)).transactions).toMatchObject([{ type: 'subscription', status: 'failed' }]);
    const told = await notifications(user.id, 'payment_failed');
    expect(told).toHaveLength(1);
    expect(told[0]?.data).toMatchObject({ amount: plan.price });

    // the same card form may be submitted again
    const retried = await api.post<TestModeConfirmResponse>(
      '/stripe/test-mode/confirm',
      { paymentIntentId: started.body.paymentIntentId, outcome: 'succeeded' },
      auth(user),
    );
    expect(retried.body).toMatchObject({ success: true, status: 'succeeded' });
    expect(retried.body.message).toBe('Payment Successful - Your subscription has been updated!');
    const sub = await subscription(user);
    // a year paid by card renews at its end, at the plan row's price (issue 25)
    expect(sub).toMatchObject({ tier: 'premium', status: 'active', renews: true, hasSavedCard: true });
    expect(sub.renewal).toEqual({ date: sub.endDate, amount: plan.price });
    expect(sub.scheduledChange).toBeNull();
    expect(sub.paymentIssue).toBeNull();
    expect(sub.plan.name).toBe('Premium');
    const end = new Date(sub.endDate ?? 0).getTime() - new Date(sub.startDate ?? 0).getTime();
    expect(Math.round(end / 86_400_000)).toBeGreaterThanOrEqual(365);
    expect((await history(user)).transactions).toMatchObject([{ type: 'subscription', status: 'completed' }]);

    const again = await api.post<{ message: string }>(
      '/stripe/test-mode/confirm',
      { paymentIntentId: started.body.paymentIntentId, outcome: 'succeeded' },
      auth(user),
    );
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('This payment is already complete.');
    expect((await history(user)).total).toBe(1);
  });

  it("refuses to confirm someone else's payment, and a premium traveller cannot pay again", async () => {
    const owner = await registerUser(api);
    const other = await registerUser(api);
    const plan = await premiumPlan();
    const started = await api.post<PaymentIntentResponse>(
      '/stripe/payment-intent',
      { amount: plan.price, planId: plan.id },
      auth(owner),
    );
    const stolen = await api.post<{ message: string }>(
      '/stripe/test-mode/confirm',
      { paymentIntentId: started.body.paymentIntentId, outcome: 'succeeded' },
      auth(other),
    );
    expect(stolen.status).toBe(404);
    expect(stolen.body.message).toBe('Payment not found');
    expect((await subscription(owner)).tier).toBe('free');
    expect((await subscription(other)).tier).toBe('free');

    await putOnPremium(sql, other.id);
    for (const path of ['/stripe/payment-intent', '/stripe/create-checkout-session']) {
      const res = await api.post<{ message: string }>(path, { amount: plan.price, planId: plan.id }, auth(other));
      expect(res.status, path).toBe(path.endsWith('intent') ? 409 : 400);
    }
    const checkout = await api.post<{ message: string }>('/stripe/create-checkout-session', undefined, auth(other));
    expect(checkout.status).toBe(409);
    expect(checkout.body.message).toBe('Already Subscribed - You are already a premium subscriber.');
  });

  it('checkout in test mode answers the app page that confirms the payment', async () => {
    const user = await registerUser(api);
    const res = await api.post<CheckoutSessionResponse>('/stripe/create-checkout-session', undefined, auth(user));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.paymentMode).toBe('test');
    expect(res.body.url).toContain(`/premium-checkout?test_payment=${res.body.paymentIntentId}`);
    const done = await api.post<TestModeConfirmResponse>(
      '/stripe/test-mode/confirm',
      { paymentIntentId: res.body.paymentIntentId, outcome: 'succeeded' },
      auth(user),
    );
    expect(done.body.success).toBe(true);
    expect((await subscription(user)).tier).toBe('premium');
  });
});

describe('downgrading: POST /api/subscription/update', () => {
  it('refuses an upgrade, bad input, and a traveller already free', async () => {
    const user = await registerUser(api);
    const premium = await api.post<{ message: string }>('/subscription/update', { tier: 'premium' }, auth(user));
    expect(premium.status).toBe(400);
    expect(premium.body.message).toBe('Upgrading is a payment: use checkout to upgrade to Premium.');
    const bad = await api.post<{ message: string }>('/subscription/update', { tier: 'gold' }, auth(user));
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('Tier must be free or premium');
    const free = await api.post<{ message: string }>('/subscription/update', { tier: 'free' }, auth(user));
    expect(free.status).toBe(409);
    expect(free.body.message).toBe('You are already on the Free plan.');
  });

  it('with too many flights: free plan now, auto-rebooking off, says how many to remove, deletes nothing', async () => {
    const user = await registerUser(api);
    await upgrade(user);
    await sql`update public.profiles set auto_rebooking = true where id = ${user.id}`;
    await watchFlights(user.id, 7);
    const res = await api.post<UpdateSubscriptionResponse>('/subscription/update', { tier: 'free' }, auth(user));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ success: true, flightsOverLimit: 2, flightLimit: 5 });
    expect(res.body.message).toMatch(
      /^Your subscription has been downgraded\. Auto-rebooking has been disabled\. Premium ended today, before the paid year's end on [A-Z][a-z]{2} \d{1,2}, \d{4}; nothing is refunded and it will not renew\. You are watching 7 flights and the Free plan monitors up to 5: remove 2 to add new flights\. No flight has been deleted\.$/,
    );
    expect(res.body.paidThrough).not.toBeNull();
    expect(res.body.subscription).toMatchObject({ tier: 'free', status: 'canceled', renews: false });
    const [row] = await sql<{ auto_rebooking: boolean; flights: number }[]>`
      select auto_rebooking, (select count(*)::int from public.flights where user_id = ${user.id}) as flights
        from public.profiles where id = ${user.id}`;
    expect(row).toEqual({ auto_rebooking: false, flights: 7 });
  });
});

describe('commission: GET /api/billing/commission, POST /api/stripe/pay-commission', () => {
  it('nothing owed: a clear refusal and no payment', async () => {
    const user = await registerUser(api);
    const summary = await api.get<CommissionSummaryResponse>('/billing/commission', auth(user));
    expect(summary.body).toEqual({ commissionSummary: { commissionOwed: 0, totalCreditsEarned: 0 } });
    const res = await api.post<{ message: string }>('/stripe/pay-commission', undefined, auth(user));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("You don't have any commission payments due at this time.");
    expect((await history(user)).total).toBe(0);
  });

  it('five concurrent pay-commission calls for one debt are one payment (issue 21, finding 5)', async () => {
    const user = await confirmedUser();
    await putOnPremium(sql, user.id);
    await owe(user.id, 1700, 6800);
    const calls = await Promise.all(
      Array.from({ length: 5 }, () => api.post<PaymentIntentResponse>('/stripe/pay-commission', undefined, auth(user))),
    );
    for (const res of calls) expect(res.status, JSON.stringify(res.body)).toBe(200);
    // the same debt, the same payment: one intent, one row (before: five, four of them given up)
    expect(new Set(calls.map((res) => res.body.paymentIntentId)).size).toBe(1);
    const payments = await sql`select id, status, amount from private.payments where user_id = ${user.id}`;
    expect(payments).toEqual([{ id: calls[0]?.body.paymentIntentId, status: 'pending', amount: 1700 }]);
    const [intents] = await sql<{ n: number }[]>`
      select count(*)::int as n from private.local_payment_intents where metadata ->> 'userId' = ${user.id}`;
    expect(intents?.n).toBe(1);
    const paid = await api.post<TestModeConfirmResponse>(
      '/stripe/test-mode/confirm',
      { paymentIntentId: calls[0]?.body.paymentIntentId, outcome: 'succeeded' },
      auth(user),
    );
    expect(paid.body.success).toBe(true);
    expect(await ledger(user.id)).toEqual({ owed: 0, paid: 1700 });
  });

  it('a failed payment leaves it owed and tells the traveller; paying again settles it', async () => {
    const user = await confirmedUser();
    await putOnPremium(sql, user.id);
    await owe(user.id, 2500, 10000);
    const summary = await api.get<CommissionSummaryResponse>('/billing/commission', auth(user));
    expect(summary.body.commissionSummary).toEqual({ commissionOwed: 2500, totalCreditsEarned: 10000 });

    const first = await api.post<PaymentIntentResponse>('/stripe/pay-commission', undefined, auth(user));
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ amount: 2500, paymentMode: 'test', clientSecret: null });
    const failed = await api.post<TestModeConfirmResponse>(
      '/stripe/test-mode/confirm',
      { paymentIntentId: first.body.paymentIntentId, outcome: 'failed' },
      auth(user),
    );
    expect(failed.body.success).toBe(false);
    expect(await ledger(user.id)).toEqual({ owed: 2500, paid: 0 });
    expect((await notifications(user.id, 'payment_failed'))[0]?.data).toMatchObject({ amount: 2500 });

    const second = await api.post<PaymentIntentResponse>('/stripe/pay-commission', undefined, auth(user));
    expect(second.status).toBe(200);
    expect(second.body.paymentIntentId).not.toBe(first.body.paymentIntentId);
    const paid = await api.post<TestModeConfirmResponse>(
      '/stripe/test-mode/confirm',
      { paymentIntentId: second.body.paymentIntentId, outcome: 'succeeded' },
      auth(user),
    );
    expect(paid.body).toMatchObject({ success: true, message: 'Payment Processed' });
    expect(await ledger(user.id)).toEqual({ owed: 0, paid: 2500 });
    const rows = (await history(user)).transactions;
    expect(rows.map((r) => [r.type, r.amount, r.status])).toEqual(
      expect.arrayContaining([
        ['commission', 2500, 'completed'], // the payment
        ['commission', 2500, 'failed'], // the failed attempt
      ]),
    );
    // the rebooking's pending commission is settled by the payment
    expect(rows.filter((r) => r.status === 'pending')).toEqual([]);
    const again = await api.post<{ message: string }>('/stripe/pay-commission', undefined, auth(user));
    expect(again.status).toBe(400);
  });
});

describe('GET /api/billing/history', () => {
  it('pages newest first with the shared convention and refuses a bad query', async () => {
    const user = await registerUser(api);
    for (const [amount, daysAgo] of [
      [100, 3],
      [200, 1],
      [300, 2],
    ] as const) {
      await sql`insert into public.billing_transactions (user_id, amount, status, type, transaction_date)
                values (${user.id}, ${amount}, 'completed', 'subscription', now() - ${`${daysAgo} days`}::interval)`;
    }
    const first = await history(user, '?pageSize=2');
    expect(first).toMatchObject({ total: 3, page: 1, pageSize: 2 });
    expect(first.transactions.map((t) => t.amount)).toEqual([200, 300]);
    expect(first.transactions[0]).toEqual({
      id: expect.any(Number),
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      type: 'subscription',
      amount: 200,
      status: 'completed',
      description: null,
      billingPeriodStart: null,
      billingPeriodEnd: null,
    });
    expect((await history(user, '?pageSize=2&page=2')).transactions.map((t) => t.amount)).toEqual([100]);
    const bad = await api.get<{ message: string }>('/billing/history?sort=secret', auth(user));
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('Sort must be one of: date, amount, type, status');
    // another traveller sees none of it
    expect((await history(await registerUser(api))).total).toBe(0);
  });
});

describe('POST /api/stripe/webhook in test mode', () => {
  it('is refused: no Stripe is configured', async () => {
    const res = await api.post<{ message: string }>('/stripe/webhook', { id: 'evt_1', type: 'invoice.paid' });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('local test mode');
  });
});
