// The generic extractor: reads any confirmation layout from its visible text, with labels in
// English, German, French and Spanish. It works on lines (table rows keep their cells):
//   1. tokens per line: dates, times, airport codes, routes ('MSP>SEA'), flight numbers, seats;
//   2. stops: an airport paired with the clock time printed beside it (same cell, neighbouring
//      cell or line); legs are consecutive stops (departure, arrival);
//   3. each leg takes the i-th flight number when counts agree, else the nearest one; the last
//      travel date printed before its departure; seat, cabin from its own rows;
//   4. booking code, passengers, total price and fare brand from their labels.
// Nothing here decides whether the result is a booking: validation does.
// The stages live in generic/: lines.ts (tokens), legs.ts (stops and legs), flight-numbers.ts,
// seats.ts (seats and cabins), codes.ts, passengers.ts, price.ts, fare.ts; this file composes them.
import type { TextLine } from './html.ts';
import type { DateToken, TimeToken } from './dates.ts';
import { resolveYear } from './dates.ts';
import { airlineByCode, isKnownAirlineCode, type AirlineProfile } from './airlines.ts';
import type { DraftBooking, DraftSegment, LocalDateTime } from './types.ts';
import { analyseLine, at, labelTextTables, type GenericContext } from './generic/lines.ts';
import { airportNamesLoaded, findPlaces } from './airport-names.ts';
import { findStops, pairLegs } from './generic/legs.ts';
import { assignFlights, findFlightTokens } from './generic/flight-numbers.ts';
import {
  cabinOfLines,
  findCabinStatements,
  findSeatMentions,
  seatsListedAfterLegs,
  statedCabin,
} from './generic/seats.ts';
import { codeFromSubject, findBookingCodes, findCarrierLocators } from './generic/codes.ts';
import { findPartySize, findPassengers } from './generic/passengers.ts';
import { findTotalPrice } from './generic/price.ts';
import { findFareType } from './generic/fare.ts';

export type { GenericContext } from './generic/lines.ts';
export { dropCancelledSections } from './generic/sections.ts';
export { documentCabin } from './generic/seats.ts';
export { isPlausibleCode, type CodeMention } from './generic/codes.ts';

function toLocal(date: DateToken, time: TimeToken, sent: Date | null): LocalDateTime {
  return {
    year: date.year ?? resolveYear(date.month, date.day, sent),
    month: date.month,
    day: date.day,
    hour: time.hour,
    minute: time.minute,
  };
}

const NEXT_DAY = /\+\s?([12])(?!\d)|\bnext day\b|\bfollowing day\b|am folgetag|le lendemain|d[íi]a siguiente/i;

/** Mail that speaks of flights; hotel and car mail that mentions one flight seldom does. */
const FLIGHT_WORDS =
  /\b(?:flights?|flug|fl[üu]ge|vol|vols|vuelos?|voli|volo|vlucht(?:en)?|flyg|flygning|airline|e-?ticket|itinerary|boarding)\b/i;

/** The carrier of the first flight number of a known airline ('LH 180'): whose country breaks ties. */
function firstCarrier(lines: TextLine[]): string | null {
  for (const line of lines) {
    for (const match of line.text.matchAll(/(?<![A-Za-z0-9])([A-Z][A-Z0-9]|[0-9][A-Z]) ?\d{1,4}(?![A-Za-z0-9])/g)) {
      if (isKnownAirlineCode(match[1] ?? '')) return match[1] ?? null;
    }
  }
  return null;
}

/** Countries whose money an airline sells in, or whose domain sends its mail. */
const CURRENCY_COUNTRIES: Record<string, string> = {
  USD: 'US',
  CAD: 'CA',
  MXN: 'MX',
  GBP: 'GB',
  AUD: 'AU',
  NZD: 'NZ',
  JPY: 'JP',
  KRW: 'KR',
  CNY: 'CN',
  TWD: 'TW',
  HKD: 'HK',
  SGD: 'SG',
  MYR: 'MY',
  THB: 'TH',
  PHP: 'PH',
  INR: 'IN',
  ZAR: 'ZA',
  CHF: 'CH',
  SEK: 'SE',
  NOK: 'NO',
  DKK: 'DK',
};

function airlineCountries(airline: AirlineProfile | null): string[] {
  if (!airline) return [];
  const countries = new Set<string>();
  const home = CURRENCY_COUNTRIES[airline.currency];
  if (home) countries.add(home);
  for (const domain of airline.domains) {
    const tld = /\.([a-z]{2})$/.exec(domain)?.[1];
    if (tld && !['co', 'io', 'me', 'tv'].includes(tld)) countries.add(tld === 'uk' ? 'GB' : tld.toUpperCase());
  }
  return [...countries];
}

/** A line that names a place after a label: 'From: Frankfurt, Germany', 'Departure: ZURICH'. */
const PLACE_LABEL =
  /^(?:from|to|depart(?:ure|s|ing)?|arriv(?:al|e|es|ing)|origin|destination|von|nach|ab|an|d[ée]part|arriv[ée]e|salida|llegada|avg[åa]ng|ankomst|vertrek|aankomst|partenza|arrivo)\s*:/i;

/**
 * 'From: Frankfurt, Germany' over 'Frankfurt Intl, Terminal 1': the line under a place label, with
 * no label and no time of its own, goes on naming the same place: one line.
 */
function joinPlaceContinuations(lines: TextLine[]): TextLine[] {
  const joined: TextLine[] = [];
  for (const line of lines) {
    const previous = joined[joined.length - 1];
    const continues =
      previous &&
      PLACE_LABEL.test(previous.text) &&
      line.text.length <= 60 &&
      !/:\s|\d{1,2}[:.h]\d{2}/.test(line.text) &&
      !PLACE_LABEL.test(line.text);
    if (continues) {
      const text = `${previous.text}, ${line.text}`;
      joined[joined.length - 1] = { text, cells: [text], headers: null };
    } else {
      joined.push(line);
    }
  }
  return joined;
}

/** Every three-letter upper-case word: the airport candidates to look up before extracting. */
export function airportCandidates(lines: TextLine[]): Set<string> {
  const codes = new Set<string>();
  for (const line of lines)
    for (const match of line.text.matchAll(/(?<![A-Za-z])[A-Z]{3}(?![A-Za-z])/g)) codes.add(match[0]);
  return codes;
}

/** What a reading leaves to its caller: rows that may name places went unread without the index of names. */
export interface GenericNotes {
  placeNamesWanted: boolean;
}

export function extractGeneric(
  lines: TextLine[],
  context: GenericContext,
  notes: GenericNotes = { placeNamesWanted: false },
): DraftBooking[] {
  const check = (stage: string) => context.budget?.check(stage);
  let infos = lines.map((line) => {
    check('reading the lines');
    return analyseLine(line, context);
  });
  labelTextTables(infos);
  let legs = pairLegs(findStops(infos, context));
  const speaksOfFlights = !!context.airline || lines.some((line) => FLIGHT_WORDS.test(line.text));
  const carrier = context.airline ?? airlineByCode(firstCarrier(lines));
  const hints = { countries: airlineCountries(carrier) };
  // No leg from airport codes in an airline's mail, or in mail that speaks of flights: read places
  // named without codes, the airline's country deciding between airports of one name.
  if (legs.length === 0 && speaksOfFlights) {
    // A line that names no place reads as before: only the others are read again.
    const firstReading = new Map(lines.map((line, index) => [line, infos[index]]));
    infos = joinPlaceContinuations(lines).map((line) => {
      check('reading place names');
      const before = firstReading.get(line);
      return before && findPlaces(line.text, hints).length === 0
        ? { ...before, line }
        : analyseLine(line, context, hints);
    });
    labelTextTables(infos);
    legs = pairLegs(findStops(infos, context));
  } else if (legs.length > 0 && speaksOfFlights) {
    // Legs from codes, and rows of a table that name their places without codes ('MUENCHEN
    // LONDON HEATHROW 09:00 10:05' under a first row with codes): each such row, a whole leg with
    // two places and two times, is read with place names too.
    let more = false;
    infos = infos.map((info) => {
      if (info.airports.length > 1 || info.times.length < 2) return info;
      if (!airportNamesLoaded()) {
        notes.placeNamesWanted = true;
        return info;
      }
      check('reading place names');
      const again = analyseLine(info.line, context, hints);
      if (again.airports.length !== 2 || again.times.length < 2) return info;
      more = true;
      return { ...again, line: info.line };
    });
    if (more) {
      labelTextTables(infos);
      legs = pairLegs(findStops(infos, context));
    }
  }
  check('finding the legs');
  const flightTokens = findFlightTokens(infos, context);
  const flights = assignFlights(legs, flightTokens);
  check('finding flight numbers');
  const seats = findSeatMentions(infos);
  const travelDates: { pos: number; line: number; date: DateToken }[] = [];
  infos.forEach((info, line) => {
    if (!info.travelDates) return;
    for (const date of info.dates) travelDates.push({ pos: at(line, date.start), line, date });
  });

  // Region of each leg: its rows, from its own first line to the next leg's first line.
  const starts = legs.map((leg, index) => {
    const flight = flights[index];
    const previousArrival = legs[index - 1]?.arrival.line ?? -1;
    let start = leg.departure.line;
    if (flight && flight.line < start && flight.line > previousArrival) start = flight.line;
    return start;
  });
  const regions: [number, number][] = legs.map((leg, index) => [
    starts[index] ?? leg.departure.line,
    Math.max(starts[index + 1] ?? infos.length, leg.arrival.line + 1),
  ]);

  const seatList = seatsListedAfterLegs(seats, legs, regions);
  // Lookups per leg through maps and binary searches: a scan of every date or seat per leg would
  // make a document of thousands of legs quadratic.
  const dateOnLine = new Map<number, DateToken>();
  for (const entry of travelDates) if (!dateOnLine.has(entry.line)) dateOnLine.set(entry.line, entry.date);
  const seatOnRoute = new Map<string, (typeof seats)[number]>();
  const seatOnFlight = new Map<string, (typeof seats)[number]>();
  for (const mention of seats) {
    if (mention.route) {
      const key = `${mention.route.from}>${mention.route.to}`;
      if (!seatOnRoute.has(key)) seatOnRoute.set(key, mention);
    }
    if (mention.flight && !seatOnFlight.has(mention.flight)) seatOnFlight.set(mention.flight, mention);
  }
  const plainSeats = seats.filter((mention) => !mention.route && !mention.flight); // in line order
  const cabinStatements = findCabinStatements(infos, context.airline);
  const segments: (DraftSegment & { pos: number })[] = [];
  let previousDate: DateToken | null = null;
  legs.forEach((leg, index) => {
    check('building the legs');
    const flight = flights[index] ?? null;
    const departureDate =
      leg.departure.date ??
      travelDates[lastIndexBelow(travelDates, (entry) => entry.pos, leg.departure.pos)]?.date ??
      dateOnLine.get(leg.departure.line) ??
      null;
    if (!departureDate) return;
    const shared = departureDate === previousDate;
    previousDate = departureDate;
    const departureLocal = toLocal(departureDate, leg.departure.time, context.sent);
    let arrivalLocal: LocalDateTime;
    let arrivalDayOffset: number | null = null;
    if (leg.arrival.date) {
      arrivalLocal = toLocal(leg.arrival.date, leg.arrival.time, context.sent);
      if (leg.arrival.date.year === null && arrivalLocal.month < departureLocal.month)
        arrivalLocal.year = departureLocal.year + (arrivalLocal.month < departureLocal.month ? 1 : 0);
      else if (leg.arrival.date.year === null) arrivalLocal.year = departureLocal.year;
    } else {
      const marker = NEXT_DAY.exec(leg.arrival.pieceText);
      if (marker) arrivalDayOffset = marker[1] ? Number(marker[1]) : 1;
      arrivalLocal = { ...departureLocal, hour: leg.arrival.time.hour, minute: leg.arrival.time.minute };
    }
    const [from, to] = regions[index] ?? [leg.departure.line, leg.arrival.line + 1];
    const routed = seatOnRoute.get(`${leg.departure.code}>${leg.arrival.code}`);
    const byFlight = flight ? seatOnFlight.get(`${flight.carrier ?? ''}${flight.number}`) : null;
    const firstFrom = plainSeats[lastIndexBelow(plainSeats, (mention) => mention.line, from) + 1];
    const inRegion = firstFrom && firstFrom.line < to ? firstFrom : undefined;
    const seatNumber = routed
      ? routed.seat
      : byFlight
        ? byFlight.seat
        : seatList
          ? (seatList[index] ?? null)
          : (inRegion?.seat ?? null);
    segments.push({
      pos: leg.departure.pos,
      carrier: flight?.carrier ?? null,
      number: flight?.number ?? null,
      departureAirport: leg.departure.code,
      arrivalAirport: leg.arrival.code,
      departureUtc: null,
      arrivalUtc: null,
      departureLocal,
      arrivalLocal,
      arrivalDayOffset,
      departureDateShared: shared,
      cabinClass:
        cabinOfLines(infos, from, to, context.airline, departureDate) ??
        statedCabin(cabinStatements, leg.departure.line, context.airline, departureDate),
      seatNumber,
    });
  });

  check('building the legs');
  const labelled = findBookingCodes(infos);
  // Agency mail (no airline sent it) whose labels name no airline's locator: the locator printed
  // beside an airline's code ('BA/X7KQ2P') is the airline's. In an airline's own mail the labelled
  // code stays: a partner's locator beside its code is not the booking's.
  const flightCarriers = new Set(segments.map((segment) => segment.carrier).filter((code): code is string => !!code));
  const beside =
    !context.airline && !labelled.some((mention) => mention.airline) ? findCarrierLocators(infos, flightCarriers) : [];
  const mentions = [...labelled, ...beside].sort((a, b) => a.pos - b.pos);
  // An agency's mail names its own reference and the airline's: the airline's is the booking code.
  const codes = mentions.some((mention) => mention.airline) ? mentions.filter((mention) => mention.airline) : mentions;
  const subjectCode = codeFromSubject(context.subject);
  const distinct = [...new Set(codes.map((mention) => mention.code))];
  if (distinct.length === 0 && subjectCode) distinct.push(subjectCode);
  const documentText = infos.map((info) => info.line.text).join('\n');
  check('finding the booking code');
  const passengers = findPassengers(infos);
  const statedPassengerCount = findPartySize(infos);
  check('finding the passengers');
  // An agency's mail: the brands of the airline whose flights it lists.
  const carriers = segments.map((segment) => segment.carrier).filter((code): code is string => !!code);
  const fareAirline =
    context.airline ??
    (carriers.length > 0 && carriers.every((code) => code === carriers[0]) ? airlineByCode(carriers[0]) : null);
  const fareType = findFareType(infos, regions, fareAirline);
  check('finding the fare');
  const totalPrice = findTotalPrice(infos, context, documentText);
  check('finding the total');
  const build = (code: string, parts: typeof segments): DraftBooking => ({
    bookingCode: code,
    airlineIata: null,
    airlineName: null,
    passengers,
    statedPassengerCount,
    segments: parts.map(({ pos: _pos, ...segment }) => segment),
    totalPrice,
    fareType,
  });
  if (distinct.length <= 1) {
    return distinct[0] ? [build(distinct[0], segments)] : [build('', segments)];
  }
  // Several record locators: each takes the legs printed after its first mention.
  const firstPos = new Map<string, number>();
  for (const mention of codes)
    firstPos.set(mention.code, Math.min(firstPos.get(mention.code) ?? Infinity, mention.pos));
  const firsts = distinct.map((code) => ({ code, pos: firstPos.get(code) ?? Infinity }));
  firsts.sort((a, b) => a.pos - b.pos);
  const bookings = firsts.map((entry, index) => {
    const next = firsts[index + 1]?.pos ?? Number.MAX_SAFE_INTEGER;
    const low = index === 0 ? -1 : entry.pos;
    // segments are in document order (legs are): the range is found by two binary searches
    const fromIndex = lastIndexBelow(segments, (segment) => segment.pos, low + 1) + 1;
    const toIndex = lastIndexBelow(segments, (segment) => segment.pos, next) + 1;
    return build(entry.code, segments.slice(fromIndex, toIndex));
  });
  const nonEmpty = bookings.filter((booking) => booking.segments.length > 0);
  if (nonEmpty.length <= 1) {
    // One locator carries the legs; the others were references repeated elsewhere.
    const owner = nonEmpty[0];
    return owner ? [{ ...owner, segments: segments.map(({ pos: _pos, ...segment }) => segment) }] : [];
  }
  return nonEmpty.map((booking) => ({ ...booking, totalPrice: null }));
}

/** The index of the last item whose key is below `limit` (-1 when none); items sorted by key. */
function lastIndexBelow<T>(items: readonly T[], key: (item: T) => number, limit: number): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (key(items[middle] as T) < limit) low = middle + 1;
    else high = middle;
  }
  return low - 1;
}

export { airlineByCode };
