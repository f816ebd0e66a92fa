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
// A drop is believed on two quotes (issue 24, "proof of a drop"; private.price_drops). A first
// quote below the price paid on a flight not in price_drop leaves its status as it was, records a
// pending drop and enqueues one price_drop_confirm job for the statement's drops
// (services/drop-confirmation.ts). That job records its second quotes here with `confirming`:
// only then does a flight enter price_drop and its alert get queued. A flight already in
// price_drop (confirmed before) stays there while its quotes stay below the price paid.
//
// Alert precision: a check within a day of an alerted drop's alert decides whether its fare held.
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
  /** The source's offer id for the quoted fare, when it has one (kept with a drop's proof). */
  offerId?: string | null;
}

export interface RecordPriceChecksOptions {
  /**
   * These are second quotes of pending drops (the price_drop_confirm job): a quote below the
   * price paid puts the flight in price_drop and queues its alert. Default false: a first quote,
   * which only records a pending drop.
   */
  confirming?: boolean;
  /** Priority of the confirmation job a first quote's drops get (a traveller waiting: higher). */
  confirmPriority?: number;
}

export interface RecordedPriceCheck {
  flightId: number;
  status: FlightStatus;
  /** The flight is (still or newly) in price_drop after this check. */
  priceDropped: boolean;
  /** This check found a new drop that passed the owner's alert thresholds: an email is queued. */
  alertQueued: boolean;
  /** This first quote showed a drop that now waits for its second quote (private.price_drops). */
  dropPending: boolean;
}

/**
 * Writes the checks and returns one entry per flight actually updated; flights a check may not
 * touch (see above), deleted ones, and those whose user does not match are absent from the result.
 */
export async function recordPriceChecks(
  tx: Tx,
  results: PriceCheckResult[],
  options: RecordPriceChecksOptions = {},
): Promise<RecordedPriceCheck[]> {
  if (results.length === 0) return [];
  const confirming = options.confirming ?? false;
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
  const offerIds = results.map((r) => r.offerId ?? null);
  const rows = await tx<
    { flight_id: string | number | null; status: FlightStatus | null; alert: boolean; pending: boolean }[]
  >`
    with checks as (
      -- previous_status: every CTE reads the statement's snapshot, i.e. the flights as they
      -- were before the update below, which is how a drop is known to be new
      select c.*, f.status as previous_status
        from unnest(
          ${ids}::bigint[], ${userIds}::uuid[], ${prices}::integer[],
          ${currencies}::text[], ${checkedAts}::timestamptz[], ${sources}::text[],
          ${penalties}::integer[], ${refundForms}::text[], ${offerIds}::text[]
        ) as c(flight_id, user_id, price, currency, checked_at, source, change_penalty, refund_form, offer_id)
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
               when c.price < f.original_price and (${confirming}::boolean or f.status = 'price_drop') then 'price_drop'
               else private.flight_initial_status(f.is_eligible_for_rebooking)
             end
        from checks c
       where f.id = c.flight_id
         and f.user_id = c.user_id
         and private.flight_is_checkable(f)
      returning f.id, f.user_id, f.status, f.original_price, f.airline, f.flight_number, f.is_eligible_for_rebooking,
                f.departure_airport, f.arrival_airport, c.price, c.currency, c.checked_at, c.source,
                c.previous_status, c.offer_id, f as flight
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
    ),
    -- a first quote below the price paid: a pending drop, unless one is already being confirmed
    -- (a pending drop left for over an hour, whose job was lost, is taken up again)
    drops as (
      insert into private.price_drops as d (flight_id, user_id, original_price, currency, quotes, detected_at)
      select u.id, u.user_id, u.original_price, u.currency,
             jsonb_build_array(jsonb_build_object(
               'quotedAt', to_char(u.checked_at at time zone 'UTC', ${tx.unsafe(ISO_UTC)}), 'source', u.source,
               'offerId', u.offer_id, 'price', u.price, 'currency', u.currency)),
             u.checked_at
        from updated u
       where not ${confirming}::boolean and u.price < u.original_price and u.status <> 'price_drop'
      on conflict (flight_id) where state = 'pending' do update
         set quotes = excluded.quotes, detected_at = excluded.detected_at
       where d.detected_at < excluded.detected_at - interval '1 hour'
      returning d.id, d.flight_id
    ),
    confirm_job as (
      select private.enqueue_job('price_drop_confirm',
                                 jsonb_build_object('dropIds', jsonb_agg(d.id order by d.id), 'attempt', 1),
                                 null, null, ${options.confirmPriority ?? 0}::integer) as job_id
        from drops d
      having count(*) > 0
    ),
    -- alert precision: the first check within a day of an alert says whether the fare held
    held as (
      update private.price_drops d
         set held = u.price < u.original_price, held_at = u.checked_at
        from updated u
       where d.flight_id = u.id and d.alerted_at is not null and d.held is null
         and u.checked_at > d.alerted_at and u.checked_at <= d.alerted_at + interval '1 day'
    )
    -- one row per flight, then one per queued alert and per pending drop (a join here would be
    -- planned as a nested loop over the CTEs, quadratic in the batch size), and the job's row
    select u.id as flight_id, u.status, false as alert, false as pending from updated u
    union all
    select a.flight_id, null, true, false from alerts a where a.notification_id is not null
    union all
    select d.flight_id, null, false, true from drops d
    union all
    select null, null, false, false from confirm_job
  `;
  const alerted = new Set(rows.filter((row) => row.alert).map((row) => Number(row.flight_id)));
  const pending = new Set(rows.filter((row) => row.pending).map((row) => Number(row.flight_id)));
  return rows
    .filter((row) => row.flight_id !== null && row.status !== null)
    .map((row) => ({
      flightId: Number(row.flight_id),
      status: row.status as FlightStatus,
      priceDropped: row.status === 'price_drop',
      alertQueued: alerted.has(Number(row.flight_id)),
      dropPending: pending.has(Number(row.flight_id)),
    }));
}
