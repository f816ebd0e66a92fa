import { Box, Button, SimpleGrid, Stack } from '@chakra-ui/react';
import {
  isKnownTimeZone,
  notificationPreferencesSchema,
  type NotificationPreferencesInput,
} from '@shared/schemas/settings.ts';
import type { CurrentUser } from '@/lib/auth';
import { SelectField } from '@/components/form/select-field';
import { SwitchField } from '@/components/form/switch-field';
import { TextField } from '@/components/form/text-field';
import { useZodForm } from '@/hooks/use-zod-form';
import { useSaveNotificationPreferences } from '../api';
import { SettingsCard } from './settings-card';

const FREQUENCIES = [
  { value: 'instant', label: 'Instant: an email for each alert' },
  { value: 'daily', label: 'Daily digest' },
  { value: 'weekly', label: 'Weekly digest' },
];

/** The IANA zone the browser reports, when the api would accept it. */
export function browserTimeZone(): string | undefined {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zone && isKnownTimeZone(zone) ? zone : undefined;
}

type Preferences = Pick<
  CurrentUser,
  'notifyPriceDrops' | 'notifyRebookings' | 'notifyCancellations' | 'notificationFrequency' | 'notificationTime'
> &
  Partial<Pick<CurrentUser, 'timeZone'>>;

/**
 * 'Notification Preferences': the three kinds of email, how often they come (each at once, or
 * in a daily or weekly digest) and at what time of day. The browser's time zone goes along, so
 * '09:00' is nine in the morning where the traveller is.
 */
export function NotificationPreferencesCard({ preferences }: { preferences: Preferences }) {
  const save = useSaveNotificationPreferences();
  const form = useZodForm(notificationPreferencesSchema, {
    notifyPriceDrops: preferences.notifyPriceDrops,
    notifyRebookings: preferences.notifyRebookings,
    notifyCancellations: preferences.notifyCancellations,
    notificationFrequency: preferences.notificationFrequency,
    notificationTime: preferences.notificationTime,
  });
  const zone = browserTimeZone() ?? preferences.timeZone ?? 'UTC';
  const digest = form.values.notificationFrequency !== 'instant';
  const busy = save.isPending;

  const onSubmit = form.handleSubmit((input) => {
    const timeZone = browserTimeZone();
    const body: NotificationPreferencesInput = timeZone ? { ...input, timeZone } : input;
    save.mutate(body, { onError: form.showServerErrors });
  });

  return (
    <SettingsCard title="Notification Preferences" description="Choose which emails we send you and when.">
      <form onSubmit={onSubmit} noValidate aria-label="Notification Preferences">
        <Stack gap="5">
          <SwitchField
            label="Price drop alerts"
            hint="When a fare drops on one of your flights."
            disabled={busy}
            {...form.switchField('notifyPriceDrops')}
          />
          <SwitchField
            label="Rebooking confirmations"
            hint="When a flight is rebooked and credit is issued."
            disabled={busy}
            {...form.switchField('notifyRebookings')}
          />
          <SwitchField
            label="Flight cancellations"
            hint="When an airline cancels one of your flights."
            disabled={busy}
            {...form.switchField('notifyCancellations')}
          />
          <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4">
            <SelectField
              label="Frequency"
              options={FREQUENCIES}
              disabled={busy}
              {...form.field('notificationFrequency')}
            />
            <TextField
              label="Time of day"
              type="time"
              hint={digest ? `Digests arrive at this time (${zone}).` : `Used for daily and weekly digests (${zone}).`}
              disabled={busy}
              {...form.field('notificationTime')}
            />
          </SimpleGrid>
          <Box>
            <Button type="submit" loading={busy} loadingText="Saving..." width={{ base: 'full', sm: 'auto' }}>
              Save Preferences
            </Button>
          </Box>
        </Stack>
      </form>
    </SettingsCard>
  );
}
