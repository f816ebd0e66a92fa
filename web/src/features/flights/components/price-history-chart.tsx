import { Box } from '@chakra-ui/react';
import type { FlightPricePoint } from '@shared/types/flights.ts';
import { CartesianGrid, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatDate, formatMoney } from '@/lib/format';

interface PriceHistoryChartProps {
  points: readonly FlightPricePoint[];
  originalPrice: number;
}

const shortDate = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' });

/**
 * The card's price history (recharts). Loaded lazily by the card, so recharts arrives with the
 * first chart rather than with the dashboard's first paint. The figure's text alternative states
 * what the line shows; the chart itself is decoration for sighted readers.
 */
export default function PriceHistoryChart({ points, originalPrice }: PriceHistoryChartProps) {
  const data = points.map((point) => ({
    time: new Date(point.checkedAt).getTime(),
    dollars: point.price / 100,
  }));
  const prices = points.map((p) => p.price);
  const last = points[points.length - 1];
  const label = `Price history: ${points.length} ${points.length === 1 ? 'check' : 'checks'}, paid ${formatMoney(originalPrice)}, lowest ${formatMoney(
    Math.min(...prices),
  )}, highest ${formatMoney(Math.max(...prices))}${last ? `, latest ${formatMoney(last.price)}` : ''}.`;

  return (
    <Box role="img" aria-label={label} height="120px" width="full" fontSize="xs">
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--chakra-colors-border)" vertical={false} />
          <XAxis
            dataKey="time"
            type="number"
            scale="time"
            domain={['dataMin', 'dataMax']}
            tickFormatter={(time: number) => shortDate.format(time)}
            tick={{ fill: 'var(--chakra-colors-fg-muted)' }}
            tickLine={false}
            minTickGap={24}
          />
          <YAxis
            width={52}
            // Recharts picks round ticks around the prices; the paid line widens the range to fit.
            domain={['auto', 'auto']}
            tickCount={4}
            allowDecimals={false}
            tickFormatter={(dollars: number) => `$${dollars}`}
            tick={{ fill: 'var(--chakra-colors-fg-muted)' }}
            tickLine={false}
            axisLine={false}
          />
          <Tooltip
            labelFormatter={(time) => formatDate(Number(time))}
            formatter={(dollars) => [formatMoney(Math.round(Number(dollars) * 100)), 'Price']}
          />
          {/* What was paid, so a drop below it reads at a glance. */}
          <ReferenceLine
            y={originalPrice / 100}
            stroke="var(--chakra-colors-fg-subtle)"
            strokeDasharray="4 4"
            ifOverflow="extendDomain"
            label={{ value: 'Paid', position: 'insideTopLeft', fill: 'var(--chakra-colors-fg-muted)' }}
          />
          <Line
            type="monotone"
            dataKey="dollars"
            stroke="var(--chakra-colors-brand-solid)"
            strokeWidth={2}
            dot={points.length < 12}
            isAnimationActive={false}
          />
        </LineChart>
      </ResponsiveContainer>
    </Box>
  );
}
