// Domain rules for monitored flights, shared by the api function and
// the web app, so a rule means the same thing on the server and on the card. Rules the database
// applies live there only (docs/architecture.md "Where each rule lives"): a new flight's status and
// the status after a price check (private.flight_initial_status), which flights are watched,
// checkable and due (private.flight_is_*), room on the plan (private.room_on_plan), the commission
// on a rebooking (private.commission_on). Money is integer cents; this file imports only constants.
import { SUPPORTED_FARE_TYPES } from '../constants.ts';

/** The statuses public.flights.status takes (its check constraint). */
export const FLIGHT_STATUSES = [
  'monitoring',
  'price_drop',
  'limited',
  'rebooking',
  'rebooked',
  'departed',
  'cancelled',
] as const;
export type FlightStatus = (typeof FLIGHT_STATUSES)[number];

/** Fare brands airlines sell without changes or refunds, under their various names. */
const NON_CHANGEABLE_FARE = /\b(basic|light|saver ?lite|lite|blue basic|economy light|non[- ]?refundable|nonref)\b/i;

/**
 * Refundable Economy, Flexible Economy, Premium Economy, Business Class and First
 * Class can be rebooked; Basic Economy (non-refundable) cannot. Any other fare brand is eligible
 * only when the source says the airline allows changes, and never when it reads as a no-change fare.
 */
export function isEligibleFareType(fareType: string | null | undefined, fareChangeable?: boolean): boolean {
  const fare = fareType?.trim() ?? '';
  if (!fare) return fareChangeable === true;
  if (NON_CHANGEABLE_FARE.test(fare)) return false;
  if (SUPPORTED_FARE_TYPES.some((supported) => supported.toLowerCase() === fare.toLowerCase())) return true;
  return fareChangeable === true;
}

export interface SavingsInput {
  originalPrice: number;
  currentPrice: number | null;
  hasBeenRebooked: boolean;
  rebookingPrice: number | null;
  airlineCredit: number | null;
}

/**
 * A rebooked flight saved its airline credit (or, without one, original minus
 * rebooking price); otherwise the potential saving is original minus current when current is
 * lower, else 0. Never negative.
 */
export function flightSavings(f: SavingsInput): number {
  if (f.hasBeenRebooked) {
    if (f.airlineCredit !== null && f.airlineCredit > 0) return f.airlineCredit;
    if (f.rebookingPrice !== null) return Math.max(0, f.originalPrice - f.rebookingPrice);
    return 0;
  }
  if (f.currentPrice !== null && f.currentPrice < f.originalPrice) return f.originalPrice - f.currentPrice;
  return 0;
}

/** Savings as a percentage of the original price (unrounded; shown with one decimal). */
export function savingsPercent(savings: number, originalPrice: number): number {
  return originalPrice > 0 ? (savings / originalPrice) * 100 : 0;
}

/** Rounded to one decimal, as the toast and the card show it. */
export function roundPercent(percent: number): number {
  return Math.round(percent * 10) / 10;
}

/** The rebook button shows only for a price drop on an eligible fare that is not yet rebooked. */
export function canRebook(f: { status: string; isEligibleForRebooking: boolean; hasBeenRebooked: boolean }): boolean {
  return f.status === 'price_drop' && f.isEligibleForRebooking && !f.hasBeenRebooked;
}

/** Airline credit is typically valid one year: the expiry date of a credit issued on `issued`. */
export function creditExpiryDate(issued: Date): string {
  const expiry = new Date(Date.UTC(issued.getUTCFullYear() + 1, issued.getUTCMonth(), issued.getUTCDate()));
  return expiry.toISOString().slice(0, 10);
}

/**
 * A credit below this share of the net drop FareBack found is refused on a guided rebooking: the
 * airline gives back the fare difference less its change fee, so far less than that is a typo or
 * an under-declaration (which would also shrink the commission).
 */
export const CREDIT_MIN_SHARE = 0.5;
/** Below this share (and at or above CREDIT_MIN_SHARE) the credit is accepted and flagged for review. */
export const CREDIT_REVIEW_SHARE = 0.9;

export interface CreditPlausibility {
  /** The net drop FareBack found: price paid - the lower fare found - the change fee (cents, >= 0). */
  expected: number;
  /** The lowest credit accepted (cents, at least 1). */
  min: number;
  /** The highest: the fare difference declared, price paid - new price (cents). */
  max: number;
  /** Accepted credits below this are flagged for an admin's review. */
  reviewBelow: number;
}

/**
 * What the airline credit of a guided (airline-direct) rebooking can plausibly be: at most the fare
 * difference the traveller declares (no airline credits more than it), at least half the net drop
 * FareBack found (the found lower fare vs the price paid, less the change fee the quote gave).
 */
export function creditPlausibility(f: {
  pricePaid: number;
  foundPrice: number | null;
  changePenalty: number | null;
  newPrice: number;
}): CreditPlausibility {
  const expected =
    f.foundPrice === null ? 0 : Math.max(0, f.pricePaid - f.foundPrice - Math.max(0, f.changePenalty ?? 0));
  return {
    expected,
    min: Math.max(1, Math.ceil(expected * CREDIT_MIN_SHARE)),
    max: f.pricePaid - f.newPrice,
    reviewBelow: Math.ceil(expected * CREDIT_REVIEW_SHARE),
  };
}
