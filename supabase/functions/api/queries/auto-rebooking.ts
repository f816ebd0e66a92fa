// Automatic rebooking runs (migration 20261122000600_rebooking.sql): starting a run (SQL
// evaluates the flights and enqueues the qualifying ones in batches), loading a batch's flights
// with what a rebooking sends to the source, recording a batch's outcome with its job, finishing
// the run, and the fare source's circuit breaker. Service connection only.
import type postgres from 'postgres';
import type { RebookRequest, RetrievedBooking } from '../../_shared/fare-source/types.ts';
import type { RebookingVerdict } from '../../_shared/types/flights.ts';
import type { Tx } from '../db.ts';
import { queueNotification } from './notifications.ts';

export type RunTrigger = 'scheduler' | 'admin' | 'traveller';

export interface StartedRun {
  runId: number;
  /** A run of the same scope was already running and is joined. */
  resumed: boolean;
  flightsEvaluated: number;
  flightsQualifying: number;
  batches: number;
}

export async function startRun(
  tx: Tx,
  run: { trigger: RunTrigger; initiatedBy: string | null; scopeUserId: string | null; batchSize: number },
): Promise<StartedRun> {
  const [row] = await tx<
    { run_id: string; resumed: boolean; flights_evaluated: number; flights_qualifying: number; batches: number }[]
  >`
    select * from private.start_auto_rebooking_run(
      ${run.trigger}, ${run.initiatedBy}::uuid, ${run.scopeUserId}::uuid, ${run.batchSize})
  `;
  if (!row) throw new Error('start_auto_rebooking_run returned no row');
  return {
    runId: Number(row.run_id),
    resumed: row.resumed,
    flightsEvaluated: row.flights_evaluated,
    flightsQualifying: row.flights_qualifying,
    batches: row.batches,
  };
}

/** Why automatic rebooking does not apply to a traveller (private.auto_rebooking_refusal), or null when it does. */
export type AutoRebookingRefusalReason = 'plan' | 'switched_off';

/** The traveller's refusal; a traveller without a profile has no plan that gives it. */
export async function autoRebookingRefusal(tx: Tx, userId: string): Promise<AutoRebookingRefusalReason | null> {
  const [row] = await tx<{ refusal: AutoRebookingRefusalReason | null }[]>`
    select private.auto_rebooking_refusal(p, sp) as refusal
      from public.profiles p join public.subscription_plans sp on sp.id = p.plan_id
     where p.id = ${userId}
  `;
  return row ? row.refusal : 'plan';
}

/** A flight of a batch that still qualifies (the rule's answer now), with what its rebooking needs. */
export interface BatchFlight {
  flightId: number;
  userId: string;
  airline: string;
  flightNumber: string;
  departureAirport: string;
  arrivalAirport: string;
  currentPrice: number;
  originalPrice: number;
  currency: string;
  /** When the fare was quoted (ISO), which the approval link expires with; null if never. */
  lastChecked: string | null;
  /** The flight's method, or the kept retrieval's when it says assisted. */
  method: 'source' | 'assisted';
  verdict: RebookingVerdict;
  /** null when no retrieval was kept (flights added before they were): rebooked by hand only. */
  request: RebookRequest | null;
}

/**
 * The batch's flights that are still price drops whose verdict qualifies, of owners automatic
 * rebooking still applies to (private.auto_rebooking_applies; a flight rebooked, removed or
 * re-priced since the run started drops out).
 * The request is built from the kept retrieval (private.flight_bookings), never the flight row:
 * never above the fare seen nor at or above the price paid, and asking the source for at least
 * the net savings the thresholds accept.
 */
export async function loadBatchFlights(tx: Tx, flightIds: number[]): Promise<BatchFlight[]> {
  if (flightIds.length === 0) return [];
  const rows = await tx<
    {
      id: string;
      user_id: string;
      airline: string;
      flight_number: string;
      departure_airport: string;
      arrival_airport: string;
      current_price: number;
      original_price: number;
      currency: string;
      last_checked: Date | null;
      rebooking_method: 'source' | 'assisted';
      verdict: RebookingVerdict;
      booking: RetrievedBooking | null;
      price_paid: number | null;
    }[]
  >`
    select f.id, f.user_id, f.airline, f.flight_number, f.departure_airport, f.arrival_airport,
           f.current_price, f.original_price, f.currency, f.last_checked,
           case when f.rebooking_method = 'assisted' or b.rebooking_method = 'assisted'
                then 'assisted' else 'source' end as rebooking_method,
           v.verdict, b.booking, b.price_paid
      from public.flights f
      join public.profiles p on p.id = f.user_id
      join public.subscription_plans sp on sp.id = p.plan_id
      left join private.flight_bookings b on b.flight_id = f.id
      cross join lateral (select private.rebooking_verdict(f, p) as verdict) v
     where f.id = any(${flightIds}::bigint[])
       and f.status = 'price_drop' and not f.has_been_rebooked
       and private.auto_rebooking_applies(p, sp)
       and (v.verdict ->> 'qualifies')::boolean
     order by f.id
  `;
  return rows.map((r) => {
    const booking = r.booking;
    const pricePaid = r.price_paid ?? 0;
    return {
      flightId: Number(r.id),
      userId: r.user_id,
      airline: r.airline,
      flightNumber: r.flight_number,
      departureAirport: r.departure_airport,
      arrivalAirport: r.arrival_airport,
      currentPrice: r.current_price,
      originalPrice: r.original_price,
      currency: r.currency,
      lastChecked: r.last_checked ? new Date(r.last_checked).toISOString() : null,
      method: r.rebooking_method,
      verdict: r.verdict,
      request: booking
        ? {
            booking,
            pricePaid,
            maxPrice: Math.min(r.current_price, pricePaid - 1),
            minCredit: Math.max(1, r.verdict.minNetSavings ?? 1),
          }
        : null,
    };
  });
}

/** What a batch did; its job's result and the run's sums. */
export interface BatchResult {
  /** Flights of the batch that still qualified when it ran. */
  evaluated: number;
  rebooked: number;
  /** Credit the rebooked flights brought back (net of the change penalty), cents. */
  savings: number;
  /** Assisted-path flights whose owner was sent what to ask the airline for. */
  actionNeeded: number;
  /** Flights whose airline rule needs the owner's approval: asked by email, never changed here. */
  approvalsRequested: number;
  /** Fare-source failures (outage, timeout, unreadable answer, recording delayed). */
  failed: number;
  /** Not attempted: the breaker was open, or no retrieval was kept. */
  skipped: number;
  /** The first failure, for the run's row; null when none. */
  error: string | null;
}

export async function recordBatch(tx: Tx, runId: number, batch: number, result: BatchResult): Promise<void> {
  await tx`
    select private.record_auto_rebooking_batch(${runId}, ${batch},
      ${tx.json(result as unknown as postgres.JSONValue)})
  `;
}

export interface RunTotals {
  finished: boolean;
  flightsEvaluated: number;
  flightsRebooked: number;
  savings: number;
  actionNeeded: number;
  success: boolean;
  errorMessage: string | null;
}

/** Closes the run once every batch has reported (idempotent); answers its totals so far. */
export async function finishRun(tx: Tx, runId: number): Promise<RunTotals> {
  const [row] = await tx<
    {
      finished: boolean;
      flights_evaluated: number;
      flights_rebooked: number;
      savings: string;
      action_needed: number;
      success: boolean;
      error_message: string | null;
    }[]
  >`select * from private.finish_auto_rebooking_run(${runId})`;
  return {
    finished: row?.finished ?? false,
    flightsEvaluated: row?.flights_evaluated ?? 0,
    flightsRebooked: row?.flights_rebooked ?? 0,
    savings: Number(row?.savings ?? 0),
    actionNeeded: row?.action_needed ?? 0,
    success: row?.success ?? false,
    errorMessage: row?.error_message ?? null,
  };
}

/** Until when the named breaker is open, or null when calls may go ahead. */
export async function circuitOpenUntil(tx: Tx, name: string): Promise<Date | null> {
  const [row] = await tx<{ until: Date | null }[]>`select private.circuit_open_until(${name}) as until`;
  return row?.until ? new Date(row.until) : null;
}

/** Records a batch's trailing consecutive failures (0: its last call succeeded); answers until when it is open. */
export async function circuitRecord(
  tx: Tx,
  b: { name: string; failures: number; threshold: number; openSeconds: number; error: string | null },
): Promise<Date | null> {
  const [row] = await tx<{ until: Date | null }[]>`
    select private.circuit_record(${b.name}, ${b.failures}, ${b.threshold}, ${b.openSeconds}, ${b.error}) as until
  `;
  return row?.until ? new Date(row.until) : null;
}

/** Queues the assisted-path email: what to ask the airline for, the net saving, a link. Once per flight and fare. */
export async function queueActionNeeded(tx: Tx, f: BatchFlight, link: string): Promise<void> {
  await queueNotification(tx, {
    userId: f.userId,
    type: 'action_needed',
    data: {
      airline: f.airline,
      flightNumber: f.flightNumber,
      departureAirport: f.departureAirport,
      arrivalAirport: f.arrivalAirport,
      netSavings: f.verdict.netSavings,
      refundForm: f.verdict.refundForm === 'cash' ? 'cash' : 'credit',
      link,
    },
    flightId: f.flightId,
    dedupeKey: `action_needed:${f.flightId}:${f.currentPrice}`,
  });
}
