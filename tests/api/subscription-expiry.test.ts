// Issue 21, finding 2: a paid year never ended (nothing read subscription_end_date). A traveller
// pays a year (the test mode), turns automatic rebooking on and watches 7 flights; their end date
// moved 35 days into the past, the daily pass (the job runner's `subscription_expiry` kind, run
// by POST /api/internal/jobs) moves them to the Free plan: auto-rebooking off, the 2 newest
// flights kept but no longer watched (the free limit is 5), one notification; a second pass
// changes nothing. A subscription Stripe renews is left to Stripe. On a stack of its own: the
// job run is every kind's recurring work.
import { randomBytes } from 'node:crypto';
import type postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  CheckoutSessionResponse,
  CurrentSubscriptionResponse,
  TestModeConfirmResponse,
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
    expect(job).toEqual({ status: 'done', result: { expired: 0 } });
    expect(await state(user.id)).toEqual(after);
    expect(await expiredNotices(user.id)).toHaveLength(1);
  });

  it('a traveller who pays again after the expiry has every flight watched again (issue 21, finding 2)', async () => {
    const user = await registerUser(api);
    await sql`update public.profiles set email_confirmed_at = now() where id = ${user.id}`;
    await payYear(user);
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
