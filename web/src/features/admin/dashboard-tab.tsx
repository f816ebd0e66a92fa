import { Button, Card, Group, Heading, HStack, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { STATS_SPANS } from '@shared/schemas/admin.ts';
import type { AdminStats } from '@shared/types/admin.ts';
import { QueryState } from '@/components/query-state/query-state';
import { useUrlTab } from '@/hooks/use-url-tab';
import { formatMoney } from '@/lib/format';
import { activitySummary } from './activity-summary';
import { adminStatsQueryOptions, DEFAULT_STATS_SPAN, type StatsSpan } from './stats-api';

// recharts loads with the chart, not with the admin page's first paint.
const ActivityChart = lazy(() => import('./activity-chart'));

interface Tile {
  label: string;
  value: (stats: AdminStats) => string;
}

type CountKey = { [K in keyof AdminStats]: AdminStats[K] extends number ? K : never }[keyof AdminStats];

const count = (key: CountKey) => (stats: AdminStats) => stats[key].toLocaleString('en-US');
// Stat tiles show whole dollars (spec section 9).
const dollars = (key: CountKey) => (stats: AdminStats) => formatMoney(stats[key], 0);

/** Every field of the spec's admin stats, in four groups, and how often an alert was right. */
const TILE_GROUPS: { title: string; tiles: Tile[] }[] = [
  {
    title: 'Users',
    tiles: [
      { label: 'Total users', value: count('totalUsers') },
      { label: 'Premium users', value: count('premiumUsers') },
      { label: 'Free users', value: count('freeUsers') },
      { label: 'New in the last 30 days', value: count('newUsersLast30Days') },
    ],
  },
  {
    title: 'Flights',
    tiles: [
      { label: 'Total flights', value: count('totalFlights') },
      { label: 'Monitored now', value: count('currentlyMonitoredFlights') },
      { label: 'Upcoming', value: count('upcomingFlights') },
      { label: 'Rebookable now', value: count('potentialRebookableFlights') },
      { label: 'Price drops found', value: count('totalPriceDrops') },
    ],
  },
  {
    title: 'Rebookings & savings',
    tiles: [
      { label: 'Flights rebooked', value: count('totalRebookedFlights') },
      { label: 'Rebooked in the last 30 days', value: count('rebookingsLast30Days') },
      { label: 'Total savings', value: dollars('totalSavings') },
      { label: 'Average savings per rebooking', value: dollars('averageSavingsPerRebooking') },
    ],
  },
  {
    title: 'Commission',
    tiles: [
      { label: 'Commission owed', value: dollars('totalCommissionsOwed') },
      { label: 'Commission paid', value: dollars('totalCommissionsPaid') },
    ],
  },
  {
    title: 'Alerts',
    tiles: [
      { label: 'Alerts sent', value: count('alertedDrops') },
      // the share of alerted drops whose fare still held when rebooked or re-checked within a day
      {
        label: 'Alert precision',
        value: (stats) => (stats.alertPrecision === null ? 'Not yet known' : `${stats.alertPrecision}%`),
      },
    ],
  },
];

const SPAN_IDS = STATS_SPANS.map(String);
const spanLabel = (days: number) => (days === 365 ? '1 year' : `${days} days`);

export function AdminDashboardTab() {
  // The chart's span is in the URL (?days=7; the default 30 is left out), like the tab.
  const [spanId, selectSpan] = useUrlTab(SPAN_IDS, { param: 'days', defaultTab: String(DEFAULT_STATS_SPAN) });
  const days = Number(spanId) as StatsSpan;
  const query = useQuery(adminStatsQueryOptions(days));

  return (
    <QueryState
      query={query}
      loadingLabel="Loading dashboard data"
      errorTitle="Error loading dashboard data"
      skeleton={dashboardSkeleton}
    >
      {(stats) => (
        <Stack gap="8">
          {TILE_GROUPS.map((group, index) => (
            <Stack as="section" key={group.title} gap="3" aria-labelledby={`admin-stats-${index}`}>
              <Heading as="h2" size="md" id={`admin-stats-${index}`}>
                {group.title}
              </Heading>
              <SimpleGrid as="ul" columns={{ base: 2, md: 3, lg: 5 }} gap={{ base: '3', md: '4' }} listStyleType="none">
                {group.tiles.map((tile) => (
                  <Card.Root as="li" key={tile.label} variant="outline" size="sm">
                    <Card.Body gap="1">
                      <Text fontSize="sm" color="fg.muted">
                        {tile.label}
                      </Text>
                      <Text fontSize={{ base: 'xl', md: '2xl' }} fontWeight="bold">
                        {tile.value(stats)}
                      </Text>
                    </Card.Body>
                  </Card.Root>
                ))}
              </SimpleGrid>
            </Stack>
          ))}

          <Card.Root as="section" variant="outline" aria-labelledby="admin-activity-title">
            <Card.Header>
              <HStack justify="space-between" align="flex-start" wrap="wrap" gap="3">
                <Heading as="h2" size="md" id="admin-activity-title">
                  Activity per day
                </Heading>
                <Group attached role="group" aria-label="Chart span">
                  {STATS_SPANS.map((span) => (
                    <Button
                      key={span}
                      size="xs"
                      variant={span === days ? 'solid' : 'outline'}
                      aria-pressed={span === days}
                      onClick={() => selectSpan(String(span))}
                    >
                      {spanLabel(span)}
                    </Button>
                  ))}
                </Group>
              </HStack>
            </Card.Header>
            <Card.Body gap="3">
              {/* The text alternative: what the chart shows, in words, for every reader. */}
              <Text id="admin-activity-summary" color="fg.muted" fontSize="sm" aria-live="polite">
                {activitySummary(stats.series)}
              </Text>
              <Suspense fallback={<Skeleton height="280px" borderRadius="md" />}>
                <ActivityChart series={stats.series} aria-describedby="admin-activity-summary" />
              </Suspense>
            </Card.Body>
          </Card.Root>
        </Stack>
      )}
    </QueryState>
  );
}

const dashboardSkeleton = (
  <>
    <SimpleGrid columns={{ base: 2, md: 3, lg: 5 }} gap="4">
      {Array.from({ length: 10 }, (_, index) => (
        <Skeleton key={index} height="20" borderRadius="md" />
      ))}
    </SimpleGrid>
    <Skeleton height="280px" borderRadius="md" />
  </>
);
