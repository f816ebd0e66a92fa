import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { SubscriptionPlansResponse } from '../../supabase/functions/_shared/types/plans.ts';
import { apiClient, databaseClient } from './client.ts';
import { registerUser } from './factories.ts';

const api = apiClient();
const sql = databaseClient();

// plans this file adds, at prices no seeded plan has, removed afterwards
const tag = randomBytes(4).toString('hex');
const added = { active: `Test active ${tag}`, retired: `Test retired ${tag}` };

afterAll(async () => {
  await sql`delete from public.subscription_plans where name in ${sql([added.active, added.retired])}`;
});

describe('GET /api/subscription/plans', () => {
  it('answers a visitor with the active plans, cheapest first, in the API field names', async () => {
    const res = await api.get<SubscriptionPlansResponse>('/subscription/plans');
    expect(res.status).toBe(200);
    const seeded = res.body.plans.filter((plan) => ['Free', 'Premium'].includes(plan.name));
    expect(seeded).toEqual([
      {
        id: expect.any(Number),
        name: 'Free',
        tier: 'free',
        price: 0,
        flightLimit: 5,
        autoRebookingEnabled: false,
        commissionRate: 0,
        description: 'Monitor up to 5 flights with email price-drop alerts and manual rebooking.',
      },
      {
        id: expect.any(Number),
        name: 'Premium',
        tier: 'premium',
        price: 2499,
        flightLimit: -1,
        autoRebookingEnabled: true,
        commissionRate: 25,
        description: expect.stringContaining('Unlimited monitoring'),
      },
    ]);
  });

  it('leaves out retired plans, for visitors, travellers and admins alike', async () => {
    await sql`
      insert into public.subscription_plans (name, price, flight_limit, auto_rebooking_enabled, commission_rate, description, is_active)
      values (${added.active}, 1299, 20, false, null, null, true),
             (${added.retired}, 999, 10, false, 10, 'Gone', false)`;
    const traveller = await registerUser(api);
    const admin = await registerUser(api);
    await sql`update public.profiles set is_admin = true where id = ${admin.id}`;

    for (const token of [undefined, traveller.session.access_token, admin.session.access_token]) {
      const res = await api.get<SubscriptionPlansResponse>('/subscription/plans', { token });
      expect(res.status).toBe(200);
      const names = res.body.plans.map((plan) => plan.name);
      expect(names).not.toContain(added.retired);
      expect(names).toContain(added.active);
      const prices = res.body.plans.map((plan) => plan.price);
      expect(prices).toEqual([...prices].sort((a, b) => a - b));
      // no commission rate reads 0; no description stays null
      expect(res.body.plans.find((plan) => plan.name === added.active)).toMatchObject({
        price: 1299,
        flightLimit: 20,
        commissionRate: 0,
        description: null,
      });
    }
  });

  it('needs no session, and a stale token does not refuse it', async () => {
    const res = await api.get<SubscriptionPlansResponse>('/subscription/plans', { token: 'not-a-token' });
    expect(res.status).toBe(200);
    expect(res.body.plans.length).toBeGreaterThan(0);
  });
});
