import { Box } from '@chakra-ui/react';
import type { AdminActivityDay } from '@shared/types/admin.ts';
import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatDate, formatMoney } from '@/lib/format';

interface ActivityChartProps {
  series: readonly AdminActivityDay[];
  /** The id of the text that says what the chart shows (its text alternative). */
  'aria-describedby': string;
}

const shortDate = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/**
 * The admin dashboard's price drops and rebookings per day (bars, counts on the left axis) and the
 * savings those rebookings brought (a line, dollars on the right axis). Loaded lazily with
 * recharts. The figure is an image for assistive technology, described by the summary beside it.
 */
export default function ActivityChart({ series, 'aria-describedby': describedBy }: ActivityChartProps) {
  const data = series.map((day) => ({
    date: day.date,
    priceDrops: day.priceDrops,
    rebookings: day.rebookings,
    dollars: day.savings / 100,
  }));
  return (
    <Box
      role="img"
      aria-label="Chart of price drops, rebookings and savings per day"
      aria-describedby={describedBy}
      height={{ base: '240px', md: '300px' }}
      width="full"
      fontSize="xs"
    >
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={data} margin={{ top: 8, right: 0, bottom: 0, left: 0 }} accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--chakra-colors-border)" vertical={false} />
          <XAxis
            dataKey="date"
            tickFormatter={(date: string) => shortDate.format(new Date(`${date}T00:00:00Z`))}
            tick={{ fill: 'var(--chakra-colors-fg-muted)' }}
            tickLine={false}
            minTickGap={24}
          />
          <YAxis
            yAxisId="count"
            width={36}
            allowDecimals={false}
            tick={{ fill: 'var(--chakra-colors-fg-muted)' }}
            tickLine={false}
            axisLine={false}
          />
          <YAxis
            yAxisId="dollars"
            orientation="right"
            width={56}
            allowDecimals={false}
            tickFormatter={(dollars: number) => formatMoney(dollars * 100, 0)}
            tick={{ fill: 'var(--chakra-colors-fg-muted)' }}
            tickLine={false}
            axisLine={false}
          />
          <Tooltip
            labelFormatter={(date) => formatDate(String(date))}
            formatter={(value, name) =>
              name === 'Savings' ? [formatMoney(Math.round(Number(value) * 100), 0), name] : [value, name]
            }
          />
          {/* the series' names in the text colour: orange text on white would be hard to read */}
          <Legend
            verticalAlign="bottom"
            height={28}
            formatter={(name: string) => <span style={{ color: 'var(--chakra-colors-fg-muted)' }}>{name}</span>}
          />
          <Bar
            yAxisId="count"
            dataKey="priceDrops"
            name="Price drops"
            fill="var(--chakra-colors-orange-400)"
            isAnimationActive={false}
          />
          <Bar
            yAxisId="count"
            dataKey="rebookings"
            name="Rebookings"
            fill="var(--chakra-colors-brand-solid)"
            isAnimationActive={false}
          />
          <Line
            yAxisId="dollars"
            // straight between days: a smoothed curve would draw savings on days that had none
            type="linear"
            dataKey="dollars"
            name="Savings"
            stroke="var(--chakra-colors-green-600)"
            strokeWidth={2}
            dot={data.length <= 31}
            isAnimationActive={false}
          />
        </ComposedChart>
      </ResponsiveContainer>
    </Box>
  );
}
