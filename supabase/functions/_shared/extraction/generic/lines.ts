// Stage 1 of the generic extractor: the tokens of each line. Dates, clock times, airport codes
// (in parentheses, bare when the airport is a major one, or places named in full), routes
// ('MSP>SEA') and the pieces a line splits into at its separators ('|', '→', ' - ', '·'). Plain
// text tables get the column headers of the row above them, as HTML tables already have.
import type { ExtractionBudget } from '../budget.ts';
import type { TextLine } from '../html.ts';
import type { DateToken, NumericDateOrder, TimeToken } from '../dates.ts';
import { findDates, findTimes } from '../dates.ts';
import type { AirportInfo } from '../airports.ts';
import type { AirlineProfile } from '../airlines.ts';
import { findPlaces, type PlaceHints } from '../airport-names.ts';

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
  /** Checked per line and between stages: a long email gives up instead of running on. */
  budget?: ExtractionBudget;
}

// ---- positions ----

export const LINE_SPAN = 1_000_000;
export const at = (line: number, offset: number): number => line * LINE_SPAN + offset;

// ---- per-line tokens ----

export interface AirportToken {
  start: number;
  end: number;
  code: string;
  paren: boolean;
}

export interface LineInfo {
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

export function pieceOf(info: LineInfo, offset: number): number {
  return info.pieces.findIndex(([a, b]) => offset >= a && offset < b);
}

const NON_TRAVEL_DATE_LINE =
  /\b(issue[ds]?|issuance|date of issue|booking date|date of (?:booking|purchase|payment)|booked on|booked|purchased?|payment|paid|order date|book by|valid until|expires?|born|birth|ausstellung|buchungsdatum|gebucht am|bezahlt|date d'[ée]mission|[ée]mis le|r[ée]serv[ée] le|fecha de emisi[óo]n|emitido|reservado el|free cancel+ation|cancel+ation until|sent|gesendet|envoy[ée]|bokningsdatum|utf[äa]rdad|boekingsdatum|uitgegeven|geboekt op|data di emissione|emess[oa]|data (?:della )?prenotazione)\b/i;

function mask(text: string, spans: { start: number; end: number }[]): string {
  let masked = text;
  for (const span of spans) {
    masked = masked.slice(0, span.start) + ' '.repeat(span.end - span.start) + masked.slice(span.end);
  }
  return masked;
}

/** 'HELSINKI  BARCELONA  0725  1010': four-digit clock times, read only beside two named places. */
const COMPACT_TIME = /(?<![\p{L}\d:.,/-])([01]\d|2[0-3])([0-5]\d)(?![\p{L}\d:.,/-])/gu;
/** 'AY 1331': a flight number after its airline's code is no clock time ('T4 0845' after a terminal is). */
const AFTER_CARRIER = /(?<![A-Za-z0-9])(?!T\d)(?:[A-Z][A-Z0-9]|[0-9][A-Z])\s?$/;
/** 'DEPART:  MADRID, ES (BARAJAS)  T4  0845': one place after a stop's label, its time in four digits. */
const STOP_LABEL_LINE =
  /^\s*(?:depart(?:ure|s|ing)?|arriv(?:al|e|es|ing)|dep|arr|abflug|ankunft|d[ée]part|arriv[ée]e|salida|llegada)\b\.?\s*:/i;

function compactTimes(masked: string): TimeToken[] {
  const times: TimeToken[] = [];
  for (const match of masked.matchAll(COMPACT_TIME)) {
    const start = match.index ?? 0;
    if (AFTER_CARRIER.test(masked.slice(Math.max(0, start - 4), start))) continue;
    times.push({ start, end: start + match[0].length, hour: Number(match[1]), minute: Number(match[2]) });
  }
  return times;
}

/**
 * The tokens of one line. With `places` (a second reading, when codes gave no leg), places named
 * without a code stand for their airport on lines that print no code.
 */
export function analyseLine(line: TextLine, context: GenericContext, places: PlaceHints | null = null): LineInfo {
  const text = line.text;
  const dates = findDates(text, context.dateOrder);
  const times = findTimes(text).filter((time) => !dates.some((date) => time.start < date.end && time.end > date.start));
  let masked = mask(text, [...dates, ...times]);
  const cities = places ? findPlaces(masked, places) : [];
  if (times.length === 0 && (cities.length >= 2 || (cities.length === 1 && STOP_LABEL_LINE.test(text)))) {
    const compact = compactTimes(masked);
    // a stop's line holds its one time
    if (cities.length >= 2 || compact.length === 1) times.push(...compact);
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
  // Places named in full stand for their airport (see airport-names.ts), beside the codes of
  // other places on the line ('LONDON HEATHROW  NEW YORK JFK'); a place its code repeats is one.
  const codes = new Set(airports.map((airport) => airport.code));
  for (const city of cities) {
    const overlaps = airports.some((airport) => city.start < airport.end && city.end > airport.start);
    if (!overlaps && !codes.has(city.code)) airports.push({ ...city, paren: false });
    // 'Budapest Liszt Ferenc International (Budapest)': one place, named twice
    codes.add(city.code);
  }
  // 'DXB / BKK 0950 1925': four-digit clock times beside two airport codes and no other time.
  if (times.length === 0 && airports.length >= 2) {
    const compact = compactTimes(masked);
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

export interface Route {
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

/** Plain-text column headers ('DATE | FLIGHT | DEPART | ARRIVE | CABIN | SEAT') for the rows below. */
export function labelTextTables(infos: LineInfo[]): void {
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
