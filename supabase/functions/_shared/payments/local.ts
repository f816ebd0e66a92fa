// The local test mode: payments without a payment provider, for the local stack (no Stripe key).
// No card is charged. An intent is a row the api keeps (LocalIntentStore) and stays
// 'requires_payment_method' until `confirm` (POST /api/stripe/test-mode/confirm) says how it
// ends; the api then writes exactly what Stripe's webhook would have made it write. A saved
// "card" (pm_test_card) lets a commission statement or a renewal charge off-session, which succeeds;
// DECLINING_TEST_CARD (saved by the test mode's card change) is declined.
import { sha256Hex } from '../sha256.ts';
import type { PaymentIntentStatus } from '../types/billing.ts';
import {
  type Metadata,
  type PaymentIntentInfo,
  PaymentProviderError,
  type Payments,
  WebhookSignatureError,
} from './types.ts';

export interface LocalIntent {
  id: string;
  customerId: string;
  amount: number;
  status: Extract<PaymentIntentStatus, 'requires_payment_method' | 'succeeded' | 'canceled'>;
  metadata: Metadata;
  paymentMethodId: string | null;
  failureMessage: string | null;
}

export interface LocalIntentStore {
  /** Keeps a new intent; an id already kept is left as it is. */
  insert(intent: LocalIntent): Promise<void>;
  get(id: string): Promise<LocalIntent | null>;
  update(id: string, patch: Pick<LocalIntent, 'status' | 'paymentMethodId' | 'failureMessage'>): Promise<void>;
}

export const TEST_CARD = 'pm_test_card';
export const TEST_DECLINE_MESSAGE = 'Your card was declined. (test mode: no real card was charged)';
/** A saved test card whose off-session charges are declined (Stripe's test payment method of that name). */
export const DECLINING_TEST_CARD = 'pm_card_chargeDeclined';

export interface LocalPayments extends Payments {
  mode: 'test';
  /** Ends a test payment: 'succeeded' saves the test card; 'failed' declines it (it may be confirmed again). */
  confirm(id: string, outcome: 'succeeded' | 'failed'): Promise<PaymentIntentInfo>;
}

function info(intent: LocalIntent): PaymentIntentInfo {
  return { ...intent, clientSecret: null };
}

function unsupported(what: string): never {
  throw new PaymentProviderError(`${what} is not available in local test mode.`);
}

/** An id of its own, or one made from an idempotency key: the same key, the same intent. */
async function intentId(idempotencyKey: string | undefined): Promise<string> {
  if (!idempotencyKey) return `pi_test_${crypto.randomUUID().replaceAll('-', '')}`;
  return `pi_test_${(await sha256Hex(idempotencyKey)).slice(0, 32)}`;
}

export function createLocalPayments(store: LocalIntentStore): LocalPayments {
  const load = async (id: string) => {
    const intent = await store.get(id);
    if (!intent) throw new PaymentProviderError(`No such payment intent: ${id}`);
    return intent;
  };
  return {
    mode: 'test',
    createCustomer: ({ userId }) => Promise.resolve(`cus_test_${userId.replaceAll('-', '')}`),
    async createPaymentIntent({ customerId, amount, metadata, idempotencyKey }) {
      const intent: LocalIntent = {
        id: await intentId(idempotencyKey),
        customerId,
        amount,
        status: 'requires_payment_method',
        metadata,
        paymentMethodId: null,
        failureMessage: null,
      };
      // a repeated key answers the intent it made first, as Stripe does
      await store.insert(intent);
      return info(await load(intent.id));
    },
    async chargeSavedCard({ idempotencyKey, customerId, paymentMethodId, amount, metadata }) {
      const declined = paymentMethodId === DECLINING_TEST_CARD;
      const intent: LocalIntent = {
        id: await intentId(idempotencyKey),
        customerId,
        amount,
        status: declined ? 'requires_payment_method' : 'succeeded',
        metadata,
        paymentMethodId,
        failureMessage: declined ? TEST_DECLINE_MESSAGE : null,
      };
      await store.insert(intent);
      return info(await load(intent.id));
    },
    retrievePaymentIntent: async (id) => info(await load(id)),
    async cancelPaymentIntent(id) {
      const intent = await load(id);
      if (intent.status !== 'succeeded') {
        await store.update(id, { status: 'canceled', paymentMethodId: intent.paymentMethodId, failureMessage: null });
      }
    },
    async refundPayment({ paymentIntentId, idempotencyKey }) {
      const intent = await load(paymentIntentId);
      if (intent.status !== 'succeeded') throw new PaymentProviderError(`Payment ${paymentIntentId} has not succeeded`);
      // nothing was charged, so nothing moves: the refund is only named
      return { id: (await intentId(idempotencyKey)).replace('pi_test_', 're_test_') };
    },
    createCheckoutSession: () => unsupported('Stripe Checkout'),
    retrieveCheckoutSession: () => unsupported('Stripe Checkout'),
    retrieveSubscription: () => unsupported('A Stripe subscription'),
    cancelSubscriptionAtPeriodEnd: () => unsupported('A Stripe subscription'),
    cancelSubscription: () => unsupported('A Stripe subscription'),
    resumeSubscription: () => unsupported('A Stripe subscription'),
    // the test mode changes the card itself (services/billing/card.ts)
    createBillingPortalSession: () => unsupported('The Stripe Billing Portal'),
    retrieveDefaultCard: () => Promise.resolve(null),
    retrieveInvoice: () => unsupported('A Stripe invoice'),
    retrieveCharge: () => unsupported('A Stripe charge'),
    retrieveDispute: () => unsupported('A Stripe dispute'),
    verifyWebhook: () =>
      Promise.reject(new WebhookSignatureError('Payments run in local test mode: Stripe webhooks are not accepted')),
    async confirm(id, outcome) {
      const intent = await load(id);
      const next: LocalIntent =
        outcome === 'succeeded'
          ? { ...intent, status: 'succeeded', paymentMethodId: TEST_CARD, failureMessage: null }
          : { ...intent, status: 'requires_payment_method', failureMessage: TEST_DECLINE_MESSAGE };
      await store.update(id, next);
      return info(next);
    },
  };
}
