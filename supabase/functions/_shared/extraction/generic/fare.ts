// Stage 8 of the generic extractor: the fare brand as printed ('Main Cabin', 'Economy Light'),
// from a label, the selling airline's own brands in the flight rows, or the words after the
// cabin; a booking-class letter or fare basis code is never a brand.
import type { AirlineProfile } from '../airlines.ts';
import { CURRENCY_CODES, findAmounts } from '../money.ts';
import type { LineInfo } from './lines.ts';
import { CABIN_LABEL } from './seats.ts';

const FARE_LABEL =
  /(?<![A-Za-z])(fare type|fare brand|fare family|fare class name|fare name|fare product|fare option|tarifname|nom du tarif|your fare|fare|tarif(?:typ|option)?|tarifa|type de tarif|tipo de tarifa|ticket type|bundle|biljettyp|pristyp|tarief|tariefsoort|tariffa)\s*([:|])\s*/gi;
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

export function findFareType(
  infos: LineInfo[],
  regions: [number, number][],
  airline: AirlineProfile | null,
): string | null {
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
  // longest first; compiled once per call, not once per line
  const brands = [...ownBrands, ...GENERIC_FARE_BRANDS]
    .sort((a, b) => b.length - a.length)
    .map((brand) => ({
      brand,
      // A brand followed by a seat number ('Seat 8F') labels the seat, not the fare.
      pattern: new RegExp(
        `(?<![A-Za-z])${brand.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z])${/seat/i.test(brand) ? '(?!\\s*:?\\s*\\d{1,2}[A-K](?![A-Za-z0-9]))' : ''}`,
        'i',
      ),
    }));
  for (const [from, to] of regions) {
    for (let line = from; line < to; line++) {
      const text = infos[line]?.line.text ?? '';
      for (const { brand, pattern } of brands) {
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
  // 'Tarif Basic: 49,99 EUR', 'Flight fare - Smart 120.00 EUR', 'Fare (Smart): 120.00', 'Fare
  // Light | EUR 129.00', 'Basic fare: 49.99 EUR': the brand beside the fare's own word, on the
  // line of its amount.
  for (const info of infos) {
    const text = info.line.text;
    if (findAmounts(text).length === 0) continue;
    const match = BRAND_BESIDE_FARE.exec(text);
    const value = (match?.[1] ?? match?.[2])?.trim() ?? '';
    if (value && !NOT_A_FARE_BESIDE.test(value) && !CURRENCY_CODES.has(value.toUpperCase()))
      return normaliseFareBrand(value, airline);
  }
  return null;
}

/** A brand of one to three capitalised words after the word 'fare' or 'Tarif', or before 'fare'. */
const BRAND_BESIDE_FARE =
  /(?<![\p{L}])(?:[Ff]are|FARE|[Tt]arif|TARIF|[Tt]arifa|TARIFA)\s*(?:[-–]\s*)?\(?(\p{Lu}[\p{L}+'’]*(?:[ -]\p{Lu}[\p{L}+'’]*){0,2})\)?\s*(?::|(?=\s+(?:\|\s+)?(?:\d|[$€£]|[A-Z]{3}\s?\d)))|^\s*(\p{Lu}[\p{L}+'’]*(?: \p{Lu}[\p{L}+'’]*)?)\s+(?:fare|Fare|FARE)\s*:/u;
/** Words beside 'fare' that say which amount, not which brand. */
const NOT_A_FARE_BESIDE =
  /^(?:base|total|grand|net|gross|air|adult|adults|child|children|infant|youth|senior|student|per|one[- ]way|return|round[- ]trip|outbound|inbound|ticket|flight|your|the|new|old|original|additional|difference|change|rules?|basis|calc(?:ulation)?|conditions?|details?|summary|information|type|family|class|amount|price|paid|due|tax(?:es)?|fees?|surcharges?|carrier|fuel|a[ée]rea|a[ée]rien(?:ne)?|de|del|des|du|pro|por|und|y|et|gesamt|grund|summe|betrag|erwachsene[rn]?|kind(?:er)?|hinflug|r[üu]ckflug)(?:\s|$)/i;

const CABIN_THEN_BRAND =
  /(?<![\p{L}])(?:[Pp]remium [Ee]conomy|[Ee]conomy|ECONOMY|[Bb]usiness|BUSINESS|[Ff]irst|FIRST|[Tt]urista|[Ee][jx]ecutiva|[Ee]con[óo]mica|[ÉE]conomie|[Aa]ffaires)(?:\s+[Cc]lass)?\s+(?:[–—-]|\|)\s+(\p{Lu}[\p{L}+'’-]*(?:[ -][\p{L}+'’-]+){0,2})\s*(?=$|[|·,])|(?<![A-Za-z])(?:[Ee]conomy|[Bb]usiness|[Ff]irst)(?:\s+[Cc]lass)?\s*\((\p{Lu}[\p{L}+'’-]*(?:[ -][\p{L}+'’-]+){0,2})\)/u;
const CABIN_WORD = /^(?:economy|business|first|premium(?: economy)?|main(?: cabin)?|coach)(?: class)?$/i;
const NOT_A_BRAND =
  /^(?:seats?|class|cabin|nonstop|non-stop|direct|operated|aircraft|meal|boeing|airbus|embraer|terminal|gate|confirmed|duration|stops?|refundable|non-refundable|waitlisted|sitz\w*|si[èe]ge|asiento)\b/i;
