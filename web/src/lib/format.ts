import { format, isValid, parseISO } from 'date-fns';

/*
 * Money is integer cents everywhere (DESIGN); this is the one place it becomes dollars.
 * Spec section 9: US dollars in en-US; flight cards show 2 decimals, stat tiles 0.
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

export const DATE_FORMAT = 'MMM d, yyyy';

/** An ISO string, Date or epoch ms as 'MMM d, yyyy'; 'N/A' when missing or invalid. */
export function formatDate(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return 'N/A';
  const date = typeof value === 'string' ? parseISO(value) : new Date(value);
  return isValid(date) ? format(date, DATE_FORMAT) : 'N/A';
}

/** 12.345 -> '12.3%' (one decimal, spec section 9). */
export function formatPercent(value: number | null | undefined): string {
  const n = value ?? 0;
  return `${(Number.isFinite(n) ? n : 0).toFixed(1)}%`;
}

/** Share of `part` in `whole` as a percentage; 0 when `whole` is not positive. */
export function percentOf(part: number, whole: number): number {
  return whole > 0 ? (part / whole) * 100 : 0;
}
