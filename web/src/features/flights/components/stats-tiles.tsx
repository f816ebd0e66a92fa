import { Card, Icon, SimpleGrid, Skeleton, Text } from '@chakra-ui/react';
import type { DashboardStats } from '@shared/types/flights.ts';
import type { IconType } from 'react-icons';
import { LuPiggyBank, LuPlane, LuTrendingDown, LuWallet } from 'react-icons/lu';
import { formatMoney } from '@/lib/format';
import { useDashboardStats } from '../api';

interface Tile {
  label: string;
  icon: IconType;
  value: (stats: DashboardStats) => string;
  /** What the figure counts, when its name alone could mislead. */
  note?: string;
}

// Four tiles; money in whole dollars.
const TILES: readonly Tile[] = [
  { label: 'Monitored Flights', icon: LuPlane, value: (s) => String(s.monitoredFlights) },
  { label: 'Price Drops Found', icon: LuTrendingDown, value: (s) => String(s.priceDropsFound) },
  {
    label: 'Total Potential Savings',
    icon: LuPiggyBank,
    value: (s) => formatMoney(s.potentialSavings, 0),
    // The api counts only drops a rebooking can claim (queries/flights.ts dashboardStats).
    note: 'Drops you can claim, after change fees',
  },
  { label: 'Actual Savings', icon: LuWallet, value: (s) => formatMoney(s.actualSavings, 0) },
];

/** The dashboard's four stat tiles; 'No stats available' when the stats cannot be loaded. */
export function StatsTiles() {
  const { data: stats, isPending } = useDashboardStats();

  return (
    <SimpleGrid
      as="ul"
      columns={{ base: 2, md: 4 }}
      gap={{ base: '3', md: '4' }}
      listStyleType="none"
      aria-label="Your savings at a glance"
    >
      {TILES.map((tile) => (
        <Card.Root as="li" key={tile.label} variant="outline" size="sm">
          <Card.Body gap="1">
            <Text fontSize="sm" color="fg.muted" display="flex" alignItems="center" gap="2">
              <Icon as={tile.icon} color="brand.fg" aria-hidden />
              {tile.label}
            </Text>
            {isPending ? (
              <Skeleton height="8" width="16" />
            ) : stats ? (
              <Text fontSize={{ base: 'xl', md: '2xl' }} fontWeight="bold">
                {tile.value(stats)}
              </Text>
            ) : (
              <Text fontSize="sm" color="fg.muted">
                No stats available
              </Text>
            )}
            {tile.note && (
              <Text fontSize="xs" color="fg.muted">
                {tile.note}
              </Text>
            )}
          </Card.Body>
        </Card.Root>
      ))}
    </SimpleGrid>
  );
}
