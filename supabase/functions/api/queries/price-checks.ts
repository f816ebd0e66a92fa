// Recording price checks: one quote per flight becomes the flight's current price (lowest and
// highest widened, last_checked and status moved on) and a row of its price history. A single
// statement for any number of flights, so a sweep writes a whole batch in one round trip and a
// single check from the flights API goes through the same rule.
//
// The status after a check: below the price paid is a price drop, otherwise the status of a flight
// without a drop (private.flight_initial_status: an eligible fare is monitored, any other limited). Only flights a check may touch are written
// (private.flight_is_checkable: watched and not being rebooked); the rest are left exactly as they
// are and get no history row: a late quote must not undo a rebooking or reopen a finished flight.
//
// Runs on the service connection: the caller has already checked who owns the flight; user_id in
// the WHERE is a guard so a mismatched pair writes nothing rather than someone else's flight.
import type { RefundForm } from '../../_shared/fare-source/types.ts';
import type { FlightStatus } from '../../_shared/flights/rules.ts';
import type { Tx } from '../db.ts';
import { ISO_UTC, PRICE_HISTORY_POINTS } from './flights.ts';

export interface PriceCheckResult {
  flightId: number;
  userId: string;
  /** The quoted fare, cents. */
  price: number;
  currency: string;
  checkedAt: Date;
  /** The fare source's name ('simulated', 'duffel'). */
  source: string;
  /** The change penalty the quote reported, cents (null or absent: the source did not say). */
  changePenalty?: number | null;
  /** How the quote says a difference comes back. */
  refundForm?: RefundForm | null;
}

export interface RecordedPriceCheck {
  flightId: number;
  status: FlightStatus;
  /** The flight is (still or newly) in price_drop after this check. */
  priceDropped: boolean;
  /** This check found a new drop that passed the owner's alert thresholds: an email is queued. */
  alertQueued: boolean;
}

/**
 * Writes the checks and returns one entry per flight actually updated; flights a check may not
 * touch (see above), deleted ones, and those whose user does not match are absent from the result.
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
  const penalties = results.map((r) => r.changePenalty ?? null);
  const refundForms = results.map((r) => r.refundForm ?? null);
  const rows = await tx<{ flight_id: string | number; status: FlightStatus | null; alert: boolean }[]>`
    with checks as (
      -- previous_status: every CTE reads the statement's snapshot, i.e. the flights as they
      -- were before the update below, which is how a drop is known to be new
      select c.*, f.status as previous_status
        from unnest(
          ${ids}::bigint[], ${userIds}::uuid[], ${prices}::integer[],
          ${currencies}::text[], ${checkedAts}::timestamptz[], ${sources}::text[],
          ${penalties}::integer[], ${refundForms}::text[]
        ) as c(flight_id, user_id, price, currency, checked_at, source, change_penalty, refund_form)
        join public.flights f on f.id = c.flight_id
    ),
    updated as (
      update public.flights f
         set current_price = c.price,
             lowest_price = least(f.lowest_price, c.price),
             -- the card's last PRICE_HISTORY_POINTS checks, oldest first: drop the oldest when full
             recent_prices = (case when jsonb_array_length(f.recent_prices) >= ${PRICE_HISTORY_POINTS}
                                   then f.recent_prices - 0 else f.recent_prices end)
                             || jsonb_build_array(jsonb_build_object(
                                  'price', c.price,
                                  'checkedAt', to_char(c.checked_at at time zone 'UTC', ${tx.unsafe(ISO_UTC)}))),
             highest_price = greatest(f.highest_price, c.price),
             last_checked = c.checked_at,
             change_penalty = c.change_penalty,
             refund_form = c.refund_form,
             status = case
               when c.price < f.original_price then 'price_drop'
               else private.flight_initial_status(f.is_eligible_for_rebooking)
             end
        from checks c
       where f.id = c.flight_id
         and f.user_id = c.user_id
         and private.flight_is_checkable(f)
      returning f.id, f.user_id, f.status, f.original_price, f.airline, f.flight_number, f.is_eligible_for_rebooking,
                f.departure_airport, f.arrival_airport, c.price, c.currency, c.checked_at, c.source,
                c.previous_status, f as flight
    ),
    history as (
      insert into public.flight_prices (flight_id, user_id, price, currency, checked_at, source)
      select u.id, u.user_id, u.price, u.currency, u.checked_at, u.source from updated u
    ),
    -- Price-drop alerts (spec: email alerts on every plan), through the one outbox:
    -- private.queue_notification (migration 20261122000700_notifications.sql) writes the row
    -- (type and data: the email's template writes the words) and enqueues its delivery, applying
    -- the owner's switch, confirmed address and thresholds (either minPriceDrop cents or
    -- minPriceDropPercent). Only a flight newly entering price_drop alerts.
    alerts as (
      select u.id as flight_id,
             private.queue_notification(
               u.user_id, 'price_drop',
               jsonb_build_object(
                 'airline', u.airline, 'flightNumber', u.flight_number,
                 'departureAirport', u.departure_airport, 'arrivalAirport', u.arrival_airport,
                 'oldPrice', u.original_price, 'newPrice', u.price,
                 'netSavings', v.verdict -> 'netSavings', 'changePenalty', v.verdict -> 'changePenalty',
                 'currency', u.currency, 'qualifies', v.verdict -> 'qualifies', 'reason', v.verdict -> 'reason',
                 'rule', v.verdict -> 'rule' -> 'explanation', 'rebookingMode', v.verdict -> 'rebookingMode'),
               u.id,
               'price_drop:' || u.id || ':' || to_char(u.checked_at at time zone 'UTC', 'YYYYMMDDHH24MISSUS')
             ) as notification_id
        from updated u
        join public.profiles p on p.id = u.user_id
        -- the net figure after the fare's change fee and whether it qualifies for a rebooking:
        -- private.rebooking_verdict, the rule automatic runs use (migration 20261122000600_rebooking.sql)
        cross join lateral (select private.rebooking_verdict(u.flight, p) as verdict) v
       where u.status = 'price_drop' and u.previous_status <> 'price_drop'
    )
    -- one row per flight, then one per queued alert (a join here would be planned as a nested
    -- loop over both CTEs, quadratic in the batch size)
    select u.id as flight_id, u.status, false as alert from updated u
    union all
    select a.flight_id, null, true from alerts a where a.notification_id is not null
  `;
  const alerted = new Set(rows.filter((row) => row.alert).map((row) => Number(row.flight_id)));
  return rows
    .filter((row) => !row.alert && row.status !== null)
    .map((row) => ({
      flightId: Number(row.flight_id),
      status: row.status as FlightStatus,
      priceDropped: row.status === 'price_drop',
      alertQueued: alerted.has(Number(row.flight_id)),
    }));
}
