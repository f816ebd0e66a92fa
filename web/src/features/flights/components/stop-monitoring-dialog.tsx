import { Box, Text } from '@chakra-ui/react';
import type { Flight } from '@shared/types/flights.ts';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { formatDate } from '@/lib/format';
import { useRemoveFlight } from '../api';

interface StopMonitoringDialogProps {
  flight: Flight;
  onClose: () => void;
}

/**
 * Confirms 'Stop monitoring' before the flight is removed: an alert dialog that says what stops
 * (price checks, alerts, the card) and what stays (rebooking, credit and billing records), with
 * the focus on Cancel so Enter does not remove a flight by accident.
 */
export function StopMonitoringDialog({ flight, onClose }: StopMonitoringDialogProps) {
  const removeFlight = useRemoveFlight();

  // The toasts come from the hook and the MutationCache; on success the card leaves the list.
  const onConfirm = () => removeFlight.mutate(flight, { onSettled: onClose });

  return (
    <ConfirmDialog
      title="Stop monitoring this flight?"
      confirmLabel="Stop monitoring"
      busyLabel="Stopping..."
      busy={removeFlight.isPending}
      onConfirm={onConfirm}
      onClose={onClose}
    >
      <Text fontWeight="semibold">
        {flight.airline} {flight.flightNumber} · {flight.departureAirport} → {flight.arrivalAirport},{' '}
        {formatDate(flight.departureDate)}
      </Text>
      <Box as="ul" listStyleType="disc" ps="5" mt="3" display="flex" flexDirection="column" gap="2">
        <li>FareBack stops checking its price, and no new alerts come for it.</li>
        <li>
          It leaves your dashboard, with its price history, and no longer counts toward your plan&apos;s flight limit.
        </li>
        <li>Any rebooking, airline credit and billing records for it are kept.</li>
      </Box>
      <Text mt="3" color="fg.muted" fontSize="sm">
        To watch it again later, add it once more.
      </Text>
    </ConfirmDialog>
  );
}
