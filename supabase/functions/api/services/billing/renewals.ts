// FareBack's renewal of a year paid by card (docs/architecture.md "The end of a paid year"): on
// the day a renewing year ends, the daily pass charges the saved card the plan row's price; a
// failed charge keeps Premium (past_due), emails the traveller (payment_failed) and is retried 1,
// 3 and 7 days after the first failure (RENEWAL_RETRY_DAYS, _shared/types/billing.ts); after the fourth failure the year
// no longer renews and the expiry pass that follows moves the traveller to Free. A year bought
// through Stripe Checkout is a Stripe subscription: Stripe renews and retries it (its webhooks).
import type { AppDeps } from '../../context.ts';
import { insertPayment, type RenewalDue, renewalFailed, renewalsDue } from '../../queries/billing.ts';
import { settle } from './settlement.ts';

export type RenewalOutcome = 'renewed' | 'retrying' | 'lapsing';

/** One renewal charge: the payment row, the off-session charge, its outcome applied. */
export async function renewOne(deps: AppDeps, due: RenewalDue, now: Date): Promise<RenewalOutcome> {
  const fail = async () =>
    (await deps.db.asService((tx) => renewalFailed(tx, due.userId, now))) ? 'retrying' : 'lapsing';
  if (!due.customerId || !due.paymentMethodId || deps.payments.mode === 'unavailable') return await fail();
  const { customerId, paymentMethodId } = due;
  const periodKey = due.periodEnd.toISOString().slice(0, 10);
  const intent = await deps.payments.chargeSavedCard({
    // one charge per attempt of one renewal, however often the pass runs
    idempotencyKey: `renewal:${due.userId}:${periodKey}:${due.attempt}`,
    customerId,
    paymentMethodId,
    amount: due.amount,
    description: 'Premium plan renewal, one year',
    metadata: { userId: due.userId, purpose: 'subscription', planId: String(due.planId) },
  });
  await deps.db.asService((tx) =>
    insertPayment(tx, {
      id: intent.id,
      userId: due.userId,
      purpose: 'subscription',
      planId: due.planId,
      amount: due.amount,
      description: `Premium renewal (one year from ${periodKey})`,
    }),
  );
  await settle(deps, intent);
  if (intent.status === 'succeeded') return 'renewed';
  return await fail();
}

/** Every renewal charge due at `now`; a provider error leaves that traveller for the next run. */
export async function renewSubscriptions(deps: AppDeps, now: Date): Promise<Record<RenewalOutcome | 'errors', number>> {
  const due = await deps.db.asService((tx) => renewalsDue(tx, now));
  const counts = { renewed: 0, retrying: 0, lapsing: 0, errors: 0 };
  for (const renewal of due) {
    try {
      counts[await renewOne(deps, renewal, now)] += 1;
    } catch (error) {
      counts.errors += 1;
      deps.log({ level: 'error', msg: 'subscription renewal failed', userId: renewal.userId, error: String(error) });
    }
  }
  return counts;
}
