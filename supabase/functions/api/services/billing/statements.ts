// Monthly commission statements: a recurring job closes last month's period for every traveller
// with commission in it and charges a saved card what is due (claimed as commission.ts claims a debt).
import type { AppDeps } from '../../context.ts';
import {
  claimCommissionPayment,
  closeCommissionPeriod,
  notifyStatement,
  travellersToState,
} from '../../queries/billing.ts';
import { type JobHandler, PermanentJobError, RetryJobError } from '../job-runner.ts';
import { commissionIntent } from './commission.ts';
import { loadProfile } from './provider.ts';
import { settle } from './settlement.ts';

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
