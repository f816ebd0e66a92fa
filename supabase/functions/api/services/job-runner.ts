// The one worker loop for queued background work (the job queue: migration
// 20261122000300_profiles_and_plans.sql, queries/jobs.ts). Each area declares its kind in private.job_kinds
// and registers a JobHandler in jobs/handlers.ts; `POST /api/internal/jobs` (pg_cron every minute
// on Supabase, the dev stack's ticker locally) runs whatever is due within a time budget.
//
// A handler does its work outside any transaction, then calls `ctx.finish(write)`: its effects
// and the job's completion commit together, and a lost claim (another worker took the job after
// the lease ran out) rolls the effects back. A handler that returns without calling finish is
// completed with no result. Errors give the job back: RetryJobError at a chosen time (a 429's
// Retry-After), PermanentJobError straight to the dead letters, anything else after the kind's
// backoff (dead after its max attempts).
//
// The price sweep keeps its own pipelined loop (services/price-sweep.ts): its batches are
// claimed, quoted and written in overlapping lanes for throughput.
import type { AppDeps } from '../context.ts';
import type { Tx } from '../db.ts';
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
  /**
   * Recurring work: the jobs that should exist at `now` (a monthly statement, a daily digest
   * pass), enqueued at the start of every run. Give each a dedupe key naming its period
   * ('statements:2026-11'), so calling this every minute makes one job per period.
   */
  recurring?(now: Date): EnqueueJob[];
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
 * Enqueues the handlers' recurring jobs, then claims due jobs of their kinds, a batch of one kind at a time in the handlers' order,
 * and runs them one by one until none is due, the budget is spent or `maxJobs` have run.
 */
export async function runDueJobs(
  deps: AppDeps,
  handlers: readonly JobHandler<never>[],
  options: RunDueJobsOptions = {},
): Promise<RunDueJobsResult> {
  const worker = options.worker ?? `jobs-${crypto.randomUUID()}`;
  const deadline = Date.now() + (options.budgetMs ?? 50_000);
  const batch = options.batch ?? 10;
  const selected = handlers.filter((h) => !options.kinds || options.kinds.includes(h.kind));
  const result: RunDueJobsResult = { completed: 0, failed: 0, byKind: {} };
  const count = (kind: string, key: keyof KindCounts) => {
    const counts = (result.byKind[kind] ??= { completed: 0, failed: 0 });
    counts[key] += 1;
    result[key] += 1;
  };
  const recurring = selected.flatMap((h) => h.recurring?.(new Date()) ?? []);
  if (recurring.length > 0) {
    await deps.db.asService(async (tx) => {
      for (const job of recurring) await enqueueJob(tx, job);
    });
  }
  const room = () =>
    options.maxJobs === undefined ? batch : Math.min(batch, options.maxJobs - result.completed - result.failed);

  let claimedAny = true;
  while (claimedAny && Date.now() < deadline && room() > 0) {
    claimedAny = false;
    for (const handler of selected) {
      if (Date.now() >= deadline || room() <= 0) break;
      const jobs = await deps.db.asService((tx) =>
        claimJobs<never>(tx, { kinds: [handler.kind], worker, limit: room(), leaseSeconds: handler.leaseSeconds }),
      );
      if (jobs.length > 0) claimedAny = true;
      for (const job of jobs) {
        const outcome = await runOne(deps, handler, job, worker);
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
): Promise<keyof KindCounts | null> {
  let finished = false;
  const ctx: JobContext = {
    deps,
    worker,
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
