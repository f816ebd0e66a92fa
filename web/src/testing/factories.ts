import type { SubscriptionPlan } from '@shared/types/plans.ts';
import type { CurrentUser } from '@/lib/auth';

let sequence = 0;

/** A current user as GET /api/auth/me returns it, with the defaults a new account has. */
export function buildUser(overrides: Partial<CurrentUser> = {}): CurrentUser {
  sequence += 1;
  return {
    id: `00000000-0000-4000-8000-${String(sequence).padStart(12, '0')}`,
    username: `traveller${sequence}`,
    email: `traveller${sequence}@example.com`,
    isAdmin: false,
    emailConnected: false,
    subscriptionTier: 'free',
    subscriptionStartDate: null,
    subscriptionEndDate: null,
    flightLimit: 5,
    autoRebooking: false,
    thresholdType: 'percent',
    percentThreshold: 10,
    absoluteThreshold: 2000,
    minSavingsPercent: 15,
    minSavingsAmount: 5000,
    thresholdCondition: 'either',
    useSeparateInternationalThresholds: false,
    internationalMinSavingsPercent: 20,
    internationalMinSavingsAmount: 10000,
    notifyPriceDrops: true,
    notifyRebookings: true,
    notifyCancellations: true,
    minPriceDrop: 25,
    minPriceDropPercent: 10,
    totalCreditsEarned: 0,
    commissionOwed: 0,
    lastBillingDate: null,
    createdAt: '2025-01-15T10:00:00.000Z',
    ...overrides,
  };
}

/** A plan as GET /api/subscription/plans returns it: Premium at $24.99 unless overridden. */
export function buildPlan(overrides: Partial<SubscriptionPlan> = {}): SubscriptionPlan {
  return {
    id: 2,
    name: 'Premium',
    price: 2499,
    flightLimit: -1,
    autoRebookingEnabled: true,
    commissionRate: 25,
    description: 'Unlimited monitoring and automatic rebooking',
    ...overrides,
  };
}
