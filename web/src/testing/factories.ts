import type { SubscriptionPlan } from '@shared/types/plans.ts';
import type { CurrentSubscription } from '@shared/types/billing.ts';
import type { CurrentUser } from '@/lib/auth';
import type { Flight } from '@shared/types/flights.ts';

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
    emailConnectionState: 'not_connected',
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
    minPriceDrop: 2500,
    minPriceDropPercent: 10,
    notificationFrequency: 'instant',
    notificationTime: '09:00',
    timeZone: 'UTC',
    totalCreditsEarned: 0,
    commissionOwed: 0,
    commissionPaid: 0,
    planId: 1,
    planName: 'Free',
    commissionRate: 0,
    lastBillingDate: null,
    createdAt: '2025-01-15T10:00:00.000Z',
    onboardingCompleted: true,
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

/** The free plan as GET /api/subscription/plans returns it: 5 flights, no price, no commission. */
export function buildFreePlan(overrides: Partial<SubscriptionPlan> = {}): SubscriptionPlan {
  return buildPlan({
    id: 1,
    name: 'Free',
    price: 0,
    flightLimit: 5,
    autoRebookingEnabled: false,
    commissionRate: 0,
    description: 'Watch up to five flights',
    ...overrides,
  });
}

/**
 * GET /api/subscription/current's subscription for `user`: paid through Jan 10, 2027 and
 * renewing when premium, never paid when free; local test mode.
 */
export function buildSubscription(
  user: CurrentUser,
  overrides: Partial<CurrentSubscription> = {},
): CurrentSubscription {
  const premium = user.subscriptionTier === 'premium';
  return {
    tier: user.subscriptionTier,
    plan: premium ? buildPlan() : buildFreePlan(),
    status: premium ? 'active' : 'none',
    startDate: premium ? '2026-01-10T00:00:00.000Z' : null,
    endDate: premium ? '2027-01-10T00:00:00.000Z' : null,
    renews: premium,
    hasSavedCard: false,
    paymentMode: 'test',
    ...overrides,
  };
}

/** A flight as the api returns it: an eligible, monitored, never-checked manual flight. */
let nextFlightId = 1;

export function buildFlight(overrides: Partial<Flight> = {}): Flight {
  const id = nextFlightId++;
  const flight = {
    id,
    userId: 'user-1',
    airline: 'Delta Air Lines',
    flightNumber: 'DL1234',
    bookingCode: `ABC${id}`,
    passengerLastName: 'Smith',
    departureAirport: 'JFK',
    arrivalAirport: 'LAX',
    departureDate: '2027-03-14',
    returnDate: null,
    isRoundTrip: false,
    returnFlightNumber: null,
    currency: 'USD',
    originalPrice: 40000,
    currentPrice: 40000,
    lowestPrice: 40000,
    highestPrice: 40000,
    lastChecked: null,
    fareType: 'Flexible Economy',
    isEligibleForRebooking: true,
    hasBeenRebooked: false,
    rebookingDate: null,
    rebookingPrice: null,
    airlineCredit: null,
    creditExpiryDate: null,
    creditReferenceNumber: null,
    commissionAmount: null,
    status: 'monitoring',
    rebookingMethod: 'source',
    sourceReference: null,
    emailSource: null,
    isManualEntry: true,
    canCancel: true,
    isWatched: true,
    cancellationFee: null,
    seatNumber: '14C',
    cabinClass: 'Economy',
    notes: null,
    createdAt: '2027-01-01T12:00:00.000Z',
    priceHistory: [],
    changePenalty: null,
    refundForm: null,
    rebookingVerdict: {
      netSavings: 0,
      changePenalty: null,
      refundForm: null,
      qualifies: false,
      international: null,
      minNetSavings: null,
      reason: 'No price drop: the current fare is not below what you paid.',
    },
  } satisfies Partial<Record<keyof Flight | 'sourceReference', unknown>>;
  // A plain object rather than a Flight literal, so a field the api adds later does not break the
  // factory before its tests need it.
  return { ...flight, ...overrides } as Flight;
}
