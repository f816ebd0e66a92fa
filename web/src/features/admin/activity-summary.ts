import type { AdminActivityDay } from '@shared/types/admin.ts';
import { formatCount, formatDate, formatMoney } from '@/lib/format';

/**
 * The activity chart in words (its text alternative): the span, the totals, and the busiest day.
 * 'Nov 1, 2026 to Nov 30, 2026: 12 price drops, 3 rebookings, $450 in savings. Most price drops
 * on Nov 20, 2026 (5).'
 */
export function activitySummary(series: readonly AdminActivityDay[]): string {
  const first = series[0];
  const last = series[series.length - 1];
  if (!first || !last) return 'No activity to show.';
  const totals = series.reduce(
    (sum, day) => ({
      priceDrops: sum.priceDrops + day.priceDrops,
      rebookings: sum.rebookings + day.rebookings,
      savings: sum.savings + day.savings,
    }),
    { priceDrops: 0, rebookings: 0, savings: 0 },
  );
  const span = `${formatDate(first.date)} to ${formatDate(last.date)}`;
  const text = `${span}: ${formatCount(totals.priceDrops, 'price drop')}, ${formatCount(totals.rebookings, 'rebooking')}, ${formatMoney(totals.savings, 0)} in savings.`;
  if (totals.priceDrops === 0) return text;
  const busiest = series.reduce((best, day) => (day.priceDrops > best.priceDrops ? day : best), first);
  return `${text} Most price drops on ${formatDate(busiest.date)} (${busiest.priceDrops.toLocaleString('en-US')}).`;
}
