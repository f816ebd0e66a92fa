// What one email does to a traveller's flights, decided without the database: the bookings the
// extractor found, the traveller's flights with the same booking codes, and whether the email
// cancels. One flight per booking code and traveller (the FareBack account): a booking whose code
// is new creates a flight; one whose code is known changes that flight when the email's itinerary
// differs (a schedule change, a rebooked leg); a cancellation email marks the flights of the codes
// it names cancelled. Pure, so the rules are unit-tested (plan.test.ts).
import type { FlightBooking } from '../../../_shared/extraction/index.ts';
import type { Itinerary, RetrievedBooking } from '../../../_shared/fare-source/types.ts';
import type { TakenBooking } from '../../../_shared/types/email.ts';
import { MAX_FLIGHT_PARTY } from '../../../_shared/constants.ts';

/**
 * The flight row fields an email decides: a booking as a fare source would return it, less what
 * only a source knows (whether the fare may change, its own reference); the fare brand only when
 * the email prints one. The price paid is the traveller's share of the total, 0 when none is given.
 */
export type EmailFlightFields = Omit<
  RetrievedBooking,
  'cabinClass' | 'fareType' | 'fareChangeable' | 'rebookingMethod' | 'sourceReference'
> & {
  /** Null when the email names no cabin: none is invented. */
  cabinClass: string | null;
  fareType: string | null;
  /** How many travel on the booking (the extractor's party); null when unknown or past one reservation's nine. */
  passengerCount: number | null;
};

/** One of the traveller's flights, as far as an email can change it. */
export type KnownFlight = Pick<
  Itinerary,
  'flightNumber' | 'departureAirport' | 'arrivalAirport' | 'departureDate' | 'returnFlightNumber' | 'returnDate'
> & {
  id: number;
  bookingCode: string;
  status: string;
  hasBeenRebooked: boolean;
  /** The Date of the email that last created or changed it (flights.email_source), if any. */
  sourceDate: string | null;
  /** The registrable domain that sent its booking (flights.email_source.senderDomain), if known. */
  senderDomain: string | null;
};

/**
 * Who an email is from, as far as it may be trusted (sender-trust.ts): `domain` the From
 * address's registrable domain when its authentication holds (null when it fails or names another
 * domain); `known` when that domain is a known airline or agency; `forwarded` when the traveller
 * sent it to their own forwarding address (their own act: trusted as from the booking's sender).
 */
export interface EmailSender {
  domain: string | null;
  known: boolean;
  forwarded: boolean;
}

export type FlightAction =
  | { kind: 'create'; fields: EmailFlightFields; booking: FlightBooking }
  | { kind: 'update'; flightId: number; fields: EmailFlightFields; booking: FlightBooking }
  | { kind: 'cancel'; flightId: number; bookingCode: string; booking: FlightBooking | null }
  | { kind: 'unchanged'; flightId: number; booking: FlightBooking }
  /** A new booking from a sender not known (or not authenticated): held for the traveller to confirm. */
  | { kind: 'hold'; fields: EmailFlightFields; booking: FlightBooking }
  /** A change or cancellation from another sender than the booking's: applied to nothing. */
  | {
      kind: 'untrusted';
      flightId: number;
      bookingCode: string;
      booking: FlightBooking | null;
      change: 'change' | 'cancellation';
    };

/**
 * Whether this sender may change or cancel this flight: the domain that sent its booking (an
 * authenticated one), or, for a flight with no such domain (added by hand, or imported before
 * domains were kept), a known airline or agency. Forwarded mail is the traveller's own act.
 */
export function mayChange(sender: EmailSender, flight: KnownFlight): boolean {
  if (sender.forwarded) return true;
  if (sender.domain === null) return false;
  return flight.senderDomain !== null ? flight.senderDomain === sender.domain : sender.known;
}

/** Whether a new booking from this sender becomes a flight at once (else it is held). */
export function mayCreate(sender: EmailSender): boolean {
  return sender.forwarded || (sender.domain !== null && sender.known);
}

const CANCELLATION_SUBJECT = /\b(?:cancel(?:l)?ed|cancell?ation|annul(?:é|ee|ée|ado|iert)|storniert|stornierung)\b/i;
const NOT_A_CANCELLATION = /\bcancell?ation\s+(?:policy|protection|insurance)|\bfree\s+cancell?ation\b/i;

export function isCancellationSubject(subject: string): boolean {
  return CANCELLATION_SUBJECT.test(subject) && !NOT_A_CANCELLATION.test(subject);
}

const compactFlightNumber = (value: string): string => value.replace(/\s+/g, '').toUpperCase();
const localDate = (iso: string): string => iso.slice(0, 10);

/** The traveller's flight from one extracted booking: the outbound and, on a round trip, the return. */
export function flightFields(booking: FlightBooking): EmailFlightFields {
  const segments = booking.segments;
  const first = segments[0];
  if (!first) throw new Error('a booking without segments');
  let turn = segments.length;
  if (booking.isRoundTrip && segments.length > 1) {
    // the return starts after the longest stay between two legs
    let longest = -1;
    for (let i = 1; i < segments.length; i++) {
      const gap = Date.parse(segments[i]!.departureTime) - Date.parse(segments[i - 1]!.arrivalTime);
      if (gap > longest) {
        longest = gap;
        turn = i;
      }
    }
  }
  const outbound = segments.slice(0, turn);
  const back = segments.slice(turn);
  const last = outbound[outbound.length - 1] ?? first;
  // the whole booking: FareBack keeps a booking's total for its party (issue 23); a group past
  // the most a flight's party may be is kept as one traveller's share, and quoted for one
  const party = booking.passengerCount ?? booking.passengers.length;
  const share = party > MAX_FLIGHT_PARTY ? party : 1;
  return {
    airline: booking.airline,
    airlineCode: booking.airlineIata,
    bookingCode: booking.bookingCode.toUpperCase(),
    passengerLastName: booking.passengerLastName,
    flightNumber: compactFlightNumber(first.flightNumber),
    departureAirport: first.departureAirport,
    arrivalAirport: last.arrivalAirport,
    departureDate: localDate(first.departureTime),
    departureTime: first.departureTime,
    arrivalTime: last.arrivalTime,
    isRoundTrip: back.length > 0,
    returnFlightNumber: back[0] ? compactFlightNumber(back[0].flightNumber) : null,
    returnDate: back[0] ? localDate(back[0].departureTime) : null,
    cabinClass: first.cabinClass,
    seatNumber: first.seatNumber,
    fareType: booking.fareType,
    pricePaid: booking.totalPrice ? Math.round(booking.totalPrice.amountCents / share) : 0,
    passengerCount: party >= 1 && party <= MAX_FLIGHT_PARTY ? party : null,
    currency: booking.totalPrice?.currency ?? 'USD',
  };
}

function sameItinerary(flight: KnownFlight, fields: EmailFlightFields): boolean {
  return (
    flight.flightNumber === fields.flightNumber &&
    flight.departureAirport === fields.departureAirport &&
    flight.arrivalAirport === fields.arrivalAirport &&
    flight.departureDate === fields.departureDate &&
    (flight.returnFlightNumber ?? null) === fields.returnFlightNumber &&
    (flight.returnDate ?? null) === fields.returnDate
  );
}

/** Booking codes of `known` flights that the text names as a whole word. */
function codesNamedIn(text: string, known: KnownFlight[]): string[] {
  const upper = text.toUpperCase();
  return [...new Set(known.map((f) => f.bookingCode))].filter((code) =>
    new RegExp(`(?<![A-Z0-9])${code}(?![A-Z0-9])`).test(upper),
  );
}

/**
 * The actions of one email. `known` are the traveller's flights whose codes the email's bookings
 * carry or, for a cancellation, any of the traveller's flights (the email is searched for their
 * codes, since a cancellation often lists no itinerary the extractor would read).
 */
export function planEmail(
  input: { subject: string; text: string; date?: Date | null; bookings: FlightBooking[]; sender: EmailSender },
  known: KnownFlight[],
): FlightAction[] {
  const sender = input.sender;
  const actions: FlightAction[] = [];
  const byCode = new Map(known.map((f) => [f.bookingCode, f]));
  if (isCancellationSubject(input.subject)) {
    const codes = new Set([
      ...input.bookings.map((b) => b.bookingCode.toUpperCase()),
      ...codesNamedIn(input.text, known),
    ]);
    for (const code of codes) {
      const flight = byCode.get(code);
      if (!flight || flight.status === 'cancelled' || flight.hasBeenRebooked || flight.status === 'rebooking') continue;
      const booking = input.bookings.find((b) => b.bookingCode.toUpperCase() === code) ?? null;
      actions.push(
        mayChange(sender, flight)
          ? { kind: 'cancel', flightId: flight.id, bookingCode: code, booking }
          : { kind: 'untrusted', flightId: flight.id, bookingCode: code, booking, change: 'cancellation' },
      );
    }
    return actions;
  }
  const seen = new Set<string>();
  for (const booking of input.bookings) {
    if (booking.segments.length === 0) continue;
    const fields = flightFields(booking);
    if (seen.has(fields.bookingCode)) continue;
    seen.add(fields.bookingCode);
    const flight = byCode.get(fields.bookingCode);
    if (!flight) actions.push({ kind: mayCreate(sender) ? 'create' : 'hold', fields, booking });
    else if (
      flight.hasBeenRebooked ||
      flight.status === 'rebooking' ||
      sameItinerary(flight, fields) ||
      // an older email than the one the flight came from changes nothing
      (input.date && flight.sourceDate !== null && input.date.getTime() < Date.parse(flight.sourceDate))
    ) {
      actions.push({ kind: 'unchanged', flightId: flight.id, booking });
    } else if (!mayChange(sender, flight)) {
      actions.push({
        kind: 'untrusted',
        flightId: flight.id,
        bookingCode: fields.bookingCode,
        booking,
        change: 'change',
      });
    } else actions.push({ kind: 'update', flightId: flight.id, fields, booking });
  }
  return actions;
}

/** What the traveller is shown as taken from the email for one booking. */
export function takenBooking(
  booking: FlightBooking,
  kind: TakenBooking['kind'],
  flightId: number | null,
): TakenBooking {
  return {
    airline: booking.airline,
    bookingCode: booking.bookingCode.toUpperCase(),
    passengerLastName: booking.passengerLastName,
    segments: booking.segments.map((s) => ({
      flightNumber: s.flightNumber,
      departureAirport: s.departureAirport,
      arrivalAirport: s.arrivalAirport,
      departureTime: s.departureTime,
    })),
    totalPrice: booking.totalPrice?.amountCents ?? null,
    currency: booking.totalPrice?.currency ?? null,
    fareType: booking.fareType,
    kind,
    flightId,
  };
}
