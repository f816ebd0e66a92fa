// A price sweep's bookkeeping: its run-log row (public.price_check_logs), the batches it enqueued
// as price_check jobs (private.start_price_sweep, migration 20261124000100_job_queue.sql) and the
// flights a batch still has to check. Service connection only.
import type { Itinerary } from '../../_shared/fare-source/types.ts';
import type { Tx } from '../db.ts';

export const PRICE_CHECK_JOB = 'price_check';

/** What a price_check job carries. */
export interface PriceCheckPayload {
  sweepId: number;
  /** When the sweep began: a flight checked since then (by hand, or by an earlier attempt) is skipped. */
  startedAt: string;
  batch: number;
  flightIds: number[];
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

/** The batch's flights that are still due (private.flight_is_due), with the itinerary each one quotes. */
export async function loadDueFlights(tx: Tx, flightIds: number[], checkedBefore: string): Promise<DueFlight[]> {
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
       and private.flight_is_due(f, ${checkedBefore}::timestamptz)
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

export interface BatchCounts {
  checked: number;
  drops: number;
  quotes: number;
  quoteErrors: number;
  /** The first quote error of the batch, if any. */
  quoteError: string | null;
}

/**
 * Adds a batch's counts to its sweep's log row. Call it in the transaction that completes the
 * batch's job: the two commit together or not at all, so no batch is counted twice.
 */
export async function addBatchTotals(tx: Tx, sweepId: number, counts: BatchCounts): Promise<void> {
  await tx`
    update public.price_check_logs l
       set total_flights_checked = l.total_flights_checked + ${counts.checked},
           total_price_drops_found = l.total_price_drops_found + ${counts.drops},
           additional_data = coalesce(l.additional_data, '{}'::jsonb) || jsonb_strip_nulls(jsonb_build_object(
             'quotesMade', coalesce((l.additional_data ->> 'quotesMade')::integer, 0) + ${counts.quotes}::integer,
             'quoteErrors', coalesce((l.additional_data ->> 'quoteErrors')::integer, 0) + ${counts.quoteErrors}::integer,
             'quoteError', coalesce(l.additional_data ->> 'quoteError', ${counts.quoteError}::text)))
     where l.id = ${sweepId}
  `;
}

export interface SweepTotals {
  /** False while a batch is queued, held by a worker, or backing off (or beyond this run's budget). */
  finished: boolean;
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
    }[]
  >`select * from private.finish_price_sweep(${sweepId})`;
  if (!row) throw new Error('finish_price_sweep returned no row');
  return {
    finished: row.finished,
    checkedCount: row.total_flights_checked,
    priceDropsFound: row.total_price_drops_found,
    quotesMade: row.quotes_made,
    success: row.success,
    errorMessage: row.error_message,
  };
}
