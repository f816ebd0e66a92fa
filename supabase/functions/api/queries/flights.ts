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
import { commissionOn, type FlightStatus } from '../../_shared/flights/rules.ts';
import type { DashboardStats, Flight } from '../../_shared/types/flights.ts';
import type { Tx } from '../db.ts';
import { queueNotification } from './notifications.ts';

type Row = Record<string, unknown>;

/**
 * How many price checks a flight carries in its history (the card's chart); also in
 * private.refresh_recent_prices (migration 20261122001500).
 */
export const PRICE_HISTORY_POINTS = 30;

/** A timestamptz as toISOString() writes it, so SQL-built and TS-built JSON read the same. */
export const ISO_UTC = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/**
 * The caller's flights with their recent price history, soonest departure first, as the JSON
 * text of a Flight[] built by Postgres. The list is the dashboard's hottest read: building the
 * JSON in SQL spares the function parsing ~40 columns per flight into objects only to serialise
 * them again, and the history comes from the row's own recent_prices (migration
 * 20261122001500_flight_recent_prices.sql) rather than a sorted scan of flight_prices per flight.
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
      'isEligibleForRebooking', f.is_eligible_for_rebooking,
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
      'notes', f.notes,
      'createdAt', to_char(f.created_at at time zone 'UTC', ${iso}),
      'priceHistory', f.recent_prices,
      'changePenalty', f.change_penalty,
      'refundForm', f.refund_form,
      'rebookingVerdict', private.rebooking_verdict(f, p)
    ) order by f.departure_date, f.id), '[]'::json)::text as flights
    from public.flights f
    join public.profiles p on p.id = f.user_id
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
 * plan's limit counts), price drops on them, what the drops would save, and what rebookings saved
 * (the airline credit, else original minus new price).
 */
export async function dashboardStats(tx: Tx, userId: string): Promise<DashboardStats> {
  const [row] = await tx<Row[]>`
    select
      count(*) filter (where watched)::int as monitored_flights,
      count(*) filter (where watched and status = 'price_drop')::int as price_drops_found,
      coalesce(sum(original_price - current_price)
        filter (where watched and current_price < original_price), 0)::bigint as potential_savings,
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
  flightLimit: number;
  watched: number;
}

/** The caller's plan's flight limit and how many flights count against it (the limit trigger's rule). */
export async function flightAllowance(tx: Tx, userId: string): Promise<FlightAllowance> {
  const [row] = await tx<Row[]>`
    select sp.flight_limit,
      (select count(*) from public.flights f
        where f.user_id = p.id and private.flight_is_watched(f))::int as watched
    from public.profiles p
    join public.subscription_plans sp on sp.id = p.plan_id
    where p.id = ${userId}
  `;
  return { flightLimit: Number(row?.flight_limit ?? 0), watched: Number(row?.watched ?? 0) };
}

export async function hasBooking(tx: Tx, userId: string, bookingCode: string): Promise<boolean> {
  const rows = await tx`
    select 1 from public.flights where user_id = ${userId} and booking_code = ${bookingCode} limit 1
  `;
  return rows.length > 0;
}

/**
 * Adds a retrieved booking on the service connection (users may not write flights: migration
 * 20261123000200_flight_bookings.sql), with the retrieval kept apart in private.flight_bookings,
 * in one transaction. The flight-limit trigger and the unique key still apply.
 */
export async function insertFlight(
  tx: Tx,
  input: {
    userId: string;
    source: string;
    booking: RetrievedBooking;
    isEligibleForRebooking: boolean;
    status: FlightStatus;
    notes: string | null;
    isManualEntry: boolean;
    /** Found in an email: where from (never the body). */
    emailSource?: Record<string, unknown> | null;
    /** Found in an email past the plan's limit: kept, not watched. */
    overLimit?: boolean;
  },
): Promise<number> {
  const b = input.booking;
  const [row] = await tx<{ id: number }[]>`
    insert into public.flights (
      user_id, airline, flight_number, booking_code, passenger_last_name,
      departure_airport, arrival_airport, departure_date, return_date, is_round_trip,
      return_flight_number, currency, original_price, fare_type, is_eligible_for_rebooking, status,
      is_manual_entry, seat_number, cabin_class, notes, rebooking_method, source_reference,
      email_source, over_limit
    ) values (
      ${input.userId}, ${b.airline}, ${b.flightNumber}, ${b.bookingCode}, ${b.passengerLastName},
      ${b.departureAirport}, ${b.arrivalAirport}, ${b.departureDate}, ${b.returnDate}, ${b.isRoundTrip},
      ${b.returnFlightNumber}, ${b.currency}, ${b.pricePaid}, ${b.fareType}, ${input.isEligibleForRebooking},
      ${input.status}, ${input.isManualEntry}, ${b.seatNumber}, ${b.cabinClass}, ${input.notes},
      ${b.rebookingMethod}, ${b.sourceReference},
      ${input.emailSource ? tx.json(input.emailSource as never) : null}::jsonb, ${input.overLimit ?? false}
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
  r: { flightId: number; userId: string; source: string; booking: RetrievedBooking },
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
// private.rebookings is the record of every attempt (migration 20261123000200): written with the
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
     * An automatic rebooking: the flight must also still qualify (private.rebooking_qualifies, the
     * verdict's rule) for a premium owner with auto-rebooking on, decided in the same statement as
     * the claim.
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
                 where p.id = f.user_id and sp.tier = 'premium' and p.auto_rebooking
                   and private.rebooking_qualifies(f, p))`
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
 * Gives a claim back: nothing changed at the source. The flight shows `status` again (unless it is
 * gone or no longer held by this claim) and the record is closed as released.
 */
export async function releaseRebooking(
  tx: Tx,
  r: { rebookingId: number; userId: string; flightId: number; status: FlightStatus; error: string },
): Promise<void> {
  await tx`
    update public.flights set status = ${r.status}, rebooking_claimed_at = null
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
 * Records a completed rebooking in one transaction: the owner's credits, for plans with a
 * commission rate the commission owed plus a pending commission billing transaction, the flight
 * (when it still exists), and the rebooking record as recorded. Answers the commission charged, or
 * null when the record is not open (already recorded or released). The credit is the traveller's
 * whatever happened to the card since the claim: the airline change was made.
 */
export async function recordRebooking(tx: Tx, r: RebookingRecord): Promise<{ commission: number } | null> {
  const [open] = await tx<{ id: number }[]>`
    select id from private.rebookings
    where id = ${r.rebookingId} and user_id = ${r.userId} and state in ('claimed', 'confirmed')
    for update
  `;
  if (!open) return null;
  // The owner's row first: a traveller's credit and commission move one rebooking at a time. The
  // rate is the one of the plan the traveller is on (by id: a renamed or retired plan keeps it),
  // and it is kept on the flight with the commission: a later change of the plan's rate changes
  // neither (migration 20261128200100).
  const [plan] = await tx<{ commission_rate: number | null }[]>`
    select coalesce(sp.commission_rate, 0) as commission_rate
    from public.profiles p
    join public.subscription_plans sp on sp.id = p.plan_id
    where p.id = ${r.userId}
    for update of p
  `;
  if (!plan) return null;
  const rate = Number(plan.commission_rate ?? 0);
  const commission = commissionOn(r.airlineCredit, rate);

  const [flight] = await tx<
    { airline: string; flight_number: string; departure_airport: string; arrival_airport: string }[]
  >`
    update public.flights set
      has_been_rebooked = true,
      status = 'rebooked',
      rebooking_claimed_at = null,
      rebooking_date = ${r.rebookedAt},
      rebooking_price = ${r.newPrice},
      current_price = ${r.newPrice},
      lowest_price = least(coalesce(lowest_price, ${r.newPrice}), ${r.newPrice}),
      airline_credit = ${r.airlineCredit},
      credit_reference_number = ${r.creditReference},
      credit_expiry_date = ${r.creditExpiryDate},
      seat_number = coalesce(${r.seatNumber}, seat_number),
      commission_amount = ${commission},
      commission_rate = ${rate},
      credit_review = ${r.creditReview ?? null}
    where id = ${r.flightId} and user_id = ${r.userId} and not has_been_rebooked
    returning airline, flight_number, departure_airport, arrival_airport
  `;

  await tx`
    update public.profiles set
      total_credits_earned = total_credits_earned + ${r.airlineCredit},
      commission_owed = commission_owed + ${commission}
    where id = ${r.userId}
  `;
  if (commission > 0) {
    const what = flight ? `the ${flight.airline} ${flight.flight_number} rebooking` : `rebooking #${r.rebookingId}`;
    await tx`
      insert into public.billing_transactions
        (user_id, amount, status, type, description, transaction_date, credits_earned_in_period)
      values (
        ${r.userId}, ${commission}, 'pending', 'commission',
        ${`${rate}% commission on ${what}`},
        ${r.rebookedAt}, ${r.airlineCredit}
      )
    `;
  }
  await tx`
    update private.rebookings set
      state = 'recorded', commission = ${commission}, finished_at = now(),
      result = coalesce(result, ${tx.json({
        newPrice: r.newPrice,
        airlineCredit: r.airlineCredit,
        creditReference: r.creditReference,
        creditExpiryDate: r.creditExpiryDate,
        seatNumber: r.seatNumber,
        rebookedAt: r.rebookedAt.toISOString(),
      })})
    where id = ${r.rebookingId}
  `;
  if (flight) {
    // The traveller hears of it through the outbox (owner: notifications), once per rebooking.
    await queueNotification(tx, {
      userId: r.userId,
      type: 'rebooking',
      data: {
        airline: flight.airline,
        flightNumber: flight.flight_number,
        departureAirport: flight.departure_airport,
        arrivalAirport: flight.arrival_airport,
        newPrice: r.newPrice,
        credit: r.airlineCredit,
        reference: r.creditReference,
        creditExpiresAt: r.creditExpiryDate,
      },
      flightId: r.flightId,
      dedupeKey: `rebooking:${r.rebookingId}`,
    });
  }
  return { commission };
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
