// Importing one email: extract its bookings, then, in one transaction on the service connection,
// claim the message (each is read once per traveller and source), create, change or cancel the
// traveller's flights (plan.ts decides which), and record what was taken from it. A flight is
// inserted the way a manual add inserts one (queries/flights.ts insertFlight: the flight and its
// kept booking in private.flight_bookings), from what the email says: FareBack did not retrieve
// it at a fare source, so it is watched and priced by its itinerary, and changed with the airline
// by the traveller ('assisted'). Past the plan's limit it is kept as found, not watched.
import { extractFlightBookings, type FlightBooking, MAX_RAW_EMAIL_BYTES } from '../../../_shared/extraction/index.ts';
import { parseEmail } from '../../../_shared/extraction/mime.ts';
import { initialStatus, isEligibleFareType } from '../../../_shared/flights/rules.ts';
import type { FlightEmailSource, ImportedEmailVia, ImportOutcome, TakenBooking } from '../../../_shared/types/email.ts';
import type { RetrievedBooking } from '../../../_shared/fare-source/types.ts';
import type { Db } from '../../db.ts';
import {
  cancelFlightFromEmail,
  claimImport,
  finishImport,
  updateFlightFromEmail,
  userFlights,
} from '../../queries/email.ts';
import { flightAllowance, insertFlight } from '../../queries/flights.ts';
import { type EmailFlightFields, planEmail, takenBooking } from './plan.ts';

export interface ImportCounts {
  found: number;
  updated: number;
  cancelled: number;
  notWatched: number;
}

export interface ImportResult {
  outcome: ImportOutcome;
  flightIds: number[];
  counts: ImportCounts;
}

export interface ReadEmail {
  from: string;
  subject: string;
  date: Date | null;
  /** Text and HTML, for a cancellation's booking codes (never stored). */
  text: string;
  bookings: FlightBooking[];
  /** Why reading gave up (too large, over the time budget: extraction/budget.ts); nothing is imported. */
  gaveUp?: string;
}

/** Reads one raw message: its headers and the bookings it confirms. */
export async function readEmail(raw: Uint8Array | string): Promise<ReadEmail> {
  // over the extractor's byte cap the message is not decoded here either
  const decodable = (typeof raw === 'string' ? raw.length : raw.byteLength) <= MAX_RAW_EMAIL_BYTES;
  const [parsed, extracted] = await Promise.all([
    decodable ? parseEmail(raw).catch(() => null) : null,
    extractFlightBookings(raw),
  ]);
  return {
    from: parsed ? (parsed.fromName ? `${parsed.fromName} <${parsed.fromAddress}>` : parsed.fromAddress) : '',
    subject: parsed?.subject ?? '',
    date: parsed?.date ?? null,
    text: parsed ? `${parsed.text}\n${parsed.html}` : '',
    bookings: extracted.bookings,
    ...(extracted.gaveUp ? { gaveUp: extracted.gaveUp } : {}),
  };
}

const CABIN_FARE: Record<string, string> = {
  Business: 'Business Class',
  First: 'First Class',
  'Premium Economy': 'Premium Economy',
};

function bookingOf(fields: EmailFlightFields): RetrievedBooking {
  return {
    ...fields,
    fareType: fields.fareType ?? CABIN_FARE[fields.cabinClass] ?? fields.cabinClass,
    fareChangeable: false,
    rebookingMethod: 'assisted',
    sourceReference: null,
  };
}

const today = () => new Date().toISOString().slice(0, 10);

/**
 * Imports one email for a user. Null when the message was read before (nothing changes).
 */
export async function importEmail(
  db: Db,
  input: { userId: string; via: ImportedEmailVia; messageId: string; email: ReadEmail },
): Promise<ImportResult | null> {
  const { userId, via, messageId, email } = input;
  const source: FlightEmailSource = {
    via,
    messageId,
    from: email.from,
    subject: email.subject,
    date: email.date ? email.date.toISOString() : null,
  };
  return await db.asService(async (tx) => {
    const importId = await claimImport(tx, {
      userId,
      via,
      messageId,
      sender: email.from,
      subject: email.subject,
      date: email.date,
    });
    if (importId === null) return null;
    if (email.gaveUp) {
      await finishImport(tx, importId, 'not_read', [], email.gaveUp);
      return { outcome: 'not_read', flightIds: [], counts: { found: 0, updated: 0, cancelled: 0, notWatched: 0 } };
    }

    const known = (await userFlights(tx, userId)).map((f) => ({
      id: Number(f.id),
      bookingCode: f.booking_code,
      flightNumber: f.flight_number,
      departureAirport: f.departure_airport,
      arrivalAirport: f.arrival_airport,
      departureDate: f.departure_date,
      returnFlightNumber: f.return_flight_number,
      returnDate: f.return_date,
      status: f.status,
      hasBeenRebooked: f.has_been_rebooked,
      sourceDate: f.source_date,
    }));
    const actions = planEmail(email, known);
    const counts: ImportCounts = { found: 0, updated: 0, cancelled: 0, notWatched: 0 };
    const taken: TakenBooking[] = [];
    const flightIds: number[] = [];
    let departed = 0;
    let unchanged = 0;

    for (const action of actions) {
      if (action.kind === 'create') {
        const lastDay = action.fields.returnDate ?? action.fields.departureDate;
        if (lastDay < today()) {
          departed += 1;
          taken.push(takenBooking(action.booking, 'booking', null));
          continue;
        }
        const { flightLimit, watched } = await flightAllowance(tx, userId);
        const overLimit = action.fields.departureDate >= today() && flightLimit !== -1 && watched >= flightLimit;
        const booking = bookingOf(action.fields);
        const eligible = isEligibleFareType(booking.fareType, false);
        const flightId = await insertFlight(tx, {
          userId,
          source: 'email',
          booking,
          isEligibleForRebooking: eligible,
          status: initialStatus(eligible),
          notes: null,
          isManualEntry: false,
          emailSource: { ...source },
          overLimit,
        });
        counts.found += 1;
        if (overLimit) counts.notWatched += 1;
        flightIds.push(flightId);
        taken.push(takenBooking(action.booking, 'booking', flightId));
      } else if (action.kind === 'update') {
        await updateFlightFromEmail(tx, action.flightId, action.fields, source);
        counts.updated += 1;
        flightIds.push(action.flightId);
        taken.push(takenBooking(action.booking, 'change', action.flightId));
      } else if (action.kind === 'cancel') {
        await cancelFlightFromEmail(tx, action.flightId, source);
        counts.cancelled += 1;
        flightIds.push(action.flightId);
        if (action.booking) taken.push(takenBooking(action.booking, 'cancellation', action.flightId));
        else {
          taken.push({
            airline: '',
            bookingCode: action.bookingCode,
            passengerLastName: '',
            segments: [],
            totalPrice: null,
            currency: null,
            fareType: null,
            kind: 'cancellation',
            flightId: action.flightId,
          });
        }
      } else {
        unchanged += 1;
        taken.push(takenBooking(action.booking, 'booking', action.flightId));
      }
    }

    const outcome: ImportOutcome =
      counts.cancelled > 0
        ? 'cancelled'
        : counts.found > counts.notWatched
          ? 'created'
          : counts.notWatched > 0
            ? 'not_watched'
            : counts.updated > 0
              ? 'updated'
              : unchanged > 0
                ? 'unchanged'
                : departed > 0
                  ? 'departed'
                  : 'not_a_booking';
    await finishImport(tx, importId, outcome, taken);
    return { outcome, flightIds, counts };
  });
}
