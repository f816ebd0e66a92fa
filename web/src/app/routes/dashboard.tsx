import { DashboardPage } from '@/features/dashboard/dashboard-page';
import { CreditsPanel, FlightsPanel, HistoryPanel, ManualEntryForm, StatsTiles } from '@/features/flights';

/**
 * /dashboard composes two features that never import each other (STYLE.md): the dashboard's
 * frame and tabs, and the flights feature's tiles, lists and form. Tab switches the flight
 * panels ask for (Upgrade, after adding a flight) go through `selectTab`.
 */
export function DashboardRoute() {
  return (
    <DashboardPage
      stats={<StatsTiles />}
      panels={{
        flights: (selectTab) => (
          <FlightsPanel onUpgrade={() => selectTab('plan')} onAddFlight={() => selectTab('add')} />
        ),
        history: () => <HistoryPanel />,
        credits: () => <CreditsPanel />,
        add: (selectTab) => <ManualEntryForm onAdded={() => selectTab('flights')} />,
      }}
    />
  );
}
