// A payment's outcome, applied: always as the provider reports it (the intent read back), whoever
// reports it (the webhook, the test-mode confirmation, a commission or statement charge), through
// the idempotent ledger functions behind queries/billing.ts.
import type { PaymentIntentInfo } from '../../../_shared/payments/types.ts';
import type { AppDeps } from '../../context.ts';
import type { Tx } from '../../db.ts';
import {
  abandonPayment,
  attachCommissionIntent,
  insertPayment,
  paymentById,
  paymentFailed,
  paymentSucceeded,
  queueUnappliedRefund,
} from '../../queries/billing.ts';

/**
 * Applies a payment intent's state as the provider reports it. An intent the api has no row for
 * (its row was not yet written when the webhook came) is adopted from its metadata.
 */
export async function settle(deps: AppDeps, intent: PaymentIntentInfo): Promise<void> {
  await deps.db.asService(async (tx) => {
    if (await adoptIntent(tx, intent)) await applyIntent(tx, intent);
  });
}

/**
 * Makes sure the api has the intent's payment row: a claimed debt whose provider answer was lost
 * gets the intent's id; an intent the api never recorded is added from its metadata. False for an
 * intent that is not FareBack's.
 */
export async function adoptIntent(tx: Tx, intent: PaymentIntentInfo): Promise<boolean> {
  if (await paymentById(tx, intent.id)) return true;
  const { userId, purpose, planId, debtKey, statementId } = intent.metadata;
  if (!userId || (purpose !== 'subscription' && purpose !== 'commission')) return false;
  const description = purpose === 'subscription' ? 'Premium subscription (one year)' : 'Commission payment';
  if (debtKey && (await attachCommissionIntent(tx, debtKey, intent.id, description))) return true;
  await insertPayment(tx, {
    id: intent.id,
    userId,
    purpose,
    planId: planId ? Number(planId) : null,
    amount: intent.amount,
    description,
    statementId: statementId ? Number(statementId) : null,
  });
  return (await paymentById(tx, intent.id)) !== null;
}

export async function applyIntent(tx: Tx, intent: PaymentIntentInfo): Promise<void> {
  if (intent.status === 'succeeded') {
    await paymentSucceeded(tx, intent.id, intent.paymentMethodId);
    // what it could not apply (the debt was paid meanwhile) goes back: commissionRefundJob
    await queueUnappliedRefund(tx, intent.id);
  } else if (intent.status === 'canceled') {
    await abandonPayment(tx, intent.id);
  } else if (intent.failureMessage) {
    await paymentFailed(tx, intent.id, intent.failureMessage);
  }
}
