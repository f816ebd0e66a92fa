// Issue 21, finding 2: a paid year never ended (nothing read subscription_end_date). A traveller
// pays a year (the test mode), turns its renewal off (issue 25: a year paid by card renews),
// turns automatic rebooking on and watches 7 flights; their end date
// moved 35 days into the past, the daily pass (the job runner's `subscription_expiry` kind, run
// by POST /api/internal/jobs) moves them to the Free plan: auto-rebooking off, the 2 newest
// flights kept but no longer watched (the free limit is 5), one notification; a second pass
// changes nothing. A subscription Stripe renews is left to Stripe. On a stack of its own: the
// job run is every kind's recurring work.
import { randomBytes } from 'node:crypto';
import type postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ChangeCardResponse,
  CheckoutSessionResponse,
  CurrentSubscriptionResponse,
  TestModeConfirmResponse,
  UpdateSubscriptionResponse,
} from '../../supabase/functions/_shared/types/billing.ts';
import type { Stack } from '../../dev/stack.ts';
import type { ApiClient } from './client.ts';
import { putOnPremium, registerUser, type RegisteredUser } from './factories.ts';
import { notificationEmails } from './notification-emails.ts';
import { startOwnStack, type OwnStack } from './own-stack.ts';

let own: OwnStack;
let stack: Stack;
let api: ApiClient;
let sql: postgres.Sql;

beforeAll(async () => {
  own = await startOwnStack('expiry');
  ({ stack, api, sql } = own);
});

afterAll(async () => {
  await own?.stop();
});

const auth = (user: RegisteredUser) => ({ token: user.session.access_token });

async function runJobs() {
  const res = await fetch(`${stack.apiUrl}/internal/jobs`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${stack.cronSecret}` },
  });
  expect(res.status).toBe(200);
}

/** A year paid through the checkout (the local test mode). */
async function payYear(user: RegisteredUser) {
  const checkout = await api.post<CheckoutSessionResponse>('/stripe/create-checkout-session', undefined, auth(user));
  expect(checkout.status, JSON.stringify(checkout.body)).toBe(200);
  const paid = await api.post<TestModeConfirmResponse>(
    '/stripe/test-mode/confirm',
    { paymentIntentId: checkout.body.paymentIntentId, outcome: 'succeeded' },
    auth(user),
  );
  expect(paid.body.success, JSON.stringify(paid.body)).toBe(true);
}

/** Downgrade at the end of the paid year: renewal off, Premium kept until the end date. */
async function turnRenewalOff(user: RegisteredUser) {
  const res = await api.post<UpdateSubscriptionResponse>(
    '/subscription/update',
    { tier: 'free', at: 'period_end' },
    auth(user),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.subscription).toMatchObject({ tier: 'premium', renews: false, renewal: null });
  expect(res.body.subscription.scheduledChange).toEqual({ tier: 'free', at: res.body.subscription.endDate });
}

async function watchFlights(userId: string, n: number) {
  for (let i = 0; i < n; i += 1) {
    await sql`
      insert into public.flights (user_id, airline, flight_number, booking_code, passenger_last_name,
                                  departure_airport, arrival_airport, departure_date, original_price,
                                  fare_type, is_eligible_for_rebooking, rebooking_method, created_at)
      values (${userId}, 'United Airlines', ${`UA${100 + i}`}, ${`EX${randomBytes(3).toString('hex').toUpperCase()}`},
              'Smith', 'ORD', 'SFO', current_date + 45, 40000, 'Flexible Economy', true, 'source',
              now() - make_interval(days => ${n - i}))`;
  }
}

async function state(userId: string) {
  const [row] = await sql<{ tier: string; autoRebooking: boolean; flights: number; watched: number[] }[]>`
    select sp.tier, p.auto_rebooking as "autoRebooking",
           (select count(*)::int from public.flights f where f.user_id = p.id) as flights,
           (select coalesce(array_agg(f.flight_number order by f.created_at), '{}') from public.flights f
             where f.user_id = p.id and not f.over_limit) as watched
      from public.profiles p join public.subscription_plans sp on sp.id = p.plan_id where p.id = ${userId}`;
  return row;
}

async function expiredNotices(userId: string) {
  return notificationEmails(sql, userId, 'subscription_expired');
}

describe('the daily expiry pass', () => {
  it('moves an expired, non-renewing traveller to Free once; a Stripe-renewing one is left to Stripe', async () => {
    const user = await registerUser(api);
    await sql`update public.profiles set email_confirmed_at = now() where id = ${user.id}`;
    await payYear(user);
    await turnRenewalOff(user);
    expect((await api.post('/auto-rebooking/toggle', { enabled: true }, auth(user))).status).toBe(200);
    await watchFlights(user.id, 7);

    // a traveller whose subscription Stripe renews: its end is Stripe's to report
    const renewing = await registerUser(api);
    await putOnPremium(sql, renewing.id);
    await sql`insert into private.billing_accounts (user_id, customer_id, subscription_id, subscription_status, renews)
              values (${renewing.id}, ${`cus_${renewing.id}`}, ${`sub_${renewing.id}`}, 'active', true)`;

    for (const id of [user.id, renewing.id]) {
      await sql`update public.profiles set subscription_start_date = now() - interval '400 days',
                  subscription_end_date = now() - interval '35 days' where id = ${id}`;
    }
    expect(await state(user.id)).toMatchObject({ tier: 'premium', autoRebooking: true, flights: 7 });

    await runJobs();
    const after = await state(user.id);
    expect(after).toEqual({
      tier: 'free',
      autoRebooking: false,
      flights: 7, // nothing deleted
      watched: ['UA100', 'UA101', 'UA102', 'UA103', 'UA104'], // the free limit, the oldest kept watched
    });
    const notices = await expiredNotices(user.id);
    expect(notices).toHaveLength(1);
    expect(notices[0]?.data).toMatchObject({ flightLimit: 5, unwatched: 2 });
    expect(notices[0]?.text).toMatch(/You are now on the Free plan/);
    const current = await api.get<CurrentSubscriptionResponse>('/subscription/current', auth(user));
    expect(current.body.subscription).toMatchObject({ tier: 'free', status: 'expired', renews: false });
    expect((await state(renewing.id))?.tier).toBe('premium');
    expect(await expiredNotices(renewing.id)).toHaveLength(0);

    // the next day's pass (its job is a new one): nothing changes, nothing is sent again
    await sql`delete from public.jobs where kind = 'subscription_expiry'`;
    await runJobs();
    const [job] = await sql<{ status: string; result: { expired: number } }[]>`
      select status, result from public.jobs where kind = 'subscription_expiry'`;
    expect(job).toMatchObject({ status: 'done', result: { expired: 0 } });
    expect(await state(user.id)).toEqual(after);
    expect(await expiredNotices(user.id)).toHaveLength(1);
  });

  it('a traveller who pays again after the expiry has every flight watched again (issue 21, finding 2)', async () => {
    const user = await registerUser(api);
    await sql`update public.profiles set email_confirmed_at = now() where id = ${user.id}`;
    await payYear(user);
    await turnRenewalOff(user);
    await watchFlights(user.id, 7);
    await sql`update public.profiles set subscription_start_date = now() - interval '400 days',
                subscription_end_date = now() - interval '35 days' where id = ${user.id}`;
    await sql`delete from public.jobs where kind = 'subscription_expiry'`;
    await runJobs();
    expect(await state(user.id)).toMatchObject({
      tier: 'free',
      flights: 7,
      watched: ['UA100', 'UA101', 'UA102', 'UA103', 'UA104'],
    });

    // Premium again: the 2 flights kept over the free limit are watched again
    await payYear(user);
    expect(await state(user.id)).toMatchObject({
      tier: 'premium',
      flights: 7,
      watched: ['UA100', 'UA101', 'UA102', 'UA103', 'UA104', 'UA105', 'UA106'],
    });
    const [watched] = await sql<{ n: number }[]>`
      select count(*)::int as n from public.flights f where f.user_id = ${user.id} and private.flight_is_watched(f)`;
    expect(watched?.n).toBe(7);
  });
});

// Issue 25: a year paid by card renews (FareBack charges the saved card on its end date, the plan
// row's price); a failed renewal keeps Premium, is retried 1, 3 and 7 days after the first failure
// and then lapses to Free; a card change pays it; a downgrade is now or at the end of the paid year;
// reminders go 30 and 7 days before. Time moves by moving the stored dates, never by waiting.
describe('the renewing year (issue 25)', () => {
  async function current(user: RegisteredUser) {
    const res = await api.get<CurrentSubscriptionResponse>('/subscription/current', auth(user));
    expect(res.status).toBe(200);
    return res.body.subscription;
  }

  /** The paid year ends `ago` from now (an interval), as if a year had passed. */
  async function yearEnds(userId: string, when: string) {
    await sql`update public.profiles set subscription_start_date = now() + ${when}::interval - interval '1 year',
                subscription_end_date = now() + ${when}::interval where id = ${userId}`;
  }

  async function payingTraveller() {
    const user = await registerUser(api);
    await sql`update public.profiles set email_confirmed_at = now() where id = ${user.id}`;
    await payYear(user);
    return user;
  }

  async function saveTestCard(user: RegisteredUser, testCard: 'valid' | 'declining') {
    const res = await api.post<ChangeCardResponse>('/billing/card', { testCard }, auth(user));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ url: null, paymentMode: 'test' });
    return res.body;
  }

  async function subscriptionRows(userId: string) {
    return await sql<{ status: string; amount: number }[]>`
      select status, amount from public.billing_transactions
       where user_id = ${userId} and type = 'subscription' order by id`;
  }

  it('renews on its end date at the plan row price: another year from the old end, one more completed row', async () => {
    const user = await payingTraveller();
    const before = await current(user);
    expect(before).toMatchObject({ tier: 'premium', status: 'active', renews: true, scheduledChange: null });
    expect(before.renewal).toEqual({ date: before.endDate, amount: 2499 });
    await yearEnds(user.id, '-1 hour');
    const [{ end } = { end: new Date(0) }] = await sql<{ end: Date }[]>`
      select subscription_end_date as end from public.profiles where id = ${user.id}`;
    const premium = sql`(select id from public.subscription_plans where tier = 'premium' and is_active order by price desc limit 1)`;
    await sql`update public.subscription_plans set price = 2999 where id = ${premium}`;
    try {
      await sql`delete from public.jobs where kind = 'subscription_expiry'`;
      await runJobs();
    } finally {
      await sql`update public.subscription_plans set price = 2499 where id = ${premium}`;
    }
    const after = await current(user);
    expect(after).toMatchObject({ tier: 'premium', status: 'active', renews: true, paymentIssue: null });
    expect(new Date(after.endDate ?? 0).getTime() - end.getTime()).toBeGreaterThanOrEqual(365 * 86_400_000);
    expect(after.startDate).toBe(end.toISOString());
    expect(await subscriptionRows(user.id)).toEqual([
      { status: 'completed', amount: 2499 },
      { status: 'completed', amount: 2999 },
    ]);
    // a second run the same day charges nothing more
    await sql`delete from public.jobs where kind = 'subscription_expiry'`;
    await runJobs();
    expect(await subscriptionRows(user.id)).toHaveLength(2);
  });

  it('a failed renewal: Premium kept, an email, the stated retries, never Already Subscribed, then Free', async () => {
    const user = await payingTraveller();
    await saveTestCard(user, 'declining');
    await yearEnds(user.id, '-1 hour');
    const nextDay = async (days: number) => {
      // the retry schedule counts from the first failure: move it back instead of waiting
      await sql`update private.billing_accounts set renewal_failed_at = renewal_failed_at - make_interval(days => ${days})
                 where user_id = ${user.id}`;
      await sql`delete from public.jobs where kind = 'subscription_expiry'`;
      await runJobs();
    };
    await sql`delete from public.jobs where kind = 'subscription_expiry'`;
    await runJobs();
    const failed = await current(user);
    expect(failed).toMatchObject({ tier: 'premium', status: 'past_due', renewal: null });
    expect(failed.paymentIssue).toMatchObject({ purpose: 'subscription', amount: 2499 });
    expect(failed.paymentIssue?.reason).toMatch(/declined/);
    expect(failed.paymentIssue?.outcome).toMatch(/1, 3 and 7 days after the first failure.*Free plan/);
    const [{ failedAt } = { failedAt: new Date(0) }] = await sql<{ failedAt: Date }[]>`
      select renewal_failed_at as "failedAt" from private.billing_accounts where user_id = ${user.id}`;
    expect(failed.paymentIssue?.retry).toBe(new Date(failedAt.getTime() + 86_400_000).toISOString());
    const told = await notificationEmails(sql, user.id, 'payment_failed');
    expect(told).toHaveLength(1);
    expect(told[0]?.text).toMatch(/dashboard\?tab=plan/);
    // someone who must pay is offered payment, not refused as 'Already Subscribed'
    const checkout = await api.post<CheckoutSessionResponse>('/stripe/create-checkout-session', undefined, auth(user));
    expect(checkout.status, JSON.stringify(checkout.body)).toBe(200);

    await nextDay(1); // attempt 2
    await nextDay(2); // attempt 3, 3 days after the first failure
    expect(await current(user)).toMatchObject({ tier: 'premium', status: 'past_due' });
    await nextDay(4); // attempt 4, 7 days after: the last
    const lapsed = await current(user);
    expect(lapsed).toMatchObject({ tier: 'free', status: 'expired', renews: false, paymentIssue: null });
    expect(await expiredNotices(user.id)).toHaveLength(1);
    expect((await subscriptionRows(user.id)).map((r) => r.status)).toEqual([
      'completed',
      'failed',
      'pending', // the checkout started after the first failure, never paid
      'failed',
      'failed',
      'failed',
    ]);
  });

  it('a card change pays a failed renewal at once', async () => {
    const user = await payingTraveller();
    await saveTestCard(user, 'declining');
    await yearEnds(user.id, '-1 hour');
    await sql`delete from public.jobs where kind = 'subscription_expiry'`;
    await runJobs();
    expect((await current(user)).status).toBe('past_due');
    const changed = await saveTestCard(user, 'valid');
    expect(changed.renewal).toBe('renewed');
    expect(changed.message).toMatch(/used for your next renewal and commission statements/);
    expect(await current(user)).toMatchObject({ tier: 'premium', status: 'active', renews: true, paymentIssue: null });
  });

  it('downgrade at the end of the paid year keeps Premium and can be taken back; downgrade now ends it', async () => {
    const user = await payingTraveller();
    const scheduled = await api.post<UpdateSubscriptionResponse>(
      '/subscription/update',
      { tier: 'free', at: 'period_end' },
      auth(user),
    );
    expect(scheduled.status).toBe(200);
    expect(scheduled.body.message).toMatch(/will not renew\. You keep Premium until .*Nothing is refunded/);
    const sub = await current(user);
    expect(sub).toMatchObject({ tier: 'premium', renews: false, renewal: null });
    expect(sub.scheduledChange).toEqual({ tier: 'free', at: sub.endDate });

    const resumed = await api.post<UpdateSubscriptionResponse>('/subscription/update', { tier: 'premium' }, auth(user));
    expect(resumed.status, JSON.stringify(resumed.body)).toBe(200);
    expect(resumed.body.subscription).toMatchObject({ tier: 'premium', renews: true, scheduledChange: null });

    const now = await api.post<UpdateSubscriptionResponse>('/subscription/update', { tier: 'free' }, auth(user));
    expect(now.status).toBe(200);
    expect(now.body.subscription).toMatchObject({ tier: 'free', renews: false, scheduledChange: null });
    const bad = await api.post<{ message: string }>('/subscription/update', { tier: 'free', at: 'later' }, auth(user));
    expect(bad.status).toBe(400);
  });

  it('reminds 30 and 7 days before a renewal, once each', async () => {
    const user = await payingTraveller();
    const reminders = () => notificationEmails(sql, user.id, 'renewal_reminder');
    await yearEnds(user.id, '20 days');
    await sql`delete from public.jobs where kind = 'subscription_expiry'`;
    await runJobs();
    await sql`delete from public.jobs where kind = 'subscription_expiry'`;
    await runJobs();
    expect((await reminders()).map((r) => r.data.daysBefore)).toEqual([30]);
    await yearEnds(user.id, '5 days');
    await sql`delete from public.jobs where kind = 'subscription_expiry'`;
    await runJobs();
    const sent = await reminders();
    expect(sent.map((r) => r.data.daysBefore)).toEqual([30, 7]);
    expect(sent[1]?.subject).toBe('Your FareBack Premium renews soon');
    expect(sent[1]?.text).toMatch(/Amount: \$24\.99/);
    expect(sent[1]?.text).toMatch(/dashboard\?tab=plan/);
    // renewal off: no reminder for a year that does not renew
    const off = await payingTraveller();
    await api.post('/subscription/update', { tier: 'free', at: 'period_end' }, auth(off));
    await yearEnds(off.id, '5 days');
    await sql`delete from public.jobs where kind = 'subscription_expiry'`;
    await runJobs();
    expect(await notificationEmails(sql, off.id, 'renewal_reminder')).toHaveLength(0);
  });
});
