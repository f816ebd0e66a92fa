// The generic extractor: reads any confirmation layout from its visible text, with labels in
// English, German, French and Spanish. It works on lines (table rows keep their cells):
//   1. tokens per line: dates, times, airport codes, routes ('MSP>SEA'), flight numbers, seats;
//   2. stops: an airport paired with the clock time printed beside it (same cell, neighbouring
//      cell or line); legs are consecutive stops (departure, arrival);
//   3. each leg takes the i-th flight number when counts agree, else the nearest one; the last
//      travel date printed before its departure; seat, cabin from its own rows;
//   4. booking code, passengers, total price and fare brand from their labels.
// Nothing here decides whether the result is a booking: validation does.
import type { TextLine } from './html.ts';
import type { DateToken, NumericDateOrder, TimeToken } from './dates.ts';
import { findDates, findTimes, resolveYear } from './dates.ts';
import type { AirportInfo } from './airports.ts';
import type { AirlineProfile } from './airlines.ts';
import { airlineByCode, FLIGHT_PREFIXES, ICAO_CODES, isKnownAirlineCode } from './airlines.ts';
import { cabinFromText } from './cabin.ts';
import { findCityAirports } from './cities.ts';
import { CURRENCY_CODES, currenciesMentioned, findAmounts } from './money.ts';
import { readName, sameName } from './names.ts';
import type { CabinClass, DraftBooking, DraftSegment, LocalDateTime, Money } from './types.ts';

export interface GenericContext {
  sent: Date | null;
  dateOrder: NumericDateOrder;
  /** The airline that sent the email (or the forwarded original), when known. */
  airline: AirlineProfile | null;
  subject: string;
  /** Airport facts for every three-letter code in the text that is a real airport. */
  airports: Map<string, AirportInfo>;
  /** Carrier codes seen in structured data; flight numbers with them are trusted. */
  extraCarriers?: Set<string>;
}

// ---- positions ----

const LINE_SPAN = 1_000_000;
const at = (line: number, offset: number): number => line * LINE_SPAN + offset;

// ---- sections of change emails ----

const CANCELLED_HEADING =
  /^(?:your\s+)?(?:previous|original|old|former|cancel+ed|replaced|removed)\s+(?:flights?|itinerary|schedule|trip|segments?|booking)\b|no longer valid|^(?:flight|flights)\s+(?:cancel+ed|removed)\b|^(?:alter?|urspr[üu]nglicher?|annullierter?|gestrichener?)\s+(?:flug|flüge|reiseverlauf)|^(?:ancien|vol annul[ée]|itin[ée]raire initial)|^(?:vuelo|itinerario)\s+(?:anterior|original|cancelado)|^(?:was|before|vorher|bisher|avant|antes)\s*:?\s*$/i;
const NEW_HEADING =
  /^(?:your\s+)?(?:new|updated|revised|current|rebooked|changed|confirmed)\s+(?:flights?|itinerary|schedule|trip|segments?|booking)\b|^(?:neuer?|aktualisierter?)\s+(?:flug|flüge|reiseverlauf)|^(?:nouveau|nouvel)\s+(?:vol|itin[ée]raire)|^(?:nuevo)\s+(?:vuelo|itinerario)|^(?:now|after|neu|jetzt|maintenant|apr[èe]s|ahora|despu[ée]s)\s*:?\s*$/i;

/** 'All other flights in your booking are unchanged:': what follows is still flown. */
const UNCHANGED_HEADING = /\b(?:unchanged|not\s+(?:been\s+)?changed|unver[äa]ndert|inchang[ée]e?s?|sin\s+cambios)\b/i;

const CANCELLED_STATUS =
  /^\s*(?:cancel+ed|removed|replaced|storniert|annulliert|gestrichen|annul[ée]e?|supprim[ée]e?|cancelad[oa]|anulad[oa])\s*$/i;

/** Drops the old itinerary of a change email: from an 'original/cancelled' heading to a 'new' one. */
export function dropCancelledSections(lines: TextLine[]): TextLine[] {
  const kept: TextLine[] = [];
  let skipping = false;
  for (const line of lines) {
    const text = line.text;
    if (text.length <= 80 && NEW_HEADING.test(text)) skipping = false;
    else if (text.length <= 80 && CANCELLED_HEADING.test(text)) skipping = true;
    else if (text.length <= 80 && UNCHANGED_HEADING.test(text)) skipping = false;
    // 'LH 1166 | 14 Jun 2027 | FRA | LIS | 10:05 | 12:15 | Cancelled': a row whose status cell says so.
    if (!skipping && !line.cells.some((cell) => CANCELLED_STATUS.test(cell))) kept.push(line);
  }
  return kept;
}

// ---- per-line tokens ----

interface AirportToken {
  start: number;
  end: number;
  code: string;
  paren: boolean;
}

interface FlightToken {
  line: number;
  start: number;
  pos: number;
  carrier: string | null;
  number: string;
  tier: 1 | 2;
}

interface Stop {
  line: number;
  pos: number;
  code: string;
  time: TimeToken;
  date: DateToken | null;
  role: 'dep' | 'arr' | null;
  pieceText: string;
}

interface LineInfo {
  line: TextLine;
  dates: DateToken[];
  travelDates: boolean;
  times: TimeToken[];
  masked: string;
  airports: AirportToken[];
  routes: Route[];
  pieces: [number, number][];
}

const NOT_AIRPORT_WORDS = new Set(
  (
    'USD EUR GBP CAD AUD NZD MXN JPY CHF CNY HKD SGD INR KRW SEK NOK DKK PLN BRL ZAR AED THB TWD ' +
    'THE AND FOR YOU ARE NOT ALL ANY NEW OLD ONE TWO VIA PER TAX FEE CAB ECO BAG PNR REF GST HST PST ' +
    'QST VAT TVA IVA EST EDT CST CDT MST MDT PDT PST AKST HST UTC GMT CET BST AST NST OUT RET DEP ARR ' +
    'FLT NON BUS CAR MRS YES SEE TBA TBD MON TUE WED THU FRI SAT SUN JAN FEB MAR APR MAY JUN JUL AUG ' +
    'SEP OCT NOV DEC AIR WAY DAY HRS MIN KGS LBS ADT CHD INF CAB SEA? TOT NET FAQ APP WEB URL PDF ' +
    'ICS VIP CEO HOT OFF GET PAY BUY USA UAE ITA GER FRA? ESP'
  )
    .split(/\s+/)
    .filter((word) => !word.endsWith('?')),
);

const PIECE_SEPARATOR = /\s*(?:\||→|->|—>|=>|⟶|➔|➝|✈|·|•|\s[–—-]\s|>{1}\s)\s*/g;

function pieceRanges(text: string): [number, number][] {
  const ranges: [number, number][] = [];
  let start = 0;
  let depth = 0;
  const separators: [number, number][] = [];
  PIECE_SEPARATOR.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = PIECE_SEPARATOR.exec(text)) !== null) {
    if (match[0].length === 0) {
      PIECE_SEPARATOR.lastIndex++;
      continue;
    }
    separators.push([match.index, match.index + match[0].length]);
  }
  let s = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '(') depth++;
    else if (char === ')') depth = Math.max(0, depth - 1);
    const separator = separators[s];
    if (separator && i === separator[0]) {
      if (depth === 0) {
        ranges.push([start, separator[0]]);
        start = separator[1];
      }
      s++;
      i = separator[1] - 1;
    }
  }
  ranges.push([start, text.length]);
  return ranges.filter(([a, b]) => b > a);
}

function pieceOf(info: LineInfo, offset: number): number {
  return info.pieces.findIndex(([a, b]) => offset >= a && offset < b);
}

const NON_TRAVEL_DATE_LINE =
  /\b(issue[ds]?|issuance|date of issue|booking date|booked on|booked|purchased?|payment|paid|order date|book by|valid until|expires?|born|birth|ausstellung|buchungsdatum|gebucht am|bezahlt|date d'[ée]mission|[ée]mis le|r[ée]serv[ée] le|fecha de emisi[óo]n|emitido|reservado el|free cancel+ation|cancel+ation until|sent|gesendet|envoy[ée])\b/i;

function mask(text: string, spans: { start: number; end: number }[]): string {
  let masked = text;
  for (const span of spans) {
    masked = masked.slice(0, span.start) + ' '.repeat(span.end - span.start) + masked.slice(span.end);
  }
  return masked;
}

/** 'HELSINKI  BARCELONA  0725  1010': four-digit clock times, read only beside two named places. */
const COMPACT_TIME = /(?<![\p{L}\d:.,/-])([01]\d|2[0-3])([0-5]\d)(?![\p{L}\d:.,/-])/gu;

function analyseLine(line: TextLine, context: GenericContext, byCityName = false): LineInfo {
  const text = line.text;
  const dates = findDates(text, context.dateOrder);
  const times = findTimes(text).filter((time) => !dates.some((date) => time.start < date.end && time.end > date.start));
  let masked = mask(text, [...dates, ...times]);
  const cities = byCityName ? findCityAirports(masked) : [];
  if (cities.length >= 2 && times.length === 0) {
    for (const match of masked.matchAll(COMPACT_TIME)) {
      const start = match.index ?? 0;
      times.push({ start, end: start + match[0].length, hour: Number(match[1]), minute: Number(match[2]) });
    }
    masked = mask(masked, times);
  }
  const pieces = pieceRanges(text);
  const airports: AirportToken[] = [];
  for (const match of masked.matchAll(/\(\s*([A-Z]{3})(?:\s*[-–,/:][^()]*)?\)/g)) {
    const code = match[1] ?? '';
    const index = match.index ?? 0;
    if (context.airports.has(code)) {
      const start = index + match[0].indexOf(code);
      airports.push({ start, end: start + 3, code, paren: true });
    }
  }
  const piecesWithParen = new Set(airports.map((airport) => pieceOfRange(pieces, airport.start)));
  for (const match of masked.matchAll(/(?<![A-Za-z0-9&@/.])([A-Z]{3})(?![A-Za-z0-9@]|\.[a-z])/g)) {
    const code = match[1] ?? '';
    const start = match.index ?? 0;
    if (airports.some((airport) => airport.start === start)) continue;
    if (NOT_AIRPORT_WORDS.has(code) || !context.airports.get(code)?.major) continue;
    if (piecesWithParen.has(pieceOfRange(pieces, start))) continue;
    if (insideParens(masked, start) || nextToCapsWord(masked, start, context)) continue;
    airports.push({ start, end: start + 3, code, paren: false });
  }
  // No code on the line: places named in full stand for their airport (see cities.ts).
  if (airports.length === 0) for (const city of cities) airports.push({ ...city, paren: false });
  // 'DXB / BKK 0950 1925': four-digit clock times beside two airport codes and no other time.
  if (times.length === 0 && airports.length >= 2) {
    const compact: TimeToken[] = [];
    for (const match of masked.matchAll(COMPACT_TIME)) {
      const start = match.index ?? 0;
      compact.push({ start, end: start + match[0].length, hour: Number(match[1]), minute: Number(match[2]) });
    }
    if (compact.length >= 2 && compact.length <= 4) {
      times.push(...compact);
      masked = mask(masked, compact);
    }
  }
  airports.sort((a, b) => a.start - b.start);
  // Codes inside a route ('MSP>SEA', 'AMS-JFK') label a leg, they are not stops of their own.
  const routes = findRoutes(masked, context);
  const free = airports.filter(
    (airport) => !routes.some((route) => airport.start >= route.start && airport.start < route.end),
  );
  return {
    line,
    dates,
    travelDates: !NON_TRAVEL_DATE_LINE.test(text),
    times,
    masked,
    airports: free,
    routes,
    pieces,
  };
}

function pieceOfRange(pieces: [number, number][], offset: number): number {
  return pieces.findIndex(([a, b]) => offset >= a && offset < b);
}

function insideParens(text: string, offset: number): boolean {
  const open = text.lastIndexOf('(', offset);
  const close = text.lastIndexOf(')', offset);
  return open > close && text.indexOf(')', offset) !== -1;
}

/** Upper-case labels printed before or after a code ('DEPARTS BWI 6:10 AM'): not place names. */
const STOP_LABEL_WORDS =
  /^(?:DEPARTS?|DEPARTING|DEPARTURE|ARRIVES?|ARRIVING|ARRIVAL|FROM|TO|VIA|DEP|ARR|ORIGIN|DESTINATION|FLIGHT|NONSTOP|STOP|STOPS|TERMINAL|GATE|AB|AN|VON|NACH|DE|A|DESDE|HACIA|SALIDA|LLEGADA|ORIGEN|DESTINO|PARTIDA|CHEGADA|ORIGINE|ARRIVEE|DEPART)$/;

/** 'NEW YORK', 'LOS ANGELES': a code glued to another all-caps word is part of a place name. */
function nextToCapsWord(text: string, start: number, context: GenericContext): boolean {
  const before = /([A-Za-z]+)[ ]$/.exec(text.slice(Math.max(0, start - 30), start));
  const after = /^[ ]([A-Za-z]+)/.exec(text.slice(start + 3, start + 33));
  const caps = (word: string | undefined): boolean =>
    !!word &&
    word.length >= 2 &&
    word === word.toUpperCase() &&
    !context.airports.has(word) &&
    !STOP_LABEL_WORDS.test(word);
  if (caps(after?.[1])) return true;
  // 'DUBAI DXB T3 / BANGKOK BKK': a city in capitals before its code, no capitals after it.
  return caps(before?.[1]) && (before?.[1]?.length ?? 0) < 4;
}

// ---- stops and legs ----

const DEPART_WORD = /\b(depart(?:s|ure|ing)?|dep\.?|abflug|ab|d[ée]part|salida|sale|from|von|outbound from)\b/i;
const ARRIVE_WORD = /\b(arriv(?:e|es|al|ing)|arr\.?|ankunft|an|arriv[ée]e|llegada|llega)\b/i;

function roleOf(piece: string): 'dep' | 'arr' | null {
  const dep = DEPART_WORD.test(piece);
  const arr = ARRIVE_WORD.test(piece);
  if (dep && !arr) return 'dep';
  if (arr && !dep) return 'arr';
  return null;
}

function findStops(infos: LineInfo[], _context: GenericContext): Stop[] {
  const stops: Stop[] = [];
  const usedTimes = new Set<string>();
  const timeKey = (line: number, time: TimeToken): string => `${line}:${time.start}`;
  const unpaired: { line: number; airport: AirportToken }[] = [];
  infos.forEach((info, lineIndex) => {
    const text = info.line.text;
    const pending: AirportToken[] = [];
    info.pieces.forEach(([a, b], pieceIndex) => {
      const airports = info.airports.filter((airport) => airport.start >= a && airport.start < b);
      const times = info.times.filter((time) => time.start >= a && time.start < b);
      const dates = info.dates.filter((date) => date.start >= a && date.start < b);
      const pieceText = text.slice(a, b);
      if (airports.length === 1 && times.length >= 1) {
        const airport = airports[0] as AirportToken;
        const time = nearest(times, airport.start) as TimeToken;
        usedTimes.add(timeKey(lineIndex, time));
        stops.push(makeStop(lineIndex, airport, time, dates.length === 1 ? (dates[0] ?? null) : null, pieceText));
      } else if (airports.length === 2 && times.length === 2 && (times[0]?.start ?? 0) > (airports[1]?.end ?? 0)) {
        // Columns 'FROM TO DEP ARR': both places, then their times, in order.
        airports.forEach((airport, i) => {
          const time = times[i] as TimeToken;
          usedTimes.add(timeKey(lineIndex, time));
          stops.push(makeStop(lineIndex, airport, time, null, pieceText));
        });
      } else if (airports.length >= 2 && times.length >= 1) {
        // Several stops in one piece: 'JFK 8:05 LAX 11:10' or '8:05 JFK 11:10 LAX'.
        const timeFirst = (times[0]?.start ?? 0) < (airports[0]?.start ?? 0);
        airports.forEach((airport, i) => {
          const next = airports[i + 1]?.start ?? b;
          const previous = airports[i - 1]?.end ?? a;
          const time = timeFirst
            ? [...times].reverse().find((t) => t.start < airport.start && t.start >= previous)
            : times.find((t) => t.start > airport.start && t.start < next);
          if (time) {
            usedTimes.add(timeKey(lineIndex, time));
            stops.push(makeStop(lineIndex, airport, time, null, pieceText));
          } else {
            pending.push(airport);
          }
        });
      } else if (airports.length >= 1) {
        for (const airport of airports) pending.push(airport);
      }
      void pieceIndex;
    });
    // Columns 'From | To | Date | Dep. | Arr.' or 'MSP to MSY · Delta 1544 · 10:20am - 1:05pm':
    // the line's only two places, then its only two times on one side of them, in order.
    const [first, second] = pending;
    if (pending.length === 2 && first && second && info.airports.length === 2 && info.times.length === 2) {
      const [early, late] = info.times as [TimeToken, TimeToken];
      const free = !usedTimes.has(timeKey(lineIndex, early)) && !usedTimes.has(timeKey(lineIndex, late));
      if (free && (early.start > second.end || late.end < first.start)) {
        const date = info.dates.length === 1 ? (info.dates[0] ?? null) : null;
        [first, second].forEach((airport, i) => {
          const time = i === 0 ? early : late;
          const piece = info.pieces[pieceOf(info, time.start)];
          usedTimes.add(timeKey(lineIndex, time));
          stops.push(
            makeStop(lineIndex, airport, time, i === 0 ? date : null, piece ? text.slice(piece[0], piece[1]) : ''),
          );
        });
        pending.length = 0;
      }
    }
    // An airport alone in its piece takes the time alone in the neighbouring piece.
    for (const airport of pending) {
      const index = pieceOf(info, airport.start);
      const candidates = [index + 1, index - 1]
        .map((i) => info.pieces[i])
        .filter((range): range is [number, number] => range !== undefined)
        .filter(([a, b]) => !info.airports.some((other) => other.start >= a && other.start < b));
      let paired = false;
      for (const [a, b] of candidates) {
        const time = info.times.find((t) => t.start >= a && t.start < b && !usedTimes.has(timeKey(lineIndex, t)));
        if (time) {
          usedTimes.add(timeKey(lineIndex, time));
          stops.push(makeStop(lineIndex, airport, time, null, text));
          paired = true;
          break;
        }
      }
      if (!paired) unpaired.push({ line: lineIndex, airport });
    }
  });
  // A route line ('London Heathrow (LHR) to New York JFK (JFK)') over a line of times without
  // airports ('Depart: 20 March 2027 at 08:25  Arrive: 20 March 2027 at 11:15'): in order.
  const pairedOnLine = new Set<number>();
  for (const { line } of unpaired) {
    const info = infos[line];
    const own = unpaired.filter((entry) => entry.line === line);
    if (!info || info.times.length > 0 || own.length !== 2 || pairedOnLine.has(line)) continue;
    // A line of bare codes ('(ATL) (DTW)') continues the table row above it; a route line with
    // place names heads the times printed below it.
    const codesOnly = /^[\s()A-Z/,-]{5,24}$/.test(info.line.text);
    const other = [...(codesOnly ? [line - 1] : []), line + 1].find((index) => {
      const candidate = infos[index];
      if (!candidate || candidate.airports.length > 0 || candidate.routes.length > 0) return false;
      const open = candidate.times.filter((t) => !usedTimes.has(timeKey(index, t)));
      return open.length === 2 && open.length === candidate.times.length;
    });
    const neighbour = other === undefined ? undefined : infos[other];
    if (other === undefined || !neighbour) continue;
    const free = neighbour.times.filter((t) => !usedTimes.has(timeKey(other, t)));
    pairedOnLine.add(line);
    own.forEach(({ airport }, i) => {
      const time = free[i] as TimeToken;
      const previous = i === 0 ? -1 : (free[i - 1]?.end ?? -1);
      const date = [...neighbour.dates].reverse().find((d) => d.start < time.start && d.start > previous) ?? null;
      usedTimes.add(timeKey(other, time));
      const piece = neighbour.pieces[pieceOf(neighbour, time.start)];
      const pieceText = piece ? neighbour.line.text.slice(piece[0], piece[1]) : '';
      stops.push(makeStop(line, airport, time, date, pieceText));
    });
  }
  // An airport alone on its line takes the only free time of the line before or after.
  for (const { line, airport } of unpaired) {
    const info = infos[line];
    if (!info || info.times.length > 0 || pairedOnLine.has(line)) continue;
    for (const other of [line - 1, line + 1]) {
      const neighbour = infos[other];
      if (!neighbour) continue;
      const free = neighbour.times.filter((t) => !usedTimes.has(timeKey(other, t)));
      if (free.length !== 1) continue;
      // 'DFW Dallas/Fort Worth 12:00 PM 4:31 PM' over 'LGA New York': the line above keeps its
      // last time for the arrival printed below it.
      if (
        neighbour.airports.length > 0 &&
        (other !== line - 1 || neighbour.airports.length !== 1 || free[0] !== neighbour.times.at(-1))
      )
        continue;
      const time = free[0] as TimeToken;
      usedTimes.add(timeKey(other, time));
      stops.push(makeStop(line, airport, time, null, `${neighbour.line.text} ${info.line.text}`));
      break;
    }
  }
  // 'MINNEAPOLIS 9:10a | SEATTLE 10:55a | MSP>SEA': two free times and a route on one line.
  infos.forEach((info, lineIndex) => {
    if (stops.some((stop) => stop.line === lineIndex)) return;
    const free = info.times.filter((t) => !usedTimes.has(timeKey(lineIndex, t)));
    if (free.length !== 2) return;
    const route = info.routes[0];
    if (!route || info.routes.length > 1) return;
    const [first, second] = free as [TimeToken, TimeToken];
    stops.push(
      makeStop(
        lineIndex,
        { start: route.start, end: route.start + 3, code: route.from, paren: false },
        first,
        null,
        '',
      ),
    );
    stops.push(
      makeStop(lineIndex, { start: route.end - 3, end: route.end, code: route.to, paren: false }, second, null, ''),
    );
  });
  return stops.sort((a, b) => a.pos - b.pos);

  function makeStop(
    line: number,
    airport: AirportToken,
    time: TimeToken,
    date: DateToken | null,
    pieceText: string,
  ): Stop {
    return { line, pos: at(line, airport.start), code: airport.code, time, date, role: roleOf(pieceText), pieceText };
  }
}

function nearest<T extends { start: number }>(items: T[], offset: number): T | undefined {
  let best: T | undefined;
  for (const item of items) {
    if (!best || Math.abs(item.start - offset) < Math.abs(best.start - offset)) best = item;
  }
  return best;
}

interface Route {
  start: number;
  end: number;
  from: string;
  to: string;
}

function findRoutes(text: string, context: GenericContext): Route[] {
  const routes: Route[] = [];
  for (const match of text.matchAll(/(?<![A-Za-z0-9])([A-Z]{3})\s?(?:-|–|—|>|→|\bto\b)\s?([A-Z]{3})(?![A-Za-z0-9])/g)) {
    const from = match[1] ?? '';
    const to = match[2] ?? '';
    if (from !== to && context.airports.has(from) && context.airports.has(to)) {
      routes.push({ start: match.index ?? 0, end: (match.index ?? 0) + match[0].length, from, to });
    }
  }
  return routes;
}

interface Leg {
  departure: Stop;
  arrival: Stop;
}

function pairLegs(stops: Stop[]): Leg[] {
  const legs: Leg[] = [];
  let i = 0;
  while (i < stops.length - 1) {
    const departure = stops[i] as Stop;
    const arrival = stops[i + 1] as Stop;
    if (departure.role === 'arr' || arrival.role === 'dep' || departure.code === arrival.code) {
      i += 1;
      continue;
    }
    legs.push({ departure, arrival });
    i += 2;
  }
  // The same leg printed twice (summary and details, or once per passenger).
  return legs.filter(
    (leg, index) =>
      !legs
        .slice(0, index)
        .some(
          (other) =>
            other.departure.code === leg.departure.code &&
            other.arrival.code === leg.arrival.code &&
            other.departure.time.hour === leg.departure.time.hour &&
            other.departure.time.minute === leg.departure.time.minute,
        ),
  );
}

// ---- flight numbers ----

const NOT_FLIGHT_CONTEXT =
  /(airbus|boeing|embraer|bombardier|canadair|aircraft|equipment|terminal|gate|frequent flyer|skymiles|aadvantage|mileageplus|miles & more|skywards|aeroplan|trueblue|member|ticket|box|suite|room|zimmer|postfach)\s*[:#]?\s*$/i;
const OPERATED_BY = /(operated by|operated as|durchgef[üu]hrt von|op[ée]r[ée] par|operado por)[^|·]*$/i;
const AMBIGUOUS_CODES = new Set([
  'AS',
  'AM',
  'DE',
  'TO',
  'NO',
  'OF',
  'IN',
  'ON',
  'AT',
  'IT',
  'BE',
  'IS',
  'OR',
  'SO',
  'UP',
  'US',
  'WE',
  'MY',
  'BY',
  'GO',
  'DO',
  'AN',
  'OK',
  'EU',
  'UK',
  'PM',
]);
const FLIGHT_LABEL =
  /(?:flight|flug|vol|vuelo|flt|flight no\.?|flight number|flugnummer|num[ée]ro de vol|n[úu]mero de vuelo)\s*[:#]?\s*$/i;
const PREFIX_PATTERN = new RegExp(
  `(?<![A-Za-z])(${FLIGHT_PREFIXES.map((entry) => entry.prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})\\s+(?:flight\\s+|flug\\s+)?(?:no\\.?\\s*|#\\s*)?0*(\\d{1,4})(?![A-Za-z0-9]|[-/.,:]\\d)`,
  'gi',
);
const ICAO_PATTERN = new RegExp(
  `(?<![A-Za-z0-9])(${[...ICAO_CODES.keys()].join('|')})\\s?0*(\\d{1,4})(?![A-Za-z0-9]|[-/.,:]\\d)`,
  'g',
);
const PREFIX_CODES = new Map(FLIGHT_PREFIXES.map((entry) => [entry.prefix.toLowerCase(), entry.iata]));

function findFlightTokens(infos: LineInfo[], context: GenericContext): FlightToken[] {
  const tokens: FlightToken[] = [];
  const booking = context.airline?.iata ?? null;
  infos.forEach((info, line) => {
    const text = info.masked;
    const taken: [number, number][] = [];
    const free = (start: number, end: number): boolean => !taken.some(([a, b]) => start < b && end > a);
    for (const match of text.matchAll(PREFIX_PATTERN)) {
      const start = match.index ?? 0;
      const carrier = PREFIX_CODES.get((match[1] ?? '').toLowerCase()) ?? null;
      const before = text.slice(Math.max(0, start - 60), start);
      if (OPERATED_BY.test(before)) continue;
      taken.push([start, start + match[0].length]);
      tokens.push({ line, start, pos: at(line, start), carrier, number: String(Number(match[2])), tier: 1 });
    }
    for (const match of text.matchAll(ICAO_PATTERN)) {
      const start = match.index ?? 0;
      const carrier = ICAO_CODES.get(match[1] ?? '') ?? null;
      const number = String(Number(match[2]));
      if (!carrier || number === '0' || !free(start, start + match[0].length)) continue;
      if (OPERATED_BY.test(text.slice(Math.max(0, start - 60), start))) continue;
      taken.push([start, start + match[0].length]);
      tokens.push({ line, start, pos: at(line, start), carrier, number, tier: 1 });
    }
    for (const match of text.matchAll(
      /(?<![A-Za-z0-9])([A-Z]{2}|[A-Z][0-9]|[0-9][A-Z])\s?-?\s?0*(\d{1,4})(?![A-Za-z0-9]|[-/.,:]\d)/g,
    )) {
      const start = match.index ?? 0;
      const end = start + match[0].length;
      const code = match[1] ?? '';
      const number = String(Number(match[2]));
      if (number === '0' || !free(start, end)) continue;
      const before = text.slice(Math.max(0, start - 60), start);
      if (NOT_FLIGHT_CONTEXT.test(before) || OPERATED_BY.test(before)) continue;
      const labelled = FLIGHT_LABEL.test(before);
      const known = isKnownAirlineCode(code) || context.extraCarriers?.has(code) === true;
      if (!known && !labelled) {
        // 'SS960' beside the times or places of a leg: a carrier the engine does not know.
        const glued = /^[A-Z]{2}\d/.test(match[0]) && !AMBIGUOUS_CODES.has(code);
        if (glued && (info.times.length > 0 || info.airports.length > 0 || info.routes.length > 0)) {
          taken.push([start, end]);
          tokens.push({ line, start, pos: at(line, start), carrier: code, number, tier: 2 });
        }
        continue;
      }
      if (AMBIGUOUS_CODES.has(code) && !labelled && code !== booking && /\s/.test(match[0])) continue;
      taken.push([start, end]);
      tokens.push({ line, start, pos: at(line, start), carrier: code, number, tier: 1 });
    }
    const labelPattern =
      /(?<![A-Za-z])(?:flight|flug|vol|vuelo|flt)\.?\s*(?:no\.?|nr\.?|number|n[°º]|#)?\s*[:#]?\s*0*(\d{1,4})(?![A-Za-z0-9]|[-/.,:]\d|\s*(?:of|von|de|sur|\/)\s*\d)/gi;
    for (const match of text.matchAll(labelPattern)) {
      const start = match.index ?? 0;
      if (!free(start, start + match[0].length)) continue;
      tokens.push({ line, start, pos: at(line, start), carrier: null, number: String(Number(match[1])), tier: 2 });
    }
    // A bare number in a 'Flight' column ('# 1402' under 'Flight | Departs | Arrives').
    const headers = info.line.headers;
    const column = headers ? headers.findIndex((header) => /^(?:flight|flug|vol|vuelo)\b/.test(header)) : -1;
    const cell = column >= 0 ? (info.line.cells[column] ?? '').trim() : '';
    const bare = /^(?:#|no\.?|nr\.?)?\s*0*(\d{1,4})$/i.exec(cell);
    if (bare?.[1] && Number(bare[1]) > 0) {
      const start = info.line.text.indexOf(cell);
      if (start >= 0 && free(start, start + cell.length))
        tokens.push({ line, start, pos: at(line, start), carrier: null, number: String(Number(bare[1])), tier: 2 });
    }
  });
  return tokens.sort((a, b) => a.pos - b.pos);
}

function flightKey(token: FlightToken): string {
  return `${token.carrier ?? ''}${token.number}`;
}

function assignFlights(legs: Leg[], tokens: FlightToken[]): (FlightToken | null)[] {
  const firstOccurrences = (tier: 1 | 2): FlightToken[] => {
    const seen = new Set<string>();
    return tokens.filter((token) => {
      if (token.tier !== tier) return false;
      const key = flightKey(token);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  };
  const tierOne = firstOccurrences(1);
  if (tierOne.length === legs.length) return tierOne;
  if (tierOne.length === 0) {
    const tierTwo = firstOccurrences(2);
    if (tierTwo.length === legs.length) return tierTwo;
  }
  // Counts disagree: each leg takes the nearest unused number between its neighbours.
  const pool = tierOne.length > 0 ? tokens.filter((token) => token.tier === 1) : tokens;
  const used = new Set<FlightToken>();
  return legs.map((leg, index) => {
    const low = legs[index - 1]?.arrival.pos ?? -1;
    const high = legs[index + 1]?.departure.pos ?? Number.MAX_SAFE_INTEGER;
    let best: FlightToken | null = null;
    let bestDistance = Number.MAX_SAFE_INTEGER;
    for (const token of pool) {
      if (used.has(token) || token.pos <= low || token.pos >= high) continue;
      const lineDistance = Math.abs(token.line - leg.departure.line);
      const distance =
        lineDistance * 1000 +
        (token.pos < leg.departure.pos ? 0 : 1) +
        Math.abs(token.pos - leg.departure.pos) / LINE_SPAN;
      if (distance < bestDistance) {
        best = token;
        bestDistance = distance;
      }
    }
    if (best) used.add(best);
    return best;
  });
}

// ---- seats, cabins ----

const SEAT_LABEL =
  /(?<![A-Za-z])(?:seats?|seat number|seat no\.?|sitzpl[aä]tze?|sitz|platz|si[èe]ges?|places?|asientos?|assentos?|lugar|posto)(?![A-Za-z])\.?\s*(?:no\.?|nr\.?|number|#)?\s*[:#|]?\s*/gi;
const SEAT_VALUE = /^(\d{1,2}[A-K])(?![A-Za-z0-9])/;
const NO_SEAT =
  /^(?:not (?:yet )?(?:reserved|assigned|selected|available)|none|n\/a|-+|—|–|tba|tbd|(?:to be )?assigned (?:at|during) (?:check-?in|the gate|gate)|at check-?in|unassigned|no seat|nicht (?:reserviert|zugewiesen)|keine?|non (?:attribu[ée]|r[ée]serv[ée])|sin (?:asignar|asiento)|no asignado|por asignar)/i;

interface SeatMention {
  line: number;
  pos: number;
  seat: string | null;
  route: { from: string; to: string } | null;
  /** The flight a per-passenger seat table heads its column with ('Passenger | SQ638 | SQ637'). */
  flight?: string;
}

/** A plain-text column heading line ending in 'SEAT': 'FLIGHT DATE FROM DEP TO ARR CLASS SEAT'. */
const SEAT_HEADING_LINE = /^(?:[\p{L}/.#]+\s+){3,12}(?:seat|seats|sitz|sitzplatz|si[èe]ge|asiento)$/iu;

const ROUTE_SEAT =
  /(?<![A-Za-z])([A-Z]{3})\s*(?:-|–|>|→|to)\s*([A-Z]{3})(?![A-Za-z])\s*[:|]?\s*(?:seats?\s*)?(\d{1,2}[A-K])(?![A-Za-z0-9])/g;
const FLIGHT_SEAT_LINE =
  /^\s*([A-Z][A-Z0-9]|[A-Z0-9][A-Z])\s?0*(\d{1,4})\s*[:|]\s*(?:seats?\s*)?(\d{1,2}[A-K])(?![A-Za-z0-9])/;
const NAME_THEN_SEATS =
  /^\s*(?:(?:mr|mrs|ms|miss|mstr|dr|herr|frau|mme|sr|sra)\.?\s+)?(\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+){1,3})\s*[:|]\s*(\d{1,2}[A-K](?:\s*[,/]\s*\d{1,2}[A-K])*)\s*$/u;
/** 'Seat Selection: 22A' is a label, not a traveller's name. */
const NOT_NAME_WORDS_LINE = /\b(?:seats?|sitz\w*|si[èe]ges?|asientos?|selection|assignment|number|row)\b/i;

function findSeatMentions(infos: LineInfo[]): SeatMention[] {
  const mentions: SeatMention[] = [];
  const seatMatrices = new Set<string>();
  let seatColumn = false;
  infos.forEach((info, line) => {
    const text = info.line.text;
    if (SEAT_HEADING_LINE.test(text)) {
      seatColumn = true;
      return;
    }
    if (seatColumn) {
      // 'SEAT' over '43A/43B' (one seat per passenger): the first passenger's.
      const last = /(?<![A-Za-z0-9])(\d{1,2}[A-K])(?:\s*[/,]\s*\d{1,2}[A-K])*$/.exec(text);
      if (last && info.times.length > 0)
        mentions.push({ line, pos: at(line, last.index), seat: last[1] ?? null, route: null });
      else if (info.times.length === 0) seatColumn = false;
    }
    // A flight row ending in a cell of seats ('| Main Cabin | 32A, 32B'): the first passenger's.
    const lastCell = info.line.cells.length >= 3 && !info.line.headers ? (info.line.cells.at(-1) ?? '').trim() : '';
    const seatCell = /^(\d{1,2}[A-K])(?:\s*[,/]\s*\d{1,2}[A-K])*$/.exec(lastCell);
    if (info.times.length >= 2 && seatCell?.[1])
      mentions.push({ line, pos: at(line, text.lastIndexOf(lastCell)), seat: seatCell[1], route: null });
    if (info.times.length === 0) {
      // 'BOS-KEF: 22A, 22B', 'BOS → KEF 22A / 22B; KEF → CPH ...': the first seat after each leg.
      for (const keyed of text.matchAll(ROUTE_SEAT)) {
        const [, from = '', to = '', seat = ''] = keyed;
        mentions.push({ line, pos: at(line, keyed.index ?? 0), seat, route: { from, to } });
      }
      // 'FI630: 22A (Tove), 22B (Jesper)': the first seat on a flight's own line.
      const flightSeat = FLIGHT_SEAT_LINE.exec(text);
      if (flightSeat?.[1] && flightSeat[3])
        mentions.push({
          line,
          pos: at(line, 0),
          seat: flightSeat[3],
          route: null,
          flight: `${flightSeat[1]}${flightSeat[2]}`,
        });
      // 'Tove Lindqvist: 22A, 18A' under a seat heading: one seat per leg, the first traveller's first.
      const namedSeats = NAME_THEN_SEATS.exec(text);
      if (namedSeats?.[1] && !NOT_NAME_WORDS_LINE.test(namedSeats[1])) {
        const offset = text.indexOf(namedSeats[2] ?? '');
        for (const seat of (namedSeats[2] ?? '').matchAll(/\d{1,2}[A-K]/g))
          mentions.push({ line, pos: at(line, offset + (seat.index ?? 0)), seat: seat[0], route: null });
      }
    }
    for (const match of text.matchAll(SEAT_LABEL)) {
      const start = (match.index ?? 0) + match[0].length;
      // 'Seats: Ms Harriet Lawson-Blake 23A · Mr Thomas Lawson-Blake 23B': the first traveller's.
      // 'Seats: Harriet Pell 12A, Rupert Pell 12B': untitled, a capitalised full name.
      const named =
        /^(?:(?:mr|mrs|ms|miss|mstr|dr|herr|frau|mme|sr|sra)\.?\s+)(?:[\p{L}'’-]+\s+){1,4}(\d{1,2}[A-K])(?![A-Za-z0-9])/iu.exec(
          text.slice(start),
        ) ?? /^(?:\p{Lu}[\p{Ll}'’-]+\s+){2,4}(\d{1,2}[A-K])(?![A-Za-z0-9])/u.exec(text.slice(start));
      if (named?.[1]) {
        mentions.push({ line, pos: at(line, start), seat: named[1], route: null });
        continue;
      }
      const rest = text.slice(start);
      if (SEAT_VALUE.test(rest)) {
        for (const seat of rest.matchAll(
          /(\d{1,2}[A-K])(?![A-Za-z0-9])(?:\s*\(([A-Z]{3})\s*[-–>→]\s*([A-Z]{3})\))?/g,
        )) {
          const offset = seat.index ?? 0;
          const gap = rest.slice(0, offset);
          if (offset > 0 && !/^(?:[\s\S]*?(?:,|and|&|\/|;|\)))\s*$/.test(gap)) break;
          if (offset > 60) break;
          mentions.push({
            line,
            pos: at(line, start + offset),
            seat: seat[1] ?? null,
            route: seat[2] && seat[3] ? { from: seat[2], to: seat[3] } : null,
          });
        }
      } else if (NO_SEAT.test(rest)) {
        mentions.push({ line, pos: at(line, start), seat: null, route: null });
      }
    }
    const headers = info.line.headers;
    const signature = headers?.join('|') ?? '';
    if (
      headers &&
      !seatMatrices.has(signature) &&
      !info.line.cells.every((cell, i) => cell.toLowerCase() === headers[i])
    ) {
      // The first passenger's row of a seat table with one column per flight.
      headers.forEach((header, index) => {
        const flight = /^([a-z0-9]{2})\s?0*(\d{1,4})(?:\s+seats?)?$/.exec(header);
        const cell = info.line.cells[index]?.trim() ?? '';
        // ... or one column per leg: 'Passenger | BOS-KEF | KEF-CPH'.
        const route = /^([a-z]{3})\s?[-–>→/]\s?([a-z]{3})$/.exec(header);
        if ((!flight && !route) || !/^\d{1,2}[A-K]$/.test(cell)) return;
        seatMatrices.add(signature);
        if (!flight) {
          const [, from = '', to = ''] = route ?? [];
          const where = { from: from.toUpperCase(), to: to.toUpperCase() };
          mentions.push({ line, pos: at(line, text.indexOf(cell)), seat: cell, route: where });
          return;
        }
        mentions.push({
          line,
          pos: at(line, text.indexOf(cell)),
          seat: cell,
          route: null,
          flight: `${(flight[1] ?? '').toUpperCase()}${flight[2] ?? ''}`,
        });
      });
    }
    if (headers) {
      headers.forEach((header, index) => {
        if (!/^(seats?|sitzplatz|si[èe]ge|places?|asientos?|assentos?|lugar|posto)\b/.test(header)) return;
        const cell = info.line.cells[index]?.trim() ?? '';
        if (SEAT_VALUE.test(cell) && cell.length <= 4) {
          mentions.push({ line, pos: at(line, text.indexOf(cell)), seat: cell, route: null });
        } else if (/^\d{1,2}[A-K](?:\s*[/,]\s*\d{1,2}[A-K])+$/.test(cell)) {
          // One seat per flight in one cell: '22C / 31A'.
          const offset = text.indexOf(cell);
          for (const seat of cell.matchAll(/\d{1,2}[A-K]/g))
            mentions.push({ line, pos: at(line, offset + (seat.index ?? 0)), seat: seat[0], route: null });
        } else if (cell && NO_SEAT.test(cell)) {
          mentions.push({ line, pos: at(line, text.indexOf(cell)), seat: null, route: null });
        }
      });
    }
  });
  return mentions.sort((a, b) => a.pos - b.pos);
}

/**
 * 'Mr John Smith  Seats: 14A, 3C' below the itinerary: one seat per leg, in leg order, when no
 * leg shows a seat in its own rows.
 */
function seatsListedAfterLegs(
  seats: SeatMention[],
  legs: Leg[],
  regions: [number, number][],
): (string | null)[] | null {
  if (legs.length < 2) return null;
  const lastArrival = legs[legs.length - 1]?.arrival.line ?? 0;
  const inRows = seats.some((mention) =>
    legs.some(
      (leg, index) =>
        mention.line >= leg.departure.line && mention.line < Math.min(regions[index]?.[1] ?? 0, lastArrival + 1),
    ),
  );
  if (inRows) return null;
  const byLine = new Map<number, SeatMention[]>();
  for (const mention of seats) {
    if (mention.line <= lastArrival || mention.route || !mention.seat) continue;
    byLine.set(mention.line, [...(byLine.get(mention.line) ?? []), mention]);
  }
  const first = [...byLine.values()][0];
  // Several travellers' lists on one line ('Seats: 21A, 19C | ... Seats: 21B, 19D'): the first.
  return first && first.length % legs.length === 0 ? first.slice(0, legs.length).map((mention) => mention.seat) : null;
}

const CABIN_LABEL =
  /(?<![A-Za-z])(?:cabin|class|travel class|klasse|reiseklasse|classe|clase|cabina)\s*[:|]\s*([^|·•,;]+)/i;

/** The cabin a document names on a short cabin line ('Business Class · Fare: ...'), for markup without one. */
export function documentCabin(lines: TextLine[], airline: AirlineProfile | null): CabinClass | null {
  for (const line of lines) {
    const text = line.text;
    if (text.length > 80 || !/\b(?:class|cabin|klasse|classe|clase|cabina)\b/i.test(text)) continue;
    const labelled = CABIN_LABEL.exec(text)?.[1];
    const cabin = cabinFromText(labelled ?? text, airline);
    if (cabin) return cabin;
  }
  return null;
}

function cabinOfLines(infos: LineInfo[], from: number, to: number, airline: AirlineProfile | null): CabinClass | null {
  for (let line = from; line < to; line++) {
    const info = infos[line];
    if (!info) continue;
    const labelled = CABIN_LABEL.exec(info.line.text);
    if (labelled?.[1]) {
      const cabin = cabinFromText(labelled[1], airline);
      if (cabin) return cabin;
    }
    const headers = info.line.headers;
    if (headers) {
      const index = headers.findIndex((header) => /^(cabin|class|klasse|classe|clase)/.test(header));
      const cabin = index >= 0 ? cabinFromText(info.line.cells[index] ?? '', airline) : null;
      if (cabin) return cabin;
    }
    if (/^(?:fare|tarif|tarifa)\b/i.test(info.line.text)) continue;
    const cabin = cabinFromText(info.line.text, airline);
    if (cabin) return cabin;
  }
  return null;
}

// ---- booking codes ----

const CODE_LABEL = new RegExp(
  [
    '(?:confirmation|booking|reservation|record|airline|flight)\\s*(?:code|number|no\\.?|nr\\.?|#|reference|ref\\.?|locator|id)',
    'record\\s+locator',
    'booking\\s+ref(?:erence)?',
    '\\bpnr\\b',
    'confirmation(?=\\s*(?:\\([^()]{1,30}\\)\\s*)?[:#|])',
    'reference\\s*(?:code|number)?(?=\\s*[:#|])',
    'reservation(?=\\s*[:#|])',
    'e-?ticket\\s+itinerary\\s+and\\s+receipt\\s+for\\s+confirmation',
    'buchungs(?:code|nummer|referenz)',
    'reservierungs(?:code|nummer)',
    'vorgangsnummer',
    'buchung(?=\\s*[:#|])',
    'filekey',
    'r[ée]f[ée]rence\\s+(?:de\\s+(?:la\\s+)?|du\\s+)?(?:r[ée]servation|dossier)',
    '(?:num[ée]ro|n[°º]|no\\.?)\\s*de\\s+(?:r[ée]servation|dossier|confirmation)',
    'code\\s+de\\s+(?:r[ée]servation|confirmation)',
    'localisateur',
    'localizador(?:\\s+de\\s+(?:la\\s+)?reserva)?',
    'c[óo]digo\\s+de\\s+(?:reservaci[óo]n|reserva|confirmaci[óo]n)',
    'clave\\s+de\\s+(?:reservaci[óo]n|reserva|confirmaci[óo]n)',
    'localizador\\s+da\\s+reserva',
    'n[úu]mero\\s+da\\s+reserva',
    'referencia\\s+de\\s+(?:la\\s+)?reserva',
    'n[úu]mero\\s+de\\s+(?:reservaci[óo]n|reserva|confirmaci[óo]n)',
  ].join('|'),
  'gi',
);
const CODE_AFTER_LABEL =
  /^\s*(?:(?:is|ist|lautet|est|es|:|#|\||-|–|no\.?|number|\((?:pnr|code|[\p{L} ]{1,30})\))\s*)*([A-Z0-9]{5,8})(?![A-Za-z0-9])/u;
const NOT_CODES = new Set([
  'PENDING',
  'CONFIRM',
  'NUMBER',
  'TICKET',
  'BOOKING',
  'STATUS',
  'DETAILS',
  'ISSUED',
  'CODE',
  'AIRLINE',
  'FLIGHT',
  'RECEIPT',
  'ONLINE',
  'CHANGE',
  'CHANGED',
  'NUMMER',
  'NUMERO',
]);
/** Hotel, car and agency references are not airline record locators. */
const FOREIGN_CODE_CONTEXT =
  /(promo|promotional|discount|voucher|coupon|gift|gutschein|rabatt|code promo|c[óo]digo promocional|hotel|room|zimmer|chambre|habitaci[óo]n|car rental|rental car|mietwagen|location de voiture|alquiler|vehicle|trip id|itinerary number|expedia|booking\.com|priceline|agency|agentur|agence|agencia|order|lounge|parking|parkplatz|insurance|versicherung|assurance|policy|baggage|luggage|gep[äa]ck|bag|tracking|offer|upgrade|tour|transfer|shuttle)\s*$/i;

export interface CodeMention {
  code: string;
  line: number;
  pos: number;
}

export function isPlausibleCode(code: string): boolean {
  return /^[A-Z0-9]{5,8}$/.test(code) && /[A-Z]/.test(code) && !NOT_CODES.has(code);
}

function findBookingCodes(infos: LineInfo[]): CodeMention[] {
  const found: CodeMention[] = [];
  infos.forEach((info, line) => {
    const text = info.line.text;
    for (const match of text.matchAll(CODE_LABEL)) {
      const start = match.index ?? 0;
      const before = text.slice(Math.max(0, start - 40), start);
      if (FOREIGN_CODE_CONTEXT.test(before)) continue;
      const rest = text.slice(start + match[0].length);
      const after = CODE_AFTER_LABEL.exec(rest);
      // 'CONFIRMATION CODE' on a line of its own, the code alone on the next line.
      const below = infos[line + 1]?.line.text.trim() ?? '';
      const code = after?.[1] ?? (/^[\s:#]*$/.test(rest) && /^[A-Z0-9]{5,8}$/.test(below) ? below : undefined);
      if (!code || !isPlausibleCode(code)) continue;
      found.push({ code, line, pos: at(line, start) });
    }
  });
  return found;
}

function codeFromSubject(subject: string): string | null {
  for (const match of subject.matchAll(CODE_LABEL)) {
    const after = CODE_AFTER_LABEL.exec(subject.slice((match.index ?? 0) + match[0].length));
    if (after?.[1] && isPlausibleCode(after[1])) return after[1];
  }
  return null;
}

// ---- passengers ----

const PASSENGER_LABEL =
  /(?<![A-Za-z])(passengers?|travell?ers?|guests?|passenger names?|traveller names?|name of passenger|reisender?|reisenden|passagiere?|fluggäste|fluggast|passagers?|passag[èe]res?|voyageurs?|pasajeros?|viajeros?|nom du passager|nombre del pasajero|passageiros?|viajantes?|nome do passageiro)(?![A-Za-z])\s*(?:info(?:rmation)?|details|names?|\(s\))?(?:\s*\d{1,2}(?=\s*[:|]))?\s*([:|#])?\s*/gi;

/** 'Name: ABIGAIL FENWICK' under a 'Passenger Info' heading. */
const NAME_LABEL = /^\s*(?:full\s+)?(?:name|nom|nombre)\s*:\s*/i;
const TITLED_SLASH_LIST = /^\s*(?:[\p{Lu}][\p{Lu}'’-]*\s+){2,4}(?:MR|MRS|MS|MISS|MSTR|DR)\.?\s+\/\s+\p{Lu}/u;
const NAME_LIST_SEPARATOR =
  /\s*[,;&]\s*|\s+(?:and|und|et|y)\s+|\s+(?=(?:mr|mrs|ms|miss|mstr|dr|herr|frau|mme|mlle|sr|sra|kind|child|infant|enfant|bébé|niño|niña)\.?\s)/i;

/** 'Herr Jürgen Oberländer, Frau Sabine Oberländer': every name of a list after one label. */
function readNameList(rest: string, first: string): string[] {
  // 'SAKURAGI HARUTO MR / SAKURAGI MEI MS': reservation-style names, one per slash.
  const separator = TITLED_SLASH_LIST.test(rest) ? /\s+\/\s+/ : NAME_LIST_SEPARATOR;
  const parts: string[] = [];
  for (const part of rest.split(separator).filter((piece) => piece.trim() !== '')) {
    // 'Herr Dr. Jürgen Weiß': a part of titles only belongs to the name after it.
    const previous = parts[parts.length - 1];
    const titlesOnly = (text: string): boolean =>
      text.trim().split(/\s+/).length <= 3 &&
      text
        .trim()
        .split(/\s+/)
        .every((word) => /^\p{L}{1,5}\.?$/u.test(word));
    if (previous !== undefined && titlesOnly(previous) && !readName(previous))
      parts[parts.length - 1] = `${previous} ${part}`;
    else parts.push(part);
  }
  if (parts.length < 2) return [first];
  const names: string[] = [];
  for (const part of parts) {
    const reading = readName(part);
    if (!reading) break;
    names.push(reading.name);
  }
  return names.length >= 2 && sameName(names[0] ?? '', first) ? names : [first];
}

const TRAVELLER_TYPE_LABEL =
  /^\s*(?:adult|child|infant|youth|senior|erwachsene[rn]?|kind|jugendliche[rn]?|adulte|enfant|b[ée]b[ée]|adulto|niñ[oa]|beb[ée])\s*\d{1,2}\s*[:|]\s*/i;
const GIVEN_HEADER = /^(?:first|given)\s+names?$|^forenames?$|^vornamen?$|^pr[ée]noms?$|^nombres?$/i;
const FAMILY_HEADER = /^(?:last|family)\s+names?$|^surnames?$|^nachnamen?$|^nom(?:\s+de\s+famille)?$|^apellidos?$/i;
const TRAVELLER_HEADER = /^(?:passengers?|travell?ers?|passenger names?|names?|reisende[rn]?|passagers?|pasajeros?)$/i;
/** 'Example, John' (its title already cut): FAMILY, GIVEN. */
const COMMA_NAME = /^(\p{Lu}[\p{L}'’-]+(?:\s\p{Lu}[\p{L}'’-]+)?),\s*(\p{Lu}[\p{L}'’-]+(?:\s\p{Lu}[\p{L}'’-]+)?)$/u;
const NAME_COLUMN_HEADER =
  /^\s*(?:full\s+)?(?:names?|passengers?(?:\s+names?)?|travell?ers?|nom|nombre|nome|vor-?\s*und\s+nachname)\s*$/i;

const GIVEN_LABEL =
  /^\s*(?:first names?|given names?|forenames?|nombres?|vornamen?|pr[ée]noms?)\s*[:|]\s*(?:\|\s*)?([\p{L}'’ -]{2,40}?)\s*$/iu;
const FAMILY_LABEL =
  /^\s*(?:last names?|surnames?|family names?|apellidos?|nachnamen?|nom de famille|noms?)\s*[:|]\s*(?:\|\s*)?([\p{L}'’ -]{2,40}?)\s*$/iu;

const GREETING_NOT_NAME =
  /\b(?:customer|traveller|traveler|passenger|guest|member|friend|flyer|flier|team|sir|madam|valued|kunde|kundin|client|cliente|viajero)s?\b/i;

function findPassengers(infos: LineInfo[]): string[] {
  const names: string[] = [];
  const add = (name: string): void => {
    if (!names.some((known) => sameName(known, name))) names.push(name);
  };
  infos.forEach((info, line) => {
    const text = info.line.text;
    for (const match of text.matchAll(PASSENGER_LABEL)) {
      const start = match.index ?? 0;
      // A label in running text ('the passenger named on the ticket') is not a label.
      if (start > 0 && !/[\s|·:(]$/.test(text.slice(0, start))) continue;
      const explicit = !!match[2];
      const rest = text.slice(start + match[0].length);
      const reading = rest.trim() ? readName(rest) : null;
      if (reading && (explicit || reading.marked)) {
        for (const name of readNameList(rest, reading.name)) add(name);
        continue;
      }
      if (rest.trim() && reading) continue;
      // 'TOTAL PAID (ALL PASSENGERS) AED 8490.00': a label inside a line of figures heads nothing.
      if (findAmounts(rest).length > 0) continue;
      // A heading ('Passengers', 'Traveler  eTicket Number') followed by one name per line; under
      // a heading alone on its line, a capitalised 'Given Family' counts without title or caps.
      const headingAlone = start === 0 && rest.trim() === '';
      for (let next = line + 1; next < Math.min(infos.length, line + 10); next++) {
        const cell = (infos[next]?.line.cells.find((value) => value.trim() !== '') ?? '')
          .replace(NAME_LABEL, '')
          .replace(/^\s*\d{1,2}[.)]\s+/, ''); // '1. Frau Dr. Hannelore ...'
        // 'Name | SQ 325 | SQ 231': the header row of a traveller table under the heading.
        if (next === line + 1 && NAME_COLUMN_HEADER.test(cell)) continue;
        const candidate = readName(cell);
        const capitalised = !!candidate && candidate.name.split(' ').every((word) => /^\p{Lu}\p{Ll}/u.test(word));
        if (!candidate || !(candidate.marked || (headingAlone && capitalised))) break;
        // Travellers separated only by their titles when line breaks were lost.
        for (const name of candidate.marked ? readNameList(cell, candidate.name) : [candidate.name]) add(name);
        // 'MR JAMES FITZGERALD Seats: 21A | MRS SIOBHAN FITZGERALD Seats: 21B': one per cell.
        for (const other of (infos[next]?.line.text ?? '').split(/\s+\|\s+/).slice(1)) {
          const reading = /^\s*(?:mr|mrs|ms|miss|mstr|dr|herr|frau|mme|sr|sra)\.?\s/i.test(other)
            ? readName(other)
            : null;
          if (reading?.marked) add(reading.name);
        }
      }
    }
  });
  // A traveller table: 'First name | Last name' columns, or 'Passenger | ...' holding 'Example, John Mr'.
  if (names.length === 0) {
    for (const info of infos) {
      const headers = info.line.headers;
      if (!headers || info.line.cells.every((cell, i) => cell.toLowerCase() === (headers[i] ?? ''))) continue;
      const cell = (pattern: RegExp): string =>
        info.line.cells[headers.findIndex((header) => pattern.test(header))] ?? '';
      const given = cell(GIVEN_HEADER).trim();
      const family = cell(FAMILY_HEADER).trim();
      const whole = cell(TRAVELLER_HEADER)
        .trim()
        .replace(/\s+(?:mr|mrs|ms|miss|mstr|dr|herr|frau|mme|sr|sra)\.?$/i, '');
      const commaForm = COMMA_NAME.exec(whole);
      const text = given && family ? `${given} ${family}` : commaForm ? `${commaForm[2]} ${commaForm[1]}` : '';
      const reading = text && /^[\p{L}'’ .-]+$/u.test(text) ? readName(text) : null;
      if (reading) add(reading.name);
    }
  }
  // 'Adult 1: John Example', 'Erwachsener 2: Jane Example': travellers counted by their type.
  if (names.length === 0) {
    for (const info of infos) {
      const label = TRAVELLER_TYPE_LABEL.exec(info.line.text);
      const reading = label ? readName(info.line.text.slice(label[0].length)) : null;
      if (reading) add(reading.name);
    }
  }
  if (names.length === 0) {
    // 'Nombre: ALEJANDRO JOSE' over 'Apellidos: GOMEZ PAREDES': given and family names apart.
    infos.forEach((info, line) => {
      const given = GIVEN_LABEL.exec(info.line.text);
      const family = given ? FAMILY_LABEL.exec(infos[line + 1]?.line.text ?? '') : null;
      if (!given?.[1] || !family?.[1]) return;
      const reading = readName(`${given[1]} ${family[1]}`);
      if (reading) add(reading.name);
    });
  }
  if (names.length === 0) {
    for (const info of infos) {
      const greeting =
        /^(?:dear|hello|hi|hallo|sehr geehrter?|liebe[r]?|bonjour|cher|ch[èe]re|estimad[oa]|hola)\s+(.+)$/i.exec(
          info.line.text,
        );
      if (!greeting?.[1]) continue;
      const reading = readName(greeting[1].replace(/[,!].*$/, ''));
      const titled = /^(?:mr|mrs|ms|miss|dr|herr|frau|m\.|mme|sr|sra)\.?\s/i.test(greeting[1]);
      // 'Dear Mathis Thibodeau,': an untitled greeting counts only as a full, capitalised name.
      const fullName =
        /^\p{Lu}[\p{Ll}'’-]+(?:\s+\p{Lu}[\p{Ll}'’-]+){1,3}\s*[,!:]?\s*$/u.test(greeting[1]) &&
        !GREETING_NOT_NAME.test(greeting[1]);
      // 'Dear ÖZTÜRK/SELIN MRS,': the airline's SURNAME/GIVEN form is a name by its shape.
      const slashName = /^\p{Lu}[\p{Lu}'’ -]*\/\p{Lu}[\p{Lu}'’ -]*[,!:]?\s*$/u.test(greeting[1]);
      if (reading && (titled || fullName || slashName)) add(reading.name);
      break;
    }
  }
  return names;
}

// ---- price ----

const TOTAL_LABEL =
  /(grand total|total paid|total price|total fare|trip total|total cost|total amount|total charged|amount paid|amount charged|ticket amount|e-?ticket total|total to pay|total due|total|gesamtpreis|gesamtbetrag|gesamtsumme|gesamt(?=\s*[:|])|summe(?=\s*[:|])|endpreis|zu zahlender betrag|prix total|montant total|total pay[ée]|total [àa] payer|importe total|precio total|total pagado|total a pagar)(?![A-Za-z])/i;
const NOT_TOTAL =
  /sub-?total|per (?:passenger|person|adult|traveller|traveler|pax)|pro person|par personne|por persona|total (?:of )?tax|taxes? total|fees? total|points|miles|meilen|avios|total (?:travel|flight|journey) time|total duration|gesamtdauer|dur[ée]e totale|duraci[óo]n total|total distance/i;

function findTotalPrice(infos: LineInfo[], context: GenericContext, documentText: string): Money | null {
  const candidates: { amount: number; currency: string | null; dollar: boolean; line: number }[] = [];
  infos.forEach((info, line) => {
    const text = info.line.text;
    const label = TOTAL_LABEL.exec(text);
    if (!label) return;
    // 'Fare per adult: ... | Total fare: ...': only the label's own cell and the next one count.
    const cellStart = text.lastIndexOf('|', label.index) + 1;
    const nextBar = text.indexOf('|', label.index);
    const cellEnd = nextBar < 0 ? text.length : text.indexOf('|', nextBar + 1) + 1 || text.length;
    // '... (per adult) ¥ 16,380 Total amount ¥ 248,760' on one line: only the label's own words.
    const labelEnd = (label.index ?? 0) + label[0].length;
    const window = text.slice(Math.max(cellStart, (label.index ?? 0) - 8), Math.min(cellEnd, labelEnd + 30));
    if (NOT_TOTAL.test(window)) return;
    const after = text.slice((label.index ?? 0) + label[0].length);
    // 'Total: 2 x EUR 156.20 = EUR 312.40': the amount after the equals sign.
    const equals = /\d\s*[x×]\s*[^=]{1,20}=\s*(?=\S)/.exec(after);
    let amounts = findAmounts(equals ? after.slice(equals.index + equals[0].length) : after);
    let sourceText = text;
    if (amounts.length === 0 && after.trim().length < 25) {
      const next = infos[line + 1];
      if (next && !TOTAL_LABEL.test(next.line.text)) {
        amounts = findAmounts(next.line.text);
        sourceText = `${text} ${next.line.text}`;
      }
    }
    const amount = amounts[0];
    if (!amount) return;
    const lineCurrency = amount.currency ?? currenciesMentioned(sourceText)[0] ?? null;
    candidates.push({ amount: amount.amount, currency: lineCurrency, dollar: amount.dollarSign, line });
  });
  if (candidates.length === 0) return null;
  const best = candidates.reduce((a, b) => (b.amount > a.amount ? b : a));
  const amount = context.airline ? best.amount : withoutAgencyFee(infos, best.amount, documentText);
  const documentCurrency = currenciesMentioned(documentText)[0] ?? null;
  const currency = best.currency ?? documentCurrency ?? context.airline?.currency ?? 'USD';
  return { amountCents: Math.round(amount * 100), currency };
}

const AGENCY_FEE = /\b(?:agency|service|booking|processing)\s+fees?\b/i;

/**
 * An agency's 'Trip total' adds its own fee, which is not part of the airline booking: the fee
 * comes off when the flights' own amount (total minus fee) is printed in the email too.
 */
function withoutAgencyFee(infos: LineInfo[], total: number, documentText: string): number {
  const printed = new Set(findAmounts(documentText).map((entry) => Math.round(entry.amount * 100)));
  // A handful of fee rows at most: the breakdown check stays bounded on hostile input.
  let breakdownChecks = 0;
  for (const [index, info] of infos.entries()) {
    const text = info.line.text;
    const label = AGENCY_FEE.exec(text);
    if (!label || /airline|carrier|government|airport/i.test(text)) continue;
    const fee = findAmounts(text.slice(label.index))[0]?.amount ?? 0;
    const rest = Math.round((total - fee) * 100);
    if (!(fee > 0 && fee < total)) continue;
    if (printed.has(rest)) return rest / 100;
    if (breakdownChecks++ < 8 && partOfBreakdown(infos, index, total)) return rest / 100;
  }
  return total;
}

/** The fee's line is one row of a run of priced rows ('Flight', 'Taxes', 'Booking fee') that add up to the total. */
function partOfBreakdown(infos: LineInfo[], feeLine: number, total: number): boolean {
  const cents = (line: number): number | null => {
    const amounts = findAmounts(infos[line]?.line.text ?? '');
    return amounts.length === 1 && amounts[0] ? Math.round(amounts[0].amount * 100) : null;
  };
  const target = Math.round(total * 100);
  for (let from = Math.max(0, feeLine - 6); from <= feeLine; from++) {
    let sum = 0;
    for (let line = from; line <= Math.min(infos.length - 1, feeLine + 6); line++) {
      const value = cents(line);
      if (value === null) break;
      sum += value;
      if (line >= feeLine && line > from && sum === target) return true;
    }
  }
  return false;
}

// ---- fare brand ----

const FARE_LABEL =
  /(?<![A-Za-z])(fare type|fare brand|fare family|fare class name|fare name|fare product|fare option|tarifname|nom du tarif|your fare|fare|tarif(?:typ|option)?|tarifa|type de tarif|tipo de tarifa|ticket type|bundle)\s*([:|])\s*/gi;
const FARE_IN_PARENTHESES = /\((?:[Tt]arifa|[Tt]arif|[Ff]are)\s+(\p{Lu}[\p{L}+'’-]*(?:\s[\p{L}+'’-]+){0,2})\)/u;
const FARE_WORD_THEN_NAME =
  /(?<![\p{L}])(?:Tarifa|Tarif)\s+(\p{Lu}\p{Ll}+(?:\s\p{Lu}\p{Ll}+)?)(?=\s*(?:$|[|·,;(]|\s[-–—]\s))/u;
const NOT_A_FARE_NAME =
  /^(?:a[ée]rea|a[ée]rien(?:ne)?|base|total|neta|bruta|normal|por|del?|des|du|und|y|et|bedingungen|hinweise|details?|regeln|condiciones|conditions|reglas|r[èe]gles|informationen|informaci[óo]n|pro|por\s+persona)\b/i;
const GENERIC_FARE_BRANDS = [
  'Basic Economy',
  'Economy Light',
  'Economy Classic',
  'Economy Flex',
  'Economy Saver',
  'Economy Standard',
  'Economy Basic',
  'Economy Lite',
  'Economy Semi-Flex',
  'Blue Basic',
  'Bare Fare',
  'Premium Economy Flex',
];

const AMBIGUOUS_BRAND =
  /^(?:economy|business|first|first class|premium|premium economy|premium class|main|plus|economy plus|comfort|standard|classic|flex|lite|light|value|executive)$|\bcabin\b/i;

function cleanFareValue(raw: string): string | null {
  // The next label on the same line ends the value: 'Tarifa: Basic   Asiento: 14D'.
  const nextLabel = /\s\p{L}[\p{L}.]*\s*:/u.exec(raw);
  const value = (nextLabel ? raw.slice(0, nextLabel.index) : raw)
    .split(
      /\s[(–—-]\s?|\s\(|[|·•,;:]|\.(?:\s|$)|\s+[$€£¥]|\s+[A-Z]{3}\s*\d|\s+\d|\s+(?:total|price|amount|gesamtpreis|prix|precio|montant)\b/i,
    )[0]
    ?.trim()
    .replace(/[.!]+$/, '');
  if (!value || value.length < 2 || value.length > 40) return null;
  // 'Class / Fare | Economy / Light': the brand after the cabin.
  const afterCabin = /^(?:premium economy|economy|business|first)(?:\s+class)?\s*\/\s*(\p{L}.*)$/iu.exec(value)?.[1];
  if (afterCabin) return cleanFareValue(afterCabin);
  if (CURRENCY_CODES.has(value)) return null;
  if (!/^\p{L}/u.test(value) || /\d/.test(value) || value.split(/\s+/).length > 4) return null;
  if (
    /^(?:rules?|basis|calculation|conditions?|details?|summary|includes?|non-?refundable|refundable|total|per|price|amount|bedingungen)\b/i.test(
      value,
    )
  )
    return null;
  return value;
}

function normaliseFareBrand(value: string, airline: AirlineProfile | null): string {
  if (!airline) return value;
  const prefix = airline.fareBrandCabinPrefix;
  if (prefix && value.toLowerCase().startsWith(`${prefix.toLowerCase()} `)) {
    const rest = value.slice(prefix.length + 1);
    if (airline.fareBrands.some((brand) => brand.toLowerCase() === rest.toLowerCase())) return rest;
  }
  return value;
}

function findFareType(infos: LineInfo[], regions: [number, number][], airline: AirlineProfile | null): string | null {
  for (const info of infos) {
    const text = info.line.text;
    const headerRow =
      info.line.headers !== null &&
      info.line.cells.every((cell, i) => cell.toLowerCase() === (info.line.headers?.[i] ?? ''));
    if (headerRow) continue;
    // '(Tarifa Basic)', '(Fare Saver)': a label without a colon, in parentheses.
    const bracketed = FARE_IN_PARENTHESES.exec(text)?.[1];
    if (bracketed && !AMBIGUOUS_BRAND.test(bracketed)) return normaliseFareBrand(bracketed, airline);
    // 'Turista - Tarifa Básica | Asiento 33H': 'Tarifa' and a capitalised name, no colon.
    const named = FARE_WORD_THEN_NAME.exec(text)?.[1];
    if (named && !NOT_A_FARE_NAME.test(named) && !AMBIGUOUS_BRAND.test(named))
      return normaliseFareBrand(named, airline);
    for (const match of text.matchAll(FARE_LABEL)) {
      const start = match.index ?? 0;
      // 'Fare | ...' is a label only as a whole cell: 'Class / Fare | Seat' is a column heading.
      if (match[2] === '|' && start > 0 && !/\|\s*$/.test(text.slice(0, start))) continue;
      const value = cleanFareValue(text.slice(start + match[0].length));
      if (value) return normaliseFareBrand(value, airline);
    }
    const headers = info.line.headers;
    if (headers) {
      const index = headers.findIndex((header) => /\bfare\b|tarif/.test(header) && !/basis|rules/.test(header));
      const value = index >= 0 ? cleanFareValue(info.line.cells[index] ?? '') : null;
      if (value && !/^(economy|business|first|premium economy)$/i.test(value))
        return normaliseFareBrand(value, airline);
    }
  }
  // 'Cabin: Main Cabin': a cabin label whose whole value is one of the airline's fare brands.
  for (const info of infos) {
    const value =
      CABIN_LABEL.exec(info.line.text)?.[1]
        ?.trim()
        .split(/\s{2,}|\s+(?=\p{L}+\s*:)/u)[0] ?? '';
    // ... or names it in parentheses after the cabin: 'Cabin: Economy (Optima)'.
    const inParens = /\(([^()]{2,30})\)/.exec(value)?.[1]?.trim() ?? '';
    const brand = airline?.fareBrands.find((known) =>
      [value.toLowerCase(), inParens.toLowerCase()].includes(known.toLowerCase()),
    );
    if (brand && !/^(?:economy|business|first|premium economy)$/i.test(brand))
      return normaliseFareBrand(brand, airline);
  }
  // The selling airline's own brands in its flight rows; brands that are cabin words or seat
  // products elsewhere ('Premium', 'Economy Plus') only where the airline prints them there.
  const ownBrands = airline
    ? airline.fareBrandInFlightRow
      ? airline.fareBrands
      : airline.fareBrands.filter((brand) => !AMBIGUOUS_BRAND.test(brand))
    : [];
  const brands = [...ownBrands, ...GENERIC_FARE_BRANDS];
  for (const [from, to] of regions) {
    for (let line = from; line < to; line++) {
      const text = infos[line]?.line.text ?? '';
      for (const brand of [...brands].sort((a, b) => b.length - a.length)) {
        // A brand followed by a seat number ('Seat 8F') labels the seat, not the fare.
        const pattern = new RegExp(
          `(?<![A-Za-z])${brand.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z])${/seat/i.test(brand) ? '(?!\\s*:?\\s*\\d{1,2}[A-K](?![A-Za-z0-9]))' : ''}`,
          'i',
        );
        if (pattern.test(text)) return normaliseFareBrand(brand, airline);
      }
    }
  }
  // 'Economy – Flexitime | Seat 8F', 'Economy | Red e-Deal | Seats 33A': in a flight row, the
  // words right after the cabin, alone in their piece, are the brand.
  for (const [from, to] of regions) {
    for (let line = from; line < to; line++) {
      const match = CABIN_THEN_BRAND.exec(infos[line]?.line.text ?? '');
      const value = (match?.[1] ?? match?.[2])?.trim() ?? '';
      if (!value || !/\p{Ll}/u.test(value) || NOT_A_BRAND.test(value)) continue;
      // 'Economy (Light)': in parentheses after the cabin, only a cabin word is not a brand.
      if (match?.[2] ? !CABIN_WORD.test(value) : !AMBIGUOUS_BRAND.test(value)) return value;
    }
  }
  return null;
}

const CABIN_THEN_BRAND =
  /(?<![\p{L}])(?:[Pp]remium [Ee]conomy|[Ee]conomy|ECONOMY|[Bb]usiness|BUSINESS|[Ff]irst|FIRST|[Tt]urista|[Ee][jx]ecutiva|[Ee]con[óo]mica|[ÉE]conomie|[Aa]ffaires)(?:\s+[Cc]lass)?\s+(?:[–—-]|\|)\s+(\p{Lu}[\p{L}+'’-]*(?:[ -][\p{L}+'’-]+){0,2})\s*(?=$|[|·,])|(?<![A-Za-z])(?:[Ee]conomy|[Bb]usiness|[Ff]irst)(?:\s+[Cc]lass)?\s*\((\p{Lu}[\p{L}+'’-]*(?:[ -][\p{L}+'’-]+){0,2})\)/u;
const CABIN_WORD = /^(?:economy|business|first|premium(?: economy)?|main(?: cabin)?|coach)(?: class)?$/i;
const NOT_A_BRAND =
  /^(?:seats?|class|cabin|nonstop|non-stop|direct|operated|aircraft|meal|boeing|airbus|embraer|terminal|gate|confirmed|duration|stops?|refundable|non-refundable|waitlisted|sitz\w*|si[èe]ge|asiento)\b/i;

// ---- putting it together ----

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

/** Every three-letter upper-case word: the airport candidates to look up before extracting. */
export function airportCandidates(lines: TextLine[]): Set<string> {
  const codes = new Set<string>();
  for (const line of lines)
    for (const match of line.text.matchAll(/(?<![A-Za-z])[A-Z]{3}(?![A-Za-z])/g)) codes.add(match[0]);
  return codes;
}

export function extractGeneric(lines: TextLine[], context: GenericContext): DraftBooking[] {
  let infos = lines.map((line) => analyseLine(line, context));
  labelTextTables(infos);
  let legs = pairLegs(findStops(infos, context));
  // No leg from airport codes in an airline's own mail: read places named without codes.
  if (legs.length === 0 && context.airline) {
    infos = lines.map((line) => analyseLine(line, context, true));
    labelTextTables(infos);
    legs = pairLegs(findStops(infos, context));
  }
  const flightTokens = findFlightTokens(infos, context);
  const flights = assignFlights(legs, flightTokens);
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
  const segments: (DraftSegment & { pos: number })[] = [];
  let previousDate: DateToken | null = null;
  legs.forEach((leg, index) => {
    const flight = flights[index] ?? null;
    const departureDate =
      leg.departure.date ??
      [...travelDates].reverse().find((entry) => entry.pos < leg.departure.pos)?.date ??
      travelDates.find((entry) => entry.line === leg.departure.line)?.date ??
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
    const routed = seats.find(
      (mention) => mention.route?.from === leg.departure.code && mention.route.to === leg.arrival.code,
    );
    const byFlight = flight
      ? seats.find((mention) => mention.flight === `${flight.carrier ?? ''}${flight.number}`)
      : null;
    const inRegion = seats.find(
      (mention) => !mention.route && !mention.flight && mention.line >= from && mention.line < to,
    );
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
      cabinClass: cabinOfLines(infos, from, to, context.airline),
      seatNumber,
    });
  });

  const codes = findBookingCodes(infos);
  const subjectCode = codeFromSubject(context.subject);
  const distinct = [...new Set(codes.map((mention) => mention.code))];
  if (distinct.length === 0 && subjectCode) distinct.push(subjectCode);
  const documentText = infos.map((info) => info.line.text).join('\n');
  const passengers = findPassengers(infos);
  // An agency's mail: the brands of the airline whose flights it lists.
  const carriers = segments.map((segment) => segment.carrier).filter((code): code is string => !!code);
  const fareAirline =
    context.airline ??
    (carriers.length > 0 && carriers.every((code) => code === carriers[0]) ? airlineByCode(carriers[0]) : null);
  const fareType = findFareType(infos, regions, fareAirline);
  const totalPrice = findTotalPrice(infos, context, documentText);
  const build = (code: string, parts: typeof segments): DraftBooking => ({
    bookingCode: code,
    airlineIata: null,
    airlineName: null,
    passengers,
    segments: parts.map(({ pos: _pos, ...segment }) => segment),
    totalPrice,
    fareType,
  });
  if (distinct.length <= 1) {
    return distinct[0] ? [build(distinct[0], segments)] : [build('', segments)];
  }
  // Several record locators: each takes the legs printed after its first mention.
  const firsts = distinct.map((code) => ({
    code,
    pos: Math.min(...codes.filter((m) => m.code === code).map((m) => m.pos)),
  }));
  firsts.sort((a, b) => a.pos - b.pos);
  const bookings = firsts.map((entry, index) => {
    const next = firsts[index + 1]?.pos ?? Number.MAX_SAFE_INTEGER;
    const low = index === 0 ? -1 : entry.pos;
    return build(
      entry.code,
      segments.filter((segment) => segment.pos > low && segment.pos < next),
    );
  });
  const nonEmpty = bookings.filter((booking) => booking.segments.length > 0);
  if (nonEmpty.length <= 1) {
    // One locator carries the legs; the others were references repeated elsewhere.
    const owner = nonEmpty[0];
    return owner ? [{ ...owner, segments: segments.map(({ pos: _pos, ...segment }) => segment) }] : [];
  }
  return nonEmpty.map((booking) => ({ ...booking, totalPrice: null }));
}

/** Plain-text column headers ('DATE | FLIGHT | DEPART | ARRIVE | CABIN | SEAT') for the rows below. */
function labelTextTables(infos: LineInfo[]): void {
  let headers: string[] | null = null;
  for (const info of infos) {
    const cells = info.line.cells;
    if (info.line.headers) {
      headers = null;
      continue;
    }
    if (
      cells.length >= 3 &&
      cells.every((cell) => /^[\p{L} /#.&]*$/u.test(cell) && cell.length <= 24) &&
      cells.some((cell) => /seat|flight|depart|date|cabin|flug|sitz|vol|vuelo/i.test(cell))
    ) {
      headers = cells.map((cell) => cell.toLowerCase());
      continue;
    }
    if (headers && cells.length === headers.length) info.line = { ...info.line, headers };
    else if (headers && cells.length < 2) headers = null;
  }
}

export { airlineByCode };
