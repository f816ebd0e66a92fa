import { Badge, Heading, HStack, Icon, Stack, Tabs, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { LuMail } from 'react-icons/lu';
import { ContentLayout } from '@/components/layout/content-layout';
import { useUrlTab } from '@/hooks/use-url-tab';
import { useCurrentUser } from '@/lib/auth';
import { ScrollingTabList } from './components/scrolling-tab-list';
import { SupportedFares } from './components/supported-fares';
import { DASHBOARD_TAB_IDS, DASHBOARD_TABS, type DashboardTab } from './tabs';

export type { DashboardTab };

/** What a composed tab panel may do: switch the dashboard to another tab. */
export type SelectTab = (tab: DashboardTab) => void;

/**
 * Every tab's content, composed by the app's dashboard route from the features that own it
 * (flights, settings, email, subscription), which never import each other.
 */
export type DashboardPanels = Record<DashboardTab, (selectTab: SelectTab) => ReactNode>;

interface DashboardPageProps {
  /** What must be seen whatever tab is open (a failed payment's banner), above the tiles. */
  notice?: ReactNode;
  /** The four stat tiles. */
  stats: ReactNode;
  panels: DashboardPanels;
}

/**
 * /dashboard: the title with the email badge, a notice for every tab, the stat tiles, six tabs (the selected one in the
 * URL, ?tab=, through useUrlTab) and the airlines and fares FareBack supports.
 */
export function DashboardPage({ notice, stats, panels }: DashboardPageProps) {
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
        {notice}
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
              {panels[tab.id](selectTab)}
            </Tabs.Content>
          ))}
        </Tabs.Root>
        <SupportedFares />
      </Stack>
    </ContentLayout>
  );
}
