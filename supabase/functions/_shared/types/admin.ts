// What the admin calls answer (docs/architecture.md "Admin API"). Money is integer cents,
// rates are integer percent, dates and times are ISO 8601 strings. The lists follow the shared
// convention (`ListPage<T>` from schemas/pagination.ts: `{ items, total, page, pageSize }`).
import type { FlightStatus } from '../flights/rules.ts';
import type { BillingStatus, BillingTransactionType } from './billing.ts';
import type { SubscriptionTier } from './user.ts';
import type { SubscriptionPlan } from './plans.ts';

/** Spec section 3's admin stats, computed in SQL in one statement. */
export interface AdminStats {
  totalUsers: number;
  premiumUsers: number;
  freeUsers: number;
  newUsersLast30Days: number;
  totalFlights: number;
  /** Flights being watched now (private.flight_is_watched). */
  currentlyMonitoredFlights: number;
  /** Flights whose departure day has not passed. */
  upcomingFlights: number;
  /** Flights with a price drop whose net savings qualify for a rebooking now. */
  potentialRebookableFlights: number;
  totalPriceDrops: number;
  totalRebookedFlights: number;
  rebookingsLast30Days: number;
  /** Airline credit earned by every rebooking, cents. */
  totalSavings: number;
  /** totalSavings / totalRebookedFlights, cents, rounded; 0 with no rebooking. */
  averageSavingsPerRebooking: number;
  /** Commission owed by every traveller now, cents. */
  totalCommissionsOwed: number;
  /** Commission paid so far by every traveller, cents. */
  totalCommissionsPaid: number;
  /** Drops whose price_drop alert went out (each confirmed by a second quote first). */
  alertedDrops: number;
  /** Of those, the ones whose fare has been tried since (rebooked, or re-checked within a day). */
  alertsJudged: number;
  /** Percent of alertsJudged whose fare still held, rounded; null before any. */
  alertPrecision: number | null;
}

/** One day of the dashboard's chart (UTC days, oldest first, every day present, zeros included). */
export interface AdminActivityDay {
  /** YYYY-MM-DD */
  date: string;
  priceDrops: number;
  rebookings: number;
  /** Airline credit earned by that day's rebookings, cents. */
  savings: number;
}

/** `GET /api/admin/stats?days=30`: the stats at the top level, plus the chart's series. */
export interface AdminStatsResponse extends AdminStats {
  series: AdminActivityDay[];
}

/** A row of `GET /api/admin/users`. */
export interface AdminUser {
  id: string;
  username: string;
  email: string;
  isAdmin: boolean;
  subscriptionTier: SubscriptionTier;
  planName: string;
  emailConnected: boolean;
  /** Every flight of the traveller, watched or not. */
  flightCount: number;
  totalCreditsEarned: number;
  commissionOwed: number;
  commissionPaid: number;
  createdAt: string;
}

/** `PUT /api/admin/users/{id}/admin` answers the user as the list shows them. */
export interface UpdateUserAdminResponse {
  success: true;
  message: string;
  user: AdminUser;
}

/** A row of `GET /api/admin/flights`. */
export interface AdminFlight {
  id: number;
  userId: string;
  username: string;
  email: string;
  airline: string;
  flightNumber: string | null;
  bookingCode: string;
  departureAirport: string | null;
  arrivalAirport: string | null;
  departureDate: string | null;
  /** The raw status; the screen labels rebooked 'Rebooked' and price_drop 'Price Drop'. */
  status: FlightStatus;
  hasBeenRebooked: boolean;
  originalPrice: number;
  currentPrice: number | null;
  rebookingPrice: number | null;
  airlineCredit: number | null;
  /** Percent: the rate recorded with the rebooking, else the traveller's plan's rate now. */
  commissionRate: number;
  /** The commission recorded with the rebooking, else round(airlineCredit × commissionRate / 100); cents. */
  commission: number;
  /** Why the credit declared on a guided rebooking needs an admin's review, or null. */
  creditReview: string | null;
  lastChecked: string | null;
  createdAt: string;
}

/** A row of `GET /api/admin/billing`. */
export interface AdminTransaction {
  id: number;
  userId: string;
  username: string;
  email: string;
  date: string;
  type: BillingTransactionType;
  amount: number;
  status: BillingStatus;
  description: string | null;
  paymentMethod: string | null;
  paymentReference: string | null;
}

/** A plan as the admin area sees it: inactive plans too. */
export interface AdminSubscriptionPlan extends SubscriptionPlan {
  isActive: boolean;
  /** Travellers on the plan now. */
  subscriberCount: number;
  createdAt: string;
  updatedAt: string;
}

/** `GET /api/admin/subscription-plans`: every plan, by id. */
export interface AdminSubscriptionPlansResponse {
  plans: AdminSubscriptionPlan[];
}

/** `POST` (201) and `PUT /api/admin/subscription-plans/{id}`. */
export interface AdminSubscriptionPlanResponse {
  plan: AdminSubscriptionPlan;
}

/** `POST /api/stripe/pay-commission` with `{userId, amount}` (an admin recording a payment). */
export interface AdminCommissionPaymentResponse {
  success: true;
  message: string;
  userId: string;
  /** What was recorded, cents. */
  amount: number;
  /** The billing row written (type commission, status completed, payment method 'manual'). */
  transactionId: number;
  commissionOwed: number;
  commissionPaid: number;
}

export const AUDIT_ACTIONS = [
  'admin.grant',
  'admin.revoke',
  'plan.create',
  'plan.update',
  'commission.payment',
  'run.price_check',
  'run.auto_rebooking',
  // a Stripe chargeback opened or closed on a traveller's payment (actor null: Stripe)
  'payment.dispute',
  // the airline rulebook (issue 24): a rule added or edited, an airline's automation switched
  'airline_rule.create',
  'airline_rule.update',
  'airline.automation',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** A row of `GET /api/admin/audit`: who did what, when, and the values before and after. */
export interface AdminAuditEntry {
  id: number;
  at: string;
  /** The admin who acted; null for a change made outside the app (an operator in Studio). */
  actorId: string | null;
  /** The actor's username, or the database role for a change made outside the app. */
  actorName: string;
  action: AuditAction;
  /** 'user' | 'plan' | 'run' */
  targetType: string;
  targetId: string | null;
  /** A readable name for the target (the user's username, the plan's name). */
  targetLabel: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}
