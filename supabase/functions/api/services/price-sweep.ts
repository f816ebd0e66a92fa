// The price sweep: re-quote every monitored flight that is due and record what changed.
//
// The database plans the work (migration 20261122001200_price_sweep.sql): starting a sweep
// enqueues its due flights as jobs of `batchSize` ids; this worker claims them one at a time with
// a lease, so several workers can share a sweep and a crashed one's batch comes back when its
// lease runs out. Per batch:
//   1. load the batch's flights that are still due (a flight checked since the sweep began, by
//      hand or by an earlier attempt of this batch that did commit, is skipped);
//   2. quote each distinct itinerary (itineraryKey: airline, flights, dates, cabin, fare type)
//      once for the whole run, however many travellers hold it, because fare APIs charge per
//      search. Quotes go through one pool of `concurrency` slots shared by every batch in flight;
//      the fare source's own wrapper holds the per-second rate limit;
//   3. write the batch's prices and complete its job in ONE transaction. Completion succeeds only
//      while this worker still holds the claim, otherwise the transaction rolls back, so a batch
//      is recorded exactly once even when a stalled worker's lease was taken over.
// A quote that fails leaves that itinerary's flights untouched (still due for the next sweep)
// and is counted as an error on the log row. Two batches are kept in flight so the quote pool
// never drains while a batch is being loaded or written.
//
// An aborted run (the signal; in production, a killed process) walks away from its claimed jobs
// without completing or failing them: exactly what a crash leaves behind, and what the next run
// picks up after the lease.
import type { FareQuote, FareSource, Itinerary } from '../../_shared/fare-source/types.ts';
import { itineraryKey } from '../../_shared/fare-source/types.ts';
import type { SweepConfig } from '../config.ts';
import type { Logger } from '../context.ts';
import type { Db, Tx } from '../db.ts';
import { type PriceCheckResult, recordPriceChecks } from '../queries/price-checks.ts';

export interface PriceSweepDeps {
  db: Pick<Db, 'asService'>;
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
  /** Batches in flight at once (default 2). */
  lanes?: number;
}

export interface PriceSweepResult {
  sweepId: number;
  /** Whether this run started the sweep or took over one already running. */
  resumed: boolean;
  /** False when work is left: held by another worker, backing off, or beyond this run's budget. */
  finished: boolean;
  /** Sweep totals, summed over every completed batch (across runs when resumed). */
  checkedCount: number;
  priceDropsFound: number;
  quotesMade: number;
  success: boolean;
  errorMessage: string | null;
  /** Flights whose itinerary could not be quoted in this run. */
  quoteErrors: number;
}

type QuoteOutcome = { ok: true; quote: FareQuote } | { ok: false; error: string };

interface DueFlight {
  id: number;
  userId: string;
  itinerary: Itinerary;
}

interface Claim {
  jobId: number;
  attempt: number;
  flightIds: number[];
}

interface BatchCounts {
  checked: number;
  drops: number;
  quotes: number;
  quoteErrors: number;
}

/** Thrown inside a batch's transaction to roll its writes back: another worker took the batch over. */
class LeaseLostError extends Error {
  constructor(jobId: number) {
    super(`price check job ${jobId} was taken over by another worker`);
    this.name = 'LeaseLostError';
  }
}

/** A fixed number of slots; callers beyond it wait in order. */
function createPool(size: number) {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async function run<T>(task: () => Promise<T>): Promise<T> {
    if (active >= size) await new Promise<void>((resolve) => waiting.push(resolve));
    else active++;
    try {
      return await task();
    } finally {
      // hand the slot straight to the next waiter, so `active` never dips while work is queued
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
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

async function startSweep(tx: Tx, initiatedBy: string | null, sweep: SweepConfig) {
  const [row] = await tx<{ sweep_id: string; started_at: Date; resumed: boolean }[]>`
    select sweep_id, started_at, resumed
      from private.start_price_sweep(${initiatedBy}::uuid, ${sweep.checkIntervalMinutes}, ${sweep.batchSize})
  `;
  if (!row) throw new Error('start_price_sweep returned no row');
  return { sweepId: Number(row.sweep_id), startedAt: row.started_at, resumed: row.resumed };
}

async function claimBatch(tx: Tx, sweepId: number, worker: string, leaseSeconds: number): Promise<Claim | null> {
  const [row] = await tx<{ job_id: string; attempt: number; flight_ids: string[] }[]>`
    select job_id, attempt, flight_ids from private.claim_price_check_job(${sweepId}, ${worker}, ${leaseSeconds})
  `;
  if (!row) return null;
  return { jobId: Number(row.job_id), attempt: row.attempt, flightIds: row.flight_ids.map(Number) };
}

/** The batch's flights that are still due, with the itinerary each one quotes. */
async function loadDueFlights(tx: Tx, flightIds: number[], sweepStartedAt: Date): Promise<DueFlight[]> {
  const rows = await tx<
    {
      id: string;
      user_id: string;
      airline: string;
      flight_number: string;
      departure_airport: string;
      arrival_airport: string;
      departure_date: string;
      return_flight_number: string | null;
      return_date: string | null;
      cabin_class: string | null;
      fare_type: string | null;
      currency: string;
      booking_code: string;
      source_reference: string | null;
    }[]
  >`
    select f.id, f.user_id, f.airline, f.flight_number, f.departure_airport, f.arrival_airport,
           f.departure_date::text as departure_date, f.return_flight_number, f.return_date::text as return_date,
           f.cabin_class, f.fare_type, f.currency, f.booking_code, f.source_reference
      from public.flights f
     where f.id = any(${flightIds}::bigint[])
       and not f.has_been_rebooked
       and f.status not in ('rebooking', 'rebooked', 'departed', 'cancelled')
       and f.departure_date >= current_date
       and (f.last_checked is null or f.last_checked < ${sweepStartedAt.toISOString()}::timestamptz)
     order by f.id
  `;
  return rows.map((r) => ({
    id: Number(r.id),
    userId: r.user_id,
    itinerary: {
      airline: r.airline,
      flightNumber: r.flight_number,
      departureAirport: r.departure_airport,
      arrivalAirport: r.arrival_airport,
      departureDate: r.departure_date,
      returnFlightNumber: r.return_flight_number,
      returnDate: r.return_date,
      cabinClass: r.cabin_class,
      fareType: r.fare_type,
      currency: r.currency,
      bookingCode: r.booking_code,
      sourceReference: r.source_reference,
    },
  }));
}

export async function runPriceSweep(deps: PriceSweepDeps, options: RunPriceSweepOptions): Promise<PriceSweepResult> {
  const { db, fareSource, config } = deps;
  const { signal } = options;
  const worker = options.workerId ?? `sweep-${crypto.randomUUID()}`;
  const lanes = Math.max(1, options.lanes ?? 2);
  const deadline = options.budgetMs === undefined ? Infinity : Date.now() + options.budgetMs;
  const quotePool = createPool(config.sweep.concurrency);
  // One quote per itinerary for the whole run; the promise is shared, so two batches that need
  // the same itinerary at the same moment still make one call.
  const quotes = new Map<string, Promise<QuoteOutcome>>();
  let claimedBatches = 0;
  let quoteErrors = 0;

  if (signal?.aborted) throw abortError(signal);
  const sweep = await db.asService((tx) => startSweep(tx, options.initiatedBy, config.sweep));

  const quoteOnce = (key: string, itinerary: Itinerary): { outcome: Promise<QuoteOutcome>; fresh: boolean } => {
    const cached = quotes.get(key);
    if (cached) return { outcome: cached, fresh: false };
    const outcome = quotePool(async (): Promise<QuoteOutcome> => {
      if (signal?.aborted) return { ok: false, error: 'aborted' };
      try {
        return { ok: true, quote: await fareSource.quote(itinerary, { signal }) };
      } catch (error) {
        // any failure, typed or not, must leave the flights as they were: count it and move on
        return { ok: false, error: error instanceof Error ? error.message : String(error) };
      }
    });
    quotes.set(key, outcome);
    return { outcome, fresh: true };
  };

  const processBatch = async (claim: Claim, lockedBy: string): Promise<void> => {
    const flights = await db.asService((tx) => loadDueFlights(tx, claim.flightIds, sweep.startedAt));
    const byKey = new Map<string, DueFlight[]>();
    for (const flight of flights) {
      const key = itineraryKey(flight.itinerary);
      const group = byKey.get(key);
      if (group) group.push(flight);
      else byKey.set(key, [flight]);
    }
    const counts: BatchCounts = { checked: 0, drops: 0, quotes: 0, quoteErrors: 0 };
    const pending = [...byKey].map(([key, group]) => {
      const first = group[0] as DueFlight;
      const { outcome, fresh } = quoteOnce(key, first.itinerary);
      if (fresh) counts.quotes++;
      return outcome.then((result) => ({ group, result }));
    });
    const quoted = await unlessAborted(Promise.all(pending), signal);

    const results: PriceCheckResult[] = [];
    let firstError: string | null = null;
    const checkedAt = new Date();
    for (const { group, result } of quoted) {
      if (!result.ok) {
        counts.quoteErrors += group.length;
        firstError ??= result.error;
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
        });
      }
    }
    if (signal?.aborted) throw abortError(signal);

    await db.asService(async (tx) => {
      const recorded = await recordPriceChecks(tx, results);
      counts.checked = recorded.length;
      counts.drops = recorded.filter((r) => r.priceDropped).length;
      const [done] = await tx<{ completed: boolean }[]>`
        select private.complete_price_check_job(
          ${claim.jobId}, ${lockedBy}, ${claim.attempt}, ${counts.checked}, ${counts.drops},
          ${counts.quotes}, ${counts.quoteErrors}, ${firstError}
        ) as completed
      `;
      if (!done?.completed) throw new LeaseLostError(claim.jobId);
    });
    quoteErrors += counts.quoteErrors;
  };

  const lane = async (index: number): Promise<void> => {
    const lockedBy = `${worker}/${index}`;
    for (;;) {
      if (signal?.aborted) throw abortError(signal);
      if (options.maxBatches !== undefined && claimedBatches >= options.maxBatches) return;
      if (Date.now() >= deadline) return;
      claimedBatches++;
      const claim = await db.asService((tx) => claimBatch(tx, sweep.sweepId, lockedBy, config.sweep.leaseSeconds));
      if (!claim) return;
      try {
        await processBatch(claim, lockedBy);
      } catch (error) {
        if (signal?.aborted) throw abortError(signal);
        if (error instanceof LeaseLostError) {
          deps.log?.({
            level: 'warn',
            msg: 'price sweep batch taken over',
            jobId: claim.jobId,
            sweepId: sweep.sweepId,
          });
          continue;
        }
        // the batch could not be written: back to the queue with a delay (failed after max attempts)
        const message = error instanceof Error ? error.message : String(error);
        deps.log?.({ level: 'error', msg: 'price sweep batch failed', jobId: claim.jobId, error: message });
        await db.asService(
          (tx) => tx`select private.fail_price_check_job(${claim.jobId}, ${lockedBy}, ${claim.attempt}, ${message})`,
        );
      }
    }
  };

  const laneRuns = Array.from({ length: lanes }, (_, i) => lane(i));
  const settled = await Promise.allSettled(laneRuns);
  const failure = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failure) throw failure.reason;

  const [total] = await db.asService(
    (tx) =>
      tx<
        {
          finished: boolean;
          total_flights_checked: number;
          total_price_drops_found: number;
          quotes_made: number;
          success: boolean;
          error_message: string | null;
        }[]
      >`select * from private.finish_price_sweep(${sweep.sweepId})`,
  );
  if (!total) throw new Error('finish_price_sweep returned no row');
  const result: PriceSweepResult = {
    sweepId: sweep.sweepId,
    resumed: sweep.resumed,
    finished: total.finished,
    checkedCount: total.total_flights_checked,
    priceDropsFound: total.total_price_drops_found,
    quotesMade: total.quotes_made,
    success: total.success,
    errorMessage: total.error_message,
    quoteErrors,
  };
  deps.log?.({ level: result.success || !result.finished ? 'info' : 'warn', msg: 'price sweep', ...result });
  return result;
}

/**
 * How long one HTTP request keeps claiming batches. Supabase stops an edge function after 150 s
 * of wall clock on the free plan; what is left stays queued and the next scheduled run carries on.
 */
export const SWEEP_REQUEST_BUDGET_MS = 100_000;

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
