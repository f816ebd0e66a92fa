// Stage 5 of the generic extractor: the booking code (record locator) after its label, in any of
// the languages the engine reads; hotel, car, promotion and agency references are not codes.
import { at, type LineInfo } from './lines.ts';

const CODE_LABEL = new RegExp(
  [
    '(?:confirmation|booking|reservation|record|airline|flight)\\s*(?:code|number|no\\.?|nr\\.?|#|reference|ref\\.?|locator|id)',
    'record\\s+locator',
    'vendor\\s+locator',
    'booking\\s+ref(?:erence)?',
    '\\bpnr\\b',
    'confirmation(?=\\s*(?:\\([^()]{1,30}\\)\\s*)?[:#|])',
    'reference\\s*(?:code|number)?(?=\\s*[:#|])',
    'reservation(?=\\s*[:#|])',
    'e-?ticket\\s+itinerary\\s+and\\s+receipt\\s+for\\s+confirmation',
    'buchungs(?:code|nummer|referenz)',
    'boknings(?:nummer|referens|kod)',
    'boekings(?:nummer|code|referentie)',
    'reserverings(?:nummer|code)',
    '(?:codice|numero)\\s+(?:di\\s+)?prenotazione',
    'riferimento\\s+(?:della\\s+)?prenotazione',
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
  /^\s*(?:(?:is|ist|lautet|est|es|är|is|è|:|#|\||-|–|no\.?|number|\((?:pnr|code|[\p{L} ]{1,30})\)|(?:[A-Z][A-Z0-9]|[0-9][A-Z])\s*(?:\/|[-–](?=\s*[A-Z0-9]{5,8}(?![A-Za-z0-9]))))\s*)*([A-Z0-9]{5,8})(?![A-Za-z0-9])/u;
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
  /** Labelled as the airline's own ('Airline Ref: LH/QZP4TW') in mail that may carry an agency's too. */
  airline: boolean;
}

/** 'Airline Ref', 'Airline booking reference', 'FLIGHT BOOKING REF', 'Vendor locator': the carrier's locator. */
const AIRLINE_CODE_LABEL =
  /\b(?:airline|carrier|flight)\s+(?:booking\s+|reservation\s+)?(?:ref(?:erence)?|code|locator|pnr|confirmation|record)\b|\bvendor\s+locator\b|\bairline\s+(?:confirmation|booking)\b/i;

export function isPlausibleCode(code: string): boolean {
  return /^[A-Z0-9]{5,8}$/.test(code) && /[A-Z]/.test(code) && !NOT_CODES.has(code);
}

/** Codes after their labels; only each line's text is read, so any lines will do. */
export function findBookingCodes(infos: Pick<LineInfo, 'line'>[]): CodeMention[] {
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
      const label = text.slice(Math.max(0, start - 16), start + match[0].length);
      found.push({ code, line, pos: at(line, start), airline: AIRLINE_CODE_LABEL.test(label) });
    }
  });
  return found;
}

export function codeFromSubject(subject: string): string | null {
  for (const match of subject.matchAll(CODE_LABEL)) {
    const after = CODE_AFTER_LABEL.exec(subject.slice((match.index ?? 0) + match[0].length));
    if (after?.[1] && isPlausibleCode(after[1])) return after[1];
  }
  return null;
}

/** 'BA/X7KQ2P', 'AY*LQX7TN': a locator beside its airline's code, as reservation systems print it. */
const CARRIER_LOCATOR = /(?<![A-Za-z0-9/*])([A-Z][A-Z0-9]|[0-9][A-Z])\s?[/*]\s?([A-Z0-9]{6})(?![A-Za-z0-9/])/g;

/**
 * An agency's itinerary may print the airline's own locator only beside the airline's code, in a
 * column or after the agency's all-digit reference: the locators beside the code of an airline
 * whose flights the mail lists.
 */
export function findCarrierLocators(infos: Pick<LineInfo, 'line'>[], carriers: ReadonlySet<string>): CodeMention[] {
  const found: CodeMention[] = [];
  infos.forEach((info, line) => {
    for (const match of info.line.text.matchAll(CARRIER_LOCATOR)) {
      const [, carrier = '', code = ''] = match;
      if (!carriers.has(carrier) || !isPlausibleCode(code)) continue;
      found.push({ code, line, pos: at(line, match.index ?? 0), airline: true });
    }
  });
  return found;
}
