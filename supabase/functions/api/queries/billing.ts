// Payments, subscriptions and the commission ledger (migration 20261122000800_billing_and_payments.sql). The
// ledger's state changes are SQL functions (private.payment_succeeded / payment_failed /
// payment_refunded / close_commission_period), each idempotent; these are their callers and the
// reads of the billing calls.
import type { ListQuery } from '../../_shared/schemas/pagination.ts';
import type { LocalIntent, LocalIntentStore } from '../../_shared/payments/local.ts';
import type { SubscriptionInfo } from '../../_shared/payments/types.ts';
import {
  type BillingHistoryItem,
  type BillingHistoryResponse,
  type CommissionSummaryResponse,
  type CurrentSubscription,
  type PaymentIssue,
  type PaymentMode,
  RENEWAL_RETRY_DAYS,
  type SubscriptionStatus,
} from '../../_shared/types/billing.ts';
import { premiumOffer } from '../../_shared/plans/offer.ts';
import type { SubscriptionPlan } from '../../_shared/types/plans.ts';
import type { SubscriptionTier } from '../../_shared/constants.ts';
import type { Db, Tx } from '../db.ts';
import { type RoomOnPlan, roomOnPlan } from './flights.ts';
import { listPage } from './pagination.ts';
import { queueNotification } from './notifications.ts';
import { activePlans, planJson } from './plans.ts';

export interface BillingProfile {
  userId: string;
  email: string | null;
  tier: SubscriptionTier;
  plan: SubscriptionPlan;
  startDate: Date | null;
  endDate: Date | null;
  commissionOwed: number;
  customerId: string | null;
  subscriptionId: string | null;
  status: SubscriptionStatus;
  renews: boolean;
  paymentMethodId: string | null;
  /** Failed charges of the renewal now due (FareBack's renewal), and when the first failed. */
  renewalAttempts: number;
  renewalFailedAt: Date | null;
  /** The last failed subscription payment's reason (a renewal's decline). */
  renewalFailure: string | null;
  /** The last commission payment that failed, while commission is owed and none succeeded or is under way since. */
  commissionFailure: { amount: number; reason: string | null } | null;
}

/** The traveller's plan, dates, ledger and payment account (locked with `forUpdate`). */
export async function billingProfile(tx: Tx, userId: string, forUpdate = false): Promise<BillingProfile | null> {
  const lock = forUpdate ? tx`for update of p` : tx``;
  const [row] = await tx<BillingProfile[]>`
    select p.id as "userId", p.email, sp.tier, ${tx.unsafe(planJson('sp'))} as plan,
           p.subscription_start_date as "startDate", p.subscription_end_date as "endDate",
           p.commission_owed as "commissionOwed",
           ba.customer_id as "customerId", ba.subscription_id as "subscriptionId",
           coalesce(ba.subscription_status, 'none') as status, coalesce(ba.renews, false) as renews,
           ba.payment_method_id as "paymentMethodId",
           coalesce(ba.renewal_attempts, 0) as "renewalAttempts", ba.renewal_failed_at as "renewalFailedAt",
           (select pay.failure_message from private.payments pay
             where pay.user_id = p.id and pay.purpose = 'subscription' and pay.status = 'failed'
             order by pay.created_at desc limit 1) as "renewalFailure",
           (select jsonb_build_object('amount', p.commission_owed, 'reason', pay.failure_message)
              from private.payments pay
             where pay.user_id = p.id and pay.purpose = 'commission' and pay.status = 'failed'
               and p.commission_owed > 0
               and not exists (
                 select 1 from private.payments later
                  where later.user_id = p.id and later.purpose = 'commission'
                    and later.status in ('pending', 'succeeded') and later.created_at > pay.created_at)
             order by pay.created_at desc limit 1) as "commissionFailure"
      from public.profiles p
      join public.subscription_plans sp on sp.id = p.plan_id
      left join private.billing_accounts ba on ba.user_id = p.id
     where p.id = ${userId}
     ${lock}
  `;
  return row ?? null;
}

const DAY_MS = 86_400_000;

/** The failed charge the traveller must act on, and what happens next (see PaymentIssue). */
function paymentIssueOf(p: BillingProfile): PaymentIssue | null {
  if (p.tier === 'premium' && p.status === 'past_due') {
    const ours = p.subscriptionId === null;
    const delay = RENEWAL_RETRY_DAYS[p.renewalAttempts - 1];
    const retry =
      ours && p.renews && p.renewalFailedAt && delay !== undefined
        ? new Date(new Date(p.renewalFailedAt).getTime() + delay * DAY_MS).toISOString()
        : null;
    return {
      purpose: 'subscription',
      amount: p.plan.price,
      reason: p.renewalFailure ?? 'Your card was declined.',
      retry,
      outcome: ours
        ? p.renews
          ? `Your card is tried again ${RENEWAL_RETRY_DAYS.join(', ').replace(/, (\d+)$/, ' and $1')} days after the first failure. If the last try fails, your Premium year ends and you move to the Free plan (automatic rebooking off, nothing deleted).`
          : 'The last try failed: your Premium year ends and you move to the Free plan today (automatic rebooking off, nothing deleted).'
        : 'Stripe tries your card again over the coming days. If the last try fails, your Premium year ends and you move to the Free plan (automatic rebooking off, nothing deleted).',
    };
  }
  if (p.commissionFailure) {
    return {
      purpose: 'commission',
      amount: p.commissionFailure.amount,
      reason: p.commissionFailure.reason ?? 'Your card was declined.',
      retry: null,
      outcome:
        'The commission stays owed until it is paid. Pay it here or update your card; the next monthly statement charges the card saved then.',
    };
  }
  return null;
}

export function toCurrentSubscription(p: BillingProfile, mode: PaymentMode, now = new Date()): CurrentSubscription {
  const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
  const endDate = iso(p.endDate);
  const premium = p.tier === 'premium';
  const renews = p.status === 'active' && p.renews;
  const paidAhead = premium && endDate !== null && new Date(endDate) > now;
  return {
    tier: p.tier,
    plan: p.plan,
    status: p.status,
    startDate: iso(p.startDate),
    endDate,
    renews,
    hasSavedCard: p.paymentMethodId !== null,
    paymentMode: mode,
    renewal: premium && renews && endDate ? { date: endDate, amount: p.plan.price } : null,
    scheduledChange: paidAhead && !p.renews && p.status !== 'past_due' ? { tier: 'free', at: endDate } : null,
    paymentIssue: paymentIssueOf(p),
  };
}

export async function saveCustomerId(tx: Tx, userId: string, customerId: string): Promise<void> {
  await tx`
    insert into private.billing_accounts (user_id, customer_id) values (${userId}, ${customerId})
    on conflict (user_id) do update set customer_id = excluded.customer_id
  `;
}

/** An active plan by id (null when unknown or retired). */
export async function activePlan(tx: Tx, planId: number): Promise<SubscriptionPlan | null> {
  const [row] = await tx<{ plan: SubscriptionPlan }[]>`
    select ${tx.unsafe(planJson('sp'))} as plan
      from public.subscription_plans sp where sp.id = ${planId} and sp.is_active
  `;
  return row?.plan ?? null;
}

/**
 * The plan checkout sells when none is named: the plan list's premium offer (_shared/plans/offer.ts,
 * the web's pick too); the database keeps one on offer (migration
 * 20261122000300_profiles_and_plans.sql).
 */
export async function premiumPlan(tx: Tx): Promise<SubscriptionPlan | null> {
  return premiumOffer(await activePlans(tx)) ?? null;
}

export interface NewPayment {
  id: string;
  userId: string;
  purpose: 'subscription' | 'commission';
  planId: number | null;
  amount: number;
  description: string;
  statementId?: number | null;
}

/**
 * Records a payment the provider knows about (once: a webhook may have adopted it first) and
 * its pending billing row, or for a statement's charge names the charge on the statement row.
 */
export async function insertPayment(tx: Tx, p: NewPayment): Promise<void> {
  const [inserted] = await tx<{ id: string }[]>`
    insert into private.payments (id, user_id, purpose, plan_id, amount, statement_id)
    values (${p.id}, ${p.userId}, ${p.purpose}, ${p.planId}, ${p.amount}, ${p.statementId ?? null})
    on conflict (id) do nothing
    returning id
  `;
  if (!inserted) return;
  if (p.statementId) {
    await tx`
      update public.billing_transactions set payment_reference = ${p.id}, payment_method = 'card'
       where id = ${p.statementId} and user_id = ${p.userId}
    `;
    return;
  }
  await tx`
    insert into public.billing_transactions (user_id, amount, status, type, description, payment_method, payment_reference)
    values (${p.userId}, ${p.amount}, 'pending', ${p.purpose}, ${p.description}, 'card', ${p.id})
  `;
}

export interface PaymentRow {
  id: string;
  userId: string;
  purpose: 'subscription' | 'commission';
  planId: number | null;
  amount: number;
  status: 'pending' | 'succeeded' | 'failed' | 'refunded' | 'disputed';
  failureMessage: string | null;
}

export async function paymentById(tx: Tx, id: string): Promise<PaymentRow | null> {
  const [row] = await tx<PaymentRow[]>`
    select id, user_id as "userId", purpose, plan_id as "planId", amount, status, failure_message as "failureMessage"
      from private.payments where id = ${id}
  `;
  return row ?? null;
}

/** Commission payments of the traveller not (yet) succeeded: to cancel before a new one. */
export async function unfinishedCommissionPayments(tx: Tx, userId: string): Promise<string[]> {
  const rows = await tx<{ id: string }[]>`
    select id from private.payments
     where user_id = ${userId} and purpose = 'commission' and status in ('pending', 'failed')
  `;
  return rows.map((r) => r.id);
}

export interface CommissionClaim {
  /** The debt this payment pays; also the provider's idempotency key. */
  debtKey: string;
  amount: number;
  /** The payment row: its debt key until the provider answered, then the intent's id. */
  paymentId: string | null;
  /** Another pending commission payment (an earlier debt) to give up before this one. */
  staleId: string | null;
  /** That payment is a claim still waiting for the provider's answer (made in the last 5 minutes). */
  staleInFlight: boolean;
}

/**
 * private.claim_commission_payment (migration 20261122000800_billing_and_payments.sql): the pending row of the debt is
 * written before the provider is called, under the one-pending-per-traveller index; null when
 * nothing is owed (or this statement was charged before).
 */
export async function claimCommissionPayment(
  tx: Tx,
  userId: string,
  statementId: number | null = null,
): Promise<CommissionClaim | null> {
  const [row] = await tx<CommissionClaim[]>`
    select debt_key as "debtKey", amount, payment_id as "paymentId", stale_id as "staleId",
           stale_in_flight as "staleInFlight"
      from private.claim_commission_payment(${userId}, ${statementId}::bigint)
  `;
  return row ?? null;
}

/** The provider answered a claim: its row takes the intent's id (false when it already had). */
export async function attachCommissionIntent(
  tx: Tx,
  debtKey: string,
  intentId: string,
  description: string,
): Promise<boolean> {
  const [row] = await tx<{ ok: boolean }[]>`
    select private.attach_commission_intent(${debtKey}, ${intentId}, ${description}) as ok
  `;
  return row?.ok ?? false;
}

/** Queues the refund of what a succeeded commission payment could not apply; the cents, or 0. */
export async function queueUnappliedRefund(tx: Tx, id: string): Promise<number> {
  const [row] = await tx<{ cents: number }[]>`select private.queue_unapplied_refund(${id}) as cents`;
  return row?.cents ?? 0;
}

/** What is still to refund of a succeeded commission payment's unapplied part, if anything. */
export async function unappliedRefundDue(tx: Tx, id: string): Promise<{ userId: string; amount: number } | null> {
  const [row] = await tx<{ userId: string; amount: number }[]>`
    select user_id as "userId", amount - applied as amount from private.payments
     where id = ${id} and purpose = 'commission' and status = 'succeeded'
       and unapplied_refund_id is null and amount > applied
  `;
  return row ?? null;
}

/** The refund is made: recorded once, a refund billing row, the traveller and admins told. */
export async function recordUnappliedRefund(tx: Tx, id: string, refundId: string, amount: number): Promise<boolean> {
  const [row] = await tx<{ ok: boolean }[]>`
    select private.payment_unapplied_refunded(${id}, ${refundId}, ${amount}) as ok
  `;
  return row?.ok ?? false;
}

/**
 * A refund attempt of commission_refund job `jobId` failed: the admins alerted once per payment;
 * on the job's last attempt the money held for the traveller, admins and traveller told
 * (private.unapplied_refund_failed). 'retrying', 'held', or null when nothing is left to refund.
 */
export async function recordUnappliedRefundFailure(
  tx: Tx,
  jobId: number,
  id: string,
  reason: string,
): Promise<'retrying' | 'held' | null> {
  const [row] = await tx<{ outcome: 'retrying' | 'held' | null }[]>`
    select private.unapplied_refund_failed(${jobId}, ${id}, ${reason}) as outcome
  `;
  return row?.outcome ?? null;
}

/** A payment given up (cancelled at the provider): failed, no notification. */
export async function abandonPayment(tx: Tx, id: string): Promise<void> {
  await tx`
    update private.payments set status = 'failed', failure_message = coalesce(failure_message, 'Cancelled')
     where id = ${id} and status = 'pending'
  `;
  await tx`update public.billing_transactions set status = 'failed' where payment_reference = ${id} and status = 'pending'`;
}

export async function paymentSucceeded(tx: Tx, id: string, paymentMethodId: string | null): Promise<boolean> {
  const [row] = await tx<{ ok: boolean }[]>`select private.payment_succeeded(${id}, ${paymentMethodId}) as ok`;
  return row?.ok ?? false;
}

export async function paymentFailed(tx: Tx, id: string, reason: string | null): Promise<boolean> {
  const [row] = await tx<{ ok: boolean }[]>`select private.payment_failed(${id}, ${reason ?? ''}) as ok`;
  return row?.ok ?? false;
}

export async function paymentRefunded(tx: Tx, id: string): Promise<boolean> {
  const [row] = await tx<{ ok: boolean }[]>`select private.payment_refunded(${id}) as ok`;
  return row?.ok ?? false;
}

// ---- disputes (migration 20261122000800_billing_and_payments.sql) ----

/**
 * A disputed charge the api never created a payment for (a Stripe Checkout subscription's
 * invoice): recorded as the traveller's succeeded subscription payment of their current premium
 * plan and Stripe subscription, so the dispute functions can take it back and restore it, and
 * while it is disputed that subscription's events cannot give Premium back (migration
 * 20261122000800_billing_and_payments.sql). False when the traveller is not on a premium plan (nothing to take back).
 */
export async function adoptDisputedSubscriptionPayment(
  tx: Tx,
  userId: string,
  paymentId: string,
  amount: number,
): Promise<boolean> {
  const rows = await tx`
    insert into private.payments (id, user_id, purpose, plan_id, amount, applied, status, subscription_id)
    select ${paymentId}, p.id, 'subscription', p.plan_id, ${amount}, 0, 'succeeded', ba.subscription_id
      from public.profiles p join public.subscription_plans sp on sp.id = p.plan_id
      left join private.billing_accounts ba on ba.user_id = p.id
     where p.id = ${userId} and sp.tier = 'premium' and ${amount} > 0
    on conflict (id) do nothing
    returning id
  `;
  return rows.length > 0;
}

export async function paymentDisputed(tx: Tx, id: string, disputeId: string, status: string): Promise<boolean> {
  const [row] = await tx<{ ok: boolean }[]>`select private.payment_disputed(${id}, ${disputeId}, ${status}) as ok`;
  return row?.ok ?? false;
}

/**
 * The Stripe subscription a lost dispute's payment paid for, to cancel: the one recorded on the
 * payment (a Checkout invoice adopted when its dispute opened); a payment the api created (the card
 * form, commission) pays for none. A payment never recorded (its dispute's created event was
 * lost) is adopted with the customer's current subscription, as it will be here.
 */
export async function disputedSubscription(
  tx: Tx,
  paymentId: string,
  customerId: string | null,
): Promise<string | null> {
  const [row] = await tx<{ id: string | null }[]>`
    select case when exists (select 1 from private.payments where id = ${paymentId})
                then (select subscription_id from private.payments where id = ${paymentId})
                else (select subscription_id from private.billing_accounts where customer_id = ${customerId})
           end as id
  `;
  return row?.id ?? null;
}

export async function paymentDisputeClosed(tx: Tx, id: string, disputeId: string, status: string): Promise<boolean> {
  const [row] = await tx<{ ok: boolean }[]>`
    select private.payment_dispute_closed(${id}, ${disputeId}, ${status}) as ok`;
  return row?.ok ?? false;
}

/** Whether a Stripe event is already stored: a delivery seen before is answered without work. */
export async function stripeEventSeen(tx: Tx, id: string): Promise<boolean> {
  const rows = await tx`select 1 from private.stripe_events where id = ${id}`;
  return rows.length > 0;
}

/** Stores a webhook event id; false when it was stored before (a replay). */
export async function recordStripeEvent(tx: Tx, id: string, type: string): Promise<boolean> {
  const rows = await tx`
    insert into private.stripe_events (id, type) values (${id}, ${type}) on conflict (id) do nothing returning id
  `;
  return rows.length > 0;
}

/** The traveller a Stripe customer or subscription belongs to. */
export async function userByCustomer(tx: Tx, customerId: string): Promise<string | null> {
  const [row] = await tx<{ user_id: string }[]>`
    select user_id from private.billing_accounts where customer_id = ${customerId}
  `;
  return row?.user_id ?? null;
}

/**
 * A Stripe subscription's state, as read back from Stripe, applied to the traveller: active
 * (or trialing) puts them on `planId` for the period Stripe states, unless a payment of that
 * subscription is disputed (open or lost: private.apply_subscription_plan); past_due keeps the plan and
 * says so; canceled/unpaid/incomplete_expired ends premium (the free plan) unless the traveller
 * already moved on to another subscription.
 */
export async function applySubscription(tx: Tx, userId: string, sub: SubscriptionInfo, planId: number | null) {
  const [account] = await tx<{ subscription_id: string | null }[]>`
    select ba.subscription_id from public.profiles p
      left join private.billing_accounts ba on ba.user_id = p.id
     where p.id = ${userId} for update of p
  `;
  if (!account) return;
  if (account.subscription_id && account.subscription_id !== sub.id && !['active', 'trialing'].includes(sub.status)) {
    return; // an old subscription ending: the current one decides
  }
  const live = ['active', 'trialing'].includes(sub.status);
  const status: SubscriptionStatus = live
    ? sub.cancelAtPeriodEnd
      ? 'canceled'
      : 'active'
    : sub.status === 'past_due'
      ? 'past_due'
      : 'expired';
  await tx`
    insert into private.billing_accounts (user_id, customer_id, subscription_id, subscription_status, renews, payment_method_id)
    values (${userId}, ${sub.customerId}, ${sub.id}, ${status}, ${live && !sub.cancelAtPeriodEnd}, ${sub.defaultPaymentMethodId})
    on conflict (user_id) do update set
      customer_id = excluded.customer_id,
      subscription_id = excluded.subscription_id,
      subscription_status = excluded.subscription_status,
      renews = excluded.renews,
      payment_method_id = coalesce(excluded.payment_method_id, private.billing_accounts.payment_method_id)
  `;
  if (live && !sub.cancelAtPeriodEnd && planId !== null) {
    // refused while a payment of this subscription is disputed (open or lost); the flights kept
    // over a limit are watched again by the plan change (migration 20261122000800_billing_and_payments.sql)
    await tx`
      select private.apply_subscription_plan(${userId}, ${sub.id}, ${planId},
                                             ${sub.currentPeriodStart}, ${sub.currentPeriodEnd})
    `;
  } else if (status === 'expired') {
    await tx`
      update public.profiles set plan_id = private.default_plan_id(),
        subscription_end_date = coalesce(${sub.currentPeriodEnd}, subscription_end_date)
      where id = ${userId} and plan_id in (select id from public.subscription_plans where tier = 'premium')
    `;
  }
}

/** A paid subscription invoice: its completed billing row (once per invoice). */
export async function recordInvoicePaid(
  tx: Tx,
  userId: string,
  invoiceId: string,
  amount: number,
  description: string,
) {
  await tx`
    insert into public.billing_transactions (user_id, amount, status, type, description, payment_method, payment_reference)
    values (${userId}, ${amount}, 'completed', 'subscription', ${description}, 'card', ${invoiceId})
    on conflict (payment_reference) where payment_reference is not null do update set status = 'completed'
  `;
}

export async function recordInvoiceFailed(tx: Tx, userId: string, invoiceId: string, amount: number, reason: string) {
  const rows = await tx`
    insert into public.billing_transactions (user_id, amount, status, type, description, payment_method, payment_reference)
    values (${userId}, ${amount}, 'failed', 'subscription', 'Premium renewal', 'card', ${invoiceId})
    on conflict (payment_reference) where payment_reference is not null do nothing
    returning id
  `;
  if (rows.length === 0) return;
  await queueNotification(tx, {
    userId,
    type: 'payment_failed',
    data: { purpose: 'subscription', amount, reason },
    dedupeKey: `payment_failed:${invoiceId}`,
  });
}

/**
 * The downgrade: the free plan now (auto-rebooking off; private.move_to_free_plan), no renewal.
 * Answers the room left on the free plan (private.room_on_plan): below 0 when more flights are
 * watched than it allows.
 */
export async function moveToFreePlan(tx: Tx, userId: string): Promise<RoomOnPlan> {
  await tx`select private.move_to_free_plan(${userId})`;
  await tx`
    update private.billing_accounts set subscription_status = 'canceled', renews = false
     where user_id = ${userId} and subscription_status in ('active', 'past_due')
  `;
  return await roomOnPlan(tx, userId);
}

/** `GET /api/billing/commission`, as the traveller. */
export async function commissionSummary(tx: Tx, userId: string): Promise<CommissionSummaryResponse> {
  const [row] = await tx<{ commissionOwed: number; totalCreditsEarned: number }[]>`
    select commission_owed as "commissionOwed", total_credits_earned as "totalCreditsEarned"
      from public.profiles where id = ${userId}
  `;
  return { commissionSummary: row ?? { commissionOwed: 0, totalCreditsEarned: 0 } };
}

const HISTORY_SORT = { date: 'date', amount: 'amount', type: 'type', status: 'status' } as const;

/** `GET /api/billing/history`, as the traveller (the table's policies show their own rows). */
export async function billingHistory(
  tx: Tx,
  userId: string,
  query: ListQuery<keyof typeof HISTORY_SORT>,
): Promise<BillingHistoryResponse> {
  const matching = tx`
    select b.id, b.transaction_date as date, b.type, b.amount, b.status, b.description,
           b.billing_period_start::text as "billingPeriodStart", b.billing_period_end::text as "billingPeriodEnd"
      from public.billing_transactions b
     where b.user_id = ${userId}
  `;
  const page = await listPage<BillingHistoryItem & Record<string, unknown>, keyof typeof HISTORY_SORT>(
    tx,
    matching,
    query,
    { sort: HISTORY_SORT, unique: 'id' },
  );
  const { items, ...rest } = page;
  return {
    transactions: items.map((t) => ({ ...t, id: Number(t.id), date: new Date(t.date).toISOString() })),
    ...rest,
  };
}

/** The local test mode's intents, on the service connection. */
export function localIntentStore(db: Db): LocalIntentStore {
  return {
    async insert(i) {
      await db.serviceStatement(
        (sql) => sql`
          insert into private.local_payment_intents (id, customer_id, amount, status, metadata, payment_method_id, failure_message)
          values (${i.id}, ${i.customerId}, ${i.amount}, ${i.status}, ${sql.json(i.metadata)}, ${i.paymentMethodId}, ${i.failureMessage})
          on conflict (id) do nothing
        `,
      );
    },
    async get(id) {
      const [row] = await db.serviceStatement(
        (sql) => sql<LocalIntent[]>`
          select id, customer_id as "customerId", amount, status, metadata, payment_method_id as "paymentMethodId",
                 failure_message as "failureMessage"
            from private.local_payment_intents where id = ${id}
        `,
      );
      return row ?? null;
    },
    async update(id, patch) {
      await db.serviceStatement(
        (sql) => sql`
          update private.local_payment_intents
             set status = ${patch.status}, payment_method_id = ${patch.paymentMethodId}, failure_message = ${patch.failureMessage}
           where id = ${id}
        `,
      );
    },
  };
}

// ---- commission statements ----

/** Travellers with something to state for a period: commission owed, or commissions recorded in it. */
export async function travellersToState(tx: Tx, start: string, end: string): Promise<string[]> {
  const rows = await tx<{ id: string }[]>`
    select p.id from public.profiles p
     where p.commission_owed > 0
        or exists (select 1 from public.billing_transactions b
                    where b.user_id = p.id and b.type = 'commission' and b.billing_period_start is null
                      and b.payment_reference is null
                      and b.transaction_date >= ${start}::date and b.transaction_date < ${end}::date + 1)
     order by p.id
  `;
  return rows.map((r) => r.id);
}

export interface Statement {
  id: number;
  amount: number;
  status: string;
  paymentReference: string | null;
  credits: number;
}

export async function closeCommissionPeriod(
  tx: Tx,
  userId: string,
  start: string,
  end: string,
): Promise<Statement | null> {
  const [row] = await tx<{ id: number | null }[]>`
    select private.close_commission_period(${userId}, ${start}::date, ${end}::date) as id
  `;
  if (!row?.id) return null;
  const [statement] = await tx<Statement[]>`
    select id, amount, status, payment_reference as "paymentReference", credits_earned_in_period as credits
      from public.billing_transactions where id = ${row.id}
  `;
  return statement ? { ...statement, id: Number(statement.id) } : null;
}

export async function notifyStatement(
  tx: Tx,
  userId: string,
  s: { periodStart: string; periodEnd: string; credits: number; commissionDue: number; charged: boolean },
) {
  await queueNotification(tx, {
    userId,
    type: 'commission_statement',
    data: s,
    dedupeKey: `commission_statement:${userId}:${s.periodStart}`,
  });
}

// ---- a commission payment an admin records ----

export interface RecordedCommissionPayment {
  transactionId: number;
  commissionOwed: number;
  commissionPaid: number;
}

/**
 * private.record_commission_payment (migration 20261122000800_billing_and_payments.sql): one
 * transaction with its billing row, the ledger move and the audit row; null for an unknown traveller. An amount above what is
 * owed raises FB400 with the amount owed in its message.
 */
export async function recordManualCommissionPayment(
  tx: Tx,
  actorId: string,
  userId: string,
  amount: number,
): Promise<RecordedCommissionPayment | null> {
  const [row] = await tx<RecordedCommissionPayment[]>`
    select transaction_id::int as "transactionId", commission_owed as "commissionOwed",
           commission_paid as "commissionPaid"
      from private.record_commission_payment(${actorId}, ${userId}, ${amount})
  `;
  return row ?? null;
}

/** A renewal charge due now (private.renewals_due). */
export interface RenewalDue {
  userId: string;
  planId: number;
  amount: number;
  periodEnd: Date;
  /** 1 on the end date, 2-4 the retries. */
  attempt: number;
  customerId: string | null;
  paymentMethodId: string | null;
}

/** Who is due a renewal charge at `now` (FareBack's renewal of a year paid by card). */
export async function renewalsDue(tx: Tx, now: Date): Promise<RenewalDue[]> {
  return await tx<RenewalDue[]>`
    select user_id as "userId", plan_id::int as "planId", amount, period_end as "periodEnd", attempt,
           customer_id as "customerId", payment_method_id as "paymentMethodId"
      from private.renewals_due(${now})`;
}

/** private.renewal_failed: answers whether another attempt remains. */
export async function renewalFailed(tx: Tx, userId: string, now: Date): Promise<boolean> {
  const [row] = await tx<{ renews: boolean }[]>`select private.renewal_failed(${userId}, ${now}) as renews`;
  return row?.renews ?? false;
}

/** private.queue_renewal_reminders: the 30- and 7-day reminders due at `now`. */
export async function queueRenewalReminders(tx: Tx, now: Date): Promise<number> {
  const [row] = await tx<{ queued: number }[]>`select private.queue_renewal_reminders(${now}) as queued`;
  return row?.queued ?? 0;
}

/** Renewal on or off for a year FareBack renews (no Stripe subscription); a Stripe one: its events. */
export async function setRenewal(tx: Tx, userId: string, renews: boolean): Promise<void> {
  await tx`
    update private.billing_accounts
       set renews = ${renews},
           subscription_status = case when ${renews}::boolean then 'active' else 'canceled' end
     where user_id = ${userId}`;
}

/** A new card for the next renewal and statements (the card form's, a Billing Portal change, or test mode's). */
export async function saveCard(tx: Tx, userId: string, paymentMethodId: string): Promise<void> {
  await tx`
    insert into private.billing_accounts (user_id, payment_method_id) values (${userId}, ${paymentMethodId})
    on conflict (user_id) do update set payment_method_id = excluded.payment_method_id`;
}
