// Validation turns drafts into output bookings and is where doubtful data is dropped: a false
// booking (or a wrong flight) costs more than a missed one. A segment survives only with a
// carrier and number, two airports known to the airport database, a departure time, and an
// arrival after the departure within a plausible flight duration. Times get the UTC offset of
// their airport on that date. Repeated segments merge; a booking survives with one segment.
import type { AirlineProfile } from './airlines.ts';
import { airlineByCode } from './airlines.ts';
import { formatAtAirport, localToUtcMillis, lookupAirport } from './airports.ts';
import { isPlausibleCode } from './generic.ts';
import { familyName, mergeTravellers } from './names.ts';
import type { DraftBooking, DraftSegment, FlightBooking, FlightSegment, LocalDateTime } from './types.ts';

/** Longest flights, one-stop through flights included, stay well under 30 hours. */
const MAX_FLIGHT_MILLIS = 30 * 3_600_000;

export interface BookingContext {
  /** The airline that sent the email (it sold the booking), when the sender is known. */
  sender: AirlineProfile | null;
  senderName: string | null;
}

interface TimedSegment extends FlightSegment {
  departureUtc: number;
  arrivalUtc: number;
}

function addDays(local: LocalDateTime, days: number): LocalDateTime {
  const date = new Date(Date.UTC(local.year, local.month - 1, local.day + days));
  return { ...local, year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

async function finalizeSegment(
  segment: DraftSegment,
  fallbackCarrier: string | null,
  previousArrivalUtc: number | null,
): Promise<TimedSegment | null> {
  const carrier = (segment.carrier ?? fallbackCarrier ?? '').toUpperCase();
  const number = segment.number ? String(Number(segment.number)) : '';
  if (!/^[A-Z0-9]{2}$/.test(carrier) || !/[A-Z]/.test(carrier) || !/^[1-9]\d{0,3}$/.test(number)) return null;
  if (segment.departureAirport === segment.arrivalAirport) return null;
  const [departure, arrival] = await Promise.all([
    lookupAirport(segment.departureAirport),
    lookupAirport(segment.arrivalAirport),
  ]);
  if (!departure || !arrival) return null;
  let departureUtc =
    segment.departureUtc ??
    (segment.departureLocal ? localToUtcMillis(segment.departureLocal, departure.timeZone) : null);
  if (departureUtc === null || !Number.isFinite(departureUtc)) return null;
  let local = segment.arrivalLocal;
  if (segment.departureDateShared && segment.departureLocal && previousArrivalUtc !== null) {
    // A connection under the same printed date leaves after the previous leg lands.
    for (let days = 1; days <= 2 && departureUtc < previousArrivalUtc; days++) {
      departureUtc = localToUtcMillis(addDays(segment.departureLocal, days), departure.timeZone);
      local = local ? addDays(segment.arrivalLocal ?? local, days) : local;
    }
  }
  let arrivalUtc = segment.arrivalUtc;
  if (arrivalUtc === null && local) {
    if (segment.arrivalDayOffset !== null) {
      arrivalUtc = localToUtcMillis(addDays(local, segment.arrivalDayOffset), arrival.timeZone);
    } else {
      // Only a clock time was printed: the first arrival after the departure.
      for (let days = 0; days <= 2; days++) {
        const candidate = localToUtcMillis(addDays(local, days), arrival.timeZone);
        if (candidate > departureUtc) {
          arrivalUtc = candidate;
          break;
        }
      }
    }
  }
  if (arrivalUtc === null || !Number.isFinite(arrivalUtc)) return null;
  if (arrivalUtc <= departureUtc || arrivalUtc - departureUtc > MAX_FLIGHT_MILLIS) return null;
  return {
    flightNumber: `${carrier} ${number}`,
    departureAirport: segment.departureAirport,
    arrivalAirport: segment.arrivalAirport,
    departureTime: formatAtAirport(departureUtc, departure.timeZone),
    arrivalTime: formatAtAirport(arrivalUtc, arrival.timeZone),
    cabinClass: segment.cabinClass,
    // '02A' on a ticket receipt is seat 2A
    seatNumber: segment.seatNumber?.replace(/^0+(?=\d)/, '') ?? null,
    departureUtc,
    arrivalUtc,
  };
}

function mostCommon(values: string[]): string | null {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  let best: string | null = null;
  for (const [value, count] of counts) if (best === null || count > (counts.get(best) ?? 0)) best = value;
  return best;
}

/** The party: the stated count or the travellers named, whichever is more; null when neither. */
export function partySize(passengers: readonly string[], stated: number | null): number | null {
  const count = Math.max(passengers.length, stated ?? 0);
  return count > 0 ? count : null;
}

const AIRLINE_LIKE_NAME = /air|airline|airways|lines|jet|fly|aero|avia|wings/i;

export async function finalizeBooking(draft: DraftBooking, context: BookingContext): Promise<FlightBooking | null> {
  if (!isPlausibleCode(draft.bookingCode)) return null;
  const soldBy = context.sender?.iata ?? draft.airlineIata ?? null;
  const carriers = draft.segments.map((segment) => segment.carrier).filter((code): code is string => !!code);
  const fallbackCarrier = soldBy ?? mostCommon(carriers);
  const finalized: TimedSegment[] = [];
  let previousArrivalUtc: number | null = null;
  for (const segment of draft.segments) {
    const timed = await finalizeSegment(segment, fallbackCarrier, previousArrivalUtc);
    if (!timed) continue;
    previousArrivalUtc = timed.arrivalUtc;
    const duplicate = finalized.find(
      (known) =>
        known.flightNumber === timed.flightNumber &&
        known.departureTime.slice(0, 10) === timed.departureTime.slice(0, 10),
    );
    if (duplicate) {
      duplicate.seatNumber = duplicate.seatNumber ?? timed.seatNumber;
      continue;
    }
    finalized.push(timed);
  }
  if (finalized.length === 0) return null;
  finalized.sort((a, b) => a.departureUtc - b.departureUtc);
  const segments: FlightSegment[] = finalized.map(
    ({ departureUtc: _departure, arrivalUtc: _arrival, ...segment }) => segment,
  );
  const airlineIata = soldBy ?? mostCommon(segments.map((segment) => segment.flightNumber.slice(0, 2))) ?? '';
  const profile = context.sender ?? airlineByCode(airlineIata);
  const senderName = context.senderName && AIRLINE_LIKE_NAME.test(context.senderName) ? context.senderName : null;
  const passengers = mergeTravellers(draft.passengers);
  const first = segments[0];
  const last = segments[segments.length - 1];
  return {
    airline: spelledAsSender(profile?.name, context.senderName) ?? draft.airlineName ?? senderName ?? airlineIata,
    airlineIata,
    bookingCode: draft.bookingCode,
    passengerLastName: passengers[0] ? familyName(passengers[0]) : '',
    passengers,
    passengerCount: partySize(passengers, draft.statedPassengerCount ?? null),
    segments,
    isRoundTrip: segments.length > 1 && !!first && !!last && last.arrivalAirport === first.departureAirport,
    totalPrice: draft.totalPrice && draft.totalPrice.amountCents > 0 ? draft.totalPrice : null,
    fareType: draft.fareType,
  };
}

const folded = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .trim();

/** The airline's name as its sender spells it ('Aeromexico' or 'Aeroméxico'), when only accents differ. */
function spelledAsSender(name: string | undefined, senderName: string | null): string | undefined {
  if (!name || !senderName) return name;
  return folded(senderName) === folded(name) ? senderName.trim() : name;
}

/** Same record locator twice (markup and text, or two parts): one booking. */
export function mergeBookings(bookings: FlightBooking[]): FlightBooking[] {
  const merged: FlightBooking[] = [];
  for (const booking of bookings) {
    const known = merged.find((candidate) => candidate.bookingCode === booking.bookingCode);
    if (!known) {
      merged.push(booking);
      continue;
    }
    for (const segment of booking.segments) {
      if (
        !known.segments.some(
          (other) => other.flightNumber === segment.flightNumber && other.departureTime === segment.departureTime,
        )
      ) {
        known.segments.push(segment);
      }
    }
    known.segments.sort((a, b) => Date.parse(a.departureTime) - Date.parse(b.departureTime));
    const first = known.segments[0];
    const last = known.segments[known.segments.length - 1];
    known.isRoundTrip =
      known.segments.length > 1 && !!first && !!last && last.arrivalAirport === first.departureAirport;
  }
  return merged;
}
