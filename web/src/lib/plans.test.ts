import { describe, expect, it } from 'vitest';
import { mockApi } from '@/testing/mock-api';
import { buildFreePlan, buildPlan } from '@/testing/factories';
import { getSubscriptionPlans, premiumPlan } from './plans';

const free = buildFreePlan();
const premium = buildPlan({ name: 'PREMIUM ', price: 2999 });

describe('plans', () => {
  it('reads the plans of GET /api/subscription/plans', async () => {
    mockApi({ 'GET /api/subscription/plans': { body: { plans: [free, premium] } } });
    await expect(getSubscriptionPlans()).resolves.toEqual([free, premium]);
  });

  it("picks the plan named 'premium' in any case", () => {
    expect(premiumPlan([free, premium])).toBe(premium);
    expect(premiumPlan([free])).toBeUndefined();
  });
});
