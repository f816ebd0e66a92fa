import { Tabs } from '@chakra-ui/react';
import { ContentLayout } from '@/components/layout/content-layout';
import { PlaceholderPanel } from '@/components/ui/placeholder-panel';
import { useUrlTab } from '@/hooks/use-url-tab';

// The admin area's five tabs; `id` is what the URL carries (?tab=users).
const ADMIN_TABS = [
  { id: 'dashboard', label: 'Dashboard', placeholder: 'Platform statistics will appear here.' },
  { id: 'users', label: 'Users', placeholder: 'Users, admin rights and commission payments will appear here.' },
  { id: 'flights', label: 'Flights', placeholder: 'Every monitored flight will appear here.' },
  { id: 'billing', label: 'Billing', placeholder: 'Transactions will appear here.' },
  { id: 'subscription-plans', label: 'Plans', placeholder: 'Subscription plans will appear here.' },
] as const;

const ADMIN_TAB_IDS = ADMIN_TABS.map((tab) => tab.id);

export function AdminPage() {
  const [selected, selectTab] = useUrlTab(ADMIN_TAB_IDS);
  return (
    <ContentLayout title="Admin Dashboard" description="Users, flights, billing and subscription plans.">
      <Tabs.Root value={selected} onValueChange={(details) => selectTab(details.value)} lazyMount variant="line">
        <Tabs.List overflowX="auto" overflowY="hidden">
          {ADMIN_TABS.map((tab) => (
            <Tabs.Trigger key={tab.id} value={tab.id} whiteSpace="nowrap">
              {tab.label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {ADMIN_TABS.map((tab) => (
          <Tabs.Content key={tab.id} value={tab.id} pt="6">
            <PlaceholderPanel>{tab.placeholder}</PlaceholderPanel>
          </Tabs.Content>
        ))}
      </Tabs.Root>
    </ContentLayout>
  );
}
