// Automatic rebooking (issue 11; docs/architecture.md "Automatic rebooking").
//
// A run evaluates every watched flight of the travellers automatic rebooking applies to
// (private.auto_rebooking_applies: a premium plan that allows it, switched on), or one
// traveller's, for their own Run Check. SQL decides which qualify (private.rebooking_verdict:
// an eligible fare, a drop, net savings after the change penalty meeting the owner's thresholds)
// and enqueues them as batches on the job queue (migration 20261122000600_rebooking.sql).
// A batch, run by the one job runner (services/job-runner.ts), takes each flight through the
// existing exactly-once path: claimRebooking (with the verdict re-checked in the claim's own
// statement) then rebookClaimed (services/flights.ts), the same path as the Rebook button, so a
// flight is changed at most once whoever asks. Flights on the assisted path (tickets bought from
// the airline) are never changed: their owner is sent what to ask the airline for instead.
//
// Faults: a failing fare source (outage, timeout, an unreadable answer) rebooks nothing wrongly
// (a refusal gives the claim back; an unknown outcome keeps it for the reconciler) and is
// counted in the batch's result and the run's row. After BREAKER_THRESHOLD consecutive failures
// the shared circuit breaker opens for BREAKER_OPEN_SECONDS: batches then call nothing and leave
// their flights (still price drops) to the next run. A batch killed halfway is claimed again when
// its lease runs out: flights already rebooked are no longer price drops and drop out.
import { FareSourceUnavailableError } from '../../_shared/fare-source/types.ts';
import type {
  AutoRebookingRefusal,
  ExecuteAutoRebookingResponse,
  RunAutoRebookingResponse,
} from '../../_shared/types/auto-rebooking.ts';
import type { AppDeps } from '../context.ts';
import type { AuthClaims, Tx } from '../db.ts';
import {
  autoRebookingRefusal,
  type BatchFlight,
  type BatchResult,
  circuitOpenUntil,
  circuitRecord,
  finishRun,
  loadBatchFlights,
  queueActionNeeded,
  recordBatch,
  type RunTotals,
  type RunTrigger,
  startRun,
  type StartedRun,
} from '../queries/auto-rebooking.ts';
import { claimRebooking } from '../queries/flights.ts';
import { type JobHandler, runDueJobs } from './job-runner.ts';
import { rebookClaimed } from './flights.ts';
import { requestApproval } from './rebooking-approvals.ts';

export const AUTO_REBOOK_KIND = 'auto_rebook_batch';
/** A traveller's own run's batches: claimed by the request that asked, not mixed with everyone's. */
export const AUTO_REBOOK_OWN_KIND = 'auto_rebook_own';
/**
 * Flights per batch. A source rebooking is a few calls (Duffel: order, change request, offers,
 * change, confirm); at BATCH_CONCURRENCY at once a batch stays well inside one invocation's ~60 s.
 */
export const AUTO_REBOOK_BATCH_SIZE = 100;
export const BATCH_CONCURRENCY = 10;
export const FARE_SOURCE_BREAKER = 'fare_source';
export const BREAKER_THRESHOLD = 5;
export const BREAKER_OPEN_SECONDS = 300;
/** How long a traveller's or admin's request drives its run before answering with what is done. */
export const ON_DEMAND_BUDGET_MS = 20_000;

export const AUTO_REBOOKING_REFUSALS = {
  premium: {
    message: 'Premium subscription required',
    details: 'Upgrade to a premium plan to use automatic rebooking.',
  },
  disabled: {
    message: 'Auto-rebooking is disabled',
    details: 'Enable auto-rebooking before running this operation.',
  },
} as const satisfies Record<string, AutoRebookingRefusal>;

export interface BatchPayload {
  runId: number;
  batch: number;
  flightIds: number[];
}

type RunDeps = Pick<AppDeps, 'db' | 'fareSource' | 'log' | 'config'>;

/** Runs fn over items with at most `limit` in flight. */
async function eachWithLimit<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await fn(item);
    }
  });
  await Promise.all(lanes);
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * One batch: each flight that still qualifies is rebooked through the exactly-once path, or, on
 * the assisted path, its owner is told what to ask the airline for. Answers the batch's result
 * and the breaker's trailing failures; writes nothing about the batch itself (the job does, with
 * its completion).
 */
export async function rebookBatch(
  deps: RunDeps,
  payload: BatchPayload,
): Promise<{ result: BatchResult; trailingFailures: number }> {
  const result: BatchResult = {
    evaluated: 0,
    rebooked: 0,
    savings: 0,
    actionNeeded: 0,
    approvalsRequested: 0,
    failed: 0,
    skipped: 0,
    error: null,
  };
  const flights = await deps.db.asService((tx) => loadBatchFlights(tx, payload.flightIds));
  result.evaluated = flights.length;
  const openUntil = await deps.db.asService((tx) => circuitOpenUntil(tx, FARE_SOURCE_BREAKER));
  let trailingFailures = 0;
  let tripped = openUntil !== null;
  let firstFailure: string | null = null;
  let heldBack = 0;
  const fail = (error: unknown) => {
    result.failed += 1;
    firstFailure ??= message(error);
    trailingFailures += 1;
    if (trailingFailures >= BREAKER_THRESHOLD) tripped = true;
  };

  const link = `${deps.config.siteUrl}/dashboard`;
  await eachWithLimit(flights, BATCH_CONCURRENCY, async (flight: BatchFlight) => {
    // the airline rule decides (private.flight_rebooking_mode): approval asks the owner, only
    // automatic is claimed below (and the claim checks it again)
    if (flight.verdict.rebookingMode === 'approval') {
      if (await requestApproval(deps, flight)) result.approvalsRequested += 1;
      return;
    }
    if (flight.method === 'assisted' || flight.verdict.rebookingMode === 'assisted') {
      await deps.db.asService((tx) => queueActionNeeded(tx, flight, link));
      result.actionNeeded += 1;
      return;
    }
    if (tripped) {
      heldBack += 1;
      result.skipped += 1;
      return;
    }
    if (!flight.request) {
      result.skipped += 1;
      return;
    }
    const request = flight.request;
    const rebookingId = await deps.db.asService((tx) =>
      claimRebooking(tx, {
        userId: flight.userId,
        flightId: flight.flightId,
        method: 'source',
        request,
        automatic: true,
      }),
    );
    if (rebookingId === null) {
      // rebooked, re-priced or claimed by someone else since the batch was loaded
      result.skipped += 1;
      return;
    }
    let outcome;
    try {
      outcome = await rebookClaimed(deps, { rebookingId, userId: flight.userId, flightId: flight.flightId, request });
    } catch (error) {
      // our own bookkeeping failed around the call; the claim stays for the reconciler
      fail(error);
      return;
    }
    switch (outcome.kind) {
      case 'recorded':
        result.rebooked += 1;
        result.savings += outcome.result.airlineCredit;
        trailingFailures = 0;
        return;
      case 'refused':
        if (outcome.error instanceof FareSourceUnavailableError || !(outcome.error instanceof Error)) {
          fail(outcome.error);
        } else {
          // the source answered (the fare is gone, the booking changed): not an outage
          trailingFailures = 0;
        }
        return;
      case 'unknown':
      case 'unrecorded':
        fail(outcome.error);
        return;
      case 'lost':
        result.skipped += 1;
        return;
    }
  });
  const notes: string[] = [];
  if (firstFailure) {
    notes.push(`Fare source failed: ${firstFailure}${result.failed > 1 ? ` (${result.failed} flights)` : ''}`);
  }
  if (openUntil && heldBack > 0) {
    notes.push(
      `fare source circuit breaker open until ${openUntil.toISOString()}: ${heldBack} flight(s) left for the next run`,
    );
  } else if (tripped && heldBack > 0) {
    notes.push(`fare source circuit breaker opened: ${heldBack} flight(s) left for the next run`);
  }
  result.error = notes.length > 0 ? notes.join('; ') : null;
  return { result, trailingFailures: openUntil ? -1 : trailingFailures };
}

function batchHandler(kind: string): JobHandler<BatchPayload> {
  return {
    kind,
    leaseSeconds: 120,
    async run(job, ctx) {
      const payload = job.payload;
      const { result, trailingFailures } = await rebookBatch(ctx.deps, payload);
      await ctx.finish(async (tx) => {
        await recordBatch(tx, payload.runId, payload.batch, result);
        // -1: the breaker was open and nothing was called, so there is nothing to record
        if (trailingFailures >= 0) {
          await circuitRecord(tx, {
            name: FARE_SOURCE_BREAKER,
            failures: trailingFailures,
            threshold: BREAKER_THRESHOLD,
            openSeconds: BREAKER_OPEN_SECONDS,
            error: result.error,
          });
        }
        return { ...result };
      });
      // after the commit: the last batch to commit sees all the others and closes the run
      await ctx.deps.db.asService((tx) => finishRun(tx, payload.runId));
    },
  };
}

export const autoRebookBatchHandler = batchHandler(AUTO_REBOOK_KIND);
export const autoRebookOwnHandler = batchHandler(AUTO_REBOOK_OWN_KIND);

/** Starts (or joins) a run; its batches wait on the queue. */
export function startAutoRebookingRun(
  deps: { db: Pick<AppDeps['db'], 'asService'> },
  run: { trigger: RunTrigger; initiatedBy: string | null; scopeUserId: string | null; batchSize?: number },
): Promise<StartedRun> {
  return deps.db.asService((tx) =>
    startRun(tx, {
      trigger: run.trigger,
      initiatedBy: run.initiatedBy,
      scopeUserId: run.scopeUserId,
      batchSize: run.batchSize ?? AUTO_REBOOK_BATCH_SIZE,
    }),
  );
}

/**
 * An on-demand run: started, then driven through the job runner for at most `budgetMs`, then
 * answered with the run's totals so far. What is left continues on the queue (the ticker's
 * /api/internal/jobs) and is counted in the run's row when it finishes.
 */
async function runOnDemand(
  deps: AppDeps,
  run: { trigger: RunTrigger; initiatedBy: string; scopeUserId: string | null },
  budgetMs: number,
  onFinished?: (tx: Tx, totals: RunTotals & { runId: number }) => Promise<unknown>,
): Promise<RunTotals & { runId: number }> {
  const started = await startAutoRebookingRun(deps, run);
  if (started.batches > 0) {
    const kind = run.scopeUserId ? AUTO_REBOOK_OWN_KIND : AUTO_REBOOK_KIND;
    const handler = run.scopeUserId ? autoRebookOwnHandler : autoRebookBatchHandler;
    await runDueJobs(deps, [handler as JobHandler<never>], { kinds: [kind], budgetMs });
  }
  // the hook (an admin's run is audited) shares the transaction that totals the run's row
  return await deps.db.asService(async (tx) => {
    const totals = { ...(await finishRun(tx, started.runId)), runId: started.runId };
    await onFinished?.(tx, totals);
    return totals;
  });
}

export class AutoRebookingRefused extends Error {
  constructor(
    readonly status: 403 | 409,
    readonly refusal: AutoRebookingRefusal,
  ) {
    super(refusal.message);
    this.name = 'AutoRebookingRefused';
  }
}

/** `POST /api/auto-rebooking/execute`: the caller's own run, when automatic rebooking applies to them. */
export async function executeOwnRun(deps: AppDeps, claims: AuthClaims): Promise<ExecuteAutoRebookingResponse> {
  const refusal = await deps.db.asService((tx) => autoRebookingRefusal(tx, claims.sub));
  if (refusal === 'switched_off') throw new AutoRebookingRefused(409, AUTO_REBOOKING_REFUSALS.disabled);
  if (refusal !== null) throw new AutoRebookingRefused(403, AUTO_REBOOKING_REFUSALS.premium);
  const totals = await runOnDemand(
    deps,
    { trigger: 'traveller', initiatedBy: claims.sub, scopeUserId: claims.sub },
    ON_DEMAND_BUDGET_MS,
  );
  return { message: executeMessage(totals), count: totals.flightsRebooked };
}

export function executeMessage(t: RunTotals): string {
  const n = t.flightsRebooked;
  const rebooked = `${n} flight${n === 1 ? '' : 's'} rebooked`;
  const checked = `${t.flightsEvaluated} flight${t.flightsEvaluated === 1 ? '' : 's'} checked`;
  const parts = [`Auto-rebooking complete: ${checked}, ${rebooked}.`];
  if (t.actionNeeded > 0) {
    const one = t.actionNeeded === 1;
    parts.push(
      `${t.actionNeeded} ticket${one ? '' : 's'} bought from the airline ${one ? 'needs' : 'need'} a change you make with the airline; we emailed you what to ask for.`,
    );
  }
  if (!t.finished) parts.push('The rest continues in the background.');
  else if (t.errorMessage)
    parts.push('Some flights could not be checked with the airline and will be retried in the next run.');
  return parts.join(' ');
}

/** `POST /api/admin/run-auto-rebooking`: a run over everyone, on the admin's behalf. */
export async function runForAdmin(
  deps: AppDeps,
  adminId: string,
  onFinished?: (tx: Tx, totals: RunTotals & { runId: number }) => Promise<unknown>,
): Promise<RunAutoRebookingResponse> {
  const totals = await runOnDemand(
    deps,
    { trigger: 'admin', initiatedBy: adminId, scopeUserId: null },
    ON_DEMAND_BUDGET_MS,
    onFinished,
  );
  return { rebookedCount: totals.flightsRebooked, savingsAmount: totals.savings };
}
