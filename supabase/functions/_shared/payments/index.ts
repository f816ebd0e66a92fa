// The payments adapter the api uses: Stripe when a secret key is configured, the local test mode
// (which keeps its intents through `localStore`) only when the server opted in to it, and
// otherwise none: a stand-in never switches itself on because a key is missing.
import { createLocalPayments, type LocalIntentStore } from './local.ts';
import { createStripePayments } from './stripe.ts';
import { type Payments, PaymentsUnavailableError } from './types.ts';

export interface PaymentsConfig {
  /** STRIPE_SECRET_KEY; null: the test mode when `testMode`, else no payments. */
  stripeSecretKey: string | null;
  /** PAYMENTS_TEST_MODE=true: the local test mode (local stack and tests only; refused beside a key). */
  testMode: boolean;
  /** STRIPE_WEBHOOK_SECRET (whsec_...), required with a secret key. */
  stripeWebhookSecret: string | null;
  /** STRIPE_API_URL: another Stripe API address (the tests' stand-in); null for Stripe's own. */
  stripeApiUrl: string | null;
}

export function createPayments(config: PaymentsConfig, localStore: LocalIntentStore): Payments {
  if (config.stripeSecretKey) {
    return createStripePayments({
      secretKey: config.stripeSecretKey,
      webhookSecret: config.stripeWebhookSecret ?? '',
      apiUrl: config.stripeApiUrl,
    });
  }
  if (config.testMode) return createLocalPayments(localStore);
  return unavailablePayments();
}

/** No payment provider: every call is refused (the api answers 503 before it gets here). */
function unavailablePayments(): Payments {
  const refuse = () => Promise.reject(new PaymentsUnavailableError());
  return {
    mode: 'unavailable',
    createCustomer: refuse,
    createPaymentIntent: refuse,
    chargeSavedCard: refuse,
    retrievePaymentIntent: refuse,
    cancelPaymentIntent: refuse,
    createCheckoutSession: refuse,
    retrieveCheckoutSession: refuse,
    retrieveSubscription: refuse,
    cancelSubscriptionAtPeriodEnd: refuse,
    cancelSubscription: refuse,
    resumeSubscription: refuse,
    createBillingPortalSession: refuse,
    retrieveDefaultCard: refuse,
    retrieveInvoice: refuse,
    retrieveCharge: refuse,
    retrieveDispute: refuse,
    refundPayment: refuse,
    verifyWebhook: refuse,
  };
}

export * from './types.ts';
