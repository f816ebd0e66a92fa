// Bookings held for the traveller to confirm: read from their connected mailbox, from a sender
// that is not a known airline or agency (importer.ts holds them). They are not flights: not
// watched, not counted against the plan. Confirming makes the flight, under the plan's limit as an
// import does (watched, or kept as found when the plan is full); dismissing deletes it. Each call
// names the traveller, so another traveller's held booking is answered 404 like a missing one.
import type {
  ConfirmHeldBookingResponse,
  DismissHeldBookingResponse,
  HeldBooking,
  HeldBookingsResponse,
} from '../../../_shared/types/email.ts';
import type { AppDeps } from '../../context.ts';
import type { AuthClaims } from '../../db.ts';
import { HttpError } from '../../errors.ts';
import { flightIdByCode, type HeldRow, listHeld, takeHeld } from '../../queries/email.ts';
import { createEmailFlight, tripIsOver } from './importer.ts';
import type { EmailFlightFields } from './plan.ts';

export const HELD_MESSAGES = {
  notFound: 'No held booking with this id.',
  confirmed: 'Booking confirmed. FareBack is watching this flight.',
  confirmedNotWatched:
    "Booking confirmed and added to your flights, but not watched: your plan's limit is reached. Upgrade to Premium or remove a flight to watch it.",
  departed: 'This trip is already over, so there is nothing to watch. The booking was removed.',
  dismissed: 'Booking dismissed.',
  alreadyAFlight: 'This booking is already one of your flights.',
} as const;

/** A path id: a positive integer, else no booking has it. */
export function heldId(param: string): number {
  if (!/^[1-9]\d{0,15}$/.test(param)) throw new HttpError(404, HELD_MESSAGES.notFound);
  return Number(param);
}

function view(row: HeldRow): HeldBooking {
  const f = row.fields as unknown as EmailFlightFields;
  return {
    id: row.id,
    airline: f.airline,
    bookingCode: f.bookingCode,
    flightNumber: f.flightNumber,
    departureAirport: f.departureAirport,
    arrivalAirport: f.arrivalAirport,
    departureDate: f.departureDate,
    returnDate: f.returnDate,
    from: row.emailSource.from,
    subject: row.emailSource.subject,
    heldAt: new Date(row.heldAt).toISOString(),
  };
}

export async function heldBookings(deps: AppDeps, claims: AuthClaims): Promise<HeldBookingsResponse> {
  const rows = await deps.db.asService((tx) => listHeld(tx, claims.sub));
  return { held: rows.map(view) };
}

export async function confirmHeld(deps: AppDeps, claims: AuthClaims, id: number): Promise<ConfirmHeldBookingResponse> {
  const done = await deps.db.asService(async (tx) => {
    const row = await takeHeld(tx, claims.sub, id);
    if (!row) return 'missing' as const;
    const fields = row.fields as unknown as EmailFlightFields;
    // nothing to watch, or already a flight (a known sender's email made it meanwhile): the held
    // copy just goes
    if (tripIsOver(fields)) return 'departed' as const;
    const existing = await flightIdByCode(tx, claims.sub, fields.bookingCode);
    if (existing !== null) return { message: HELD_MESSAGES.alreadyAFlight, flightId: existing, watched: true };
    // the traveller vouches for it: later changes and cancellations come from the same sender
    const { flightId, overLimit } = await createEmailFlight(tx, claims.sub, fields, row.emailSource);
    return {
      message: overLimit ? HELD_MESSAGES.confirmedNotWatched : HELD_MESSAGES.confirmed,
      flightId,
      watched: !overLimit,
    };
  });
  if (done === 'missing') throw new HttpError(404, HELD_MESSAGES.notFound);
  if (done === 'departed') throw new HttpError(409, HELD_MESSAGES.departed);
  return done;
}

export async function dismissHeld(deps: AppDeps, claims: AuthClaims, id: number): Promise<DismissHeldBookingResponse> {
  const row = await deps.db.asService((tx) => takeHeld(tx, claims.sub, id));
  if (!row) throw new HttpError(404, HELD_MESSAGES.notFound);
  return { message: HELD_MESSAGES.dismissed };
}
