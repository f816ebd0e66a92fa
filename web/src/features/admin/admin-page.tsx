import { Tabs } from '@chakra-ui/react';
import type { ComponentType } from 'react';
import { ContentLayout } from '@/components/layout/content-layout';
import { useUrlTab } from '@/hooks/use-url-tab';
import { AdminRuns } from './admin-runs';
import { AdminAirlineRulesTab } from './airline-rules-tab';
import { AdminAuditTab } from './audit-tab';
import { AdminBillingTab } from './billing-tab';
import { AdminDashboardTab } from './dashboard-tab';
import { AdminFlightsTab } from './flights-tab';
import { AdminPlansTab } from './plans-tab';
import { AdminUsersTab } from './users-tab';

// The admin area's tabs (spec's five, plus the audit log); `id` is what the URL carries (?tab=users).
const ADMIN_TABS: { id: string; label: string; Panel: ComponentType }[] = [
  { id: 'dashboard', label: 'Dashboard', Panel: AdminDashboardTab },
  { id: 'users', label: 'Users', Panel: AdminUsersTab },
  { id: 'flights', label: 'Flights', Panel: AdminFlightsTab },
  { id: 'billing', label: 'Billing', Panel: AdminBillingTab },
  { id: 'subscription-plans', label: 'Plans', Panel: AdminPlansTab },
  { id: 'airline-rules', label: 'Airline Rules', Panel: AdminAirlineRulesTab },
  { id: 'audit', label: 'Audit', Panel: AdminAuditTab },
];

const ADMIN_TAB_IDS = ADMIN_TABS.map((tab) => tab.id);

export function AdminPage() {
  const [selected, selectTab] = useUrlTab(ADMIN_TAB_IDS);
  return (
    <ContentLayout
      title="Admin Dashboard"
      description="Users, flights, billing and subscription plans."
      actions={<AdminRuns />}
    >
      <Tabs.Root
        value={selected}
        onValueChange={(details) => selectTab(details.value)}
        lazyMount
        unmountOnExit
        variant="line"
      >
        <Tabs.List overflowX="auto" overflowY="hidden">
          {ADMIN_TABS.map((tab) => (
            <Tabs.Trigger key={tab.id} value={tab.id} whiteSpace="nowrap">
              {tab.label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {ADMIN_TABS.map(({ id, Panel }) => (
          <Tabs.Content key={id} value={id} pt="6">
            <Panel />
          </Tabs.Content>
        ))}
      </Tabs.Root>
    </ContentLayout>
  );
}
