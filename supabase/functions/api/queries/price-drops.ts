// The proof of a drop (private.price_drops, migration 20261122000500_flights_and_prices.sql): the
// pending drops a price_drop_confirm job quotes again, and what their second quotes decided.
// recordPriceChecks (price-checks.ts) records the quotes themselves; these calls keep the drops'
// state. Service connection only.
import type postgres from 'postgres';
import type { DropQuote } from '../../_shared/types/flights.ts';
import type { Tx } from '../db.ts';
import { type DueFlight, itineraryOfFlightRow, type ItineraryRow } from './price-sweeps.ts';

export const PRICE_DROP_CONFIRM_JOB = 'price_drop_confirm';

/** What a price_drop_confirm job carries: the drops to quote again, and which attempt this is. */
export interface PriceDropConfirmPayload {
  dropIds: number[];
  attempt: number;
}

/** A pending drop with the itinerary its second quote asks for. */
export interface PendingDrop extends DueFlight {
  dropId: number;
}

/**
 * The drops of `dropIds` still pending, with their flights' itineraries. A drop whose flight can
 * no longer be checked (rebooked, departed, removed) comes back too: its settlement says so.
 */
export async function loadPendingDrops(tx: Tx, dropIds: number[]): Promise<PendingDrop[]> {
  const rows = await tx<(ItineraryRow & { drop_id: string; flight_id: string; user_id: string })[]>`
    select d.id as drop_id, f.id as flight_id, f.user_id, f.airline, f.flight_number, f.departure_airport,
           f.arrival_airport, f.departure_date::text as departure_date, f.return_flight_number,
           f.return_date::text as return_date, f.cabin_class, f.fare_type, f.currency, f.booking_code,
           f.source_reference, f.passenger_count
      from private.price_drops d
      join public.flights f on f.id = d.flight_id
     where d.id = any(${dropIds}::bigint[]) and d.state = 'pending'
     order by d.id
  `;
  return rows.map((r) => ({
    dropId: Number(r.drop_id),
    id: Number(r.flight_id),
    userId: r.user_id,
    itinerary: itineraryOfFlightRow(r),
  }));
}

/** What a drop's second quote decided. */
export interface DropSettlement {
  dropId: number;
  /** The second quote. */
  quote: DropQuote;
  /** 'confirmed': the flight entered price_drop; 'fare_vanished': not below the price paid; 'flight_changed': not recorded. */
  outcome: 'confirmed' | 'fare_vanished' | 'flight_changed';
  /** The confirmed drop's alert was queued. */
  alerted: boolean;
}

/**
 * Settles pending drops with their second quotes; a confirmed drop's quotes are copied to its
 * flight (flights.drop_quotes, the Rebooking Details dialog). One statement.
 */
export async function settleDrops(tx: Tx, settlements: DropSettlement[]): Promise<void> {
  if (settlements.length === 0) return;
  const rows = settlements.map((s) => ({
    drop_id: s.dropId,
    outcome: s.outcome,
    alerted: s.alerted,
    quote: { ...s.quote },
  })) as unknown as postgres.JSONValue;
  await tx`
    with s as (
      select * from jsonb_to_recordset(${tx.json(rows)}) as s(drop_id bigint, outcome text, alerted boolean, quote jsonb)
    ),
    settled as (
      update private.price_drops d
         set state = case when s.outcome = 'confirmed' then 'confirmed' else 'unconfirmed' end,
             reason = case when s.outcome = 'confirmed' then null else s.outcome end,
             quotes = d.quotes || jsonb_build_array(s.quote),
             resolved_at = now(),
             alerted_at = case when s.alerted and s.outcome = 'confirmed' then now() end
        from s
       where d.id = s.drop_id and d.state = 'pending'
      returning d.flight_id, d.user_id, d.state, d.quotes
    )
    update public.flights f
       set drop_quotes = settled.quotes
      from settled
     where f.id = settled.flight_id and f.user_id = settled.user_id and settled.state = 'confirmed'
  `;
}

/**
 * Drops that cannot be proved: their second quote failed on every attempt (source_failed), or the
 * airline cancelled the flight (flight_changed). Unconfirmed, never alerted.
 */
export async function giveUpDrops(
  tx: Tx,
  dropIds: number[],
  reason: 'source_failed' | 'flight_changed' = 'source_failed',
): Promise<void> {
  if (dropIds.length === 0) return;
  await tx`
    update private.price_drops
       set state = 'unconfirmed', reason = ${reason}, resolved_at = now()
     where id = any(${dropIds}::bigint[]) and state = 'pending'
  `;
}
