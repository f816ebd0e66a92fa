// The price sweep: re-quote every monitored flight that is due and record what changed.
//
// The database plans the work: starting a sweep enqueues its due flights on the job queue as
// price_check jobs, each a range of ids holding `batchSize` due flights (migrations
// 20261122000200_jobs_and_scheduling.sql and 20261122000500_flights_and_prices.sql); this worker claims them one
// at a time with a lease, so several workers can share a sweep and a crashed one's batch comes
// back when its lease runs out. Per batch:
//   1. claim it and load its flights that are still due, in one statement (a flight checked since
//      the sweep began, by hand or by an earlier attempt of this batch that did commit, is not);
//   2. quote each distinct itinerary (itineraryKey: airline, flights, dates, cabin, fare type)
//      once for the whole run, however many travellers hold it, because fare APIs charge per
//      search. Quotes go through one pool of `concurrency` slots shared by every batch in flight;
//      the fare source's own wrapper holds the per-second rate limit;
//   3. write the batch's prices and complete its job with the batch's counts in ONE transaction.
//      Completion succeeds only with this worker's claim token, otherwise the transaction rolls
//      back, so a batch is recorded (and counted in the sweep's totals) exactly once even when a
//      stalled worker's job was claimed again by another.
// The writes are the part a sweep cannot do without; the rest is kept beside them: each of the
// `lanes` (2) writes one batch while it claims, loads and quotes its next, so the database always
// has a batch to write. A quote that fails leaves that itinerary's flights untouched (still due
// for the next sweep) and is counted as an error on the log row.
//
// An aborted run (the signal; in production, a killed process) walks away from its claimed jobs
// without completing or failing them: exactly what a crash leaves behind, and what the next run
// picks up after the lease.
import type { FareQuote, FareSource, Itinerary } from '../../_shared/fare-source/types.ts';
import { FlightCancelledError, itineraryKey } from '../../_shared/fare-source/types.ts';
import type { SweepConfig } from '../config.ts';
import type { Logger } from '../context.ts';
import type { Db, Tx } from '../db.ts';
import { cpuNowMs, EDGE_BUDGET_SHARE, EDGE_CPU_BUDGET_MS } from '../lib/resource-usage.ts';
import { cancelFlights } from '../queries/flights.ts';
import { ClaimLostError, completeJob, type EnqueueJob, enqueueJob, failJob } from '../queries/jobs.ts';
import { type PriceCheckResult, recordPriceChecks } from '../queries/price-checks.ts';
import {
  type BatchCounts,
  claimDueBatch,
  type ClaimedBatch,
  type DueFlight,
  finishSweep,
  startSweep,
  sweepIsRunning,
  type SweepTotals,
} from '../queries/price-sweeps.ts';
import type { AppDeps } from '../context.ts';
import { sendQueuedNotifications } from './notifications.ts';
import { startAutoRebookingRun } from './auto-rebooking.ts';
import { confirmPendingDrops } from './drop-confirmation.ts';
import type { JobHandler } from './job-runner.ts';
import { createPool } from '../lib/pool.ts';

export interface PriceSweepDeps {
  db: Pick<Db, 'asService' | 'serviceStatement'>;
  fareSource: FareSource;
  config: { sweep: SweepConfig };
  log?: Logger;
}

export interface RunPriceSweepOptions {
  /** The admin who asked for the run, or null for the scheduler. Kept from the sweep's start when resuming. */
  initiatedBy: string | null;
  /** Names this worker in the jobs' locked_by (default: a random id). */
  workerId?: string;
  /** Aborting walks away from claimed batches as a crash would; the run then rejects. */
  signal?: AbortSignal;
  /** Claim at most this many batches, then stop (the sweep stays running if work is left). */
  maxBatches?: number;
  /** Claim no new batch after this many milliseconds (batches in flight still finish). */
  budgetMs?: number;
  /**
   * Claim no new batch once this run has used this much CPU time (batches in flight still
   * finish): a run inside a request keeps under half of the hosted Edge Functions' 2 s
   * (lib/resource-usage.ts). Default: no limit.
   */
  cpuBudgetMs?: number;
  /** Milliseconds since the epoch, the clock budgetMs is measured on (default Date.now; tests step it). */
  clock?: () => number;
  /** Batches written at once (default 2); each lane prepares its next batch while it writes one. */
  lanes?: number;
  /** Runs in the transaction that totals the sweep (an admin's run is audited there). */
  onFinished?: (tx: Tx, result: PriceSweepResult) => Promise<unknown>;
}

/** The sweep's totals (SweepTotals: every completed batch, across runs when resumed) and this run's part. */
export interface PriceSweepResult extends SweepTotals {
  sweepId: number;
  /** Whether this run started the sweep or took over one already running. */
  resumed: boolean;
  /** Flights whose itinerary could not be quoted in this run. */
  quoteErrors: number;
}

type QuoteOutcome = { ok: true; quote: FareQuote } | { ok: false; error: string; cancelled?: boolean };

/** A claimed batch, quoted: what its write needs. */
interface PreparedBatch {
  job: ClaimedBatch['job'];
  results: PriceCheckResult[];
  /** Flights whose flight the airline cancelled (FlightCancelledError on their quote). */
  cancelled: { flightId: number; userId: string }[];
  counts: BatchCounts;
}

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('The price sweep was aborted');
}

/** Resolves with `promise`, or rejects as soon as the signal aborts. */
function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(abortError(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

export async function runPriceSweep(deps: PriceSweepDeps, options: RunPriceSweepOptions): Promise<PriceSweepResult> {
  const { db, fareSource, config } = deps;
  const { signal } = options;
  const worker = options.workerId ?? `sweep-${crypto.randomUUID()}`;
  const lanes = Math.max(1, options.lanes ?? 2);
  const clock = options.clock ?? Date.now;
  const deadline = options.budgetMs === undefined ? Infinity : clock() + options.budgetMs;
  const cpuStart = cpuNowMs();
  const cpuBudgetMs = options.cpuBudgetMs ?? Infinity;
  const quotePool = createPool(config.sweep.concurrency);
  // One quote per itinerary for the whole run; the promise is shared, so two batches that need
  // the same itinerary at the same moment still make one call.
  const quotes = new Map<string, Promise<QuoteOutcome>>();
  let claimedBatches = 0;
  let quoteErrors = 0;

  if (signal?.aborted) throw abortError(signal);
  const sweep = await db.asService((tx) =>
    startSweep(tx, {
      initiatedBy: options.initiatedBy,
      checkIntervalMinutes: config.sweep.checkIntervalMinutes,
      batchSize: config.sweep.batchSize,
    }),
  );

  const quoteOnce = (key: string, itinerary: Itinerary): { outcome: Promise<QuoteOutcome>; fresh: boolean } => {
    const cached = quotes.get(key);
    if (cached) return { outcome: cached, fresh: false };
    const outcome = quotePool(async (): Promise<QuoteOutcome> => {
      if (signal?.aborted) return { ok: false, error: 'aborted' };
      try {
        return { ok: true, quote: await fareSource.quote(itinerary, { signal }) };
      } catch (error) {
        // the airline cancelled the flight: every holder's flight is marked cancelled in the write
        if (error instanceof FlightCancelledError) return { ok: false, error: error.message, cancelled: true };
        // any failure, typed or not, must leave the flights as they were: count it and move on
        return { ok: false, error: error instanceof Error ? error.message : String(error) };
      }
    });
    quotes.set(key, outcome);
    return { outcome, fresh: true };
  };

  /** Claims the next batch and loads its flights (one statement), then quotes them; null when none is due. */
  const prepareBatch = async (lockedBy: string): Promise<PreparedBatch | null> => {
    const batch = await db.serviceStatement((sql) =>
      claimDueBatch(sql, { worker: lockedBy, leaseSeconds: config.sweep.leaseSeconds }),
    );
    if (!batch) return null;
    const byKey = new Map<string, DueFlight[]>();
    for (const flight of batch.flights) {
      const key = itineraryKey(flight.itinerary);
      const group = byKey.get(key);
      if (group) group.push(flight);
      else byKey.set(key, [flight]);
    }
    const counts: BatchCounts = { checked: 0, drops: 0, quotes: 0, quoteErrors: 0, quoteError: null };
    const pending = [...byKey].map(([key, group]) => {
      const first = group[0] as DueFlight;
      const { outcome, fresh } = quoteOnce(key, first.itinerary);
      if (fresh) counts.quotes++;
      return outcome.then((result) => ({ group, result }));
    });
    const quoted = await unlessAborted(Promise.all(pending), signal);

    const results: PriceCheckResult[] = [];
    const cancelled: { flightId: number; userId: string }[] = [];
    const checkedAt = new Date();
    for (const { group, result } of quoted) {
      if (!result.ok && result.cancelled) {
        for (const flight of group) cancelled.push({ flightId: flight.id, userId: flight.userId });
        continue;
      }
      if (!result.ok) {
        counts.quoteErrors += group.length;
        counts.quoteError ??= result.error;
        continue;
      }
      for (const flight of group) {
        results.push({
          flightId: flight.id,
          userId: flight.userId,
          price: result.quote.price,
          currency: result.quote.currency,
          checkedAt,
          source: fareSource.name,
          changePenalty: result.quote.changePenalty ?? null,
          refundForm: result.quote.refundForm ?? null,
          offerId: result.quote.offerId,
        });
      }
    }
    return { job: batch.job, results, cancelled, counts };
  };

  /**
   * Writes a batch's prices and completes its job with its counts (which the sweep's totals sum)
   * in one transaction; a lost claim rolls both back. A batch that cannot be written goes back to
   * the queue after a backoff (dead after max attempts).
   */
  const writeBatch = async ({ job, results, cancelled, counts }: PreparedBatch): Promise<void> => {
    try {
      await db.asService(async (tx) => {
        await cancelFlights(tx, cancelled);
        const recorded = await recordPriceChecks(tx, results);
        counts.checked = recorded.length;
        // found below the price paid: confirmed before, or waiting for its second quote
        counts.drops = recorded.filter((r) => r.priceDropped || r.dropPending).length;
        if (!(await completeJob(tx, job, { ...counts }))) throw new ClaimLostError(job.id);
      });
      quoteErrors += counts.quoteErrors;
    } catch (error) {
      if (signal?.aborted) throw abortError(signal);
      if (error instanceof ClaimLostError) {
        deps.log?.({ level: 'warn', msg: 'price sweep batch taken over', jobId: job.id, sweepId: sweep.sweepId });
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      deps.log?.({ level: 'error', msg: 'price sweep batch failed', jobId: job.id, error: message });
      await db.asService((tx) => failJob(tx, job, message));
    }
  };

  const mayClaim = (): boolean => {
    if (options.maxBatches !== undefined && claimedBatches >= options.maxBatches) return false;
    if (clock() >= deadline) return false;
    if (cpuNowMs() - cpuStart >= cpuBudgetMs) return false;
    claimedBatches++;
    return true;
  };

  // A lane writes one batch while it prepares the next (claim, load, quote), so the database
  // always has a batch to write: the writes are what a sweep cannot do without, and everything
  // else happens beside them.
  const lane = async (index: number): Promise<void> => {
    const lockedBy = `${worker}/${index}`;
    const prepareNext = (): Promise<PreparedBatch | null> => {
      if (signal?.aborted) return Promise.reject(abortError(signal));
      const next = mayClaim() ? prepareBatch(lockedBy) : Promise.resolve(null);
      // awaited below; until then a rejection must not count as unhandled
      next.catch(() => {});
      return next;
    };
    let next = prepareNext();
    for (;;) {
      const prepared = await next;
      if (!prepared) return;
      if (signal?.aborted) throw abortError(signal);
      next = prepareNext();
      await writeBatch(prepared);
    }
  };

  const laneRuns = Array.from({ length: lanes }, (_, i) => lane(i));
  const settled = await Promise.allSettled(laneRuns);
  const failure = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failure) throw failure.reason;

  const result: PriceSweepResult = await db.asService(async (tx) => {
    const totals = await finishSweep(tx, sweep.sweepId);
    const finished: PriceSweepResult = { sweepId: sweep.sweepId, resumed: sweep.resumed, ...totals, quoteErrors };
    await options.onFinished?.(tx, finished);
    return finished;
  });
  deps.log?.({ level: result.success || !result.finished ? 'info' : 'warn', msg: 'price sweep', ...result });
  return result;
}

/**
 * How long an admin's request keeps claiming batches. Supabase stops an edge function after 150 s
 * of wall clock on the free plan; what is left continues at the scheduler's next run.
 */
export const SWEEP_REQUEST_BUDGET_MS = 100_000;

export const PRICE_SWEEP_KIND = 'price_sweep';

export interface SweepRun {
  sweep: PriceSweepResult;
  alertsSent: number;
  /** The sentence the admin sees. */
  message: string;
}

/** What a price_sweep job carries: nothing for a period's, the sweep it continues for a continuation. */
export interface PriceSweepPayload {
  sweepId?: number;
  batchesLeft?: number;
}

/**
 * The job that carries an unfinished sweep on at the scheduler's next run (every minute), rather
 * than at the next period's job. Its key names the sweep and its batches left, a number that only
 * falls: every run that stops at the same point (the period's job and a continuation in one run,
 * two runs racing) makes the same one job, and a run that made no progress answers its own job
 * rather than queueing another; the next period's job picks up such a stalled sweep.
 */
export function sweepContinuation(sweep: Pick<PriceSweepResult, 'sweepId' | 'batchesLeft'>): EnqueueJob {
  const payload: PriceSweepPayload = { sweepId: sweep.sweepId, batchesLeft: sweep.batchesLeft };
  return {
    kind: PRICE_SWEEP_KIND,
    payload: { ...payload },
    dedupeKey: `${PRICE_SWEEP_KIND}:sweep:${sweep.sweepId}:left:${sweep.batchesLeft}`,
  };
}

/**
 * Works on the sweep (starts one, or carries on with the running one) within the budget; a sweep
 * left unfinished gets its continuation in the transaction that totals it, and a finished one is
 * followed by the second quotes of the drops it saw (services/drop-confirmation.ts, within what is
 * left of the budget; the rest at the next runs) and then an automatic rebooking run over the
 * confirmed drops (its batches wait on the job queue, services/auto-rebooking.ts; a running one
 * is joined).
 */
async function sweepThenAutoRebook(
  deps: AppDeps,
  options: Pick<RunPriceSweepOptions, 'initiatedBy' | 'budgetMs' | 'cpuBudgetMs' | 'clock' | 'onFinished'>,
): Promise<PriceSweepResult> {
  const started = (options.clock ?? Date.now)();
  const sweep = await runPriceSweep(deps, {
    ...options,
    onFinished: async (tx, result) => {
      await options.onFinished?.(tx, result);
      if (!result.finished) await enqueueJob(tx, sweepContinuation(result));
    },
  });
  if (sweep.finished) {
    const clock = options.clock ?? Date.now;
    const left = options.budgetMs === undefined ? 20_000 : Math.max(0, started + options.budgetMs - clock());
    await confirmPendingDrops(deps, { budgetMs: left });
    await startAutoRebookingRun(deps, { trigger: 'scheduler', initiatedBy: null, scopeUserId: null });
  }
  return sweep;
}

/**
 * An admin's "Run Price Check": the sweep for one request's budget, then the alerts it queued,
 * so the admin's answer counts what went out.
 */
export async function runSweepAndSendAlerts(
  deps: AppDeps,
  initiatedBy: string | null,
  onFinished?: RunPriceSweepOptions['onFinished'],
): Promise<SweepRun> {
  const sweep = await sweepThenAutoRebook(deps, {
    initiatedBy,
    budgetMs: SWEEP_REQUEST_BUDGET_MS,
    cpuBudgetMs: EDGE_CPU_BUDGET_MS * EDGE_BUDGET_SHARE,
    onFinished,
  });
  const alerts = await sendQueuedNotifications(deps);
  return { sweep, alertsSent: alerts.completed, message: priceSweepMessage(sweep) };
}

/**
 * The scheduled sweep: one job every 15 minutes, working until the run's deadline, and its
 * continuations (sweepContinuation) at the following runs until the sweep is done. There is one
 * sweep at a time whoever starts it: the next period's job finding one still running works on it.
 * The alerts it queued go out as notification_email jobs of the same run (or the next).
 */
export const priceSweepJob: JobHandler<PriceSweepPayload> = {
  kind: PRICE_SWEEP_KIND,
  // longer than any run's budget (a batch in flight finishes after the deadline)
  leaseSeconds: 300,
  recurring: { every: '15 minutes' },
  async run(job, ctx) {
    const { sweepId } = job.payload;
    // another run finished it: starting a sweep here would sweep the few flights due since
    if (sweepId !== undefined && !(await ctx.deps.db.asService((tx) => sweepIsRunning(tx, sweepId)))) {
      await ctx.finish(() => Promise.resolve({ sweepId, alreadyFinished: true }));
      return;
    }
    const sweep = await sweepThenAutoRebook(ctx.deps, {
      initiatedBy: null,
      budgetMs: Math.max(0, ctx.deadline - ctx.now()),
      cpuBudgetMs: ctx.cpuLeftMs?.() ?? EDGE_CPU_BUDGET_MS * EDGE_BUDGET_SHARE,
      clock: ctx.now,
    });
    await ctx.finish(() => Promise.resolve({ ...sweep }));
  },
};

/** The sentence the admin sees after a run. */
export function priceSweepMessage(result: PriceSweepResult): string {
  const checked = `${result.checkedCount} flight${result.checkedCount === 1 ? '' : 's'}`;
  const drops = `${result.priceDropsFound} price drop${result.priceDropsFound === 1 ? '' : 's'}`;
  if (!result.finished) {
    return `Price check in progress: ${checked} checked so far, ${drops} found. The rest continues in the background.`;
  }
  const base = `Checked ${checked} and found ${drops}.`;
  return result.errorMessage ? `${base} ${result.errorMessage}; they will be retried in the next run.` : base;
}
