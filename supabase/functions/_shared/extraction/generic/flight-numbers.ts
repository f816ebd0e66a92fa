// Stage 3 of the generic extractor: flight numbers ('DL 423', 'DELTA 423', 'Flight 801',
// 'KLM1234') and which leg each belongs to: the i-th number when the counts agree, else the
// nearest one between the leg's neighbours.
import { FLIGHT_PREFIXES, ICAO_CODES, isKnownAirlineCode } from '../airlines.ts';
import { at, LINE_SPAN, type GenericContext, type LineInfo } from './lines.ts';
import type { Leg } from './legs.ts';

export interface FlightToken {
  line: number;
  start: number;
  pos: number;
  carrier: string | null;
  number: string;
  tier: 1 | 2;
}

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
  /(?:flight|flug|vol|vuelo|flt|flight no\.?|flight number|flugnummer|num[ée]ro de vol|n[úu]mero de vuelo|flyg|flygnummer|vlucht|vluchtnummer|volo|numero del volo)\s*[:#]?\s*$/i;
const PREFIX_PATTERN = new RegExp(
  `(?<![A-Za-z])(${FLIGHT_PREFIXES.map((entry) => entry.prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})\\s+(?:flight\\s+|flug\\s+)?(?:no\\.?\\s*|#\\s*)?0*(\\d{1,4})(?![A-Za-z0-9]|[-/.,:]\\d)`,
  'gi',
);
const ICAO_PATTERN = new RegExp(
  `(?<![A-Za-z0-9])(${[...ICAO_CODES.keys()].join('|')})\\s?0*(\\d{1,4})(?![A-Za-z0-9]|[-/.,:]\\d)`,
  'g',
);
const PREFIX_CODES = new Map(FLIGHT_PREFIXES.map((entry) => [entry.prefix.toLowerCase(), entry.iata]));

export function findFlightTokens(infos: LineInfo[], context: GenericContext): FlightToken[] {
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
      /(?<![A-Za-z])(?:flight|flug|vol|vuelo|flt|flyg|vlucht|volo)\.?\s*(?:no\.?|nr\.?|number|n[°º]|#)?\s*[:#]?\s*0*(\d{1,4})(?![A-Za-z0-9]|[-/.,:]\d|\s*(?:of|von|de|sur|\/)\s*\d)/gi;
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

export function assignFlights(legs: Leg[], tokens: FlightToken[]): (FlightToken | null)[] {
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
