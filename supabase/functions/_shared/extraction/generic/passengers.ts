// Stage 6 of the generic extractor: travellers, from a label ('Passenger: Mr John Example'), a
// heading with one name per line, traveller tables, numbered travellers ('Adult 1:'), given and
// family names on two lines, and at last the greeting.
import { findAmounts } from '../money.ts';
import { readName, sameName } from '../names.ts';
import type { LineInfo } from './lines.ts';

const PASSENGER_LABEL =
  /(?<![A-Za-z])(passengers?|travell?ers?|guests?|passenger names?|traveller names?|name of passenger|reisender?|reisenden|passagiere?|fluggäste|fluggast|passagers?|passag[èe]res?|voyageurs?|pasajeros?|viajeros?|nom du passager|nombre del pasajero|passageiros?|viajantes?|nome do passageiro|resen[äa]rer|resen[äa]r|passagerare|reizigers?|passagiers?|passegger[oi]|viaggiator[ei]|nome del passeggero|naam passagier)(?![A-Za-zäåöèéì])\s*(?:info(?:rmation)?|details|names?|\(s\))?(?:\s*\d{1,2}(?=\s*[:|]))?\s*([:|#])?\s*/gi;

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

/** 'NAME: NIEMINEN/AINO MS', 'NAME  NIEMINEN/AINO MS', 'Name / Name: WEBER/ANNA MRS', 'Prepared for: ...'. */
const NAME_LINE_LABEL =
  /^\s*(?:\d{1,2}\.?\s*)?(?:(?:full\s+)?(?:name|nom|nombre|namn|naam|nome)(?:\s*\/\s*(?:name|nom|nombre|naam|nome))?|prepared\s+for)(?:\s*[:|]\s*|\s+(?=\p{Lu}[\p{Lu}'’ -]*\/))/iu;
const SLASH_NAME = /^\p{Lu}[\p{Lu}'’ -]*\/\p{Lu}[\p{Lu}'’ -]*$/u;
/** 'HARGREAVES/PETER MR': the reservation form with its title, a name by its shape alone. */
const SLASH_NAME_WITH_TITLE = /^\p{Lu}[\p{Lu}'’ -]*\/\p{Lu}[\p{Lu}'’ -]*\s(?:MR|MRS|MS|MISS|MSTR|DR)$/u;
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

export function findPassengers(infos: LineInfo[]): string[] {
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
      // 'RESENAR / TRAVELLER  HOLM/INGRID MS': the label in a second language follows.
      if (/^\/\s*\p{L}/u.test(rest)) continue;
      const reading = rest.trim() ? readName(rest) : null;
      if (reading && (explicit || reading.marked)) {
        for (const name of readNameList(rest, reading.name)) add(name);
        // 'PASSENGERS: HARGREAVES/OLIVIA MRS' over 'HARGREAVES/PETER MR': the list goes on below,
        // one reservation-form name per line.
        for (let next = line + 1; next < Math.min(infos.length, line + 10); next++) {
          const below = infos[next]?.line.text.trim() ?? '';
          const more = SLASH_NAME_WITH_TITLE.test(below) ? readName(below) : null;
          if (!more) break;
          add(more.name);
        }
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
  // 'NAME: NIEMINEN/AINO MS' in an agency's itinerary: the reservation's SURNAME/GIVEN form, and
  // the travellers listed under it the same way.
  if (names.length === 0) {
    infos.forEach((info, line) => {
      const label = NAME_LINE_LABEL.exec(info.line.text);
      const rest = label ? info.line.text.slice(label[0].length).trim() : '';
      const reading = SLASH_NAME.test(rest) ? readName(rest) : null;
      if (!reading) return;
      add(reading.name);
      for (let next = line + 1; next < Math.min(infos.length, line + 10); next++) {
        const below = infos[next]?.line.text.trim() ?? '';
        const more = SLASH_NAME_WITH_TITLE.test(below) ? readName(below) : null;
        if (!more) break;
        add(more.name);
      }
    });
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

/** Traveller types as mail counts them ('2 Adults, 1 Infant', 'Erwachsene: 2', 'Adults (2)'). */
const TRAVELLER_TYPES: [RegExp, string][] = [
  [/adults?|erwachsene[rn]?|adultes?|adultos?|volwassenen?|vuxna?|adulti/, 'adult'],
  [/child(?:ren)?|kinder|kind|enfants?|niñ[oa]s?|kinderen|barn|bambini|youths?|jugendliche[rn]?/, 'child'],
  [/infants?|babys?|bébés?|beb[ée]s?|lap\s+infants?|neonati/, 'infant'],
  [/seniors?|students?/, 'other'],
  [
    /passengers?|travell?ers?|persons?|people|reisende[rn]?|personen|fluggäste|passagers?|voyageurs?|pasajeros?|viajeros?|passagiers?|reizigers?|resenärer|passeggeri/,
    'any',
  ],
];
const TYPE_WORDS = TRAVELLER_TYPES.map(([pattern]) => pattern.source).join('|');
const COUNT_BEFORE_TYPE = new RegExp(
  `(?<![\\d.,:/])(?<!\\b(?:terminal|flight|gate|row|seat|leg|t)\\s?)\\b([1-9])\\s*(?:x\\s*)?(${TYPE_WORDS})(?![\\p{L}])`,
  'giu',
);
const TYPE_THEN_COUNT = new RegExp(`(?<![\\p{L}])(${TYPE_WORDS})\\s*(?::\\s*|\\(\\s*|x\\s*)([1-9])(?![\\d.,:])`, 'giu');

/**
 * How many travel, as the mail counts them: per line, each traveller type's count once ('2
 * Adults, 1 Infant' is 3); the most any line counts. Null when no line counts travellers.
 */
export function findPartySize(infos: LineInfo[]): number | null {
  let party: number | null = null;
  for (const info of infos) {
    const text = info.line.text;
    if (text.length > 200) continue;
    const counts = new Map<string, number>();
    const count = (word: string, value: number): void => {
      const type = TRAVELLER_TYPES.find(([pattern]) => new RegExp(`^(?:${pattern.source})$`, 'iu').test(word))?.[1];
      if (type && !counts.has(type)) counts.set(type, value);
    };
    for (const match of text.matchAll(COUNT_BEFORE_TYPE)) count(match[2] ?? '', Number(match[1]));
    for (const match of text.matchAll(TYPE_THEN_COUNT)) count(match[1] ?? '', Number(match[2]));
    // 'Passengers: 3' counts everyone; '2 adults, 1 child' counts by type.
    const typed = [...counts].filter(([type]) => type !== 'any').reduce((sum, [, value]) => sum + value, 0);
    const total = Math.max(typed, counts.get('any') ?? 0);
    if (total > 0 && (party === null || total > party)) party = total;
  }
  return party;
}
