// Paying the commission owed: the traveller's own card payment, and an admin recording a payment
// made outside the app. The monthly statement's charge (statements.ts) claims its debt the same way.
//
// One charge per debt (issue 21, finding 5): the pending payment row is claimed first, in the
// database, under the one-pending-per-traveller index (private.claim_commission_payment), and the
// provider is called with the debt's key as its idempotency key, so concurrent or repeated calls
// for one debt are one charge, and a new debt (a new rebooking, an attempt finished or declined
// since) a new one. What a succeeded payment cannot apply is refunded (commissionRefundJob).
import type { Metadata, PaymentIntentInfo } from '../../../_shared/payments/types.ts';
import type { AdminCommissionPaymentBody } from '../../../_shared/schemas/admin.ts';
import type { PaymentIntentResponse } from '../../../_shared/types/billing.ts';
import type { AdminCommissionPaymentResponse } from '../../../_shared/types/admin.ts';
import type { AppDeps } from '../../context.ts';
import { HttpError } from '../../errors.ts';
import {
  abandonPayment,
  attachCommissionIntent,
  claimCommissionPayment,
  type CommissionClaim,
  recordManualCommissionPayment,
  unfinishedCommissionPayments,
} from '../../queries/billing.ts';
import { customerOf, intentResponse, loadProfile, provider, requirePayments } from './provider.ts';
import { settle } from './settlement.ts';

export const NO_COMMISSION_DUE = "You don't have any commission payments due at this time.";
export const COMMISSION_PAYMENT_RECORDED = 'Commission payment recorded';
export const USER_NOT_FOUND = 'User not found';
export const COMMISSION_PAYMENT_CHANGING = 'Your commission payment is being updated. Please try again.';
export const COMMISSION_PAYMENT_UNDER_WAY =
  'A payment of your commission is already under way. Please try again in a moment.';
export const COMMISSION_PAYMENT_CANCELLED = 'That commission payment was cancelled. Please try again.';

/**
 * Gives up an unfinished commission payment: it was for what was owed when it began. One the
 * provider completed meanwhile is applied instead (and what it cannot apply refunded), never dropped.
 */
async function giveUpCommissionPayment(deps: AppDeps, id: string): Promise<void> {
  await deps.payments.cancelPaymentIntent(id).catch(() => {});
  const intent = await deps.payments.retrievePaymentIntent(id).catch(() => null);
  if (intent?.status === 'succeeded') {
    await settle(deps, intent);
    return;
  }
  await deps.db.asService((tx) => abandonPayment(tx, id));
}

async function giveUpCommissionPayments(deps: AppDeps, userId: string): Promise<void> {
  const unfinished = await deps.db.asService((tx) => unfinishedCommissionPayments(tx, userId));
  for (const id of unfinished) await giveUpCommissionPayment(deps, id);
}

/** The traveller's commission debt, claimed: an earlier debt's payment still open is given up first. */
async function claimCommissionDebt(deps: AppDeps, userId: string): Promise<CommissionClaim | null> {
  for (let round = 0; round < 3; round += 1) {
    const claim = await deps.db.asService((tx) => claimCommissionPayment(tx, userId));
    if (!claim?.staleId) return claim;
    // a charge of an earlier debt (a statement's) may be at the provider right now: not beside it
    if (claim.staleInFlight) throw new HttpError(409, COMMISSION_PAYMENT_UNDER_WAY);
    await giveUpCommissionPayment(deps, claim.staleId);
  }
  // the debt kept changing under us (rebookings recorded while paying)
  throw new HttpError(409, COMMISSION_PAYMENT_CHANGING);
}

/**
 * The provider's intent of a claimed debt: the one already made, or a new one made with the debt's
 * key (the same key answers the same intent), then named on the claimed row.
 */
export async function commissionIntent(
  deps: AppDeps,
  claim: CommissionClaim,
  make: (idempotencyKey: string) => Promise<PaymentIntentInfo>,
  description: string,
): Promise<PaymentIntentInfo> {
  const existing = claim.paymentId && claim.paymentId !== claim.debtKey ? claim.paymentId : null;
  const intent = existing
    ? await provider(() => deps.payments.retrievePaymentIntent(existing))
    : await provider(() => make(claim.debtKey));
  await deps.db.asService((tx) => attachCommissionIntent(tx, claim.debtKey, intent.id, description));
  return intent;
}

export async function payCommission(deps: AppDeps, userId: string): Promise<PaymentIntentResponse> {
  requirePayments(deps);
  const profile = await loadProfile(deps, userId);
  if (profile.commissionOwed <= 0) throw new HttpError(400, NO_COMMISSION_DUE);
  const customerId = await customerOf(deps, profile);
  const claim = await claimCommissionDebt(deps, userId);
  if (!claim) throw new HttpError(400, NO_COMMISSION_DUE);
  const { amount, debtKey } = claim;
  const metadata: Metadata = { userId, purpose: 'commission', debtKey };
  const description = 'Commission payment';
  const savedCard = deps.payments.mode === 'stripe' ? profile.paymentMethodId : null;
  const intent = await commissionIntent(
    deps,
    claim,
    (idempotencyKey) =>
      savedCard
        ? deps.payments.chargeSavedCard({
            idempotencyKey,
            customerId,
            paymentMethodId: savedCard,
            amount,
            description,
            metadata,
          })
        : deps.payments.createPaymentIntent({
            customerId,
            amount,
            description,
            metadata,
            saveCard: true,
            idempotencyKey,
          }),
    description,
  );
  if (intent.status === 'succeeded' || intent.status === 'canceled' || (savedCard && intent.failureMessage)) {
    await settle(deps, intent);
    if (intent.status === 'canceled') throw new HttpError(409, COMMISSION_PAYMENT_CANCELLED);
    if (intent.status !== 'succeeded') {
      throw new HttpError(402, intent.failureMessage ?? 'Unable to process payment. Please try again.');
    }
    return { ...intentResponse(deps, intent, 'Payment Processed'), clientSecret: null };
  }
  return intentResponse(deps, intent, 'Confirm the payment with your card.');
}

/**
 * An admin records a commission payment the traveller made outside the app. Runs on the api's
 * connection: the SQL function is the api role's alone, checks the actor is an admin, and refuses
 * an amount above what is owed at that moment (the traveller's row locked) with a 400. A card
 * payment the traveller left unfinished is given up afterwards; they may start one for what is
 * still owed.
 */
export async function recordCommissionPayment(
  deps: AppDeps,
  actorId: string,
  body: AdminCommissionPaymentBody,
): Promise<AdminCommissionPaymentResponse> {
  const recorded = await deps.db.asService((tx) =>
    recordManualCommissionPayment(tx, actorId, body.userId, body.amount),
  );
  if (!recorded) throw new HttpError(404, USER_NOT_FOUND);
  // a card payment the traveller had started is for the amount owed before this one
  await giveUpCommissionPayments(deps, body.userId);
  return {
    success: true,
    message: COMMISSION_PAYMENT_RECORDED,
    userId: body.userId,
    amount: body.amount,
    ...recorded,
  };
}
