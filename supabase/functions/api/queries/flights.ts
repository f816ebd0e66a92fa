// public.flights as the traveller sees them. User queries run in the user's transaction (row-level
// security applies) and still name the owner, because admins may read every flight and the
// traveller endpoints must only ever touch the caller's own. System writes (prices, rebooking,
// credits) run on the service connection and also name the owner in their WHERE clauses.
import type postgres from 'postgres';
import type {
  RebookingMethod,
  RebookRequest,
  RebookResult,
  RetrievedBooking,
} from '../../_shared/fare-source/types.ts';
import type { DashboardStats, Flight } from '../../_shared/types/flights.ts';
import type { Tx } from '../db.ts';

type Row = Record<string, unknown>;

/**
 * How many price checks a flight carries in its history (the card's chart); also in
 * private.refresh_recent_prices (migration 20261122000500_flights_and_prices.sql).
 */
export const PRICE_HISTORY_POINTS = 30;

/** A timestamptz as toISOString() writes it, so SQL-built and TS-built JSON read the same. */
export const ISO_UTC = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/**
 * The caller's flights with their recent price history, soonest departure first, as the JSON
 * text of a Flight[] built by Postgres. The list is the dashboard's hottest read: building the
 * JSON in SQL spares the function parsing ~40 columns per flight into objects only to serialise
 * them again, and the history comes from the row's own recent_prices (migration
 * 20261122000500_flights_and_prices.sql) rather than a sorted scan of flight_prices per flight.
 */
export async function flightsJson(tx: Tx, userId: string, flightId?: number): Promise<string> {
  const iso = tx.unsafe(ISO_UTC);
  const [row] = await tx<{ flights: string }[]>`
    select coalesce(json_agg(json_build_object(
      'id', f.id,
      'userId', f.user_id,
      'airline', f.airline,
      'flightNumber', f.flight_number,
      'bookingCode', f.booking_code,
      'passengerLastName', f.passenger_last_name,
      'departureAirport', f.departure_airport,
      'arrivalAirport', f.arrival_airport,
      'departureDate', f.departure_date,
      'returnDate', f.return_date,
      'isRoundTrip', f.is_round_trip,
      'returnFlightNumber', f.return_flight_number,
      'currency', f.currency,
      'originalPrice', f.original_price,
      'currentPrice', f.current_price,
      'lowestPrice', f.lowest_price,
      'highestPrice', f.highest_price,
      'lastChecked', to_char(f.last_checked at time zone 'UTC', ${iso}),
      'fareType', f.fare_type,
      -- the airline rulebook decides (private.flight_rebooking_mode): a fare it cannot change is 'none'
      'isEligibleForRebooking', v.verdict ->> 'rebookingMode' <> 'none',
      'hasBeenRebooked', f.has_been_rebooked,
      'rebookingDate', to_char(f.rebooking_date at time zone 'UTC', ${iso}),
      'rebookingPrice', f.rebooking_price,
      'airlineCredit', f.airline_credit,
      'creditExpiryDate', f.credit_expiry_date,
      'creditReferenceNumber', f.credit_reference_number,
      'commissionAmount', f.commission_amount,
      'commissionRate', f.commission_rate,
      'status', f.status,
      'rebookingMethod', f.rebooking_method,
      'sourceReference', f.source_reference,
      'emailSource', f.email_source,
      'isManualEntry', f.is_manual_entry,
      'canCancel', f.can_cancel,
      'isWatched', private.flight_is_watched(f),
      'cancellationFee', f.cancellation_fee,
      'seatNumber', f.seat_number,
      'cabinClass', f.cabin_class,
      'passengerCount', f.passenger_count,
      'notes', f.notes,
      'createdAt', to_char(f.created_at at time zone 'UTC', ${iso}),
      'priceHistory', f.recent_prices,
      'changePenalty', f.change_penalty,
      'refundForm', f.refund_form,
      'rebookingVerdict', v.verdict,
      'rebookingMode', v.verdict ->> 'rebookingMode',
      'rebookingRule', v.verdict -> 'rule',
      'dropQuotes', f.drop_quotes
    ) order by f.departure_date, f.id), '[]'::json)::text as flights
    from public.flights f
    join public.profiles p on p.id = f.user_id
    cross join lateral (select private.rebooking_verdict(f, p) as verdict) v
    where f.user_id = ${userId} ${flightId === undefined ? tx`` : tx`and f.id = ${flightId}`}
  `;
  return row?.flights ?? '[]';
}

export async function listFlights(tx: Tx, userId: string, flightId?: number): Promise<Flight[]> {
  return JSON.parse(await flightsJson(tx, userId, flightId)) as Flight[];
}

export async function getFlight(tx: Tx, userId: string, flightId: number): Promise<Flight | null> {
  return (await listFlights(tx, userId, flightId))[0] ?? null;
}

/**
 * The dashboard's stats, in cents: flights still watched (private.flight_is_watched, the rule the
 * plan's limit counts), price drops on them, what the drops can still be claimed for, and what
 * rebookings saved (the airline credit, else original minus new price). Potential savings count
 * only drops a rebooking can claim: on a fare that can be changed (is_eligible_for_rebooking),
 * net of its change fee as private.rebooking_verdict's netSavings reckons it, and only when that
 * net is above 0; a drop on Basic Economy, or one the fee eats, is nobody's to claim.
 */
export async function dashboardStats(tx: Tx, userId: string): Promise<DashboardStats> {
  const [row] = await tx<Row[]>`
    select
      count(*) filter (where watched)::int as monitored_flights,
      count(*) filter (where watched and status = 'price_drop')::int as price_drops_found,
      coalesce(sum(original_price - current_price - coalesce(change_penalty, 0))
        filter (where watched and is_eligible_for_rebooking and current_price < original_price
                  and original_price - current_price - coalesce(change_penalty, 0) > 0), 0)::bigint
        as potential_savings,
      coalesce(sum(case when coalesce(airline_credit, 0) > 0 then airline_credit
                        else greatest(original_price - coalesce(rebooking_price, original_price), 0) end)
        filter (where has_been_rebooked), 0)::bigint as actual_savings
    from (
      select f.*, private.flight_is_watched(f) as watched
      from public.flights f
      where f.user_id = ${userId}
    ) f
  `;
  return {
    monitoredFlights: Number(row?.monitored_flights ?? 0),
    priceDropsFound: Number(row?.price_drops_found ?? 0),
    potentialSavings: Number(row?.potential_savings ?? 0),
    actualSavings: Number(row?.actual_savings ?? 0),
  };
}

export interface FlightAllowance {
  /** The plan's flight limit; UNLIMITED_FLIGHTS (-1) for none. */
  flightLimit: number;
  /** Flights that count against it (private.flight_is_watched). */
  watched: number;
}

export interface RoomOnPlan extends FlightAllowance {
  /** How many more flights the plan watches: at most 0 when full, below 0 after a downgrade. */
  room: number;
}

/** Room on the traveller's plan: private.room_on_plan, the flight-limit trigger's rule. */
export async function roomOnPlan(tx: Tx, userId: string): Promise<RoomOnPlan> {
  const [row] = await tx<{ flight_limit: number; watched: number; room: number }[]>`
    select r.flight_limit, r.watched, r.room from private.room_on_plan(${userId}) r
  `;
  return { flightLimit: row?.flight_limit ?? 0, watched: row?.watched ?? 0, room: row?.room ?? 0 };
}

/** The traveller's plan's flight limit and how many flights count against it, for messages. */
export async function flightAllowance(tx: Tx, userId: string): Promise<FlightAllowance> {
  const { flightLimit, watched } = await roomOnPlan(tx, userId);
  return { flightLimit, watched };
}

export async function hasBooking(tx: Tx, userId: string, bookingCode: string): Promise<boolean> {
  const rows = await tx`
    select 1 from public.flights where user_id = ${userId} and booking_code = ${bookingCode} limit 1
  `;
  return rows.length > 0;
}

/**
 * Adds a retrieved booking on the service connection (users may not write flights: migration
 * 20261122000500_flights_and_prices.sql), with the retrieval kept apart in private.flight_bookings,
 * in one transaction. Its status is the database's (private.flight_initial_status). The
 * flight-limit trigger and the unique key still apply.
 */
/**
 * A booking as kept with its flight: what a fare source retrieved, or what an email stated (which
 * may name neither a cabin nor a fare).
 */
export type KeptBooking = Omit<RetrievedBooking, 'cabinClass' | 'fareType'> & {
  cabinClass: string | null;
  fareType: string | null;
};

export async function insertFlight(
  tx: Tx,
  input: {
    userId: string;
    source: string;
    booking: KeptBooking;
    isEligibleForRebooking: boolean;
    notes: string | null;
    isManualEntry: boolean;
    /** Found in an email: where from (never the body). */
    emailSource?: Record<string, unknown> | null;
    /** Found in an email past the plan's limit: kept, not watched. */
    overLimit?: boolean;
    /** How many travel on the booking, when an email said (null: not known). */
    passengerCount?: number | null;
  },
): Promise<number> {
  const b = input.booking;
  const [row] = await tx<{ id: number }[]>`
    insert into public.flights (
      user_id, airline, flight_number, booking_code, passenger_last_name,
      departure_airport, arrival_airport, departure_date, return_date, is_round_trip,
      return_flight_number, currency, original_price, fare_type, is_eligible_for_rebooking, status,
      is_manual_entry, seat_number, cabin_class, notes, rebooking_method, source_reference,
      email_source, over_limit, passenger_count
    ) values (
      ${input.userId}, ${b.airline}, ${b.flightNumber}, ${b.bookingCode}, ${b.passengerLastName},
      ${b.departureAirport}, ${b.arrivalAirport}, ${b.departureDate}, ${b.returnDate}, ${b.isRoundTrip},
      ${b.returnFlightNumber}, ${b.currency}, ${b.pricePaid}, ${b.fareType}, ${input.isEligibleForRebooking},
      private.flight_initial_status(${input.isEligibleForRebooking}), ${input.isManualEntry}, ${b.seatNumber}, ${b.cabinClass}, ${input.notes},
      ${b.rebookingMethod}, ${b.sourceReference},
      ${input.emailSource ? tx.json(input.emailSource as never) : null}::jsonb, ${input.overLimit ?? false},
      ${input.passengerCount ?? null}
    )
    returning id
  `;
  if (!row) throw new Error('insert returned no row');
  const flightId = Number(row.id);
  await saveFlightBooking(tx, { flightId, userId: input.userId, source: input.source, booking: b });
  return flightId;
}

/** Keeps (or replaces) the retrieval a flight's rebookings will be based on. */
export async function saveFlightBooking(
  tx: Tx,
  r: { flightId: number; userId: string; source: string; booking: KeptBooking },
): Promise<void> {
  const b = r.booking;
  await tx`
    insert into private.flight_bookings (
      flight_id, user_id, source, source_reference, airline, booking_code, passenger_last_name,
      price_paid, currency, cabin_class, fare_type, fare_changeable, rebooking_method, booking
    ) values (
      ${r.flightId}, ${r.userId}, ${r.source}, ${b.sourceReference}, ${b.airline}, ${b.bookingCode},
      ${b.passengerLastName}, ${b.pricePaid}, ${b.currency}, ${b.cabinClass}, ${b.fareType},
      ${b.fareChangeable}, ${b.rebookingMethod}, ${tx.json(b as unknown as postgres.JSONValue)}
    )
    on conflict (flight_id) do update set
      source = excluded.source, source_reference = excluded.source_reference,
      airline = excluded.airline, booking_code = excluded.booking_code,
      passenger_last_name = excluded.passenger_last_name, price_paid = excluded.price_paid,
      currency = excluded.currency, cabin_class = excluded.cabin_class, fare_type = excluded.fare_type,
      fare_changeable = excluded.fare_changeable, rebooking_method = excluded.rebooking_method,
      booking = excluded.booking, retrieved_at = now()
  `;
}

/** The booking as the fare source returned it at retrieval (private.flight_bookings), if kept. */
export async function getFlightBooking(tx: Tx, userId: string, flightId: number): Promise<RetrievedBooking | null> {
  const [row] = await tx<{ booking: RetrievedBooking }[]>`
    select booking from private.flight_bookings where flight_id = ${flightId} and user_id = ${userId}
  `;
  return row?.booking ?? null;
}

/**
 * Removes one of the caller's flights as the user (the delete policy refuses a flight whose
 * rebooking is under way). Answers whether a row went.
 */
export async function deleteFlight(tx: Tx, userId: string, flightId: number): Promise<boolean> {
  const rows = await tx`delete from public.flights where id = ${flightId} and user_id = ${userId} returning id`;
  return rows.length > 0;
}

// ---- rebooking: service connection, owner named ----
//
// private.rebookings is the record of every attempt (migration 20261122000600_rebooking.sql): written with the
// claim, given the source's answer before anything else is recorded, and finished (recorded or
// released) here or by the reconciler (services/rebooking-reconciler.ts).

/** How long a claim may stay unanswered before the reconciler asks the source what happened. */
export const REBOOKING_CLAIM_MINUTES = 5;

/**
 * Moves a flight from price_drop to the 'rebooking' claim and opens its rebooking record, in one
 * transaction; null when another request holds it or it no longer qualifies. One conditional
 * UPDATE, so of two concurrent calls exactly one gets the row. A claim left by a crashed request
 * is not taken over here: the reconciler settles it after asking the source.
 */
export async function claimRebooking(
  tx: Tx,
  claim: {
    userId: string;
    flightId: number;
    method: RebookingMethod;
    request: unknown;
    /**
     * An automatic rebooking: automatic rebooking must still apply to the owner, the flight still
     * qualify and its airline rule allow FareBack to change it itself
     * (private.automatic_rebooking_allowed), decided in the same statement as the claim.
     */
    automatic?: boolean;
  },
): Promise<number | null> {
  const rows = await tx`
    update public.flights f
    set status = 'rebooking', rebooking_claimed_at = now()
    where f.id = ${claim.flightId} and f.user_id = ${claim.userId} and not f.has_been_rebooked
      and f.status = 'price_drop'
      ${
        claim.automatic
          ? tx`and exists (
                 select 1 from public.profiles p
                 join public.subscription_plans sp on sp.id = p.plan_id
                 where p.id = f.user_id and private.automatic_rebooking_allowed(f, p, sp))`
          : tx``
      }
    returning f.id
  `;
  if (rows.length === 0) return null;
  const [attempt] = await tx<{ id: number }[]>`
    insert into private.rebookings (flight_id, user_id, method, request)
    values (${claim.flightId}, ${claim.userId}, ${claim.method},
            ${claim.request === null ? null : tx.json(claim.request as postgres.JSONValue)})
    returning id
  `;
  if (!attempt) throw new Error('rebooking insert returned no row');
  return Number(attempt.id);
}

/** Keeps the source's answer on the record before the credit is recorded anywhere else. */
export async function confirmRebooking(tx: Tx, rebookingId: number, result: RebookResult): Promise<void> {
  await tx`
    update private.rebookings
    set state = 'confirmed', result = ${tx.json(result as unknown as postgres.JSONValue)}, confirmed_at = now()
    where id = ${rebookingId} and state = 'claimed'
  `;
}

/**
 * Gives a claim back: nothing changed at the source. The flight shows a price drop again or, when
 * the lower fare is gone, the status of a flight without a drop (private.flight_initial_status),
 * unless it is gone or no longer held by this claim; the record is closed as released.
 */
export async function releaseRebooking(
  tx: Tx,
  r: { rebookingId: number; userId: string; flightId: number; dropGone: boolean; error: string },
): Promise<void> {
  await tx`
    update public.flights
    set status = case when ${r.dropGone} then private.flight_initial_status(is_eligible_for_rebooking)
                      else 'price_drop' end,
        rebooking_claimed_at = null
    where id = ${r.flightId} and user_id = ${r.userId} and status = 'rebooking'
  `;
  await tx`
    update private.rebookings
    set state = 'released', error = ${r.error}, finished_at = now()
    where id = ${r.rebookingId} and state = 'claimed'
  `;
}

export interface RebookingRecord {
  rebookingId: number;
  userId: string;
  flightId: number;
  newPrice: number;
  airlineCredit: number;
  creditReference: string | null;
  creditExpiryDate: string;
  seatNumber: string | null;
  rebookedAt: Date;
  /** A guided rebooking's declared credit that an admin should review, and why (else null). */
  creditReview?: string | null;
}

/**
 * Records a completed rebooking: the ledger's one writer, private.record_rebooking (credits,
 * commission and its billing row, the flight, the record, the notification, in this
 * transaction). Answers the commission charged, or null when the record is not open (already
 * recorded or released).
 */
export async function recordRebooking(tx: Tx, r: RebookingRecord): Promise<{ commission: number } | null> {
  const [row] = await tx<{ commission: number | null }[]>`
    select private.record_rebooking(
      ${r.rebookingId}, ${r.userId}, ${r.flightId}, ${r.newPrice}, ${r.airlineCredit},
      ${r.creditReference}, ${r.creditExpiryDate}, ${r.seatNumber}, ${r.rebookedAt}, ${r.creditReview ?? null}
    ) as commission
  `;
  return row?.commission === null || row?.commission === undefined ? null : { commission: row.commission };
}

export interface OpenRebooking {
  id: number;
  flightId: number;
  userId: string;
  state: 'claimed' | 'confirmed';
  request: RebookRequest | null;
  result: RebookResult | null;
}

/**
 * Open rebookings the reconciler should settle: every confirmed one (its recording failed), and
 * claims unanswered for longer than REBOOKING_CLAIM_MINUTES (the request died, or the source's
 * answer was lost). Not locked: no transaction is held across the source call that settles a
 * claim, and recordRebooking / releaseRebooking only act on a record still open, so two
 * reconcilers (or a reconciler and a late request) settle each record once.
 */
export async function listOpenRebookings(tx: Tx, limit: number): Promise<OpenRebooking[]> {
  const rows = await tx<
    {
      id: number;
      flight_id: number;
      user_id: string;
      state: 'claimed' | 'confirmed';
      request: RebookRequest | null;
      result: RebookResult | null;
    }[]
  >`
    select r.id, r.flight_id, r.user_id, r.state, r.request, r.result
    from private.rebookings r
    where (r.state = 'confirmed' and r.confirmed_at < now() - interval '30 seconds')
       or (r.state = 'claimed' and r.claimed_at < now() - make_interval(mins => ${REBOOKING_CLAIM_MINUTES}))
    order by r.id
    limit ${limit}
  `;
  return rows.map((row) => ({
    id: Number(row.id),
    flightId: Number(row.flight_id),
    userId: row.user_id,
    state: row.state,
    request: row.request,
    result: row.result,
  }));
}

/** Counts a reconciler pass over a record that could not be settled yet (the source is down). */
export async function noteRebookingAttempt(tx: Tx, rebookingId: number, error: string): Promise<void> {
  await tx`update private.rebookings set attempts = attempts + 1, error = ${error} where id = ${rebookingId}`;
}

/**
 * The fare source reported these flights cancelled by the airline: each one a check may still
 * touch (private.flight_is_checkable) becomes 'cancelled' and its owner is told once
 * (flight_cancelled through the outbox, which applies notifyCancellations). Answers the ids changed.
 */
export async function cancelFlights(tx: Tx, flights: { flightId: number; userId: string }[]): Promise<number[]> {
  if (flights.length === 0) return [];
  const rows = await tx<{ id: string }[]>`
    with cancelled as (
      update public.flights f set status = 'cancelled'
        from unnest(${flights.map((f) => f.flightId)}::bigint[], ${flights.map((f) => f.userId)}::uuid[])
             as c(flight_id, user_id)
       where f.id = c.flight_id and f.user_id = c.user_id and private.flight_is_checkable(f)
      returning f.id, f.user_id, f.airline, f.flight_number, f.departure_airport, f.arrival_airport
    )
    select c.id,
           private.queue_notification(
             c.user_id, 'flight_cancelled',
             jsonb_build_object('airline', c.airline, 'flightNumber', c.flight_number,
                                'departureAirport', c.departure_airport, 'arrivalAirport', c.arrival_airport),
             c.id, 'flight_cancelled:' || c.id) as notification_id
      from cancelled c
  `;
  return rows.map((r) => Number(r.id));
}
