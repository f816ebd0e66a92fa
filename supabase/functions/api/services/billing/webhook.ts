// Stripe's webhook: the signature checked on the raw body, each event stored once, and what it
// means read back from the provider and applied in the transaction that stores it.
import { WebhookSignatureError } from '../../../_shared/payments/types.ts';
import type { WebhookResponse } from '../../../_shared/types/billing.ts';
import type { AppDeps } from '../../context.ts';
import type { Tx } from '../../db.ts';
import { HttpError } from '../../errors.ts';
import {
  applySubscription,
  paymentRefunded,
  recordInvoiceFailed,
  recordInvoicePaid,
  recordStripeEvent,
  saveCard,
  saveCustomerId,
  stripeEventSeen,
  userByCustomer,
} from '../../queries/billing.ts';
import { disputeEventWork } from './disputes.ts';
import { provider, requirePayments } from './provider.ts';
import { adoptIntent, applyIntent } from './settlement.ts';

type EventWork = (tx: Tx) => Promise<void>;

/**
 * What an event means, read back from the provider (never from the event's own copy, which may
 * be older than a later event already applied). Runs before the transaction that stores the event.
 */
async function eventWork(deps: AppDeps, type: string, objectId: string): Promise<EventWork | null> {
  const p = deps.payments;
  switch (type) {
    case 'checkout.session.completed': {
      const session = await p.retrieveCheckoutSession(objectId);
      const userId = session.metadata.userId;
      if (!userId || !session.subscriptionId) return null;
      const sub = await p.retrieveSubscription(session.subscriptionId);
      const planId = session.metadata.planId ? Number(session.metadata.planId) : null;
      return async (tx) => {
        if (session.customerId) await saveCustomerId(tx, userId, session.customerId);
        await applySubscription(tx, userId, sub, planId);
      };
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const sub = await p.retrieveSubscription(objectId);
      return async (tx) => {
        const userId = sub.metadata.userId ?? (await userByCustomer(tx, sub.customerId));
        if (!userId) return;
        await applySubscription(tx, userId, sub, sub.metadata.planId ? Number(sub.metadata.planId) : null);
      };
    }
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const invoice = await p.retrieveInvoice(objectId);
      if (!invoice.subscriptionId) return null;
      const sub = await p.retrieveSubscription(invoice.subscriptionId);
      return async (tx) => {
        const userId =
          sub.metadata.userId ?? (invoice.customerId ? await userByCustomer(tx, invoice.customerId) : null);
        if (!userId) return;
        await applySubscription(tx, userId, sub, sub.metadata.planId ? Number(sub.metadata.planId) : null);
        if (invoice.status === 'paid') {
          await recordInvoicePaid(tx, userId, invoice.id, invoice.amountPaid, 'Premium subscription (annual)');
        } else if (type === 'invoice.payment_failed') {
          await recordInvoiceFailed(tx, userId, invoice.id, invoice.amountDue, 'Your card was declined.');
        }
      };
    }
    case 'payment_intent.succeeded':
    case 'payment_intent.payment_failed':
    case 'payment_intent.canceled': {
      const intent = await p.retrievePaymentIntent(objectId);
      const { userId, purpose } = intent.metadata;
      if (!userId || (purpose !== 'subscription' && purpose !== 'commission')) return null;
      return async (tx) => {
        if (await adoptIntent(tx, intent)) await applyIntent(tx, intent);
      };
    }
    case 'charge.refunded': {
      // a full refund only: a partial one leaves the payment as it is
      const charge = await p.retrieveCharge(objectId);
      const intentId = charge.paymentIntentId;
      if (!charge.refunded || !intentId) return null;
      return async (tx) => {
        await paymentRefunded(tx, intentId);
      };
    }
    case 'customer.updated': {
      // a card changed in the Billing Portal: the next renewal and statements use it
      const card = await p.retrieveDefaultCard(objectId);
      if (!card) return null;
      return async (tx) => {
        const userId = await userByCustomer(tx, objectId);
        if (userId) await saveCard(tx, userId, card);
      };
    }
    case 'charge.dispute.created':
    case 'charge.dispute.closed':
      return await disputeEventWork(deps, type, objectId);
    default:
      return null;
  }
}

export async function handleWebhook(
  deps: AppDeps,
  rawBody: string,
  signature: string | null,
): Promise<WebhookResponse> {
  requirePayments(deps);
  let event;
  try {
    event = await deps.payments.verifyWebhook(rawBody, signature);
  } catch (error) {
    if (error instanceof WebhookSignatureError) throw new HttpError(400, error.message);
    throw error;
  }
  const seen = await deps.db.serviceStatement((sql) => stripeEventSeen(sql, event.id));
  if (seen) return { received: true, processed: false };
  // reading back from Stripe may fail: then nothing is stored and Stripe delivers the event again
  const work = await provider(() => eventWork(deps, event.type, event.objectId));
  const processed = await deps.db.asService(async (tx) => {
    if (!(await recordStripeEvent(tx, event.id, event.type))) return false;
    await work?.(tx);
    return true;
  });
  deps.log({ level: 'info', msg: 'stripe event', eventId: event.id, type: event.type, processed });
  return { received: true, processed };
}
