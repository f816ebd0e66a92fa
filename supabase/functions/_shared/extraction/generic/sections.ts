// Change emails print the old itinerary beside the new one: the old part is dropped before any
// stage reads the lines.
import type { TextLine } from '../html.ts';

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
