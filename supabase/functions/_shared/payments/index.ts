// The payments adapter the api uses: Stripe when a secret key is configured, else the local test
// mode (which keeps its intents through `localStore`).
import { createLocalPayments, type LocalIntentStore } from './local.ts';
import { createStripePayments } from './stripe.ts';
import type { Payments } from './types.ts';

export interface PaymentsConfig {
  /** STRIPE_SECRET_KEY; null: local test mode. */
  stripeSecretKey: string | null;
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
  return createLocalPayments(localStore);
}

export * from './types.ts';
