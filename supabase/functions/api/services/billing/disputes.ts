// Chargebacks (Stripe's charge.dispute.* events): while a dispute is open, what the payment paid
// for is taken back; closed won restores it, lost keeps it taken back and ends the Checkout
// subscription it paid for (migration 20261128100100_payment_disputes.sql).
import type { AppDeps } from '../../context.ts';
import type { Tx } from '../../db.ts';
import {
  adoptDisputedSubscriptionPayment,
  disputedSubscription,
  paymentById,
  paymentDisputeClosed,
  paymentDisputed,
  userByCustomer,
} from '../../queries/billing.ts';

/**
 * What a dispute event means, read back from the provider; the returned work runs in the
 * transaction that stores the event.
 */
export async function disputeEventWork(
  deps: AppDeps,
  type: 'charge.dispute.created' | 'charge.dispute.closed',
  disputeId: string,
): Promise<((tx: Tx) => Promise<void>) | null> {
  const dispute = await deps.payments.retrieveDispute(disputeId);
  const charge = dispute.chargeId ? await deps.payments.retrieveCharge(dispute.chargeId) : null;
  const paymentId = dispute.paymentIntentId ?? charge?.paymentIntentId ?? dispute.chargeId;
  if (!paymentId) return null;
  if (type === 'charge.dispute.closed' && dispute.status === 'lost') {
    await endDisputedSubscription(deps, paymentId, charge?.customerId ?? null);
  }
  return async (tx) => {
    if (!(await paymentById(tx, paymentId))) {
      // not a payment the api created: a Stripe Checkout subscription's invoice, by its customer
      const userId = charge?.customerId ? await userByCustomer(tx, charge.customerId) : null;
      if (!userId || !(await adoptDisputedSubscriptionPayment(tx, userId, paymentId, dispute.amount))) return;
    }
    if (type === 'charge.dispute.created') await paymentDisputed(tx, paymentId, dispute.id, dispute.status);
    else await paymentDisputeClosed(tx, paymentId, dispute.id, dispute.status);
  };
}

/**
 * A lost dispute on a Checkout subscription's payment: the cardholder has the money back, so the
 * Stripe subscription is canceled now and never renews or charges again
 * (docs.stripe.com/api/subscriptions/cancel). Done before the event is stored: if Stripe cannot
 * be reached the event is refused and delivered again; one already canceled is left alone.
 */
async function endDisputedSubscription(deps: AppDeps, paymentId: string, customerId: string | null): Promise<void> {
  const subscriptionId = await deps.db.asService((tx) => disputedSubscription(tx, paymentId, customerId));
  if (!subscriptionId) return;
  const sub = await deps.payments.retrieveSubscription(subscriptionId);
  if (sub.status === 'canceled' || sub.status === 'incomplete_expired') return;
  await deps.payments.cancelSubscription(subscriptionId);
}
