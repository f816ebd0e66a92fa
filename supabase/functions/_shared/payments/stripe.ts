// The payments adapter on Stripe, through the `stripe` SDK. `apiUrl` points the SDK elsewhere
// (its host/port/protocol settings): the tests' local Stripe stand-in (testing/stripe-stub.ts).
// Webhooks are verified on the raw body with the SubtleCrypto provider (Deno has no node crypto
// HMAC in the SDK's default provider). Since API version 2025-03-31 a subscription's period is on
// its items and an invoice names its subscription under parent.subscription_details; both
// places are read. Two requests with one idempotency key at the same moment (concurrent calls for
// one debt): Stripe answers the later one 409 and the SDK retries it (stripe-node RequestSender,
// "Retry on conflict errors"), when it gets the first one's answer.
import Stripe from 'stripe';
import type { PaymentIntentStatus } from '../types/billing.ts';
import {
  CardDeclinedError,
  type CheckoutSessionInfo,
  type DisputeInfo,
  type InvoiceInfo,
  type Metadata,
  type PaymentIntentInfo,
  PaymentProviderError,
  type Payments,
  type SubscriptionInfo,
  WebhookSignatureError,
} from './types.ts';

export interface StripePaymentsOptions {
  secretKey: string;
  webhookSecret: string;
  /** e.g. http://127.0.0.1:12111 for a local stand-in; default Stripe's own API. */
  apiUrl?: string | null;
  timeoutMs?: number;
  maxNetworkRetries?: number;
}

const cryptoProvider = Stripe.createSubtleCryptoProvider();

function idOf(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'string') {
    return (value as { id: string }).id;
  }
  return null;
}

function dateOf(seconds: unknown): Date | null {
  return typeof seconds === 'number' ? new Date(seconds * 1000) : null;
}

function intentInfo(pi: Stripe.PaymentIntent): PaymentIntentInfo {
  return {
    id: pi.id,
    status: pi.status as PaymentIntentStatus,
    amount: pi.amount,
    clientSecret: pi.client_secret ?? null,
    customerId: idOf(pi.customer),
    paymentMethodId: idOf(pi.payment_method),
    metadata: (pi.metadata ?? {}) as Metadata,
    failureMessage: pi.last_payment_error?.message ?? null,
  };
}

function subscriptionInfo(sub: Stripe.Subscription): SubscriptionInfo {
  const loose = sub as unknown as Record<string, unknown>;
  const item = sub.items?.data?.[0] as unknown as Record<string, unknown> | undefined;
  return {
    id: sub.id,
    customerId: idOf(sub.customer) ?? '',
    status: sub.status,
    cancelAtPeriodEnd: sub.cancel_at_period_end,
    currentPeriodStart: dateOf(item?.current_period_start ?? loose.current_period_start),
    currentPeriodEnd: dateOf(item?.current_period_end ?? loose.current_period_end),
    defaultPaymentMethodId: idOf(sub.default_payment_method),
    metadata: (sub.metadata ?? {}) as Metadata,
  };
}

/** The SDK's errors as ours: a decline is the traveller's, everything else the provider's. */
function providerError(error: unknown): Error {
  if (error instanceof Stripe.errors.StripeCardError) return new CardDeclinedError(error.message);
  return new PaymentProviderError(undefined, { cause: error });
}

async function call<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw providerError(error);
  }
}

export function createStripePayments(options: StripePaymentsOptions): Payments {
  const url = options.apiUrl ? new URL(options.apiUrl) : null;
  const stripe = new Stripe(options.secretKey, {
    httpClient: Stripe.createFetchHttpClient(),
    timeout: options.timeoutMs ?? 20_000,
    maxNetworkRetries: options.maxNetworkRetries ?? 2,
    ...(url
      ? {
          host: url.hostname,
          port: url.port || (url.protocol === 'https:' ? '443' : '80'),
          protocol: url.protocol.replace(':', '') as 'http' | 'https',
        }
      : {}),
  });

  return {
    mode: 'stripe',
    createCustomer: ({ email, userId }) =>
      call(async () => {
        const customer = await stripe.customers.create(
          { ...(email ? { email } : {}), metadata: { userId } },
          // one customer per traveller even when the call is retried
          { idempotencyKey: `customer:${userId}` },
        );
        return customer.id;
      }),
    createPaymentIntent: ({ customerId, amount, description, metadata, saveCard, idempotencyKey }) =>
      call(async () =>
        intentInfo(
          await stripe.paymentIntents.create(
            {
              amount,
              currency: 'usd',
              customer: customerId,
              description,
              metadata,
              automatic_payment_methods: { enabled: true },
              ...(saveCard ? { setup_future_usage: 'off_session' as const } : {}),
            },
            idempotencyKey ? { idempotencyKey } : undefined,
          ),
        ),
      ),
    async chargeSavedCard({ idempotencyKey, customerId, paymentMethodId, amount, description, metadata }) {
      try {
        return intentInfo(
          await stripe.paymentIntents.create(
            {
              amount,
              currency: 'usd',
              customer: customerId,
              payment_method: paymentMethodId,
              description,
              metadata,
              off_session: true,
              confirm: true,
            },
            { idempotencyKey },
          ),
        );
      } catch (error) {
        // a declined off-session charge: Stripe answers 402 with the intent it left behind
        if (error instanceof Stripe.errors.StripeCardError) {
          const pi = (error.raw as { payment_intent?: Stripe.PaymentIntent } | undefined)?.payment_intent;
          if (pi) return { ...intentInfo(pi), failureMessage: error.message };
          throw new CardDeclinedError(error.message);
        }
        throw providerError(error);
      }
    },
    retrievePaymentIntent: (id) => call(async () => intentInfo(await stripe.paymentIntents.retrieve(id))),
    cancelPaymentIntent: (id) =>
      call(async () => {
        await stripe.paymentIntents.cancel(id);
      }),
    // Stripe API reference, "Create a refund": payment_intent and amount (cents, partial allowed)
    refundPayment: ({ paymentIntentId, amount, idempotencyKey, metadata }) =>
      call(async () => {
        const refund = await stripe.refunds.create(
          { payment_intent: paymentIntentId, amount, metadata },
          { idempotencyKey },
        );
        return { id: refund.id };
      }),
    createCheckoutSession: ({ customerId, amount, planName, planDescription, metadata, successUrl, cancelUrl }) =>
      call(async () => {
        const session = await stripe.checkout.sessions.create({
          mode: 'subscription',
          customer: customerId,
          client_reference_id: metadata.userId,
          line_items: [
            {
              quantity: 1,
              // the plan row governs the price: an annual price made from it, not a stored price id
              price_data: {
                currency: 'usd',
                unit_amount: amount,
                recurring: { interval: 'year' },
                product_data: { name: planName, ...(planDescription ? { description: planDescription } : {}) },
              },
            },
          ],
          metadata,
          subscription_data: { metadata },
          // the card is kept for the commission statements' off-session charges
          payment_method_collection: 'always',
          success_url: successUrl,
          cancel_url: cancelUrl,
        });
        if (!session.url) throw new PaymentProviderError();
        return { id: session.id, url: session.url };
      }),
    retrieveCheckoutSession: (id) =>
      call(async (): Promise<CheckoutSessionInfo> => {
        const s = await stripe.checkout.sessions.retrieve(id);
        return {
          id: s.id,
          url: s.url ?? null,
          customerId: idOf(s.customer),
          subscriptionId: idOf(s.subscription),
          paymentStatus: s.payment_status,
          metadata: (s.metadata ?? {}) as Metadata,
        };
      }),
    retrieveSubscription: (id) => call(async () => subscriptionInfo(await stripe.subscriptions.retrieve(id))),
    cancelSubscriptionAtPeriodEnd: (id) =>
      call(async () => subscriptionInfo(await stripe.subscriptions.update(id, { cancel_at_period_end: true }))),
    resumeSubscription: (id) =>
      call(async () => subscriptionInfo(await stripe.subscriptions.update(id, { cancel_at_period_end: false }))),
    createBillingPortalSession: ({ customerId, returnUrl }) =>
      call(async () => {
        const session = await stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl });
        return { url: session.url };
      }),
    retrieveDefaultCard: (customerId) =>
      call(async () => {
        const customer = await stripe.customers.retrieve(customerId);
        if (customer.deleted) return null;
        return idOf(customer.invoice_settings?.default_payment_method ?? null);
      }),
    // DELETE /v1/subscriptions/:id (docs.stripe.com/api/subscriptions/cancel)
    cancelSubscription: (id) => call(async () => subscriptionInfo(await stripe.subscriptions.cancel(id))),
    retrieveCharge: (chargeId) =>
      call(async () => {
        const charge = await stripe.charges.retrieve(chargeId);
        return {
          id: charge.id,
          paymentIntentId: idOf(charge.payment_intent),
          customerId: idOf(charge.customer),
          refunded: charge.refunded,
        };
      }),
    retrieveDispute: (disputeId) =>
      call(async (): Promise<DisputeInfo> => {
        const dispute = await stripe.disputes.retrieve(disputeId);
        return {
          id: dispute.id,
          chargeId: idOf(dispute.charge) ?? '',
          paymentIntentId: idOf(dispute.payment_intent),
          amount: dispute.amount,
          status: dispute.status,
        };
      }),
    retrieveInvoice: (invoiceId) =>
      call(async (): Promise<InvoiceInfo> => {
        const invoice = (await stripe.invoices.retrieve(invoiceId)) as unknown as Record<string, unknown>;
        const parent = invoice.parent as { subscription_details?: { subscription?: unknown } } | null | undefined;
        return {
          id: invoiceId,
          subscriptionId: idOf(parent?.subscription_details?.subscription) ?? idOf(invoice.subscription),
          customerId: idOf(invoice.customer),
          status: String(invoice.status ?? ''),
          amountDue: Number(invoice.amount_due ?? 0),
          amountPaid: Number(invoice.amount_paid ?? 0),
        };
      }),
    async verifyWebhook(rawBody, signature) {
      if (!signature) throw new WebhookSignatureError('Missing Stripe-Signature header');
      let event: Stripe.Event;
      try {
        event = await stripe.webhooks.constructEventAsync(
          rawBody,
          signature,
          options.webhookSecret,
          undefined,
          cryptoProvider,
        );
      } catch {
        throw new WebhookSignatureError();
      }
      const object = event.data.object as unknown as Record<string, unknown>;
      return { id: event.id, type: event.type, objectId: idOf(object) ?? '', object };
    },
  };
}
