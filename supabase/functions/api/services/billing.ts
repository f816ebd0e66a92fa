// Subscriptions, payments and commission billing (docs/architecture.md "Billing API"). Every
// provider call goes through deps.payments (Stripe, or the local test mode); every change of the
// ledger through the idempotent SQL functions behind queries/billing.ts. A payment's outcome is
// always read back from the provider (the intent, the subscription, the invoice) and applied by
// `settle`, whoever reports it: the webhook, the test-mode confirmation, a statement's charge.
import type { LocalPayments } from '../../_shared/payments/local.ts';
import {
  CardDeclinedError,
  type Metadata,
  type PaymentIntentInfo,
  PaymentProviderError,
  PaymentsUnavailableError,
  WebhookSignatureError,
} from '../../_shared/payments/types.ts';
import type { AdminCommissionPaymentBody } from '../../_shared/schemas/admin.ts';
import type {
  CheckoutSessionBody,
  PaymentIntentBody,
  TestModeConfirmBody,
  UpdateSubscriptionBody,
} from '../../_shared/schemas/billing.ts';
import {
  type CheckoutSessionResponse,
  type CurrentSubscriptionResponse,
  PAYMENTS_UNAVAILABLE,
  type PaymentIntentResponse,
  TEST_MODE_NOTICE,
  type TestModeConfirmResponse,
  type UpdateSubscriptionResponse,
  type WebhookResponse,
} from '../../_shared/types/billing.ts';
import type { AdminCommissionPaymentResponse } from '../../_shared/types/admin.ts';
import type { SubscriptionPlan } from '../../_shared/types/plans.ts';
import type { AppDeps } from '../context.ts';
import type { Tx } from '../db.ts';
import { HttpError } from '../errors.ts';
import {
  abandonPayment,
  activePlan,
  adoptDisputedSubscriptionPayment,
  applySubscription,
  attachCommissionIntent,
  type BillingProfile,
  billingProfile,
  claimCommissionPayment,
  closeCommissionPeriod,
  type CommissionClaim,
  disputedSubscription,
  insertPayment,
  moveToFreePlan,
  notifyStatement,
  paymentById,
  paymentDisputeClosed,
  paymentDisputed,
  paymentFailed,
  paymentRefunded,
  paymentSucceeded,
  premiumPlan,
  queueUnappliedRefund,
  recordInvoiceFailed,
  recordManualCommissionPayment,
  recordInvoicePaid,
  recordStripeEvent,
  recordUnappliedRefund,
  recordUnappliedRefundFailure,
  saveCustomerId,
  toCurrentSubscription,
  travellersToState,
  unappliedRefundDue,
  unfinishedCommissionPayments,
  userByCustomer,
} from '../queries/billing.ts';
import { PermanentJobError, RetryJobError, type JobHandler } from './job-runner.ts';

export const ALREADY_SUBSCRIBED = 'Already Subscribed - You are already a premium subscriber.';
export const SUBSCRIPTION_UNAVAILABLE =
  'Subscription Unavailable - Premium subscription is currently unavailable. Please try again later.';
export const NO_COMMISSION_DUE = "You don't have any commission payments due at this time.";
export const UPGRADE_IS_A_PAYMENT = 'Upgrading is a payment: use checkout to upgrade to Premium.';
export const ALREADY_FREE = 'You are already on the Free plan.';
export const PLAN_NOT_FOUND = 'Plan not found';
export const PLAN_HAS_NO_PRICE = 'This plan has no price to pay.';
export const AMOUNT_MISMATCH = 'Amount does not match the plan price';
export const PAYMENT_NOT_FOUND = 'Payment not found';
export const PAYMENT_ALREADY_COMPLETE = 'This payment is already complete.';
export const COMMISSION_PAYMENT_RECORDED = 'Commission payment recorded';
export const USER_NOT_FOUND = 'User not found';
export const COMMISSION_PAYMENT_CHANGING = 'Your commission payment is being updated. Please try again.';
export const COMMISSION_PAYMENT_UNDER_WAY =
  'A payment of your commission is already under way. Please try again in a moment.';
export const COMMISSION_PAYMENT_CANCELLED = 'That commission payment was cancelled. Please try again.';

/** Provider refusals as answers: a decline is the traveller's (402), an outage ours (502). */
async function provider<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof CardDeclinedError) throw new HttpError(402, error.message);
    if (error instanceof PaymentProviderError) throw new HttpError(502, new PaymentProviderError().message);
    if (error instanceof PaymentsUnavailableError) throw new HttpError(503, PAYMENTS_UNAVAILABLE);
    throw error;
  }
}

/**
 * Every payment call starts here: on a server with neither a Stripe key nor the opted-in test
 * mode it answers 503 before anything is read or written (issue 21, finding 1).
 */
function requirePayments(deps: AppDeps): void {
  if (deps.payments.mode === 'unavailable') throw new HttpError(503, PAYMENTS_UNAVAILABLE);
}

function dateLabel(date: Date): string {
  return date.toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
}

async function loadProfile(deps: AppDeps, userId: string): Promise<BillingProfile> {
  const profile = await deps.db.asService((tx) => billingProfile(tx, userId));
  if (!profile) throw new HttpError(404, 'Account not found');
  return profile;
}

async function customerOf(deps: AppDeps, profile: BillingProfile): Promise<string> {
  if (profile.customerId) return profile.customerId;
  const customerId = await provider(() =>
    deps.payments.createCustomer({ email: profile.email, userId: profile.userId }),
  );
  await deps.db.asService((tx) => saveCustomerId(tx, profile.userId, customerId));
  return customerId;
}

export async function currentSubscription(deps: AppDeps, userId: string): Promise<CurrentSubscriptionResponse> {
  return { subscription: toCurrentSubscription(await loadProfile(deps, userId), deps.payments.mode) };
}

// ---- downgrade ----

export async function updateSubscription(
  deps: AppDeps,
  userId: string,
  body: UpdateSubscriptionBody,
): Promise<UpdateSubscriptionResponse> {
  if (body.tier === 'premium') throw new HttpError(400, UPGRADE_IS_A_PAYMENT);
  const profile = await loadProfile(deps, userId);
  if (profile.tier === 'free') throw new HttpError(409, ALREADY_FREE);
  // no renewal: a Stripe subscription ends at its period's end, nothing is refunded
  if (profile.subscriptionId && profile.renews) {
    const subscriptionId = profile.subscriptionId;
    await provider(() => deps.payments.cancelSubscriptionAtPeriodEnd(subscriptionId));
  }
  const { watched, flightLimit: limit, room } = await deps.db.asService((tx) => moveToFreePlan(tx, userId));
  const after = await loadProfile(deps, userId);
  const paidThrough = profile.endDate && new Date(profile.endDate) > new Date() ? new Date(profile.endDate) : null;
  const flightsOverLimit = Math.max(0, -room);
  let message = 'Your subscription has been downgraded. Auto-rebooking has been disabled.';
  if (paidThrough) {
    message += ` Your Premium subscription will not renew; the paid year ends on ${dateLabel(paidThrough)}.`;
  }
  if (flightsOverLimit > 0) {
    message +=
      ` You are watching ${watched} flights and the Free plan monitors up to ${limit}: ` +
      `remove ${flightsOverLimit} to add new flights. No flight has been deleted.`;
  }
  return {
    success: true,
    message,
    subscription: toCurrentSubscription(after, deps.payments.mode),
    flightsOverLimit,
    flightLimit: limit,
    paidThrough: paidThrough?.toISOString() ?? null,
  };
}

// ---- upgrading: a payment ----

async function planToBuy(
  deps: AppDeps,
  profile: BillingProfile,
  planId: number | undefined,
): Promise<SubscriptionPlan> {
  if (profile.tier === 'premium') throw new HttpError(409, ALREADY_SUBSCRIBED);
  const plan = await deps.db.asService(async (tx) => {
    if (planId === undefined) return await premiumPlan(tx);
    const found = await activePlan(tx, planId);
    if (!found) throw new HttpError(404, PLAN_NOT_FOUND);
    if (found.tier !== 'premium' || found.price <= 0) throw new HttpError(400, PLAN_HAS_NO_PRICE);
    return found;
  });
  if (!plan) throw new HttpError(404, SUBSCRIPTION_UNAVAILABLE);
  if (plan.price <= 0) throw new HttpError(400, PLAN_HAS_NO_PRICE);
  return plan;
}

async function startPlanPayment(deps: AppDeps, profile: BillingProfile, plan: SubscriptionPlan) {
  const customerId = await customerOf(deps, profile);
  const metadata: Metadata = { userId: profile.userId, purpose: 'subscription', planId: String(plan.id) };
  const intent = await provider(() =>
    deps.payments.createPaymentIntent({
      customerId,
      amount: plan.price,
      description: `${plan.name} plan, one year`,
      metadata,
      saveCard: true,
    }),
  );
  await deps.db.asService((tx) =>
    insertPayment(tx, {
      id: intent.id,
      userId: profile.userId,
      purpose: 'subscription',
      planId: plan.id,
      amount: plan.price,
      description: `${plan.name} subscription (one year)`,
    }),
  );
  return intent;
}

function intentResponse(deps: AppDeps, intent: PaymentIntentInfo, message: string): PaymentIntentResponse {
  const test = deps.payments.mode === 'test';
  return {
    success: true,
    message: test ? `${message} ${TEST_MODE_NOTICE}.` : message,
    paymentIntentId: intent.id,
    clientSecret: intent.clientSecret,
    status: intent.status,
    amount: intent.amount,
    paymentMode: deps.payments.mode,
  };
}

export async function createPlanPaymentIntent(
  deps: AppDeps,
  userId: string,
  body: PaymentIntentBody,
): Promise<PaymentIntentResponse> {
  requirePayments(deps);
  const profile = await loadProfile(deps, userId);
  const plan = await planToBuy(deps, profile, body.planId);
  // the price is the plan row's: a client's amount is only compared with it
  if (body.amount !== plan.price) throw new HttpError(400, AMOUNT_MISMATCH);
  const intent = await startPlanPayment(deps, profile, plan);
  return intentResponse(deps, intent, `Complete your payment to upgrade to the ${plan.name} plan.`);
}

export async function createCheckoutSession(
  deps: AppDeps,
  userId: string,
  body: CheckoutSessionBody,
): Promise<CheckoutSessionResponse> {
  requirePayments(deps);
  const profile = await loadProfile(deps, userId);
  const plan = await planToBuy(deps, profile, body.planId);
  const site = deps.config.siteUrl;
  if (deps.payments.mode === 'test') {
    const intent = await startPlanPayment(deps, profile, plan);
    return {
      url: `${site}/premium-checkout?test_payment=${encodeURIComponent(intent.id)}`,
      paymentMode: 'test',
      paymentIntentId: intent.id,
    };
  }
  const customerId = await customerOf(deps, profile);
  const session = await provider(() =>
    deps.payments.createCheckoutSession({
      customerId,
      amount: plan.price,
      planName: plan.name,
      planDescription: plan.description,
      metadata: { userId, purpose: 'subscription', planId: String(plan.id) },
      successUrl: `${site}/dashboard?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${site}/premium-checkout?checkout=cancelled`,
    }),
  );
  return { url: session.url, paymentMode: 'stripe', paymentIntentId: null };
}

// ---- commission ----
//
// One charge per debt (issue 21, finding 5): the pending payment row is claimed first, in the
// database, under the one-pending-per-traveller index (private.claim_commission_payment), and the
// provider is called with the debt's key as its idempotency key, so concurrent or repeated calls
// for one debt are one charge, and a new debt (a new rebooking, an attempt finished or declined
// since) a new one. What a succeeded payment cannot apply is refunded (commissionRefundJob).

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
async function commissionIntent(
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

// ---- outcomes ----

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
async function adoptIntent(tx: Tx, intent: PaymentIntentInfo): Promise<boolean> {
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

async function applyIntent(tx: Tx, intent: PaymentIntentInfo): Promise<void> {
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

/**
 * Refunds what a succeeded commission payment could not apply (commission_refund jobs, queued in
 * the transaction that applied it). The refund's key names the payment, so a retried job refunds
 * once; it is recorded (a refund billing row, the traveller told, the admins alerted) with the
 * job's completion. A failed attempt alerts the admins (once per payment); the last one holds the
 * money for the traveller (recordUnappliedRefundFailure).
 */
export const commissionRefundJob: JobHandler<{ paymentId?: string }> = {
  kind: 'commission_refund',
  leaseSeconds: 120,
  async run(job, ctx) {
    const paymentId = job.payload.paymentId;
    if (!paymentId) throw new PermanentJobError('A commission refund job needs a paymentId');
    const deps = ctx.deps;
    const due = await deps.db.asService((tx) => unappliedRefundDue(tx, paymentId));
    if (!due) return;
    let refund: { id: string };
    try {
      refund = await deps.payments.refundPayment({
        paymentIntentId: paymentId,
        amount: due.amount,
        idempotencyKey: `unapplied:${paymentId}`,
        metadata: { userId: due.userId, purpose: 'commission_unapplied' },
      });
    } catch (error) {
      // refused or unreachable: the admins are told now (once per payment) and, on the last
      // attempt (the job's attempts reaching its max, as private.fail_job decides), the money is
      // held and the traveller told; the error then gives the job back to the queue as before
      const reason = error instanceof Error ? error.message : String(error);
      const outcome = await deps.db.asService((tx) => recordUnappliedRefundFailure(tx, job.id, paymentId, reason));
      deps.log({ level: 'error', msg: 'commission refund failed', paymentId, outcome, error: reason });
      throw error;
    }
    await ctx.finish(async (tx) => {
      await recordUnappliedRefund(tx, paymentId, refund.id, due.amount);
      return { refundId: refund.id, amount: due.amount };
    });
    deps.log({
      level: 'warn',
      msg: 'commission payment refunded: nothing was owed for it',
      paymentId,
      refundId: refund.id,
      amount: due.amount,
      userId: due.userId,
    });
  },
};

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

// ---- the webhook ----

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
    case 'charge.dispute.created':
    case 'charge.dispute.closed': {
      // a chargeback: while open, what the payment paid for is taken back; closed won restores it,
      // lost keeps it taken back (migration 20261128100100_payment_disputes.sql)
      const dispute = await p.retrieveDispute(objectId);
      const charge = dispute.chargeId ? await p.retrieveCharge(dispute.chargeId) : null;
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
    default:
      return null;
  }
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
  const seen = await deps.db.serviceStatement((sql) => sql`select 1 from private.stripe_events where id = ${event.id}`);
  if (seen.length > 0) return { received: true, processed: false };
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

// ---- monthly commission statements ----

export interface StatementPeriod {
  periodStart: string;
  periodEnd: string;
}

/** The calendar month before `now` (UTC): the period a statement run closes. */
export function previousMonth(now: Date): StatementPeriod & { key: string } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0));
  const day = (d: Date) => d.toISOString().slice(0, 10);
  return { periodStart: day(start), periodEnd: day(end), key: day(start).slice(0, 7) };
}

/** Closes one traveller's period and, with a saved card, charges what is due. */
export async function stateTraveller(
  deps: AppDeps,
  userId: string,
  period: StatementPeriod,
): Promise<'charged' | 'failed' | 'owed' | 'none'> {
  const statement = await deps.db.asService((tx) =>
    closeCommissionPeriod(tx, userId, period.periodStart, period.periodEnd),
  );
  if (!statement) return 'none';
  if (statement.status !== 'pending' || statement.paymentReference || statement.amount <= 0) {
    return statement.status === 'completed' ? 'charged' : statement.status === 'failed' ? 'failed' : 'owed';
  }
  const profile = await loadProfile(deps, userId);
  const notify = (charged: boolean) =>
    deps.db.asService((tx) =>
      notifyStatement(tx, userId, {
        ...period,
        credits: statement.credits,
        commissionDue: statement.amount,
        charged,
      }),
    );
  // no payments configured: nothing can be charged, the statement stays owed
  const payable = deps.payments.mode !== 'unavailable';
  if (!payable || !profile.paymentMethodId || !profile.customerId) {
    await notify(false);
    return 'owed';
  }
  const { customerId, paymentMethodId } = profile;
  // the same rule as pay-commission: the statement's pending row first (its key: the statement),
  // never beside a payment the traveller has open
  const claim = await deps.db.asService((tx) => claimCommissionPayment(tx, userId, statement.id));
  if (!claim || claim.staleId) {
    await notify(false);
    return 'owed';
  }
  const intent = await commissionIntent(
    deps,
    claim,
    (idempotencyKey) =>
      deps.payments.chargeSavedCard({
        idempotencyKey,
        customerId,
        paymentMethodId,
        amount: claim.amount,
        description: `Commission statement ${period.periodStart} to ${period.periodEnd}`,
        metadata: { userId, purpose: 'commission', statementId: String(statement.id), debtKey: claim.debtKey },
      }),
    'Commission statement',
  );
  await settle(deps, intent);
  const charged = intent.status === 'succeeded';
  await notify(charged);
  return charged ? 'charged' : 'failed';
}

interface StatementJobPayload {
  periodStart: string;
  periodEnd: string;
}

export const commissionStatementsJob: JobHandler<StatementJobPayload> = {
  kind: 'commission_statements',
  leaseSeconds: 600,
  recurring(now) {
    const period = previousMonth(now);
    return [
      {
        kind: 'commission_statements',
        payload: { periodStart: period.periodStart, periodEnd: period.periodEnd },
        dedupeKey: `statements:${period.key}`,
      },
    ];
  },
  async run(job, ctx) {
    const { periodStart, periodEnd } = job.payload;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(periodStart ?? '') || !/^\d{4}-\d{2}-\d{2}$/.test(periodEnd ?? '')) {
      throw new PermanentJobError('A statement job needs periodStart and periodEnd dates');
    }
    const deps = ctx.deps;
    const travellers = await deps.db.asService((tx) => travellersToState(tx, periodStart, periodEnd));
    const counts = { charged: 0, failed: 0, owed: 0, none: 0, errors: 0 };
    for (const userId of travellers) {
      try {
        counts[await stateTraveller(deps, userId, { periodStart, periodEnd })] += 1;
      } catch (error) {
        counts.errors += 1;
        deps.log({ level: 'error', msg: 'commission statement failed', userId, error: String(error) });
      }
    }
    // every step is idempotent: a run with errors is simply run again later
    if (counts.errors > 0) {
      throw new RetryJobError(`${counts.errors} statements could not be completed`, new Date(Date.now() + 15 * 60_000));
    }
    await ctx.finish(() => Promise.resolve({ travellers: travellers.length, ...counts }));
  },
};
