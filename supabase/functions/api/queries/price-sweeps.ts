// A price sweep's bookkeeping: its run-log row (public.price_check_logs), the batches it enqueued
// as price_check jobs (private.start_price_sweep and finish_price_sweep, migration
// 20261122000500_flights_and_prices.sql; claimed through private.claim_jobs) and the flights a batch
// still has to check. Service connection only.
import type { Itinerary } from '../../_shared/fare-source/types.ts';
import type { Tx } from '../db.ts';
import type { JobRef } from './jobs.ts';

export const PRICE_CHECK_JOB = 'price_check';

/** What a price_check job carries: one batch of a sweep. */
export interface PriceCheckPayload {
  sweepId: number;
  startedAt: string;
  batch: number;
  /** The batch: the due flights with ids from fromId to toId... */
  fromId: number;
  toId: number;
  /** ...not checked since this moment (the sweep's start less the check interval). */
  checkedBefore: string;
}

export interface SweepStart {
  sweepId: number;
  startedAt: Date;
  resumed: boolean;
}

/** Starts a sweep of the due flights, or answers the one already running (one at a time). */
export async function startSweep(
  tx: Tx,
  sweep: { initiatedBy: string | null; checkIntervalMinutes: number; batchSize: number },
): Promise<SweepStart> {
  const [row] = await tx<{ sweep_id: string; started_at: Date; resumed: boolean }[]>`
    select sweep_id, started_at, resumed
      from private.start_price_sweep(${sweep.initiatedBy}::uuid, ${sweep.checkIntervalMinutes}, ${sweep.batchSize})
  `;
  if (!row) throw new Error('start_price_sweep returned no row');
  return { sweepId: Number(row.sweep_id), startedAt: row.started_at, resumed: row.resumed };
}

export interface DueFlight {
  id: number;
  userId: string;
  itinerary: Itinerary;
}

export interface ClaimedBatch {
  job: JobRef;
  /** The batch's flights that are still due (not checked since checkedBefore). */
  flights: DueFlight[];
}

/**
 * Claims the next price_check job and loads its flights that are still due
 * (private.flight_is_due), with the itinerary each one quotes, in one statement outside any
 * transaction: one round trip per batch. Null when no batch is due.
 *
 * The claim commits without waiting for its WAL to reach the disk (synchronous_commit off for
 * this statement alone), which saves a disk flush per batch. Losing it in a server crash is
 * harmless: the job is queued again, and the worker's completion, which commits durably, is
 * refused for lack of the claim, so the batch is simply done by the next claim.
 */
export async function claimDueBatch(
  sql: Tx,
  claim: { worker: string; leaseSeconds: number },
): Promise<ClaimedBatch | null> {
  const rows = await sql<
    (ItineraryRow & { job_id: string; claim_token: string; id: string | null; user_id: string })[]
  >`
    with job as materialized (
      select j.id, j.payload, j.claim_token
        from private.claim_jobs(${[PRICE_CHECK_JOB]}::text[], ${claim.worker}, 1, ${claim.leaseSeconds}) j
       where set_config('synchronous_commit', 'off', true) = 'off'
    )
    select job.id as job_id, job.claim_token,
           f.id, f.user_id, f.airline, f.flight_number, f.departure_airport, f.arrival_airport,
           f.departure_date::text as departure_date, f.return_flight_number, f.return_date::text as return_date,
           f.cabin_class, f.fare_type, f.currency, f.booking_code, f.source_reference, f.passenger_count
      from job
      left join lateral (
        select f.*
          from public.flights f
         where f.id between (job.payload ->> 'fromId')::bigint and (job.payload ->> 'toId')::bigint
           and private.flight_is_due(f, (job.payload ->> 'checkedBefore')::timestamptz)
      ) f on true
     order by f.id
  `;
  const first = rows[0];
  if (!first) return null;
  const job: JobRef = { id: Number(first.job_id), claimToken: first.claim_token };
  const flights = rows
    .filter((r) => r.id !== null)
    .map((r) => ({ id: Number(r.id), userId: r.user_id, itinerary: itineraryOfFlightRow(r) }));
  return { job, flights };
}

/** The columns of public.flights a quote needs, as selected (the party's size included). */
export interface ItineraryRow {
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
  passenger_count: number | null;
}

/** What a flight quotes: the same itinerary, cabin and fare brand, for every quote of it (sweep and confirmation). */
export function itineraryOfFlightRow(r: ItineraryRow): Itinerary {
  return {
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
    passengers: r.passenger_count ?? 1,
    bookingCode: r.booking_code,
    sourceReference: r.source_reference,
  };
}

/** A batch's counts: the result of its price_check job, which the sweep's totals sum. */
export interface BatchCounts {
  checked: number;
  drops: number;
  quotes: number;
  quoteErrors: number;
  /** The first quote error of the batch, if any. */
  quoteError: string | null;
}

export interface SweepTotals {
  /** False while a batch is queued, held by a worker, or backing off (or beyond this run's budget). */
  finished: boolean;
  /** The batches queued, held or backing off: 0 once finished. Only falls while the sweep runs. */
  batchesLeft: number;
  checkedCount: number;
  priceDropsFound: number;
  quotesMade: number;
  success: boolean;
  errorMessage: string | null;
}

/** Closes the sweep once none of its batches is left (else answers the totals so far). */
export async function finishSweep(tx: Tx, sweepId: number): Promise<SweepTotals> {
  const [row] = await tx<
    {
      finished: boolean;
      total_flights_checked: number;
      total_price_drops_found: number;
      quotes_made: number;
      success: boolean;
      error_message: string | null;
      batches_left: number;
    }[]
  >`select * from private.finish_price_sweep(${sweepId})`;
  if (!row) throw new Error('finish_price_sweep returned no row');
  return {
    finished: row.finished,
    batchesLeft: row.batches_left,
    checkedCount: row.total_flights_checked,
    priceDropsFound: row.total_price_drops_found,
    quotesMade: row.quotes_made,
    success: row.success,
    errorMessage: row.error_message,
  };
}

/** Whether the sweep is still running (its log row not yet closed by finish_price_sweep). */
export async function sweepIsRunning(tx: Tx, sweepId: number): Promise<boolean> {
  const [row] = await tx<{ running: boolean }[]>`
    select l.status = 'running' as running from public.price_check_logs l where l.id = ${sweepId}`;
  return row?.running === true;
}
