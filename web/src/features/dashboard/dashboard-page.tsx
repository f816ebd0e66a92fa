import { Badge, Button, Card, Heading, HStack, Icon, Link, Stack, Tabs, Text } from '@chakra-ui/react';
import { FREE_FLIGHT_LIMIT } from '@shared/constants.ts';
import type { ReactNode } from 'react';
import { LuMail } from 'react-icons/lu';
import { Link as RouterLink } from 'react-router';
import { ContentLayout } from '@/components/layout/content-layout';
import { useUrlTab } from '@/hooks/use-url-tab';
import { isPremium, useCurrentUser } from '@/lib/auth';
import { ScrollingTabList } from './components/scrolling-tab-list';
import { SupportedFares } from './components/supported-fares';
import { DASHBOARD_TAB_IDS, DASHBOARD_TABS, type DashboardTab } from './tabs';

export type { DashboardTab };

/** What a composed tab panel may do: switch the dashboard to another tab. */
export type SelectTab = (tab: DashboardTab) => void;

/** The tabs whose content comes from the flights feature, composed by the app's dashboard route. */
export type FlightTabs = Record<'flights' | 'history' | 'credits' | 'add', (selectTab: SelectTab) => ReactNode>;

interface DashboardPageProps {
  /** The four stat tiles. */
  stats: ReactNode;
  panels: FlightTabs;
}

/**
 * /dashboard: the title with the email badge, the stat tiles, six tabs (the selected one in the
 * URL, ?tab=, through useUrlTab) and the airlines and fares FareBack supports.
 */
export function DashboardPage({ stats, panels }: DashboardPageProps) {
  const { data: user } = useCurrentUser();
  const [selected, selectTab] = useUrlTab(DASHBOARD_TAB_IDS);

  const connected = user?.emailConnected === true;

  return (
    <ContentLayout
      title="Flight Savings Dashboard"
      description="Your monitored flights, price drops and savings."
      actions={
        <HStack gap="2">
          <Icon as={LuMail} color="fg.muted" aria-hidden />
          <Text fontSize="sm" color="fg.muted">
            Email
          </Text>
          <Badge colorPalette={connected ? 'green' : 'orange'} variant={connected ? 'solid' : 'subtle'} size="md">
            {connected ? 'Connected' : 'Not Connected'}
          </Badge>
        </HStack>
      }
    >
      <Stack gap={{ base: '6', md: '8' }}>
        {stats}
        <Tabs.Root
          value={selected}
          onValueChange={(details) => selectTab(details.value)}
          lazyMount
          variant="line"
          colorPalette="brand"
        >
          <ScrollingTabList selected={selected} />
          {DASHBOARD_TABS.map((tab) => (
            <Tabs.Content key={tab.id} value={tab.id} pt="6">
              <Heading as="h2" srOnly>
                {tab.label}
              </Heading>
              {tab.id === 'settings' ? (
                <SettingsPlaceholder emailConnected={connected} />
              ) : tab.id === 'plan' ? (
                <SubscriptionPlaceholder premium={isPremium(user)} />
              ) : (
                panels[tab.id](selectTab)
              )}
            </Tabs.Content>
          ))}
        </Tabs.Root>
        <SupportedFares />
      </Stack>
    </ContentLayout>
  );
}

function ComingLater({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card.Root variant="outline" maxW="3xl">
      <Card.Header>
        <Heading as="h3" size="md">
          {title}
        </Heading>
      </Card.Header>
      <Card.Body gap="4">{children}</Card.Body>
    </Card.Root>
  );
}

// Settings and Subscription get their content in their own issues; until then they say so and
// point to what already works.
function SettingsPlaceholder({ emailConnected }: { emailConnected: boolean }) {
  return (
    <ComingLater title="Settings">
      <Text color="fg.muted">
        Auto-rebooking, notification preferences, price alert thresholds and rebooking thresholds will be managed here
        in an upcoming release.
      </Text>
      <HStack gap="3" wrap="wrap">
        <Text>
          Email connection:{' '}
          <Text as="span" fontWeight="semibold">
            {emailConnected ? 'Connected' : 'Not Connected'}
          </Text>
        </Text>
        <Link asChild color="brand.fg" fontWeight="medium">
          <RouterLink to="/connect-email">Manage email connection</RouterLink>
        </Link>
      </HStack>
    </ComingLater>
  );
}

function SubscriptionPlaceholder({ premium }: { premium: boolean }) {
  return (
    <ComingLater title="Subscription">
      <Text>
        You are on the{' '}
        <Text as="span" fontWeight="semibold">
          {premium ? 'Premium' : 'Free'}
        </Text>{' '}
        plan.{' '}
        {premium
          ? 'Unlimited monitoring and automatic rebooking are on.'
          : `It monitors up to ${FREE_FLIGHT_LIMIT} flights with email price-drop alerts and manual rebooking.`}
      </Text>
      <Text color="fg.muted">Plan management and billing will appear here in an upcoming release.</Text>
      {!premium && (
        <Button asChild alignSelf="flex-start">
          <RouterLink to="/premium-checkout">See Premium</RouterLink>
        </Button>
      )}
    </ComingLater>
  );
}
