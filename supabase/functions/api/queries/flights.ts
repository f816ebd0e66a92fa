// public.flights as the traveller sees them. User queries run in the user's transaction (row-level
// security applies) and still name the owner, because admins may read every flight and the
// traveller endpoints must only ever touch the caller's own. System writes (prices, rebooking,
// credits) run on the service connection and also name the owner in their WHERE clauses.
import type { RetrievedBooking } from '../../_shared/fare-source/types.ts';
import { commissionOn, type FlightStatus } from '../../_shared/flights/rules.ts';
import type { DashboardStats, Flight } from '../../_shared/types/flights.ts';
import type { Tx } from '../db.ts';

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
      'status', f.status,
      'rebookingMethod', f.rebooking_method,
      'sourceReference', f.source_reference,
      'emailSource', f.email_source,
      'isManualEntry', f.is_manual_entry,
      'canCancel', f.can_cancel,
      'cancellationFee', f.cancellation_fee,
      'seatNumber', f.seat_number,
      'cabinClass', f.cabin_class,
      'notes', f.notes,
      'createdAt', to_char(f.created_at at time zone 'UTC', ${iso}),
      'priceHistory', f.recent_prices
    ) order by f.departure_date, f.id), '[]'::json)::text as flights
    from public.flights f
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
 * Spec section 3 dashboard stats, in cents: flights still watched, price drops on them, what the
 * drops would save, and what rebookings saved (the airline credit, else original minus new price).
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
      select f.*, (not f.has_been_rebooked and f.status not in ('rebooked', 'departed', 'cancelled')) as watched
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

/** The caller's plan limit and how many flights count against it (as the database trigger counts). */
export async function flightAllowance(tx: Tx, userId: string): Promise<FlightAllowance> {
  const [row] = await tx<Row[]>`
    select p.flight_limit,
      (select count(*) from public.flights f
        where f.user_id = p.id and not f.has_been_rebooked
          and f.status not in ('departed', 'cancelled', 'rebooked'))::int as watched
    from public.profiles p where p.id = ${userId}
  `;
  return { flightLimit: Number(row?.flight_limit ?? 0), watched: Number(row?.watched ?? 0) };
}

export async function hasBooking(tx: Tx, userId: string, bookingCode: string): Promise<boolean> {
  const rows = await tx`
    select 1 from public.flights where user_id = ${userId} and booking_code = ${bookingCode} limit 1
  `;
  return rows.length > 0;
}

/** Adds a retrieved booking as the user (row-level security and the flight-limit trigger apply). */
export async function insertFlight(
  tx: Tx,
  input: {
    userId: string;
    booking: RetrievedBooking;
    isEligibleForRebooking: boolean;
    status: FlightStatus;
    notes: string | null;
    isManualEntry: boolean;
  },
): Promise<number> {
  const b = input.booking;
  const [row] = await tx<{ id: number }[]>`
    insert into public.flights (
      user_id, airline, flight_number, booking_code, passenger_last_name,
      departure_airport, arrival_airport, departure_date, return_date, is_round_trip,
      return_flight_number, currency, original_price, fare_type, is_eligible_for_rebooking,
      is_manual_entry, seat_number, cabin_class, notes, rebooking_method, source_reference
    ) values (
      ${input.userId}, ${b.airline}, ${b.flightNumber}, ${b.bookingCode}, ${b.passengerLastName},
      ${b.departureAirport}, ${b.arrivalAirport}, ${b.departureDate}, ${b.returnDate}, ${b.isRoundTrip},
      ${b.returnFlightNumber}, ${b.currency}, ${b.pricePaid}, ${b.fareType}, ${input.isEligibleForRebooking},
      ${input.isManualEntry}, ${b.seatNumber}, ${b.cabinClass}, ${input.notes}, ${b.rebookingMethod},
      ${b.sourceReference}
    )
    returning id
  `;
  if (!row) throw new Error('insert returned no row');
  return Number(row.id);
}

// ---- rebooking: service connection, owner named ----

/** How long a 'rebooking' claim holds before another request may take it over (a crashed request). */
export const REBOOKING_CLAIM_MINUTES = 5;

/**
 * Moves a flight from price_drop to the short 'rebooking' claim; false when another request holds
 * it or it no longer qualifies. One conditional UPDATE, so of two concurrent calls exactly one
 * gets the row.
 */
export async function claimRebooking(
  tx: Tx,
  userId: string,
  flightId: number,
  fromStatuses: readonly FlightStatus[],
): Promise<boolean> {
  const rows = await tx`
    update public.flights
    set status = 'rebooking', rebooking_claimed_at = now()
    where id = ${flightId} and user_id = ${userId} and not has_been_rebooked
      and (status = any(${fromStatuses as FlightStatus[]}::text[])
           or (status = 'rebooking'
               and rebooking_claimed_at < now() - make_interval(mins => ${REBOOKING_CLAIM_MINUTES})))
    returning id
  `;
  return rows.length > 0;
}

/** Gives a claim back after the rebooking failed, with the status the flight should now show. */
export async function releaseRebooking(tx: Tx, userId: string, flightId: number, status: FlightStatus): Promise<void> {
  await tx`
    update public.flights set status = ${status}, rebooking_claimed_at = null
    where id = ${flightId} and user_id = ${userId} and status = 'rebooking'
  `;
}

export interface RebookingRecord {
  userId: string;
  flightId: number;
  newPrice: number;
  airlineCredit: number;
  creditReference: string | null;
  creditExpiryDate: string;
  seatNumber: string | null;
  rebookedAt: Date;
}

/**
 * Records a completed rebooking in one transaction: the flight, the owner's credits, and for plans
 * with a commission rate the commission owed plus a pending commission billing transaction.
 * Answers the commission charged. The flight must hold the claim (status 'rebooking').
 */
export async function recordRebooking(tx: Tx, r: RebookingRecord): Promise<{ commission: number } | null> {
  const [plan] = await tx<{ commission_rate: number | null; flight_number: string; airline: string }[]>`
    select coalesce(sp.commission_rate, 0) as commission_rate, f.flight_number, f.airline
    from public.flights f
    join public.profiles p on p.id = f.user_id
    left join lateral (
      select commission_rate from public.subscription_plans
      where lower(name) = lower(p.subscription_tier) and is_active
      order by id limit 1
    ) sp on true
    where f.id = ${r.flightId} and f.user_id = ${r.userId}
  `;
  if (!plan) return null;
  const rate = Number(plan.commission_rate ?? 0);
  const commission = commissionOn(r.airlineCredit, rate);

  const updated = await tx`
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
      commission_amount = ${commission}
    where id = ${r.flightId} and user_id = ${r.userId} and status = 'rebooking' and not has_been_rebooked
    returning id
  `;
  if (updated.length === 0) return null;

  await tx`
    update public.profiles set
      total_credits_earned = total_credits_earned + ${r.airlineCredit},
      commission_owed = commission_owed + ${commission}
    where id = ${r.userId}
  `;
  if (commission > 0) {
    await tx`
      insert into public.billing_transactions
        (user_id, amount, status, type, description, transaction_date, credits_earned_in_period)
      values (
        ${r.userId}, ${commission}, 'pending', 'commission',
        ${`${rate}% commission on the ${plan.airline} ${plan.flight_number} rebooking`},
        ${r.rebookedAt}, ${r.airlineCredit}
      )
    `;
  }
  return { commission };
}
