// A subscription plan as the API shows it: `GET /api/subscription/plans` (public: the landing
// page, checkout and the subscription tab read it) and, with the fields only admins see, the
// admin area's plan list. Money is integer cents.
import type { SubscriptionTier } from '../constants.ts';

export interface SubscriptionPlan {
  id: number;
  /** The admin's to choose and change: never what a plan is recognised by (that is `tier`). */
  name: string;
  /** What the plan gives: 'premium' when it has a price or automatic rebooking, else 'free' (derived by the database). */
  tier: SubscriptionTier;
  /** The plan's price in cents (Premium: 2499 a year). */
  price: number;
  /** Flights a subscriber may monitor at once; UNLIMITED_FLIGHTS (-1) for no limit. */
  flightLimit: number;
  autoRebookingEnabled: boolean;
  /** Percent of the airline credit charged on a rebooking; 0 for none. */
  commissionRate: number;
  description: string | null;
}

/** `GET /api/subscription/plans`: the active plans, cheapest first. */
export interface SubscriptionPlansResponse {
  plans: SubscriptionPlan[];
}
