// Recording price checks: one quote per flight becomes the flight's current price (lowest and
// highest widened, last_checked and status moved on) and a row of its price history. A single
// statement for any number of flights, so a sweep writes a whole batch in one round trip and a
// single check from the flights API goes through the same rule.
//
// The status rule is statusAfterCheck's (_shared/flights/rules.ts) written in SQL: below the
// price paid is a price drop, otherwise an eligible fare is monitored and any other is limited.
// Flights that are rebooked, being rebooked, departed or cancelled are left exactly as they are
// and get no history row: a late quote must not undo a rebooking or reopen a finished flight.
//
// Runs on the service connection: the caller has already checked who owns the flight; user_id in
// the WHERE is a guard so a mismatched pair writes nothing rather than someone else's flight.
import type { FlightStatus } from '../../_shared/flights/rules.ts';
import type { Tx } from '../db.ts';

export interface PriceCheckResult {
  flightId: number;
  userId: string;
  /** The quoted fare, cents. */
  price: number;
  currency: string;
  checkedAt: Date;
  /** The fare source's name ('simulated', 'duffel'). */
  source: string;
}

export interface RecordedPriceCheck {
  flightId: number;
  status: FlightStatus;
  /** The flight is (still or newly) in price_drop after this check. */
  priceDropped: boolean;
}

/** Statuses a price check never changes (statusAfterCheck keeps them). */
export const FROZEN_STATUSES = ['rebooking', 'rebooked', 'departed', 'cancelled'] as const;

/**
 * Writes the checks and returns one entry per flight actually updated; flights that were frozen
 * (see above), deleted, or whose user does not match are absent from the result.
 */
export async function recordPriceChecks(tx: Tx, results: PriceCheckResult[]): Promise<RecordedPriceCheck[]> {
  if (results.length === 0) return [];
  // Parallel arrays unnest into one row per check: a fixed six parameters whatever the batch
  // size, so the statement stays one prepared plan instead of growing with the batch.
  const ids = results.map((r) => r.flightId);
  const userIds = results.map((r) => r.userId);
  const prices = results.map((r) => r.price);
  const currencies = results.map((r) => r.currency);
  const checkedAts = results.map((r) => r.checkedAt.toISOString());
  const sources = results.map((r) => r.source);
  const rows = await tx<{ flight_id: string | number; status: FlightStatus }[]>`
    with checks as (
      select *
        from unnest(
          ${ids}::bigint[], ${userIds}::uuid[], ${prices}::integer[],
          ${currencies}::text[], ${checkedAts}::timestamptz[], ${sources}::text[]
        ) as c(flight_id, user_id, price, currency, checked_at, source)
    ),
    updated as (
      update public.flights f
         set current_price = c.price,
             lowest_price = least(f.lowest_price, c.price),
             highest_price = greatest(f.highest_price, c.price),
             last_checked = c.checked_at,
             status = case
               when c.price < f.original_price then 'price_drop'
               when f.is_eligible_for_rebooking then 'monitoring'
               else 'limited'
             end
        from checks c
       where f.id = c.flight_id
         and f.user_id = c.user_id
         and not f.has_been_rebooked
         and f.status not in ('rebooking', 'rebooked', 'departed', 'cancelled')
      returning f.id, f.user_id, f.status, c.price, c.currency, c.checked_at, c.source
    ),
    history as (
      insert into public.flight_prices (flight_id, user_id, price, currency, checked_at, source)
      select u.id, u.user_id, u.price, u.currency, u.checked_at, u.source from updated u
    )
    select u.id as flight_id, u.status from updated u
  `;
  return rows.map((row) => ({
    flightId: Number(row.flight_id),
    status: row.status,
    priceDropped: row.status === 'price_drop',
  }));
}
