// The job queue (migration 20261122000200_jobs_and_scheduling.sql): every kind of background work is a row
// of public.jobs that SQL enqueues and a worker claims, with a lease and a claim token, and then
// completes or fails. These are thin calls of the private.* functions that hold the rules; run
// them on the service connection.
//
// A worker's loop, whatever its kind:
//   const [job] = await db.asService((tx) => claimJobs(tx, { kinds: ['my_kind'], worker, limit: 1, leaseSeconds }));
//   ...do the work outside any transaction...
//   await db.asService(async (tx) => {
//     await writeTheEffects(tx, ...);
//     if (!(await completeJob(tx, job, result))) throw new ClaimLostError(job.id); // rolls the effects back
//   });
//   on an error: await db.asService((tx) => failJob(tx, job, message));
import type postgres from 'postgres';
import type { Tx } from '../db.ts';

export interface EnqueueJob {
  /** A kind declared in private.job_kinds (by its area's migration). */
  kind: string;
  payload?: Record<string, unknown>;
  /** Not claimed before this moment (default: now). */
  runAfter?: Date;
  /** Names one piece of work: a second enqueue with the same key answers the first job. */
  dedupeKey?: string;
  /** Higher is claimed first among a kind's due jobs (default 0; premium travellers' mail: 10). */
  priority?: number;
}

export interface ClaimedJob<Payload = Record<string, unknown>> {
  id: number;
  kind: string;
  payload: Payload;
  /** 1 on the first claim, counting every claim since (a lease that ran out included). */
  attempt: number;
  /** Proves the claim: completing, failing or extending needs it. */
  claimToken: string;
}

export type JobRef = Pick<ClaimedJob, 'id' | 'claimToken'>;

/** Thrown inside a job's transaction to roll its effects back: another worker holds the job now. */
export class ClaimLostError extends Error {
  constructor(jobId: number) {
    super(`job ${jobId} was claimed by another worker`);
    this.name = 'ClaimLostError';
  }
}

/** The job's id: the new job, or the one already holding the dedupe key. */
export async function enqueueJob(tx: Tx, job: EnqueueJob): Promise<number> {
  const [row] = await tx<{ id: string }[]>`
    select private.enqueue_job(
      ${job.kind}, ${tx.json((job.payload ?? {}) as postgres.JSONValue)},
      ${job.runAfter ?? null}::timestamptz, ${job.dedupeKey ?? null}, ${job.priority ?? 0}::integer
    ) as id
  `;
  if (!row) throw new Error('enqueue_job returned no row');
  return Number(row.id);
}

/**
 * Up to `limit` due jobs of these kinds, highest priority first, then oldest run_at, each leased
 * to `worker` for `leaseSeconds`.
 */
export async function claimJobs<Payload = Record<string, unknown>>(
  tx: Tx,
  claim: { kinds: readonly string[]; worker: string; limit: number; leaseSeconds: number },
): Promise<ClaimedJob<Payload>[]> {
  const rows = await tx<{ id: string; kind: string; payload: Payload; attempt: number; claim_token: string }[]>`
    select id, kind, payload, attempt, claim_token
      from private.claim_jobs(${claim.kinds as string[]}::text[], ${claim.worker}, ${claim.limit}, ${claim.leaseSeconds})
  `;
  return rows.map((row) => ({
    id: Number(row.id),
    kind: row.kind,
    payload: row.payload,
    attempt: row.attempt,
    claimToken: row.claim_token,
  }));
}

/** False when the claim was lost: roll back whatever the transaction wrote for the job. */
export async function completeJob(
  tx: Tx,
  job: JobRef,
  result: Record<string, unknown> | null = null,
): Promise<boolean> {
  const [row] = await tx<{ completed: boolean }[]>`
    select private.complete_job(
      ${job.id}, ${job.claimToken}::uuid, ${result === null ? null : tx.json(result as postgres.JSONValue)}
    ) as completed
  `;
  return row?.completed === true;
}

/**
 * Gives the job back after an error: 'queued' (it runs again after the kind's backoff, or at
 * `retryAt`), 'dead' (out of attempts, or `permanent`), or null when the claim was already lost.
 */
export async function failJob(
  tx: Tx,
  job: JobRef,
  error: string,
  options: { retryAt?: Date; permanent?: boolean } = {},
): Promise<'queued' | 'dead' | null> {
  const [row] = await tx<{ status: 'queued' | 'dead' | null }[]>`
    select private.fail_job(
      ${job.id}, ${job.claimToken}::uuid, ${error}, ${options.retryAt ?? null}::timestamptz, ${options.permanent ?? false}
    ) as status
  `;
  return row?.status ?? null;
}

/** Keeps a long job's claim; false once it is lost. */
export async function extendJobLease(tx: Tx, job: JobRef, leaseSeconds: number): Promise<boolean> {
  const [row] = await tx<{ extended: boolean }[]>`
    select private.extend_job_lease(${job.id}, ${job.claimToken}::uuid, ${leaseSeconds}) as extended
  `;
  return row?.extended === true;
}
