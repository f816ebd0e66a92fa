// The 403 matrix of the admin calls, route by route: signed out each answers 401, signed in as a
// traveller 403 'Admin access required', and neither changes anything (checked in the database
// after each). Every request is well formed, so a refusal can only come from who is asking.
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient, databaseClient } from './client.ts';
import { registerUser, type RegisteredUser } from './factories.ts';

const api = apiClient();
const sql = databaseClient();

let traveller: RegisteredUser;
/** Someone the traveller tries to act on: commission owed, not an admin. */
let target: RegisteredUser;
let planId: number;
const tag = randomBytes(4).toString('hex');

/** What the refused calls could have changed, for this file's accounts and plan. */
async function snapshot() {
  const [row] = await sql<Record<string, unknown>[]>`
    select
      (select row_to_json(sp) from public.subscription_plans sp where sp.id = ${planId}) as plan,
      (select count(*)::int from public.subscription_plans where name like ${`%${tag}%`}) as tagged_plans,
      (select json_agg(json_build_object('id', p.id, 'is_admin', p.is_admin, 'owed', p.commission_owed,
                                         'paid', p.commission_paid) order by p.id)
         from public.profiles p where p.id in (${traveller.id}, ${target.id})) as profiles,
      (select count(*)::int from public.billing_transactions where user_id in (${traveller.id}, ${target.id})) as billing,
      (select count(*)::int from public.price_check_logs where initiated_by = ${traveller.id}) as sweeps,
      (select count(*)::int from public.auto_rebooking_logs where initiated_by = ${traveller.id}) as runs,
      (select count(*)::int from public.admin_audit_log
        where actor_id = ${traveller.id} or target_id in (${traveller.id}, ${target.id}, ${String(planId)})) as audit
  `;
  return row;
}

beforeAll(async () => {
  traveller = await registerUser(api);
  target = await registerUser(api);
  await sql`update public.profiles set commission_owed = 2500 where id = ${target.id}`;
  const [plan] = await sql<{ id: number }[]>`
    insert into public.subscription_plans (name, price, flight_limit, commission_rate, description)
    values (${`Authz ${tag}`}, 1500, 10, 5, 'A plan nobody may change here') returning id::int`;
  planId = plan!.id;
});

const plan = () => ({
  name: `Hacked ${tag}`,
  price: 0,
  flightLimit: -1,
  commissionRate: 0,
  description: 'Free for everyone',
  autoRebookingEnabled: true,
  isActive: true,
});

const routes: { call: string; method: string; path: () => string; body?: () => unknown }[] = [
  { call: 'GET stats', method: 'GET', path: () => '/admin/stats' },
  { call: 'GET users', method: 'GET', path: () => '/admin/users' },
  { call: 'GET flights', method: 'GET', path: () => '/admin/flights' },
  { call: 'GET billing', method: 'GET', path: () => '/admin/billing' },
  { call: 'GET audit', method: 'GET', path: () => '/admin/audit' },
  { call: 'GET subscription-plans', method: 'GET', path: () => '/admin/subscription-plans' },
  { call: 'POST subscription-plans', method: 'POST', path: () => '/admin/subscription-plans', body: plan },
  { call: 'PUT subscription-plans/{id}', method: 'PUT', path: () => `/admin/subscription-plans/${planId}`, body: plan },
  {
    call: 'PUT users/{id}/admin (another user)',
    method: 'PUT',
    path: () => `/admin/users/${target.id}/admin`,
    body: () => ({ isAdmin: true }),
  },
  {
    call: 'PUT users/{id}/admin (themselves)',
    method: 'PUT',
    path: () => `/admin/users/${traveller.id}/admin`,
    body: () => ({ isAdmin: true }),
  },
  { call: 'POST run-price-check', method: 'POST', path: () => '/admin/run-price-check', body: () => ({}) },
  { call: 'POST run-auto-rebooking', method: 'POST', path: () => '/admin/run-auto-rebooking', body: () => ({}) },
  {
    call: 'POST /api/stripe/pay-commission {userId, amount}',
    method: 'POST',
    path: () => '/stripe/pay-commission',
    body: () => ({ userId: target.id, amount: 2500 }),
  },
];

describe.each(routes)('$call', ({ method, path, body }) => {
  it('answers 401 signed out and changes nothing', async () => {
    const before = await snapshot();
    const res = await api.request(method, `${path()}`, body?.());
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'Not authenticated' });
    expect(await snapshot()).toEqual(before);
  });

  it("answers 403 'Admin access required' to a traveller and changes nothing", async () => {
    const before = await snapshot();
    const res = await api.request(method, path(), body?.(), { token: traveller.session.access_token });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: 'Admin access required' });
    expect(await snapshot()).toEqual(before);
  });
});
