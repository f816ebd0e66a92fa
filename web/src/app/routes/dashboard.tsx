import { DashboardPage } from '@/features/dashboard/dashboard-page';
import { EmailSettingsPanel } from '@/features/email';
import { CreditsPanel, flightKeys, FlightsPanel, HistoryPanel, ManualEntryForm, StatsTiles } from '@/features/flights';
import { SettingsTab } from '@/features/settings';
import { PaymentIssueNotice, PaymentReturn, SubscriptionTab } from '@/features/subscription';

/**
 * /dashboard composes features that never import each other (STYLE.md): the dashboard's frame and
 * tabs, a failed payment's banner above every tab, the flights feature's tiles, lists and form, the settings cards with the email feature's
 * panel inside them, and the subscription tab (with what a return from a Stripe payment page
 * says, whatever tab is open). Tab switches the flight
 * panels ask for (Upgrade, after adding a flight) go through `selectTab`.
 */
export function DashboardRoute() {
  return (
    <>
      <PaymentReturn />
      <DashboardPage
        notice={<PaymentIssueNotice />}
        stats={<StatsTiles />}
        panels={{
          flights: (selectTab) => (
            <FlightsPanel onUpgrade={() => selectTab('plan')} onAddFlight={() => selectTab('add')} />
          ),
          history: () => <HistoryPanel />,
          credits: () => <CreditsPanel />,
          settings: (selectTab) => (
            <SettingsTab
              emailPanel={<EmailSettingsPanel refreshAfterConfirm={[flightKeys.all]} />}
              onUpgrade={() => selectTab('plan')}
              refreshAfterRun={[flightKeys.all]}
            />
          ),
          add: (selectTab) => <ManualEntryForm onAdded={() => selectTab('flights')} />,
          plan: () => <SubscriptionTab />,
        }}
      />
    </>
  );
}
