// The payments adapter: every call FareBack makes to a payment provider goes through this
// interface. Two implementations: Stripe (stripe.ts, the `stripe` SDK) when a secret key is
// configured, and the local test mode (local.ts) when the server opted in to it
// (PAYMENTS_TEST_MODE), which charges no card and is completed by an explicit confirmation.
// With neither, every call is refused (index.ts). Money is integer cents (USD).
import { PAYMENTS_UNAVAILABLE, type PaymentIntentStatus, type PaymentMode } from '../types/billing.ts';

export type Metadata = Record<string, string>;

export interface PaymentIntentInfo {
  id: string;
  status: PaymentIntentStatus;
  amount: number;
  /** For the browser's card form (Stripe Elements); null in test mode. */
  clientSecret: string | null;
  customerId: string | null;
  /** The card used, once one was. */
  paymentMethodId: string | null;
  metadata: Metadata;
  /** The provider's reason when the last attempt failed (a decline), else null. */
  failureMessage: string | null;
}

export interface SubscriptionInfo {
  id: string;
  customerId: string;
  /** Stripe's status: active, trialing, past_due, canceled, unpaid, incomplete, incomplete_expired, paused. */
  status: string;
  cancelAtPeriodEnd: boolean;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  defaultPaymentMethodId: string | null;
  metadata: Metadata;
}

export interface CheckoutSessionInfo {
  id: string;
  url: string | null;
  customerId: string | null;
  subscriptionId: string | null;
  /** 'paid' | 'unpaid' | 'no_payment_required' */
  paymentStatus: string;
  metadata: Metadata;
}

export interface InvoiceInfo {
  id: string;
  /** The subscription it bills, or null. */
  subscriptionId: string | null;
  customerId: string | null;
  /** draft | open | paid | uncollectible | void */
  status: string;
  amountDue: number;
  amountPaid: number;
}

/**
 * A dispute as Stripe reports it: status warning_needs_response, warning_under_review,
 * warning_closed, needs_response, under_review, won, lost or prevented
 * (docs.stripe.com/api/disputes/object).
 */
export interface DisputeInfo {
  id: string;
  chargeId: string;
  paymentIntentId: string | null;
  amount: number;
  status: string;
}

/** A verified webhook event: its id, type and the id of the object it is about. */
export interface PaymentEvent {
  id: string;
  type: string;
  objectId: string;
  /** The event's object as sent (read back from the provider before acting on it). */
  object: Record<string, unknown>;
}

export interface CreatePaymentIntent {
  customerId: string;
  amount: number;
  description: string;
  metadata: Metadata;
  /** Keep the card for later off-session charges (commission statements). */
  saveCard: boolean;
  /** The same key answers the same intent however often the call is repeated (a debt's key). */
  idempotencyKey?: string;
}

export interface RefundPayment {
  paymentIntentId: string;
  /** Cents; at most what the intent took. */
  amount: number;
  /** The same key refunds once (Stripe keeps a key for at least 24 hours). */
  idempotencyKey: string;
  metadata: Metadata;
}

export interface ChargeSavedCard {
  /** The same key charges once, however often the call is repeated (a statement's id). */
  idempotencyKey: string;
  customerId: string;
  paymentMethodId: string;
  amount: number;
  description: string;
  metadata: Metadata;
}

export interface CreateCheckoutSession {
  customerId: string;
  /** The plan's annual price in cents, its name and description (the plan row governs). */
  amount: number;
  planName: string;
  planDescription: string | null;
  metadata: Metadata;
  successUrl: string;
  cancelUrl: string;
}

export interface Payments {
  mode: PaymentMode;
  createCustomer(input: { email: string | null; userId: string }): Promise<string>;
  createPaymentIntent(input: CreatePaymentIntent): Promise<PaymentIntentInfo>;
  /** Off-session charge of a saved card. A decline answers the intent (status not succeeded, failureMessage), it does not throw. */
  chargeSavedCard(input: ChargeSavedCard): Promise<PaymentIntentInfo>;
  retrievePaymentIntent(id: string): Promise<PaymentIntentInfo>;
  cancelPaymentIntent(id: string): Promise<void>;
  /** Gives back part or all of a succeeded intent's money to the card; answers the refund's id. */
  refundPayment(input: RefundPayment): Promise<{ id: string }>;
  createCheckoutSession(input: CreateCheckoutSession): Promise<{ id: string; url: string }>;
  retrieveCheckoutSession(id: string): Promise<CheckoutSessionInfo>;
  retrieveSubscription(id: string): Promise<SubscriptionInfo>;
  cancelSubscriptionAtPeriodEnd(id: string): Promise<SubscriptionInfo>;
  /** Renewal back on: a subscription set to cancel at its period end renews again. */
  resumeSubscription(id: string): Promise<SubscriptionInfo>;
  /**
   * Where the traveller changes their card: a Stripe Billing Portal session for the customer
   * (docs.stripe.com/api/customer_portal/sessions/create), which comes back to `returnUrl`.
   */
  createBillingPortalSession(input: { customerId: string; returnUrl: string }): Promise<{ url: string }>;
  /** The customer's default card (invoice_settings.default_payment_method), after a Billing Portal change. */
  retrieveDefaultCard(customerId: string): Promise<string | null>;
  /**
   * Cancels a subscription now: Stripe charges nothing more for it
   * (docs.stripe.com/api/subscriptions/cancel). For a chargeback the cardholder won.
   */
  cancelSubscription(id: string): Promise<SubscriptionInfo>;
  retrieveInvoice(invoiceId: string): Promise<InvoiceInfo>;
  /** A charge: the intent it belongs to, its customer and whether it was refunded in full. */
  retrieveCharge(
    chargeId: string,
  ): Promise<{ id: string; paymentIntentId: string | null; customerId: string | null; refunded: boolean }>;
  /** A dispute (chargeback) on a charge. */
  retrieveDispute(disputeId: string): Promise<DisputeInfo>;
  /** Verifies the signature on the raw body; throws WebhookSignatureError. */
  verifyWebhook(rawBody: string, signature: string | null): Promise<PaymentEvent>;
}

/** The provider could not be reached or refused the request (not the card). */
export class PaymentProviderError extends Error {
  constructor(message = 'The payment provider is unavailable. Please try again later.', options?: ErrorOptions) {
    super(message, options);
    this.name = 'PaymentProviderError';
  }
}

/** The card was declined; the message is the provider's, for the traveller. */
export class CardDeclinedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CardDeclinedError';
  }
}

/** The server has no payments configured (no Stripe key, no test mode). */
export class PaymentsUnavailableError extends Error {
  constructor(message = PAYMENTS_UNAVAILABLE) {
    super(message);
    this.name = 'PaymentsUnavailableError';
  }
}

export class WebhookSignatureError extends Error {
  constructor(message = 'Invalid webhook signature') {
    super(message);
    this.name = 'WebhookSignatureError';
  }
}
