// Stage 2 of the generic extractor: stops and legs. A stop is an airport paired with the clock
// time printed beside it (same piece, neighbouring piece, or the line above or below); a leg is
// two consecutive stops, departure then arrival, with the roles 'Depart'/'Arrive' words give.
import type { DateToken, TimeToken } from '../dates.ts';
import { at, pieceOf, type AirportToken, type GenericContext, type LineInfo } from './lines.ts';

export interface Stop {
  line: number;
  pos: number;
  code: string;
  time: TimeToken;
  date: DateToken | null;
  role: 'dep' | 'arr' | null;
  pieceText: string;
}

const DEPART_WORD =
  /\b(depart(?:s|ure|ing)?|dep\.?|abflug|ab|d[ée]part|salida|sale|from|von|outbound from|avg[åa]ng|avresa|vertrek|partenza)\b/i;
const ARRIVE_WORD = /\b(arriv(?:e|es|al|ing)|arr\.?|ankunft|an|arriv[ée]e|llegada|llega|ankomst|aankomst|arrivo)\b/i;

function roleOf(piece: string): 'dep' | 'arr' | null {
  const dep = DEPART_WORD.test(piece);
  const arr = ARRIVE_WORD.test(piece);
  if (dep && !arr) return 'dep';
  if (arr && !dep) return 'arr';
  return null;
}

export function findStops(infos: LineInfo[], _context: GenericContext): Stop[] {
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
        // Columns 'FROM TO DEP ARR': both places, then their times, in order; a date among the
        // columns ('FRANKFURT FRA  MUENCHEN MUC  LH 98  12MAR27  07:15  08:10') is the departure's.
        airports.forEach((airport, i) => {
          const time = times[i] as TimeToken;
          usedTimes.add(timeKey(lineIndex, time));
          const date = i === 0 && dates.length === 1 ? (dates[0] ?? null) : null;
          stops.push(makeStop(lineIndex, airport, time, date, pieceText));
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
  // Unpaired airports by line: looked up per airport, never by scanning them all (a document of
  // thousands of codes would make that quadratic).
  const unpairedOn = new Map<number, { line: number; airport: AirportToken }[]>();
  for (const entry of unpaired) {
    const list = unpairedOn.get(entry.line);
    if (list) list.push(entry);
    else unpairedOn.set(entry.line, [entry]);
  }
  // A route line ('London Heathrow (LHR) to New York JFK (JFK)') over a line of times without
  // airports ('Depart: 20 March 2027 at 08:25  Arrive: 20 March 2027 at 11:15'): in order.
  const pairedOnLine = new Set<number>();
  for (const { line } of unpaired) {
    const info = infos[line];
    const own = unpairedOn.get(line) ?? [];
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
  // 'From: Frankfurt' over 'To: Berlin' over 'Depart: 07:05 Arrive: 08:10': two lines of one
  // place each, then a line of two times and no place, in order.
  for (const { line, airport } of unpaired) {
    const info = infos[line];
    const next = unpairedOn.get(line + 1)?.[0];
    const timesLine = infos[line + 2];
    if (!info || !next || info.times.length > 0 || (infos[line + 1]?.times.length ?? 0) > 0) continue;
    if (pairedOnLine.has(line) || pairedOnLine.has(line + 1) || !timesLine) continue;
    if ((unpairedOn.get(line)?.length ?? 0) + (unpairedOn.get(line + 1)?.length ?? 0) !== 2) continue;
    if (timesLine.airports.length > 0 || timesLine.routes.length > 0 || timesLine.times.length !== 2) continue;
    const free = timesLine.times.filter((t) => !usedTimes.has(timeKey(line + 2, t)));
    if (free.length !== 2) continue;
    pairedOnLine.add(line).add(line + 1);
    [airport, next.airport].forEach((place, i) => {
      const time = free[i] as TimeToken;
      usedTimes.add(timeKey(line + 2, time));
      const piece = timesLine.pieces[pieceOf(timesLine, time.start)];
      stops.push(makeStop(line + i, place, time, null, piece ? timesLine.line.text.slice(piece[0], piece[1]) : ''));
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
      // 'Departure: Riga, Riga International' over '14.04.27 07:05': the date printed with the time,
      // under a place its label names as a stop.
      const labelled = roleOf(info.line.text) !== null && neighbour.airports.length === 0;
      const date = labelled && neighbour.dates.length === 1 ? (neighbour.dates[0] ?? null) : null;
      stops.push(makeStop(line, airport, time, date, `${neighbour.line.text} ${info.line.text}`));
      break;
    }
  }
  // 'MINNEAPOLIS 9:10a | SEATTLE 10:55a | MSP>SEA': two free times and a route on one line; or a
  // row 'LX 1072 | ZRH → BER' over a row of times only ('23.09.2027 07:05 | 23.09.2027 08:30').
  // (this pass adds stops only on the line it is at, so the lines with stops before it are enough)
  const linesWithStops = new Set(stops.map((stop) => stop.line));
  infos.forEach((info, lineIndex) => {
    if (linesWithStops.has(lineIndex)) return;
    const route = info.routes[0];
    if (!route || info.routes.length > 1) return;
    let timesLine = lineIndex;
    let free = info.times.filter((t) => !usedTimes.has(timeKey(lineIndex, t)));
    const below = infos[lineIndex + 1];
    if (
      free.length === 0 &&
      info.times.length === 0 &&
      below &&
      below.airports.length === 0 &&
      below.routes.length === 0
    ) {
      timesLine = lineIndex + 1;
      free = below.times.filter((t) => !usedTimes.has(timeKey(timesLine, t)));
      if (free.length !== below.times.length) return;
    }
    if (free.length !== 2) return;
    const [first, second] = free as [TimeToken, TimeToken];
    const dates = infos[timesLine]?.dates ?? [];
    const dateBefore = (time: TimeToken, after: number): DateToken | null =>
      timesLine === lineIndex
        ? null
        : ([...dates].reverse().find((date) => date.start < time.start && date.start > after) ?? null);
    for (const time of free) usedTimes.add(timeKey(timesLine, time));
    stops.push(
      makeStop(
        lineIndex,
        { start: route.start, end: route.start + 3, code: route.from, paren: false },
        first,
        dateBefore(first, -1),
        '',
      ),
    );
    stops.push(
      makeStop(
        lineIndex,
        { start: route.end - 3, end: route.end, code: route.to, paren: false },
        second,
        dateBefore(second, first.end),
        '',
      ),
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

export interface Leg {
  departure: Stop;
  arrival: Stop;
}

export function pairLegs(stops: Stop[]): Leg[] {
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
  // The same leg printed twice (summary and details, or once per passenger): the first is kept.
  const seen = new Set<string>();
  return legs.filter((leg) => {
    const key = `${leg.departure.code}>${leg.arrival.code}@${leg.departure.time.hour}:${leg.departure.time.minute}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
