// Stage 7 of the generic extractor: the booking total after its label; an agency's own fee
// comes off when the email shows it is not part of the airline's price.
import { currenciesMentioned, findAmounts } from '../money.ts';
import type { Money } from '../types.ts';
import type { GenericContext, LineInfo } from './lines.ts';

const TOTAL_LABEL =
  /(grand total|total paid|total price|total fare|trip total|total cost|total amount|total charged|amount paid|amount charged|ticket amount|e-?ticket total|total to pay|total due|total|gesamtpreis|gesamtbetrag|gesamtsumme|gesamt(?=\s*[:|])|summe(?=\s*[:|])|endpreis|zu zahlender betrag|prix total|montant total|total pay[ée]|total [àa] payer|importe total|precio total|total pagado|total a pagar|totalt pris|totalbelopp|totalt|summa(?=\s*[:|])|att betala|totaalprijs|totaalbedrag|totaal|te betalen|prezzo totale|importo totale|totale pagato|totale)(?![A-Za-z])/i;
const NOT_TOTAL =
  /sub-?total|per (?:passenger|person|adult|traveller|traveler|pax)|pro person|par personne|por persona|total (?:of )?tax|taxes? total|fees? total|points|miles|meilen|avios|total (?:travel|flight|journey) time|total duration|gesamtdauer|dur[ée]e totale|duraci[óo]n total|total distance/i;

export function findTotalPrice(infos: LineInfo[], context: GenericContext, documentText: string): Money | null {
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
