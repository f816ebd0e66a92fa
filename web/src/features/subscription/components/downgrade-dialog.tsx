import { Box } from '@chakra-ui/react';
import { FREE_FLIGHT_LIMIT } from '@shared/constants.ts';
import type { CurrentSubscription, UpdateSubscriptionResponse } from '@shared/types/billing.ts';
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
 * Confirms 'Downgrade to Free' (Cancel keeps the plan, and has the focus). The move to the free
 * plan is immediate (auto-rebooking off, the free plan's flight limit), as the api does it; the
 * paid year is not renewed and nothing is refunded. Flights watched above the free limit are
 * kept: the answer says how many to remove.
 */
export function DowngradeDialog({ subscription, freeFlightLimit, onDowngraded, onClose }: DowngradeDialogProps) {
  const downgrade = useDowngrade();
  const limit = freeFlightLimit ?? FREE_FLIGHT_LIMIT;
  const endDate = subscription?.endDate ? formatDate(subscription.endDate) : null;

  const onConfirm = () =>
    downgrade.mutate(undefined, {
      onSuccess: (result) => {
        notify({
          title: 'Downgraded to Free Tier',
          description: 'Your subscription has been downgraded. Auto-rebooking has been disabled.',
          status: 'success',
        });
        onDowngraded(result);
        onClose();
      },
    });

  return (
    <ConfirmDialog
      title="Downgrade to Free?"
      confirmLabel="Downgrade to Free"
      busyLabel="Downgrading..."
      busy={downgrade.isPending}
      onConfirm={onConfirm}
      onClose={onClose}
    >
      <Box as="ul" listStyleType="disc" ps="5" display="flex" flexDirection="column" gap="2">
        <li>
          You move to the Free plan now: auto-rebooking is turned off and FareBack monitors up to {limit} flights.
          Price-drop alerts and manual rebooking stay.
        </li>
        <li>
          {endDate
            ? `Premium will not renew: the year you paid for ends on ${endDate}, and nothing more is charged or refunded.`
            : 'Premium will not renew: nothing more is charged or refunded.'}
        </li>
        <li>No flight is deleted. If you watch more than {limit}, remove some before adding new ones.</li>
      </Box>
    </ConfirmDialog>
  );
}
