// The one worker loop for background work, and the one scheduler (the job queue: migration
// 20261122000200_jobs_and_scheduling.sql, queries/jobs.ts). Each area declares its kind in private.job_kinds
// and registers a JobHandler in jobs/handlers.ts; `POST /api/internal/jobs` (pg_cron every minute
// on Supabase through private.request_job_run(), the dev stack's ticker locally) runs whatever is
// due within a time budget.
//
// Recurring work (a sweep every 15 minutes, monthly statements) is a handler's `recurring`: its
// period, and the payload a period's job carries. Every run enqueues the current period's job of
// each recurring kind under the dedupe key `<kind>:<period>`, so a kind gets one job per period
// however many runs (or racing runs) there are, and nothing else schedules anything.
//
// A handler does its work outside any transaction, then calls `ctx.finish(write)`: its effects
// and the job's completion commit together, and a lost claim (another worker took the job after
// the lease ran out) rolls the effects back. A handler that returns without calling finish is
// completed with no result. Errors give the job back: RetryJobError at a chosen time (a 429's
// Retry-After), PermanentJobError straight to the dead letters, anything else after the kind's
// backoff (dead after its max attempts).
//
// A sweep's price_check batches are the exception to the loop: the price_sweep job runs them in
// the sweep's own pipelined loop (services/price-sweep.ts), in overlapping lanes for throughput.
import type { AppDeps } from '../context.ts';
import type { Tx } from '../db.ts';
import { cpuNowMs, EDGE_BUDGET_SHARE, EDGE_CPU_BUDGET_MS, startUsage } from '../lib/resource-usage.ts';
import {
  type ClaimedJob,
  ClaimLostError,
  claimJobs,
  completeJob,
  type EnqueueJob,
  enqueueJob,
  extendJobLease,
  failJob,
} from '../queries/jobs.ts';

export interface JobContext {
  deps: AppDeps;
  /** Names this worker in the job's locked_by. */
  worker: string;
  /**
   * When the run stops claiming jobs (ms since the epoch, on `now`). A job whose work can be cut
   * anywhere (a sweep) stops there and leaves the rest to a later job, so a request stays in its
   * budget.
   */
  deadline: number;
  /** The run's clock (ms since the epoch), the one `deadline` is on: Date.now unless a test steps it. */
  now(): number;
  /**
   * CPU time the run may still use (its cpuBudgetMs less what it used): a job whose work can be
   * cut anywhere stops claiming more once it is spent.
   */
  cpuLeftMs?(): number;
  /**
   * Runs `write` and completes the job in one transaction; what `write` returns is the job's
   * result. Throws ClaimLostError (after rolling `write` back) when another worker holds the job.
   */
  finish(write?: (tx: Tx) => Promise<Record<string, unknown> | void>): Promise<void>;
  /** Keeps the claim for a long job; false once it is lost (stop and return). */
  extendLease(seconds: number): Promise<boolean>;
}

export interface JobHandler<Payload = Record<string, unknown>> {
  /** The kind, as declared in private.job_kinds. */
  kind: string;
  /** How long a claim lasts before another worker may take the job again. */
  leaseSeconds: number;
  run(job: ClaimedJob<Payload>, ctx: JobContext): Promise<void>;
  /** Recurring work: one job of the kind per period, enqueued by every run (the one scheduler). */
  recurring?: Recurring;
}

/** The periods recurring work comes in, in UTC. A period's key names it in the job's dedupe key. */
export const RECURRING_PERIODS = {
  '5 minutes': minutes(5),
  '15 minutes': minutes(15),
  hour: {
    start: (t: Date) => new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate(), t.getUTCHours())),
    next: (start: Date) => new Date(start.getTime() + 3_600_000),
    key: (start: Date) => start.toISOString().slice(0, 13),
  },
  day: {
    start: (t: Date) => new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate())),
    next: (start: Date) => new Date(start.getTime() + 86_400_000),
    key: (start: Date) => start.toISOString().slice(0, 10),
  },
  month: {
    start: (t: Date) => new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), 1)),
    next: (start: Date) => new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1)),
    key: (start: Date) => start.toISOString().slice(0, 7),
  },
} satisfies Record<string, PeriodRule>;

export type RecurringPeriod = keyof typeof RECURRING_PERIODS;

export interface Recurring {
  every: RecurringPeriod;
  /** The payload of the period's job (default none), e.g. the month a statement closes. */
  payload?(period: Period): Record<string, unknown>;
}

/** One period of a recurring kind: [start, next), named by `key` ('2026-11', '2026-11-28T10:15'). */
export interface Period {
  start: Date;
  next: Date;
  key: string;
}

interface PeriodRule {
  start(t: Date): Date;
  next(start: Date): Date;
  key(start: Date): string;
}

/** Periods of n minutes counted from the epoch, so every hour starts one. */
function minutes(n: number): PeriodRule {
  const ms = n * 60_000;
  return {
    start: (t) => new Date(Math.floor(t.getTime() / ms) * ms),
    next: (start) => new Date(start.getTime() + ms),
    key: (start) => start.toISOString().slice(0, 16),
  };
}

/** The period of `every` that holds `now`. */
export function periodOf(every: RecurringPeriod, now: Date): Period {
  const rule: PeriodRule = RECURRING_PERIODS[every];
  const start = rule.start(now);
  return { start, next: rule.next(start), key: rule.key(start) };
}

/** The job a recurring kind should have at `now`: its period's, keyed `<kind>:<period key>`. */
export function recurringJob(kind: string, recurring: Recurring, now: Date): EnqueueJob {
  const period = periodOf(recurring.every, now);
  const payload = recurring.payload?.(period);
  return { kind, dedupeKey: `${kind}:${period.key}`, ...(payload ? { payload } : {}) };
}

/** Give the job back to run again at `retryAt` (or after the kind's backoff when not given). */
export class RetryJobError extends Error {
  constructor(
    message: string,
    readonly retryAt?: Date,
  ) {
    super(message);
    this.name = 'RetryJobError';
  }
}

/** The job can never succeed (its subject is gone, its input is wrong): no retries. */
export class PermanentJobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentJobError';
  }
}

export interface RunDueJobsOptions {
  /** Stop claiming new jobs after this long (default 50 s: an edge function invocation's share). */
  budgetMs?: number;
  /** Jobs claimed per round and kind (default 10). */
  batch?: number;
  /** Only these kinds (default: every registered one). */
  kinds?: readonly string[];
  worker?: string;
  /** Stop after this many jobs in all (tests, benchmarks). */
  maxJobs?: number;
  /** The moment whose periods recurring work is enqueued for (default: the clock's; tests move it). */
  now?: Date;
  /** Milliseconds since the epoch, read for the budget and the jobs' deadline (default Date.now; tests step it). */
  clock?: () => number;
  /**
   * Stop claiming new jobs once the run has used this much CPU time (default: half of the hosted
   * Edge Functions' 2 s per request, lib/resource-usage.ts), so a run request fits the platform
   * whatever is due. The jobs already claimed still run.
   */
  cpuBudgetMs?: number;
}

export interface KindCounts {
  completed: number;
  failed: number;
}

export interface RunDueJobsResult extends KindCounts {
  byKind: Record<string, KindCounts>;
}

const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Enqueues the current period's job of each recurring kind, then claims due jobs of the handlers'
 * kinds, a batch of one kind at a time in the handlers' order, and runs them one by one until
 * none is due, the budget is spent or `maxJobs` have run.
 */
export async function runDueJobs(
  deps: AppDeps,
  handlers: readonly JobHandler<never>[],
  options: RunDueJobsOptions = {},
): Promise<RunDueJobsResult> {
  const worker = options.worker ?? `jobs-${crypto.randomUUID()}`;
  const clock = options.clock ?? Date.now;
  const deadline = clock() + (options.budgetMs ?? 50_000);
  const cpuStart = cpuNowMs();
  const cpuBudgetMs = options.cpuBudgetMs ?? EDGE_CPU_BUDGET_MS * EDGE_BUDGET_SHARE;
  const withinBudget = () => clock() < deadline && cpuNowMs() - cpuStart < cpuBudgetMs;
  const batch = options.batch ?? 10;
  const selected = handlers.filter((h) => !options.kinds || options.kinds.includes(h.kind));
  const result: RunDueJobsResult = { completed: 0, failed: 0, byKind: {} };
  const count = (kind: string, key: keyof KindCounts) => {
    const counts = (result.byKind[kind] ??= { completed: 0, failed: 0 });
    counts[key] += 1;
    result[key] += 1;
  };
  const now = options.now ?? new Date(clock());
  const recurring = selected.flatMap((h) => (h.recurring ? [recurringJob(h.kind, h.recurring, now)] : []));
  if (recurring.length > 0) {
    await deps.db.asService(async (tx) => {
      for (const job of recurring) await enqueueJob(tx, job);
    });
  }
  const room = () =>
    options.maxJobs === undefined ? batch : Math.min(batch, options.maxJobs - result.completed - result.failed);

  let claimedAny = true;
  while (claimedAny && withinBudget() && room() > 0) {
    claimedAny = false;
    for (const handler of selected) {
      if (!withinBudget() || room() <= 0) break;
      const jobs = await deps.db.asService((tx) =>
        claimJobs<never>(tx, { kinds: [handler.kind], worker, limit: room(), leaseSeconds: handler.leaseSeconds }),
      );
      if (jobs.length > 0) claimedAny = true;
      for (const job of jobs) {
        const started = performance.now();
        const stopUsage = startUsage();
        const cpuLeftMs = () => Math.max(0, cpuBudgetMs - (cpuNowMs() - cpuStart));
        const outcome = await runOne(deps, handler, job, worker, deadline, clock, cpuLeftMs);
        // each job's CPU time and peak memory, by kind, against the platform's budget
        deps.log({
          level: 'info',
          msg: 'job',
          kind: handler.kind,
          jobId: job.id,
          outcome: outcome ?? 'taken over',
          ms: Math.round((performance.now() - started) * 10) / 10,
          ...stopUsage(),
        });
        if (outcome) count(handler.kind, outcome);
      }
    }
  }
  return result;
}

/** 'completed', 'failed', or null when the claim was lost (another worker owns the outcome). */
async function runOne(
  deps: AppDeps,
  handler: JobHandler<never>,
  job: ClaimedJob<never>,
  worker: string,
  deadline: number,
  clock: () => number,
  cpuLeftMs: () => number,
): Promise<keyof KindCounts | null> {
  let finished = false;
  const ctx: JobContext = {
    deps,
    worker,
    deadline,
    now: clock,
    cpuLeftMs,
    finish: async (write) => {
      if (finished) throw new Error(`job ${job.id} finished twice`);
      await deps.db.asService(async (tx) => {
        const value = write ? await write(tx) : undefined;
        if (!(await completeJob(tx, job, value ?? null))) throw new ClaimLostError(job.id);
      });
      finished = true;
    },
    extendLease: (seconds) => deps.db.asService((tx) => extendJobLease(tx, job, seconds)),
  };
  try {
    await handler.run(job, ctx);
    if (!finished) await ctx.finish();
    return 'completed';
  } catch (error) {
    if (error instanceof ClaimLostError) {
      deps.log({ level: 'warn', msg: 'job taken over by another worker', kind: handler.kind, jobId: job.id });
      return null;
    }
    const message = errorMessage(error);
    const status = await deps.db.asService((tx) =>
      failJob(tx, job, message.slice(0, 2000), {
        retryAt: error instanceof RetryJobError ? error.retryAt : undefined,
        permanent: error instanceof PermanentJobError,
      }),
    );
    deps.log({
      level: status === 'dead' ? 'error' : 'warn',
      msg: status === 'dead' ? 'job failed for good' : 'job failed, will retry',
      kind: handler.kind,
      jobId: job.id,
      attempt: job.attempt,
      error: message,
    });
    return status === null ? null : 'failed';
  }
}
