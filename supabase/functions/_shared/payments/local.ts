// The local test mode: payments without a payment provider, for the local stack (no Stripe key).
// No card is charged. An intent is a row the api keeps (LocalIntentStore) and stays
// 'requires_payment_method' until `confirm` (POST /api/stripe/test-mode/confirm) says how it
// ends; the api then writes exactly what Stripe's webhook would have made it write. A saved
// "card" (pm_test_card) lets a commission statement charge off-session, which succeeds.
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
  insert(intent: LocalIntent): Promise<void>;
  get(id: string): Promise<LocalIntent | null>;
  update(id: string, patch: Pick<LocalIntent, 'status' | 'paymentMethodId' | 'failureMessage'>): Promise<void>;
}

export const TEST_CARD = 'pm_test_card';
export const TEST_DECLINE_MESSAGE = 'Your card was declined. (test mode: no real card was charged)';

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

export function createLocalPayments(store: LocalIntentStore): LocalPayments {
  const newId = () => `pi_test_${crypto.randomUUID().replaceAll('-', '')}`;
  const load = async (id: string) => {
    const intent = await store.get(id);
    if (!intent) throw new PaymentProviderError(`No such payment intent: ${id}`);
    return intent;
  };
  return {
    mode: 'test',
    createCustomer: ({ userId }) => Promise.resolve(`cus_test_${userId.replaceAll('-', '')}`),
    async createPaymentIntent({ customerId, amount, metadata }) {
      const intent: LocalIntent = {
        id: newId(),
        customerId,
        amount,
        status: 'requires_payment_method',
        metadata,
        paymentMethodId: null,
        failureMessage: null,
      };
      await store.insert(intent);
      return info(intent);
    },
    async chargeSavedCard({ customerId, paymentMethodId, amount, metadata }) {
      const intent: LocalIntent = {
        id: newId(),
        customerId,
        amount,
        status: 'succeeded',
        metadata,
        paymentMethodId,
        failureMessage: null,
      };
      await store.insert(intent);
      return info(intent);
    },
    retrievePaymentIntent: async (id) => info(await load(id)),
    async cancelPaymentIntent(id) {
      const intent = await load(id);
      if (intent.status !== 'succeeded') {
        await store.update(id, { status: 'canceled', paymentMethodId: intent.paymentMethodId, failureMessage: null });
      }
    },
    createCheckoutSession: () => unsupported('Stripe Checkout'),
    retrieveCheckoutSession: () => unsupported('Stripe Checkout'),
    retrieveSubscription: () => unsupported('A Stripe subscription'),
    cancelSubscriptionAtPeriodEnd: () => unsupported('A Stripe subscription'),
    cancelSubscription: () => unsupported('A Stripe subscription'),
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
