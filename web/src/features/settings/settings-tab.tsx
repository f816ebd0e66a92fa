import { Alert, Stack } from '@chakra-ui/react';
import type { QueryKey } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { PageSpinner } from '@/components/ui/page-spinner';
import { isPremium, useCurrentUser } from '@/lib/auth';
import { AutoRebookingCard } from './components/auto-rebooking-card';
import { NotificationPreferencesCard } from './components/notification-preferences-card';
import { PriceAlertThresholdsCard } from './components/price-alert-thresholds-card';
import { RebookingThresholdsCard } from './components/rebooking-thresholds-card';

interface SettingsTabProps {
  /** The email connection panel, from the email feature (composed by the dashboard route). */
  emailPanel: ReactNode;
  /** Opens the Subscription tab (the upgrade buttons of premium-only settings). */
  onUpgrade: () => void;
  /** The flights and stats queries, refetched after an auto-rebooking check. */
  refreshAfterRun: readonly QueryKey[];
}

/**
 * Dashboard tab 3, Settings: the email connection panel (the email feature's, passed in by the
 * route because features never import each other), then Auto-Rebooking Settings, Notification
 * Preferences, Price Alert Thresholds and Rebooking Thresholds. Each card starts from the current
 * user and every save refreshes it.
 */
export function SettingsTab({ emailPanel, onUpgrade, refreshAfterRun }: SettingsTabProps) {
  const { data: user } = useCurrentUser();
  if (!user) return <PageSpinner compact />;
  const premium = isPremium(user);
  return (
    <Stack gap="6" maxW="3xl">
      {emailPanel}
      {!user.emailConfirmed && (
        <Alert.Root status="warning" variant="subtle" borderRadius="md">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>Alerts wait for your confirmed address</Alert.Title>
            <Alert.Description>
              FareBack sends price-drop, rebooking and cancellation emails to {user.email} only once you open the
              confirmation link we emailed there. Until then these settings are kept, and nothing is sent.
            </Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
      <AutoRebookingCard
        autoRebooking={user.autoRebooking}
        premium={premium}
        onUpgrade={onUpgrade}
        refreshAfterRun={refreshAfterRun}
      />
      {/* keyed by user: another account's values never carry over */}
      <NotificationPreferencesCard key={`notifications-${user.id}`} preferences={user} />
      <PriceAlertThresholdsCard
        key={`alerts-${user.id}`}
        minPriceDrop={user.minPriceDrop}
        minPriceDropPercent={user.minPriceDropPercent}
      />
      <RebookingThresholdsCard
        key={`thresholds-${user.id}-${premium}`}
        thresholds={user}
        premium={premium}
        onUpgrade={onUpgrade}
      />
    </Stack>
  );
}
