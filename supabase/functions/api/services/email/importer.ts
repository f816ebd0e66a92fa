// Importing one email: extract its bookings, then, in one transaction on the service connection,
// claim the message (each is read once per traveller and source), create, change or cancel the
// traveller's flights (plan.ts decides which), and record what was taken from it. A flight is
// inserted the way a manual add inserts one (queries/flights.ts insertFlight: the flight and its
// kept booking in private.flight_bookings), from what the email says: FareBack did not retrieve
// it at a fare source, so it is watched and priced by its itinerary, and changed with the airline
// by the traveller ('assisted'). Past the plan's limit it is kept as found, not watched.
// Who sent it decides what it may do (plan.ts, sender-trust.ts): a booking from a sender that is
// not a known airline or agency is held for the traveller to confirm (held.ts), and a change or
// cancellation applies only from the domain that sent the booking.
import { type FlightBooking, readFlightBookings, type SkippedAttachment } from '../../../_shared/extraction/index.ts';
import { isEligibleFareType } from '../../../_shared/flights/rules.ts';
import {
  type FlightEmailSource,
  HELD_BOOKINGS_MAX,
  type ImportedEmailVia,
  type ImportOutcome,
  type TakenBooking,
} from '../../../_shared/types/email.ts';
import type { Db, Tx } from '../../db.ts';
import {
  cancelFlightFromEmail,
  claimImport,
  finishImport,
  holdBooking,
  releaseHeldCode,
  updateFlightFromEmail,
  userFlights,
} from '../../queries/email.ts';
import { insertFlight, type KeptBooking, roomOnPlan } from '../../queries/flights.ts';
import { type EmailFlightFields, planEmail, takenBooking } from './plan.ts';
import { isKnownBookingSender, type SenderVerdict, senderVerdict } from './sender-trust.ts';

export interface ImportCounts {
  found: number;
  updated: number;
  cancelled: number;
  notWatched: number;
  held: number;
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
  /** The From domain and whether its authentication holds. */
  sender: SenderVerdict;
  /** Why reading gave up (too large, over the time budget: extraction/budget.ts); nothing is imported. */
  gaveUp?: string;
  /** Attachments (PDF e-tickets, Wallet passes) not read, and why (extraction/budget.ts); the rest is imported. */
  skippedAttachments?: SkippedAttachment[];
}

const withoutNul = (value: string): string => value.replaceAll('\0', '');

/** Reads one raw message: its headers and the bookings it confirms. */
export async function readEmail(raw: Uint8Array | string): Promise<ReadEmail> {
  // decoded once, for its headers and its bookings (not at all over the extractor's byte cap)
  const { email: parsed, result: extracted } = await readFlightBookings(raw);
  // the header block only (bounded): latin1 keeps every byte of it
  const head =
    typeof raw === 'string' ? raw.slice(0, 256 * 1024) : new TextDecoder('latin1').decode(raw.subarray(0, 256 * 1024));
  return {
    sender: senderVerdict(head, parsed?.fromAddress ?? ''),
    // stored as text (email_imports), which cannot hold a NUL: a forwarded message may carry one
    from: withoutNul(
      parsed ? (parsed.fromName ? `${parsed.fromName} <${parsed.fromAddress}>` : parsed.fromAddress) : '',
    ),
    subject: withoutNul(parsed?.subject ?? ''),
    date: parsed?.date ?? null,
    text: parsed ? `${parsed.text}\n${parsed.html}` : '',
    bookings: extracted.bookings,
    ...(extracted.gaveUp ? { gaveUp: extracted.gaveUp } : {}),
    ...(extracted.skippedAttachments ? { skippedAttachments: extracted.skippedAttachments } : {}),
  };
}

/** The longest reason the import log keeps (email_imports.outcome_reason). */
const MAX_REASON_CHARS = 300;

/**
 * The import log's line for the attachments not read: 'Not read: ticket.pdf is encrypted; ...',
 * as many as fit in the log's reason, then how many more.
 */
export function skippedAttachmentsReason(skipped: readonly SkippedAttachment[]): string | null {
  const parts = skipped.map((skip) => `${skip.filename} ${skip.reason}`);
  if (parts.length === 0) return null;
  // room for '; and N more' after the first, however long its file name
  let reason = `Not read: ${parts[0]}`.slice(0, MAX_REASON_CHARS - 20);
  for (let index = 1; index < parts.length; index++) {
    const left = parts.length - index;
    const longer = `${reason}; ${parts[index]}`;
    if ((left > 1 ? `${longer}; and ${left - 1} more` : longer).length > MAX_REASON_CHARS)
      return `${reason}; and ${left} more`;
    reason = longer;
  }
  return reason;
}

const CABIN_FARE: Record<string, string> = {
  Business: 'Business Class',
  First: 'First Class',
  'Premium Economy': 'Premium Economy',
};

function bookingOf(fields: EmailFlightFields): KeptBooking {
  return {
    ...fields,
    fareType: fields.fareType ?? (fields.cabinClass ? (CABIN_FARE[fields.cabinClass] ?? fields.cabinClass) : null),
    fareChangeable: false,
    rebookingMethod: 'assisted',
    sourceReference: null,
  };
}

const today = () => new Date().toISOString().slice(0, 10);

/** Whether a booking's trip is over (nothing to watch: no flight is made). */
export const tripIsOver = (fields: EmailFlightFields): boolean => (fields.returnDate ?? fields.departureDate) < today();

/**
 * Makes a flight from an email's booking, watched unless the plan's limit is reached (then kept
 * as found, not watched). Also where a confirmed held booking becomes a flight (held.ts).
 */
export async function createEmailFlight(
  tx: Tx,
  userId: string,
  fields: EmailFlightFields,
  source: FlightEmailSource,
): Promise<{ flightId: number; overLimit: boolean }> {
  const { room } = await roomOnPlan(tx, userId);
  const overLimit = fields.departureDate >= today() && room <= 0;
  const booking = bookingOf(fields);
  const eligible = isEligibleFareType(booking.fareType, false);
  const flightId = await insertFlight(tx, {
    userId,
    source: 'email',
    booking,
    isEligibleForRebooking: eligible,
    notes: null,
    isManualEntry: false,
    emailSource: { ...source },
    overLimit,
    // a held booking kept before the party was read has none
    passengerCount: fields.passengerCount ?? null,
  });
  await releaseHeldCode(tx, userId, fields.bookingCode);
  return { flightId, overLimit };
}

/** A cancellation that names only a code: what the traveller is shown as taken. */
function codeOnly(bookingCode: string): Omit<TakenBooking, 'kind'> {
  return {
    airline: '',
    bookingCode,
    passengerLastName: '',
    segments: [],
    totalPrice: null,
    currency: null,
    fareType: null,
    flightId: null,
  };
}

/**
 * Imports one email for a user. Null when the message was read before (nothing changes).
 */
export async function importEmail(
  db: Db,
  input: { userId: string; via: ImportedEmailVia; messageId: string; email: ReadEmail },
): Promise<ImportResult | null> {
  const { userId, via, messageId, email } = input;
  const domain = email.sender.authenticated ? email.sender.domain : null;
  const sender = { domain, known: isKnownBookingSender(domain), forwarded: via === 'forwarded' };
  const source: FlightEmailSource = {
    via,
    messageId,
    from: email.from,
    subject: email.subject,
    date: email.date ? email.date.toISOString() : null,
    senderDomain: domain,
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
      return {
        outcome: 'not_read',
        flightIds: [],
        counts: { found: 0, updated: 0, cancelled: 0, notWatched: 0, held: 0 },
      };
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
      senderDomain: f.sender_domain,
    }));
    const actions = planEmail({ ...email, sender }, known);
    const counts: ImportCounts = { found: 0, updated: 0, cancelled: 0, notWatched: 0, held: 0 };
    let untrusted = 0;
    let holds = 0;
    const taken: TakenBooking[] = [];
    const flightIds: number[] = [];
    let departed = 0;
    let unchanged = 0;

    for (const action of actions) {
      if (action.kind === 'create' || action.kind === 'hold') {
        if (tripIsOver(action.fields)) {
          departed += 1;
          taken.push(takenBooking(action.booking, 'booking', null));
          continue;
        }
        if (action.kind === 'hold') {
          holds += 1;
          const held = await holdBooking(tx, {
            userId,
            bookingCode: action.fields.bookingCode,
            fields: action.fields,
            source,
            max: HELD_BOOKINGS_MAX,
          });
          if (held) counts.held += 1;
          taken.push(takenBooking(action.booking, 'booking', null));
          continue;
        }
        const { flightId, overLimit } = await createEmailFlight(tx, userId, action.fields, source);
        counts.found += 1;
        if (overLimit) counts.notWatched += 1;
        flightIds.push(flightId);
        taken.push(takenBooking(action.booking, 'booking', flightId));
      } else if (action.kind === 'untrusted') {
        untrusted += 1;
        taken.push(
          action.booking
            ? takenBooking(action.booking, action.change, null)
            : { ...codeOnly(action.bookingCode), kind: action.change },
        );
      } else if (action.kind === 'update') {
        await updateFlightFromEmail(tx, action.flightId, action.fields, source);
        counts.updated += 1;
        flightIds.push(action.flightId);
        taken.push(takenBooking(action.booking, 'change', action.flightId));
      } else if (action.kind === 'cancel') {
        await cancelFlightFromEmail(tx, action.flightId, source);
        counts.cancelled += 1;
        flightIds.push(action.flightId);
        taken.push(
          action.booking
            ? takenBooking(action.booking, 'cancellation', action.flightId)
            : { ...codeOnly(action.bookingCode), kind: 'cancellation', flightId: action.flightId },
        );
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
              : holds > 0
                ? 'held'
                : untrusted > 0
                  ? 'not_trusted'
                  : unchanged > 0
                    ? 'unchanged'
                    : departed > 0
                      ? 'departed'
                      : 'not_a_booking';
    await finishImport(tx, importId, outcome, taken, skippedAttachmentsReason(email.skippedAttachments ?? []));
    return { outcome, flightIds, counts };
  });
}
