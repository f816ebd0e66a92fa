// The opted-in local test mode's stand-in for the card form (PAYMENTS_TEST_MODE): the traveller
// picks the outcome, the local provider records it, and settlement.ts applies it as for Stripe.
import type { LocalPayments } from '../../../_shared/payments/local.ts';
import type { TestModeConfirmBody } from '../../../_shared/schemas/billing.ts';
import type { TestModeConfirmResponse } from '../../../_shared/types/billing.ts';
import type { AppDeps } from '../../context.ts';
import { HttpError } from '../../errors.ts';
import { paymentById } from '../../queries/billing.ts';
import { provider, requirePayments } from './provider.ts';
import { settle } from './settlement.ts';

export const PAYMENT_NOT_FOUND = 'Payment not found';
export const PAYMENT_ALREADY_COMPLETE = 'This payment is already complete.';

export async function confirmTestPayment(
  deps: AppDeps,
  userId: string,
  body: TestModeConfirmBody,
): Promise<TestModeConfirmResponse> {
  requirePayments(deps);
  const local = deps.payments as LocalPayments;
  if (local.mode !== 'test') throw new HttpError(404, 'Not found');
  const payment = await deps.db.asService((tx) => paymentById(tx, body.paymentIntentId));
  if (!payment || payment.userId !== userId) throw new HttpError(404, PAYMENT_NOT_FOUND);
  if (payment.status !== 'pending' && payment.status !== 'failed') {
    throw new HttpError(409, PAYMENT_ALREADY_COMPLETE);
  }
  const intent = await provider(() => local.confirm(body.paymentIntentId, body.outcome));
  await settle(deps, intent);
  const succeeded = intent.status === 'succeeded';
  return {
    success: succeeded,
    message: succeeded
      ? payment.purpose === 'subscription'
        ? 'Payment Successful - Your subscription has been updated!'
        : 'Payment Processed'
      : (intent.failureMessage ?? 'Unable to process payment. Please try again.'),
    paymentIntentId: intent.id,
    status: succeeded ? 'succeeded' : 'requires_payment_method',
  };
}
