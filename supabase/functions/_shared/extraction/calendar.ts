// Calendar attachments (.ics, text/calendar): many airlines attach one event per leg. ical.js
// parses them; each event whose text names a flight number and two airports becomes a leg with its
// exact times: UTC ('...Z'), a TZID that is an IANA zone, or else the wall-clock time at the
// airport. The event's description may carry the booking code. Legs merge with what the body gave
// (see mergeCalendarLegs): a leg the body already has only fills what it lacks.
import ICAL from 'ical.js';
import type { TextLine } from './html.ts';
import { isKnownAirlineCode } from './airlines.ts';
import { localToUtcMillis } from './airports.ts';
import { findPlaces } from './airport-names.ts';
import { findBookingCodes } from './generic/codes.ts';
import type { DraftBooking, DraftSegment, LocalDateTime } from './types.ts';

/** One event as the calendar gives it, before its places are known to be airports. */
export interface CalendarEvent {
  /** Summary, location and description, one text line each of their lines. */
  lines: string[];
  start: CalendarTime;
  end: CalendarTime | null;
}

type CalendarTime = { utcMillis: number } | { local: LocalDateTime; zone: string | null };

/** Few real attachments hold more: the cost stays bounded on hostile input. */
const MAX_EVENTS = 40;

function readTime(property: ICAL.Property | null): CalendarTime | null {
  const value = property?.getFirstValue();
  if (!(value instanceof ICAL.Time) || value.isDate) return null;
  const local: LocalDateTime = {
    year: value.year,
    month: value.month,
    day: value.day,
    hour: value.hour,
    minute: value.minute,
  };
  if (value.zone?.tzid === 'UTC' || value.zone === ICAL.Timezone.utcTimezone) {
    return { utcMillis: Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute) };
  }
  const tzid = property?.getParameter('tzid');
  return { local, zone: typeof tzid === 'string' ? tzid : null };
}

/** The events of one calendar file; an unreadable file has none. */
export function parseCalendar(source: string): CalendarEvent[] {
  const events: CalendarEvent[] = [];
  try {
    const root = new ICAL.Component(ICAL.parse(source));
    const calendars = root.name === 'vcalendar' ? [root] : root.getAllSubcomponents('vcalendar');
    for (const calendar of calendars) {
      for (const event of calendar.getAllSubcomponents('vevent').slice(0, MAX_EVENTS)) {
        const start = readTime(event.getFirstProperty('dtstart'));
        if (!start) continue;
        const lines = ['summary', 'location', 'description']
          .map((name) => event.getFirstPropertyValue(name))
          .filter((value): value is string => typeof value === 'string')
          .flatMap((value) => value.split(/\r?\n|\\n/))
          .map((line) => line.trim())
          .filter(Boolean);
        events.push({ lines, start, end: readTime(event.getFirstProperty('dtend')) });
      }
    }
  } catch {
    return events;
  }
  return events;
}

const FLIGHT_NUMBER = /(?<![A-Za-z0-9])([A-Z][A-Z0-9]|[0-9][A-Z])\s?-?\s?0*(\d{1,4})(?![A-Za-z0-9])/g;
const FLIGHT_WORD = /(?:flight|flug|vol|vuelo|volo|vlucht|flyg)\s*(?:no\.?|nr\.?|#)?\s*$/i;
const AIRPORT_CODE = /(?<![A-Za-z0-9])([A-Z]{3})(?![A-Za-z0-9])/g;

export interface CalendarLeg {
  segment: DraftSegment;
  code: string | null;
}

function isValidZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

function toSegmentTime(time: CalendarTime): { utc: number | null; local: LocalDateTime | null } {
  if ('utcMillis' in time) return { utc: time.utcMillis, local: null };
  if (time.zone && isValidZone(time.zone)) return { utc: localToUtcMillis(time.local, time.zone), local: null };
  return { utc: null, local: time.local };
}

/**
 * The legs of calendar events: a flight number (a known carrier, or one after 'Flight') and two
 * airports (codes known to the airport data, else places named in full), in the order printed.
 */
export function calendarLegs(events: CalendarEvent[], airports: Set<string>): CalendarLeg[] {
  const legs: CalendarLeg[] = [];
  for (const event of events) {
    const text = event.lines.join('\n');
    let flight: { carrier: string; number: string } | null = null;
    for (const match of text.matchAll(FLIGHT_NUMBER)) {
      const carrier = match[1] ?? '';
      const labelled = FLIGHT_WORD.test(text.slice(Math.max(0, (match.index ?? 0) - 12), match.index));
      if (!isKnownAirlineCode(carrier) && !labelled) continue;
      flight = { carrier, number: String(Number(match[2])) };
      break;
    }
    if (!flight) continue;
    const codes: string[] = [];
    for (const match of text.matchAll(AIRPORT_CODE)) {
      const code = match[1] ?? '';
      if (airports.has(code) && codes.at(-1) !== code && !codes.includes(code)) codes.push(code);
    }
    if (codes.length < 2) {
      for (const line of event.lines)
        for (const place of findPlaces(line)) if (!codes.includes(place.code)) codes.push(place.code);
    }
    const [departureAirport, arrivalAirport] = codes;
    if (!departureAirport || !arrivalAirport) continue;
    const departure = toSegmentTime(event.start);
    const arrival = event.end ? toSegmentTime(event.end) : { utc: null, local: null };
    const textLines: TextLine[] = event.lines.map((line) => ({ text: line, cells: [line], headers: null }));
    const code = findBookingCodes(textLines.map((line) => ({ line })))[0]?.code ?? null;
    legs.push({
      code,
      segment: {
        carrier: flight.carrier,
        number: flight.number,
        departureAirport,
        arrivalAirport,
        departureUtc: departure.utc,
        arrivalUtc: arrival.utc,
        departureLocal: departure.local,
        arrivalLocal: arrival.local,
        arrivalDayOffset: null,
        cabinClass: null,
        seatNumber: null,
      },
    });
  }
  return legs;
}

const sameFlight = (a: DraftSegment, b: DraftSegment): boolean =>
  (a.carrier === b.carrier && a.number === b.number) ||
  (a.departureAirport === b.departureAirport && a.arrivalAirport === b.arrivalAirport && a.number === b.number);

/**
 * Calendar legs into the bookings read from the body: a leg the body has fills its missing times;
 * another joins the booking of its code, or the body's only booking; a leg with a code no booking
 * has starts a booking of its own (the body's travellers go with it when the body has one booking).
 */
export function mergeCalendarLegs(drafts: DraftBooking[], legs: CalendarLeg[]): DraftBooking[] {
  const merged = drafts.map((draft) => ({ ...draft, segments: [...draft.segments] }));
  for (const { segment, code } of legs) {
    const owner =
      merged.find((draft) => draft.segments.some((known) => sameFlight(known, segment))) ??
      merged.find((draft) => code !== null && draft.bookingCode === code) ??
      (merged.length === 1 && (!code || !merged[0]?.bookingCode) ? merged[0] : undefined);
    if (!owner) {
      if (code) {
        merged.push({
          bookingCode: code,
          airlineIata: null,
          airlineName: null,
          passengers: drafts.length === 1 ? (drafts[0]?.passengers ?? []) : [],
          segments: [segment],
          totalPrice: null,
          fareType: null,
        });
      }
      continue;
    }
    if (!owner.bookingCode && code) owner.bookingCode = code;
    const index = owner.segments.findIndex((known) => sameFlight(known, segment));
    const known = owner.segments[index];
    if (!known) {
      owner.segments.push(segment);
      continue;
    }
    // The body's leg keeps what it read; the calendar's exact times fill a leg without times.
    const timeless = known.departureUtc === null && known.departureLocal === null;
    const noArrival = known.arrivalUtc === null && known.arrivalLocal === null;
    owner.segments[index] = {
      ...known,
      departureUtc: timeless ? segment.departureUtc : known.departureUtc,
      departureLocal: timeless ? segment.departureLocal : known.departureLocal,
      arrivalUtc: noArrival ? segment.arrivalUtc : known.arrivalUtc,
      arrivalLocal: noArrival ? segment.arrivalLocal : known.arrivalLocal,
    };
  }
  return merged;
}
