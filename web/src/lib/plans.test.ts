import { describe, expect, it } from 'vitest';
import { mockApi } from '@/testing/mock-api';
import { buildFreePlan, buildPlan } from '@/testing/factories';
import { freePlan, getSubscriptionPlans, premiumPlan } from './plans';

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

  it('finds the plans by tier, whatever the admin named them: the cheapest premium plan with a price, the first free one', () => {
    const renamedFree = buildFreePlan({ name: 'Premium' });
    const renamedPremium = buildPlan({ id: 5, name: 'FareBack Plus', price: 3499 });
    const gold = buildPlan({ id: 6, name: 'Gold', price: 4999 });
    // a premium plan without a price (automatic rebooking only) is not what checkout sells
    const freeOfCharge = buildPlan({ id: 4, name: 'Pay as you save', price: 0, autoRebookingEnabled: true });
    const plans = [renamedFree, freeOfCharge, renamedPremium, gold];
    expect(premiumPlan(plans)).toBe(renamedPremium);
    expect(freePlan(plans)).toBe(renamedFree);
    expect(premiumPlan([renamedFree, freeOfCharge])).toBeUndefined();
    expect(freePlan([gold])).toBeUndefined();
    expect(freePlan(undefined)).toBeUndefined();
  });
});
