// The public plans route with a scripted database; tests/api/subscription-plans.test.ts runs it
// against the real stack and its policies.
import assert from 'node:assert/strict';
import type { SubscriptionPlan } from '../../_shared/types/plans.ts';
import { ScriptedDb, testApp } from '../testing.ts';

const premium: SubscriptionPlan = {
  id: 2,
  name: 'Premium',
  tier: 'premium',
  price: 2499,
  flightLimit: -1,
  autoRebookingEnabled: true,
  commissionRate: 25,
  description: 'Unlimited monitoring and automatic rebooking.',
};

Deno.test('plans route: public, read as anon, answers { plans } as Postgres built them', async () => {
  const db = new ScriptedDb([[{ plans: [premium] }]]);
  const { request } = testApp({ db });
  const res = await request('/api/subscription/plans');
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { plans: [premium] });
  assert.equal(db.anonTransactions, 1);
  assert.equal(db.userTransactions.length, 0);
  assert.equal(db.serviceTransactions, 0);
  assert.match(db.queries[0] ?? '', /from public\.subscription_plans p where p\.is_active$/);
  assert.match(db.queries[0] ?? '', /order by p\.price, p\.id/);
});

Deno.test('plans route: a token is not needed and not checked; no plans is an empty list', async () => {
  const db = new ScriptedDb([[{ plans: [] }]]);
  // testApp's verifier fails the test if called
  const { request } = testApp({ db });
  const res = await request('/api/subscription/plans', { headers: { Authorization: 'Bearer stale' } });
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { plans: [] });
});

Deno.test('plans route: the rest of /api/subscription stays behind the session check', async () => {
  const db = new ScriptedDb();
  const { request } = testApp({ db });
  const res = await request('/api/subscription/current');
  assert.equal(res.status, 401);
  assert.equal(db.touched, false);
});
