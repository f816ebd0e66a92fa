import type { SubscriptionPlan } from '@shared/types/plans.ts';
import type { CurrentSubscription } from '@shared/types/billing.ts';
import type { CurrentUser } from '@/lib/auth';
import type { AppliedAirlineRule, Flight } from '@shared/types/flights.ts';
import type {
  EmailConnection,
  EmailScanProgress,
  HeldBooking,
  ImportedEmail,
  OAuthConfigResponse,
} from '@shared/types/email.ts';

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
    emailConfirmed: true,
    ...overrides,
  };
}

/**
 * A plan as GET /api/subscription/plans returns it: Premium at $24.99 unless overridden. A plan
 * with a price has automatic rebooking unless told otherwise, and its tier is the one the
 * database derives (premium with a price or automatic rebooking, else free).
 */
export function buildPlan(overrides: Partial<SubscriptionPlan> = {}): SubscriptionPlan {
  const price = overrides.price ?? 2499;
  const autoRebookingEnabled = overrides.autoRebookingEnabled ?? price > 0;
  return {
    id: 2,
    name: 'Premium',
    tier: price > 0 || autoRebookingEnabled ? 'premium' : 'free',
    price,
    flightLimit: -1,
    autoRebookingEnabled,
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
    renewal: premium ? { date: '2027-01-10T00:00:00.000Z', amount: 2499 } : null,
    scheduledChange: null,
    paymentIssue: null,
    ...overrides,
  };
}

/** A flight as the api returns it: an eligible, monitored, never-checked manual flight. */
let nextFlightId = 1;

/** The airline rule a flight's verdict quotes (public.airline_rules): Delta Main Cabin by default. */
export function buildAppliedRule(overrides: Partial<AppliedAirlineRule> = {}): AppliedAirlineRule {
  return {
    id: 5,
    airlineCode: 'DL',
    explanation: 'Delta Main Cabin: no change fee; the difference comes back as an eCredit valid 1 year',
    source: 'Delta\'s "Change & Cancel Flights" policy page on delta.com',
    changeAllowed: true,
    changeFee: 0,
    refundForm: 'credit',
    creditValidMonths: 12,
    creditTransferable: false,
    ...overrides,
  };
}

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
    commissionRate: null,
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
    passengerCount: null,
    notes: null,
    createdAt: '2027-01-01T12:00:00.000Z',
    priceHistory: [],
    changePenalty: null,
    refundForm: null,
    dropQuotes: null,
    rebookingVerdict: {
      netSavings: 0,
      changePenalty: null,
      refundForm: null,
      qualifies: false,
      international: null,
      minNetSavings: null,
      reason: 'No price drop: the current fare is not below what you paid.',
      rebookingMode: 'automatic',
      rule: buildAppliedRule(),
    },
    rebookingMode: 'automatic',
    rebookingRule: buildAppliedRule(),
  } satisfies Partial<Record<keyof Flight | 'sourceReference', unknown>>;
  // A plain object rather than a Flight literal, so a field the api adds later does not break the
  // factory before its tests need it.
  return { ...flight, ...overrides } as Flight;
}

/** GET /api/oauth/config on the local stack: Google not configured, the sample mailbox offered. */
export function buildOAuthConfig(overrides: Partial<OAuthConfigResponse> = {}): OAuthConfigResponse {
  return {
    redirectUri: 'http://localhost:5173/oauth2callback',
    clientIdAvailable: false,
    clientSecretAvailable: false,
    scopes: ['https://www.googleapis.com/auth/gmail.readonly'],
    devConnectAvailable: true,
    ...overrides,
  };
}

export function buildScan(overrides: Partial<EmailScanProgress> = {}): EmailScanProgress {
  return {
    id: 1,
    status: 'done',
    mode: 'full',
    scanned: 430,
    total: 430,
    flightsFound: 3,
    flightsUpdated: 0,
    flightsCancelled: 0,
    flightsNotWatched: 0,
    flightsHeld: 0,
    summary: 'Scanned 430 of 430 emails, 3 flights found',
    startedAt: '2026-11-24T10:00:00.000Z',
    finishedAt: '2026-11-24T10:01:00.000Z',
    retryAt: null,
    error: null,
    ...overrides,
  };
}

export function buildHeldBooking(overrides: Partial<HeldBooking> = {}): HeldBooking {
  return {
    id: 41,
    airline: 'United Airlines',
    bookingCode: 'FKQA01',
    flightNumber: 'UA1542',
    departureAirport: 'SFO',
    arrivalAirport: 'EWR',
    departureDate: '2027-03-13',
    returnDate: null,
    from: 'United Airlines <unitedairlines@united-deals.example>',
    subject: 'Your flight confirmation - FKQA01',
    heldAt: '2026-11-25T10:00:00.000Z',
    ...overrides,
  };
}

/** GET /api/email/connection: not connected, with a forwarding address, unless overridden. */
export function buildEmailConnection(overrides: Partial<EmailConnection> = {}): EmailConnection {
  return {
    state: 'not_connected',
    provider: null,
    accountEmail: null,
    connectedAt: null,
    lastSyncedAt: null,
    scan: null,
    forwardingAddress: 'trips+k3y9x2@in.fareback.app',
    ...overrides,
  };
}

export function buildImportedEmail(overrides: Partial<ImportedEmail> = {}): ImportedEmail {
  return {
    id: 1,
    via: 'sample',
    messageId: '<confirm-1@delta.com>',
    from: 'Delta Air Lines <noreply@delta.com>',
    subject: 'Your trip confirmation: ABC123',
    date: '2026-11-01T09:00:00.000Z',
    readAt: '2026-11-24T10:00:30.000Z',
    outcome: 'created',
    outcomeReason: null,
    bookings: [
      {
        airline: 'Delta Air Lines',
        bookingCode: 'ABC123',
        passengerLastName: 'SMITH',
        segments: [
          {
            flightNumber: 'DL1234',
            departureAirport: 'JFK',
            arrivalAirport: 'LAX',
            departureTime: '2027-03-14T08:00:00-05:00',
          },
        ],
        totalPrice: 40000,
        currency: 'USD',
        fareType: 'Main Cabin',
        kind: 'booking',
        flightId: 7,
      },
    ],
    ...overrides,
  };
}
