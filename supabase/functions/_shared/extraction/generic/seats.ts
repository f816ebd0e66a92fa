// Stage 4 of the generic extractor: seats and cabins. Seats come from labels ('Seat: 14A'), seat
// columns, per-leg ('BOS-KEF: 22A') or per-flight ('FI630: 22A') lists and seat tables; each leg
// takes the seat of its own rows, its route or its flight. The cabin is read from the leg's rows.
import type { TextLine } from '../html.ts';
import type { AirlineProfile } from '../airlines.ts';
import { cabinFromText } from '../cabin.ts';
import { findDates } from '../dates.ts';
import type { CabinClass } from '../types.ts';
import { at, type LineInfo } from './lines.ts';
import type { Leg } from './legs.ts';

const SEAT_LABEL =
  /(?<![A-Za-z])(?:seats?|seat number|seat no\.?|sitzpl[aä]tze?|sitz|platz|si[èe]ges?|places?|asientos?|assentos?|lugar|posto|sittplats|plats|stoel|zitplaats)(?![A-Za-z])\.?\s*(?:no\.?|nr\.?|number|#)?\s*[:#|]?\s*/gi;
const SEAT_VALUE = /^(\d{1,2}[A-K])(?![A-Za-z0-9])/;
const NO_SEAT =
  /^(?:not (?:yet )?(?:reserved|assigned|selected|available)|none|n\/a|-+|—|–|tba|tbd|(?:to be )?assigned (?:at|during) (?:check-?in|the gate|gate)|at check-?in|unassigned|no seat|nicht (?:reserviert|zugewiesen)|keine?|non (?:attribu[ée]|r[ée]serv[ée])|sin (?:asignar|asiento)|no asignado|por asignar)/i;

export interface SeatMention {
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

export function findSeatMentions(infos: LineInfo[]): SeatMention[] {
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
export function seatsListedAfterLegs(
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

export const CABIN_LABEL =
  /(?<![A-Za-z])(?:cabin|cabine|class|travel class|klasse|reiseklasse|classe|clase|cabina|klass|reisklasse)\s*[:|]\s*([^|·•,;]+)/i;
const CABIN_CELL = /^(?:(?:premium\s+)?economy|business|first)(?:\s+class)?(?:\s*\([A-Z]\))?$/i;
/** A fare label whose value may name the cabin: 'Tarif: Economy Classic', 'FARE FAMILY: ECONOMY CLASSIC'. */
const FARE_NAMING_CABIN =
  /(?<![A-Za-z])(?:fare(?:\s+(?:family|type|brand))?|tarif|tarifa|tariffa|tarief|bundle)\s*[:|]\s*([^|·•;]+)/i;

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

/** A travel day, to pick a leg's own cabin from a line that names one per day. */
export interface TravelDay {
  month: number;
  day: number;
}

/** 'CABIN: 03OCT MAIN CABIN / 08OCT FIRST CLASS': each day's cabin. */
function cabinsByDay(value: string, airline: AirlineProfile | null): (TravelDay & { cabin: CabinClass })[] {
  const parts = value.split(/\s+\/\s+|\s*;\s*/);
  if (parts.length < 2) return [];
  const days: (TravelDay & { cabin: CabinClass })[] = [];
  for (const part of parts) {
    const date = findDates(part, 'DMY')[0];
    const cabin = cabinFromText(part, airline);
    if (date && cabin) days.push({ month: date.month, day: date.day, cabin });
  }
  return days;
}

/** The cabin a value names for a leg on `day`: its day's when it names one per day. */
function cabinOfValue(value: string, airline: AirlineProfile | null, day: TravelDay | null): CabinClass | null {
  const byDay = cabinsByDay(value, airline);
  if (byDay.length === 0) return cabinFromText(value, airline);
  return byDay.find((entry) => entry.month === day?.month && entry.day === day.day)?.cabin ?? null;
}

export function cabinOfLines(
  infos: LineInfo[],
  from: number,
  to: number,
  airline: AirlineProfile | null,
  day: TravelDay | null = null,
): CabinClass | null {
  for (let line = from; line < to; line++) {
    const info = infos[line];
    if (!info) continue;
    const labelled = CABIN_LABEL.exec(info.line.text);
    if (labelled?.[1]) {
      const cabin = cabinOfValue(labelled[1], airline, day);
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

export interface CabinStatement {
  line: number;
  value: string;
}

/**
 * Lines that state a cabin outside any flight row: 'Klasse: Economy' under the legs it covers,
 * 'Cabin: Main Cabin' below the itinerary, a fare brand that names one ('Tarif: Economy Classic').
 * A fare brand alone ('Fare: Saver', 'Tarif: SMART') or a booking-class letter states no cabin.
 */
export function findCabinStatements(infos: LineInfo[], airline: AirlineProfile | null): CabinStatement[] {
  const statements: CabinStatement[] = [];
  infos.forEach((info, line) => {
    const text = info.line.text;
    if (text.length > 200) return;
    const value =
      CABIN_LABEL.exec(text)?.[1] ??
      FARE_NAMING_CABIN.exec(text)?.[1] ??
      // 'Traveler: Anneliese Drummond · Economy', 'BAGGAGE 1PC - ECONOMY CLASS (N)': a cabin alone in its cell.
      text.split(/\s[·•|–-]\s/).find((cell) => CABIN_CELL.test(cell.trim()));
    if (value && cabinFromText(value, airline)) statements.push({ line, value });
  });
  return statements;
}

/**
 * The cabin of a leg whose own rows name none: the statement printed next below it (a cabin line
 * closes the legs above it), else the last one above it; null when the mail states no cabin.
 */
export function statedCabin(
  statements: CabinStatement[],
  departureLine: number,
  airline: AirlineProfile | null,
  day: TravelDay | null,
): CabinClass | null {
  const statement = statements.find((candidate) => candidate.line >= departureLine) ?? statements.at(-1);
  return statement ? cabinOfValue(statement.value, airline, day) : null;
}
