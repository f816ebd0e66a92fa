// Proof of a drop (issue 24, item 4): no alert and no rebooking rests on one quote. A price check
// whose quote is below the price paid records a pending drop and enqueues a price_drop_confirm job
// (queries/price-checks.ts); this job quotes each drop's itinerary again (same flights, dates,
// party, cabin and fare brand: the row a sweep quotes) and records those second quotes with
// `confirming`, so only a drop seen twice puts its flight in price_drop and queues its alert; the
// automatic run only ever claims flights in price_drop. A drop whose fare is gone at the second
// quote is recorded unconfirmed (fare_vanished) and alerts nobody.
//
// The fare source failing is never a reason to believe the first quote: the drops whose quote
// failed stay pending and go to a new job after a backoff (attempt + 1), and after the last
// attempt they are unconfirmed (source_failed). The next price check that sees the drop again
// starts a new proof. The job's effects (prices, drop states, retry job) commit with its
// completion.
import { FlightCancelledError, type FareQuote, itineraryKey } from '../../_shared/fare-source/types.ts';
import type { AppDeps } from '../context.ts';
import { cancelFlights } from '../queries/flights.ts';
import { enqueueJob } from '../queries/jobs.ts';
import { type PriceCheckResult, recordPriceChecks } from '../queries/price-checks.ts';
import {
  type DropSettlement,
  giveUpDrops,
  loadPendingDrops,
  PRICE_DROP_CONFIRM_JOB,
  type PriceDropConfirmPayload,
  type PendingDrop,
  settleDrops,
} from '../queries/price-drops.ts';
import { type JobHandler, runDueJobs } from './job-runner.ts';
import { createPool } from '../lib/pool.ts';

/** Attempts at a drop's second quote before it is given up as unconfirmed (source_failed). */
export const CONFIRM_ATTEMPTS = 5;

/** Seconds before attempt `attempt + 1`: 10 s doubling, at most 10 minutes. */
export function confirmBackoffSeconds(attempt: number): number {
  return Math.min(600, 10 * 2 ** Math.max(0, attempt - 1));
}

type QuoteOutcome = { ok: true; quote: FareQuote } | { ok: false; cancelled: boolean; error: string };

/** What one job's second quotes decided, by drop. */
export interface ConfirmationCounts {
  confirmed: number;
  vanished: number;
  retried: number;
  givenUp: number;
  cancelled: number;
}

export const priceDropConfirmJob: JobHandler<PriceDropConfirmPayload> = {
  kind: PRICE_DROP_CONFIRM_JOB,
  leaseSeconds: 120,
  async run(job, ctx) {
    const { deps } = ctx;
    const attempt = job.payload.attempt ?? 1;
    const drops = await deps.db.asService((tx) => loadPendingDrops(tx, job.payload.dropIds ?? []));

    // one quote per itinerary, as a sweep does: two travellers on one itinerary share it
    const pool = createPool(deps.config.sweep?.concurrency ?? 8);
    const byKey = new Map<string, PendingDrop[]>();
    for (const drop of drops) {
      const key = itineraryKey(drop.itinerary);
      byKey.set(key, [...(byKey.get(key) ?? []), drop]);
    }
    const quoted = await Promise.all(
      [...byKey.values()].map(async (group) => {
        const outcome = await pool(async (): Promise<QuoteOutcome> => {
          try {
            return { ok: true, quote: await deps.fareSource.quote((group[0] as PendingDrop).itinerary) };
          } catch (error) {
            const message = error instanceof Error ? error.message : String(error);
            return { ok: false, cancelled: error instanceof FlightCancelledError, error: message };
          }
        });
        return { group, outcome };
      }),
    );

    const results: (PriceCheckResult & { dropId: number })[] = [];
    const failed: number[] = [];
    const cancelled: { flightId: number; userId: string }[] = [];
    let lastError: string | null = null;
    for (const { group, outcome } of quoted) {
      for (const drop of group) {
        if (outcome.ok) {
          const q = outcome.quote;
          results.push({
            dropId: drop.dropId,
            flightId: drop.id,
            userId: drop.userId,
            price: q.price,
            currency: q.currency,
            checkedAt: new Date(q.quotedAt),
            source: deps.fareSource.name,
            changePenalty: q.changePenalty ?? null,
            refundForm: q.refundForm ?? null,
            offerId: q.offerId,
          });
        } else if (outcome.cancelled) {
          cancelled.push({ flightId: drop.id, userId: drop.userId });
        } else {
          failed.push(drop.dropId);
          lastError = outcome.error;
        }
      }
    }

    await ctx.finish(async (tx) => {
      await cancelFlights(tx, cancelled);
      const recorded = new Map(
        (await recordPriceChecks(tx, results, { confirming: true })).map((r) => [r.flightId, r]),
      );
      const settlements: DropSettlement[] = results.map((r) => {
        const check = recorded.get(r.flightId);
        return {
          dropId: r.dropId,
          quote: {
            quotedAt: r.checkedAt.toISOString(),
            source: r.source,
            offerId: r.offerId ?? null,
            price: r.price,
            currency: r.currency,
          },
          outcome: !check ? 'flight_changed' : check.priceDropped ? 'confirmed' : 'fare_vanished',
          alerted: check?.alertQueued ?? false,
        };
      });
      await settleDrops(tx, settlements);
      // a cancelled flight has no fare: its drop proves nothing
      const cancelledIds = new Set(cancelled.map((c) => c.flightId));
      await giveUpDrops(
        tx,
        drops.filter((d) => cancelledIds.has(d.id)).map((d) => d.dropId),
        'flight_changed',
      );
      const counts: ConfirmationCounts = {
        confirmed: settlements.filter((s) => s.outcome === 'confirmed').length,
        vanished: settlements.filter((s) => s.outcome === 'fare_vanished').length,
        retried: 0,
        givenUp: 0,
        cancelled: cancelled.length,
      };
      if (failed.length > 0 && attempt < CONFIRM_ATTEMPTS) {
        const payload: PriceDropConfirmPayload = { dropIds: failed, attempt: attempt + 1 };
        await enqueueJob(tx, {
          kind: PRICE_DROP_CONFIRM_JOB,
          payload: { ...payload },
          runAfter: new Date(ctx.now() + confirmBackoffSeconds(attempt) * 1000),
        });
        counts.retried = failed.length;
      } else if (failed.length > 0) {
        await giveUpDrops(tx, failed);
        counts.givenUp = failed.length;
      }
      return { ...counts, ...(lastError ? { lastError } : {}) };
    });
  },
};

/**
 * Runs the due confirmations now (after a traveller's own check, after a sweep, before an
 * automatic run): the same jobs the scheduler runs every minute.
 */
export function confirmPendingDrops(
  deps: AppDeps,
  options: { maxJobs?: number; budgetMs?: number } = {},
): ReturnType<typeof runDueJobs> {
  return runDueJobs(deps, [priceDropConfirmJob as JobHandler<never>], {
    kinds: [PRICE_DROP_CONFIRM_JOB],
    ...(options.maxJobs === undefined ? {} : { maxJobs: options.maxJobs }),
    budgetMs: options.budgetMs ?? 20_000,
  });
}
