// Amounts and currencies as printed: '$452.10 USD', 'EUR 1,287.64', '289,46 EUR', 'CAD $581.03',
// '£1,146.20', 'JPY 312,480', '1.146,20 €', '1 146,20 €'. amountCents is always amount x 100,
// whatever the currency's minor unit (JPY 312,480 is 31248000).

export const CURRENCY_CODES = new Set([
  'USD',
  'CAD',
  'AUD',
  'NZD',
  'MXN',
  'EUR',
  'GBP',
  'CHF',
  'JPY',
  'CNY',
  'HKD',
  'SGD',
  'INR',
  'KRW',
  'TWD',
  'THB',
  'MYR',
  'PHP',
  'IDR',
  'AED',
  'QAR',
  'SAR',
  'ZAR',
  'BRL',
  'ARS',
  'CLP',
  'COP',
  'PEN',
  'SEK',
  'NOK',
  'DKK',
  'ISK',
  'PLN',
  'CZK',
  'HUF',
  'TRY',
  'ILS',
  'EGP',
]);

const SYMBOLS: [RegExp, string][] = [
  [/US\$|U\.S\.\s?\$/, 'USD'],
  [/C\$|CA\$|CAN\$/, 'CAD'],
  [/A\$|AU\$/, 'AUD'],
  [/NZ\$/, 'NZD'],
  [/MX\$|MEX\$/, 'MXN'],
  [/HK\$/, 'HKD'],
  [/S\$/, 'SGD'],
  [/€/, 'EUR'],
  [/£/, 'GBP'],
  [/¥|円/, 'JPY'],
  [/₹/, 'INR'],
  [/₩/, 'KRW'],
  [/R\$/, 'BRL'],
  [/CHF/, 'CHF'],
];

const CURRENCY_WORDS: [RegExp, string][] = [
  [/canadian dollars?|dollars? canadiens?|\bCDN\b/i, 'CAD'],
  [/australian dollars?/i, 'AUD'],
  [/new zealand dollars?/i, 'NZD'],
  [/(?:us|u\.s\.|united states) dollars?/i, 'USD'],
  [/mexican pesos?|pesos mexicanos/i, 'MXN'],
  [/\beuros?\b/i, 'EUR'],
  [/pounds? sterling|british pounds?/i, 'GBP'],
  [/japanese yen/i, 'JPY'],
];

/** Parses '1,287.64', '289,46', '1.146,20', '312,480', '1 146,20', '1\'146.20'; null if none. */
export function parseAmount(text: string): number | null {
  const match = /\d{1,3}(?:[,.' \u00a0\u202f]\d{3})+(?:[.,]\d{1,2})?(?!\d)|\d+(?:[.,]\d{1,2})?(?!\d)/.exec(text);
  if (!match) return null;
  let digits = match[0].replace(/[ '\u00a0\u202f]/g, '');
  const lastSeparator = Math.max(digits.lastIndexOf(','), digits.lastIndexOf('.'));
  if (lastSeparator !== -1) {
    const decimals = digits.length - lastSeparator - 1;
    if (decimals === 3) {
      digits = digits.replace(/[.,]/g, ''); // only thousands separators
    } else {
      digits = digits.slice(0, lastSeparator).replace(/[.,]/g, '') + '.' + digits.slice(lastSeparator + 1);
    }
  }
  const value = Number(digits);
  return Number.isFinite(value) ? value : null;
}

export interface PrintedAmount {
  amount: number;
  /** Currency printed next to the amount (code or unambiguous symbol), if any. */
  currency: string | null;
  /** '$' without a country: USD, CAD, AUD or MXN depending on the email. */
  dollarSign: boolean;
  index: number;
}

const AMOUNT_PATTERN =
  /((?:[A-Z]{3}|[A-Z]{1,3}\$|[$€£¥₹₩])\s?)?(\d{1,3}(?:[,.' \u00a0\u202f]\d{3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?)(?!\d|[.,]\d)(\s?(?:[A-Z]{3}|[€£¥₹₩]|円|kr\.?)(?![A-Za-z]))?/g;

/** Amounts in a piece of text that carry a currency mark or a decimal part. */
export function findAmounts(text: string): PrintedAmount[] {
  const found: PrintedAmount[] = [];
  AMOUNT_PATTERN.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = AMOUNT_PATTERN.exec(text)) !== null) {
    const before = (match[1] ?? '').trim();
    const after = (match[3] ?? '').trim();
    const number = match[2] ?? '';
    let currency: string | null = null;
    let dollarSign = false;
    for (const mark of [before, after]) {
      if (!mark) continue;
      if (CURRENCY_CODES.has(mark)) currency = currency ?? mark;
      else if (mark === '$') dollarSign = true;
      // 'kr' is SEK, NOK, DKK or ISK: marked as money, the currency comes from the context.
      else if (/^kr\.?$/.test(mark)) dollarSign = true;
      else {
        for (const [pattern, code] of SYMBOLS) {
          if (pattern.test(mark)) {
            currency = currency ?? code;
            break;
          }
        }
      }
    }
    // A currency code before the amount and '$' after it (or the reverse) both count.
    if (
      !currency &&
      before &&
      /^[A-Z]{3}$/.test(before) &&
      !CURRENCY_CODES.has(before) &&
      !dollarSign &&
      !/[.,]\d{2}$/.test(number)
    )
      continue;
    const hasMark = currency !== null || dollarSign;
    if (!hasMark && !/[.,]\d{2}$/.test(number)) continue;
    const amount = parseAmount(number);
    if (amount === null) continue;
    found.push({ amount, currency, dollarSign, index: match.index });
  }
  return found;
}

/** Currency codes and currency names mentioned anywhere in a text, most mentioned first. */
export function currenciesMentioned(text: string): string[] {
  const counts = new Map<string, number>();
  for (const match of text.matchAll(/(?<![A-Za-z])([A-Z]{3})(?![A-Za-z])/g)) {
    const code = match[1] ?? '';
    if (CURRENCY_CODES.has(code)) counts.set(code, (counts.get(code) ?? 0) + 1);
  }
  for (const [pattern, code] of CURRENCY_WORDS) {
    if (pattern.test(text)) counts.set(code, (counts.get(code) ?? 0) + 1);
  }
  for (const [symbol, code] of [
    ['€', 'EUR'],
    ['£', 'GBP'],
  ] as const) {
    const count = text.split(symbol).length - 1;
    if (count > 0) counts.set(code, (counts.get(code) ?? 0) + count);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([code]) => code);
}
