// Subscriptions, payments and commission billing as the API shows them (the calls under
// /api/subscription, /api/stripe and /api/billing; docs/architecture.md "Billing API"). Money is
// integer cents; dates are ISO 8601 strings. The web app reads these same types.
import type { ListPage } from '../schemas/pagination.ts';
import type { SubscriptionTier } from '../constants.ts';
import type { SubscriptionPlan } from './plans.ts';

/**
 * How payments are taken: 'stripe' when a Stripe secret key is configured; 'test' when the
 * server opted in to the local test mode (PAYMENTS_TEST_MODE=true: the local stack and tests);
 * 'unavailable' with neither, where every payment call answers 503 (PAYMENTS_UNAVAILABLE) and
 * nothing is charged or marked paid. In test mode no card is charged: a payment is completed by
 * `POST /api/stripe/test-mode/confirm` and writes the same rows a real one would.
 */
export type PaymentMode = 'stripe' | 'test' | 'unavailable';

/** What the checkout and the card form say in test mode. */
export const TEST_MODE_NOTICE = 'Test mode: no real card is charged';

/** The 503 answer of every payment call on a server with no payments configured; the web shows it too. */
export const PAYMENTS_UNAVAILABLE = 'Payments are not configured on this server.';

/**
 * The state of the caller's paid subscription:
 *   none       never paid (the free plan)
 *   active     paid and current; `renews` says whether it renews at `endDate`
 *   canceled   no renewal: a downgrade scheduled for `endDate` (still premium), or one made at once
 *   past_due   a renewal payment failed; Stripe retries it
 *   expired    the paid period ended without renewal
 */
export const SUBSCRIPTION_STATUSES = ['none', 'active', 'canceled', 'past_due', 'expired'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export interface CurrentSubscription {
  tier: SubscriptionTier;
  /** The plan the caller is on (by id; a retired plan still shows to those on it). */
  plan: SubscriptionPlan;
  status: SubscriptionStatus;
  /** When the current paid period began / ends (null on the free plan without a past payment). */
  startDate: string | null;
  endDate: string | null;
  /** True when the subscription renews automatically at `endDate` (a Stripe subscription, or a year paid by card). */
  renews: boolean;
  /** Whether a card is saved for commission statements. */
  hasSavedCard: boolean;
  paymentMode: PaymentMode;
  /** When a renewing year renews and what it will cost (the plan row's price), or null. */
  renewal: { date: string; amount: number } | null;
  /** A change already decided: a downgrade at the end of the paid year (renewal off), or null. */
  scheduledChange: { tier: 'free'; at: string } | null;
  /** A payment that failed and is still owed (the banner with 'Update card'), or null. */
  paymentIssue: PaymentIssue | null;
}

/**
 * FareBack's renewal of a year paid by card: a failed charge is tried again these many days after
 * the first failure (private.renewals_due); after the last the year lapses to Free.
 */
export const RENEWAL_RETRY_DAYS = [1, 3, 7] as const;

/**
 * A failed charge the traveller must act on: a renewal (Premium kept while it is retried) or a
 * commission statement (the commission stays owed). `retry` says when it is tried again (null: no
 * more automatic tries, or Stripe's schedule), `outcome` what happens if it keeps failing.
 */
export interface PaymentIssue {
  purpose: 'subscription' | 'commission';
  amount: number;
  reason: string;
  retry: string | null;
  outcome: string;
}

/** `POST /api/billing/card`: Stripe's Billing Portal to change the card, or (test mode) the card saved at once. */
export interface ChangeCardResponse {
  /** Where to send the browser (the Billing Portal); null when the card was saved here (test mode). */
  url: string | null;
  message: string;
  paymentMode: PaymentMode;
  /** A failed renewal charged again with the new card: its outcome (null when none was due). */
  renewal: 'renewed' | 'retrying' | 'lapsing' | null;
}

/** `GET /api/subscription/current` */
export interface CurrentSubscriptionResponse {
  subscription: CurrentSubscription;
}

/** `POST /api/subscription/update` (downgrade to free only). */
export interface UpdateSubscriptionResponse {
  success: true;
  /** e.g. 'Your subscription has been downgraded. Auto-rebooking has been disabled. ...' */
  message: string;
  subscription: CurrentSubscription;
  /** Watched flights above the free plan's limit: how many to remove before adding another (0 if none). */
  flightsOverLimit: number;
  /** The free plan's flight limit (-1 unlimited). */
  flightLimit: number;
  /** The date the paid premium period ends (it is not renewed), or null when none was paid. */
  paidThrough: string | null;
}

/** `POST /api/stripe/create-checkout-session` */
export interface CheckoutSessionResponse {
  /**
   * Where to send the browser: Stripe Checkout, or in test mode the app's own
   * `/premium-checkout?test_payment=<paymentIntentId>` page, which confirms with the test-mode call.
   */
  url: string;
  paymentMode: PaymentMode;
  /** Test mode only: the payment to confirm with `POST /api/stripe/test-mode/confirm`. */
  paymentIntentId: string | null;
}

/** Status of a payment intent as Stripe names it (the ones the app distinguishes). */
export type PaymentIntentStatus =
  'requires_payment_method' | 'requires_confirmation' | 'requires_action' | 'processing' | 'succeeded' | 'canceled';

/**
 * `POST /api/stripe/payment-intent` and `POST /api/stripe/pay-commission`. `clientSecret` is for
 * Stripe Elements (confirmPayment); in test mode it is null and the payment is completed by
 * `POST /api/stripe/test-mode/confirm {paymentIntentId, outcome}`. Success of the payment itself
 * is only `status === 'succeeded'`.
 */
export interface PaymentIntentResponse {
  /** The intent was created (or, for a saved card, charged); not that money moved: see `status`. */
  success: boolean;
  message: string;
  paymentIntentId: string;
  clientSecret: string | null;
  status: PaymentIntentStatus;
  amount: number;
  paymentMode: PaymentMode;
}

/** `POST /api/stripe/test-mode/confirm` (test mode only). */
export interface TestModeConfirmResponse {
  success: boolean;
  message: string;
  paymentIntentId: string;
  status: 'succeeded' | 'requires_payment_method';
}

/** `GET /api/billing/commission` */
export interface CommissionSummaryResponse {
  commissionSummary: {
    /** Commission recorded at rebookings and not yet paid, in cents. */
    commissionOwed: number;
    /** Airline credit earned through rebookings, in cents. */
    totalCreditsEarned: number;
  };
}

export const BILLING_TRANSACTION_TYPES = ['subscription', 'commission', 'refund', 'credit', 'adjustment'] as const;
export type BillingTransactionType = (typeof BILLING_TRANSACTION_TYPES)[number];
export const BILLING_STATUSES = ['pending', 'completed', 'failed', 'refunded'] as const;
export type BillingStatus = (typeof BILLING_STATUSES)[number];

/** One row of the Payment History table. */
export interface BillingHistoryItem {
  id: number;
  /** transactionDate, ISO 8601. */
  date: string;
  type: BillingTransactionType;
  amount: number;
  status: BillingStatus;
  description: string | null;
  billingPeriodStart: string | null;
  billingPeriodEnd: string | null;
}

/**
 * `GET /api/billing/history?page&pageSize&sort&order`: newest first by default. `transactions`
 * is the page (the spec's name), with the shared list convention's total/page/pageSize.
 */
export interface BillingHistoryResponse extends Omit<ListPage<BillingHistoryItem>, 'items'> {
  transactions: BillingHistoryItem[];
}

/** `POST /api/stripe/webhook` */
export interface WebhookResponse {
  received: true;
  /** False when the event id was seen before (a replay: answered 200, nothing done). */
  processed: boolean;
}
