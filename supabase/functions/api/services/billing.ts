// Subscriptions, payments and commission billing (docs/architecture.md "Billing API"). Every
// provider call goes through deps.payments (Stripe, or the local test mode); every change of the
// ledger through the idempotent SQL functions behind queries/billing.ts. A payment's outcome is
// always read back from the provider (the intent, the subscription, the invoice) and applied by
// `settle`, whoever reports it: the webhook, the test-mode confirmation, a statement's charge.
import { UNLIMITED_FLIGHTS } from '../../_shared/constants.ts';
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
  type BillingProfile,
  billingProfile,
  closeCommissionPeriod,
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
  recordInvoiceFailed,
  recordManualCommissionPayment,
  recordInvoicePaid,
  recordStripeEvent,
  saveCustomerId,
  toCurrentSubscription,
  travellersToState,
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
  const { watched, limit } = await deps.db.asService((tx) => moveToFreePlan(tx, userId));
  const after = await loadProfile(deps, userId);
  const paidThrough = profile.endDate && new Date(profile.endDate) > new Date() ? new Date(profile.endDate) : null;
  const flightsOverLimit = limit === UNLIMITED_FLIGHTS ? 0 : Math.max(0, watched - limit);
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

/**
 * Gives up the traveller's unfinished card payments of commission: each was for what was owed when
 * it began, so after another payment it would charge too much.
 */
async function giveUpCommissionPayments(deps: AppDeps, userId: string): Promise<void> {
  const unfinished = await deps.db.asService((tx) => unfinishedCommissionPayments(tx, userId));
  for (const id of unfinished) {
    await provider(() => deps.payments.cancelPaymentIntent(id)).catch(() => {});
    await deps.db.asService((tx) => abandonPayment(tx, id));
  }
}

export async function payCommission(deps: AppDeps, userId: string): Promise<PaymentIntentResponse> {
  requirePayments(deps);
  const profile = await loadProfile(deps, userId);
  if (profile.commissionOwed <= 0) throw new HttpError(400, NO_COMMISSION_DUE);
  // one commission payment at a time
  await giveUpCommissionPayments(deps, userId);
  const customerId = await customerOf(deps, profile);
  const amount = profile.commissionOwed;
  const metadata: Metadata = { userId, purpose: 'commission' };
  const description = 'Commission payment';
  const savedCard = deps.payments.mode === 'stripe' ? profile.paymentMethodId : null;
  const intent = savedCard
    ? await provider(() =>
        deps.payments.chargeSavedCard({
          idempotencyKey: `commission:${userId}:${crypto.randomUUID()}`,
          customerId,
          paymentMethodId: savedCard,
          amount,
          description,
          metadata,
        }),
      )
    : await provider(() =>
        deps.payments.createPaymentIntent({ customerId, amount, description, metadata, saveCard: true }),
      );
  await deps.db.asService((tx) =>
    insertPayment(tx, { id: intent.id, userId, purpose: 'commission', planId: null, amount, description }),
  );
  if (savedCard) {
    await settle(deps, intent);
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
    let payment = await paymentById(tx, intent.id);
    if (!payment) {
      const { userId, purpose, planId } = intent.metadata;
      if (!userId || (purpose !== 'subscription' && purpose !== 'commission')) return;
      await insertPayment(tx, {
        id: intent.id,
        userId,
        purpose,
        planId: planId ? Number(planId) : null,
        amount: intent.amount,
        description: purpose === 'subscription' ? 'Premium subscription (one year)' : 'Commission payment',
        statementId: intent.metadata.statementId ? Number(intent.metadata.statementId) : null,
      });
      payment = await paymentById(tx, intent.id);
      if (!payment) return;
    }
    await applyIntent(tx, intent);
  });
}

async function applyIntent(tx: Tx, intent: PaymentIntentInfo): Promise<void> {
  if (intent.status === 'succeeded') {
    await paymentSucceeded(tx, intent.id, intent.paymentMethodId);
  } else if (intent.status === 'canceled') {
    await abandonPayment(tx, intent.id);
  } else if (intent.failureMessage) {
    await paymentFailed(tx, intent.id, intent.failureMessage);
  }
}

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
        if (!(await paymentById(tx, intent.id))) {
          await insertPayment(tx, {
            id: intent.id,
            userId,
            purpose,
            planId: intent.metadata.planId ? Number(intent.metadata.planId) : null,
            amount: intent.amount,
            description: purpose === 'subscription' ? 'Premium subscription (one year)' : 'Commission payment',
            statementId: intent.metadata.statementId ? Number(intent.metadata.statementId) : null,
          });
        }
        await applyIntent(tx, intent);
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
  const open = await deps.db.asService((tx) => unfinishedCommissionPayments(tx, userId));
  // no payments configured: nothing can be charged, the statement stays owed
  const payable = deps.payments.mode !== 'unavailable';
  if (!payable || !profile.paymentMethodId || !profile.customerId || open.length > 0) {
    await notify(false);
    return 'owed';
  }
  const { customerId, paymentMethodId } = profile;
  const intent = await deps.payments.chargeSavedCard({
    idempotencyKey: `statement:${statement.id}`,
    customerId,
    paymentMethodId,
    amount: statement.amount,
    description: `Commission statement ${period.periodStart} to ${period.periodEnd}`,
    metadata: { userId, purpose: 'commission', statementId: String(statement.id) },
  });
  await deps.db.asService((tx) =>
    insertPayment(tx, {
      id: intent.id,
      userId,
      purpose: 'commission',
      planId: null,
      amount: statement.amount,
      description: 'Commission statement',
      statementId: statement.id,
    }),
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
