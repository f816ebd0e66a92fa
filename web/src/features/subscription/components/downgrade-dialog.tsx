import { Box, RadioGroup, Stack, Text } from '@chakra-ui/react';
import { FREE_FLIGHT_LIMIT } from '@shared/constants.ts';
import type { DowngradeTime } from '@shared/schemas/billing.ts';
import type { CurrentSubscription, UpdateSubscriptionResponse } from '@shared/types/billing.ts';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { notify } from '@/components/ui/toaster';
import { formatDate } from '@/lib/format';
import { useDowngrade } from '../api';

interface DowngradeDialogProps {
  subscription: CurrentSubscription | undefined;
  /** The free plan's flight limit, from the plan list. */
  freeFlightLimit: number | undefined;
  /** After the downgrade, with the server's answer (how many flights are over the free limit). */
  onDowngraded: (result: UpdateSubscriptionResponse) => void;
  onClose: () => void;
}

/**
 * Confirms 'Downgrade to Free' and asks when (Cancel keeps the plan, and has the focus). At the
 * end of the paid year (the default when one is paid ahead): renewal off, Premium kept until then,
 * nothing lost. Now (the spec's downgrade): the free plan at once (auto-rebooking off, its flight
 * limit), no refund. Flights watched above the free limit are kept either way.
 */
export function DowngradeDialog({ subscription, freeFlightLimit, onDowngraded, onClose }: DowngradeDialogProps) {
  const downgrade = useDowngrade();
  const limit = freeFlightLimit ?? FREE_FLIGHT_LIMIT;
  const paidAhead =
    subscription?.endDate && new Date(subscription.endDate) > new Date() && subscription.status !== 'past_due'
      ? formatDate(subscription.endDate)
      : null;
  const [when, setWhen] = useState<DowngradeTime>(paidAhead ? 'period_end' : 'now');

  const onConfirm = () =>
    downgrade.mutate(when, {
      onSuccess: (result) => {
        notify(
          when === 'period_end'
            ? { title: 'Subscription Updated', description: result.message, status: 'success' }
            : {
                title: 'Downgraded to Free Tier',
                description: 'Your subscription has been downgraded. Auto-rebooking has been disabled.',
                status: 'success',
              },
        );
        onDowngraded(result);
        onClose();
      },
    });

  return (
    <ConfirmDialog
      title="Downgrade to Free?"
      confirmLabel={when === 'period_end' ? 'Downgrade at year end' : 'Downgrade now'}
      busyLabel="Downgrading..."
      busy={downgrade.isPending}
      onConfirm={onConfirm}
      onClose={onClose}
    >
      <Stack gap="4">
        {paidAhead && (
          <RadioGroup.Root
            value={when}
            onValueChange={(details) => setWhen(details.value === 'now' ? 'now' : 'period_end')}
            aria-label="When to downgrade"
          >
            <Stack gap="3">
              <RadioGroup.Item value="period_end" alignItems="flex-start">
                <RadioGroup.ItemHiddenInput />
                <RadioGroup.ItemIndicator mt="0.5" />
                <RadioGroup.ItemText>
                  <Text fontWeight="medium">At the end of the paid year ({paidAhead})</Text>
                  <Text fontSize="sm" color="fg.muted">
                    Premium stays until {paidAhead}, then it does not renew. Nothing is lost or charged.
                  </Text>
                </RadioGroup.ItemText>
              </RadioGroup.Item>
              <RadioGroup.Item value="now" alignItems="flex-start">
                <RadioGroup.ItemHiddenInput />
                <RadioGroup.ItemIndicator mt="0.5" />
                <RadioGroup.ItemText>
                  <Text fontWeight="medium">Now</Text>
                  <Text fontSize="sm" color="fg.muted">
                    Premium ends today; the rest of the paid year is not refunded.
                  </Text>
                </RadioGroup.ItemText>
              </RadioGroup.Item>
            </Stack>
          </RadioGroup.Root>
        )}
        <Box as="ul" listStyleType="disc" ps="5" display="flex" flexDirection="column" gap="2">
          <li>
            {when === 'period_end' ? `From ${paidAhead}` : 'From now'} you are on the Free plan: auto-rebooking is
            turned off and FareBack monitors up to {limit} flights. Price-drop alerts and manual rebooking stay.
          </li>
          <li>Premium will not renew: nothing more is charged, and nothing is refunded.</li>
          <li>No flight is deleted. If you watch more than {limit}, remove some before adding new ones.</li>
        </Box>
      </Stack>
    </ConfirmDialog>
  );
}
