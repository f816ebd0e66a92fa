import { format, isValid, parseISO } from 'date-fns';

/*
 * Money is integer cents everywhere (DESIGN); this is the one place it becomes dollars, and the
 * one place dollars typed into a form become cents. US dollars in en-US; flight cards show 2
 * decimals, stat tiles 0.
 */
const moneyFormatters = new Map<number, Intl.NumberFormat>();

function moneyFormatter(decimals: number): Intl.NumberFormat {
  let formatter = moneyFormatters.get(decimals);
  if (!formatter) {
    formatter = new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency: 'USD',
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    });
    moneyFormatters.set(decimals, formatter);
  }
  return formatter;
}

/** 123456 -> '$1,234.56'; with `decimals: 0` -> '$1,235'. Missing amounts count as 0. */
export function formatMoney(cents: number | null | undefined, decimals = 2): string {
  return moneyFormatter(decimals).format((cents ?? 0) / 100);
}

const moneyInputFormatter = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Cents as a money field shows them: 123450 -> '1,234.50', no symbol; '' when there is no amount. */
export function formatMoneyInput(cents: number | null | undefined): string {
  if (cents === null || cents === undefined || !Number.isFinite(cents)) return '';
  return moneyInputFormatter.format(cents / 100);
}

// An optional minus (before or after an optional '$'), whole dollars either plain or grouped in
// threes with commas, then an optional fraction.
const MONEY_TEXT = /^(-?)\$?\s*(-?)(\d+|\d{1,3}(?:,\d{3})+)?(?:\.(\d*))?$/;

/**
 * Dollars as a person types them -> integer cents: '$1,234.50' -> 123450, '12.5' -> 1250,
 * '-3' -> -300, '.5' -> 50. Blank is `undefined` (no amount: the schema says whether one is
 * required). Anything else is NaN: text that is not an amount, misplaced commas, and amounts finer
 * than a cent ('0.005'), which are refused rather than rounded so nobody is charged or credited a
 * sum they did not type. Whether a negative amount is allowed is the schema's rule, not this one's.
 */
export function parseMoney(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const match = MONEY_TEXT.exec(trimmed);
  if (!match) return Number.NaN;
  const [, signBefore = '', signAfter = '', whole = '', fraction] = match;
  if (signBefore && signAfter) return Number.NaN;
  if (whole === '' && !fraction) return Number.NaN;
  const digits = fraction ?? '';
  if (/[1-9]/.test(digits.slice(2))) return Number.NaN;
  const cents = Number(whole.replace(/,/g, '') || '0') * 100 + Number(digits.slice(0, 2).padEnd(2, '0'));
  if (!Number.isSafeInteger(cents)) return Number.NaN;
  return signBefore || signAfter ? -cents || 0 : cents;
}

export const DATE_FORMAT = 'MMM d, yyyy';

/** An ISO string, Date or epoch ms as 'MMM d, yyyy'; 'N/A' when missing or invalid. */
export function formatDate(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return 'N/A';
  const date = typeof value === 'string' ? parseISO(value) : new Date(value);
  return isValid(date) ? format(date, DATE_FORMAT) : 'N/A';
}

/** 12.345 -> '12.3%' (one decimal). */
export function formatPercent(value: number | null | undefined): string {
  const n = value ?? 0;
  return `${(Number.isFinite(n) ? n : 0).toFixed(1)}%`;
}

/** Share of `part` in `whole` as a percentage; 0 when `whole` is not positive. */
export function percentOf(part: number, whole: number): number {
  return whole > 0 ? (part / whole) * 100 : 0;
}

export const DATE_TIME_FORMAT = 'MMM d, yyyy, h:mm a';

/** An ISO string, Date or epoch ms as 'Nov 24, 2026, 7:05 AM' (the reader's time zone); 'N/A' when missing or invalid. */
export function formatDateTime(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return 'N/A';
  const date = typeof value === 'string' ? parseISO(value) : new Date(value);
  return isValid(date) ? format(date, DATE_TIME_FORMAT) : 'N/A';
}

/** 1 -> '1 flight', 1234 -> '1,234 flights' (en-US grouping; plural with an s). */
export function formatCount(count: number, unit: string): string {
  return `${count.toLocaleString('en-US')} ${unit}${count === 1 ? '' : 's'}`;
}

/** A code as words: 'subscription' -> 'Subscription', 'commission_statement' -> 'Commission statement'. */
export function sentenceCase(code: string): string {
  const words = code.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
