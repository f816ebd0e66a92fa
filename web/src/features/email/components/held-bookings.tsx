import { Box, Button, Card, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import type { HeldBooking } from '@shared/types/email.ts';
import type { QueryKey } from '@tanstack/react-query';
import { StatusBadge } from '@/components/ui/status-badge';
import { formatDate } from '@/lib/format';
import { useConfirmHeldBooking, useDismissHeldBooking, useHeldBookings } from '../api';

interface HeldBookingsProps {
  /** The flights and stats queries, refetched after a held booking is confirmed (it becomes a flight). */
  refreshAfterConfirm: readonly QueryKey[];
}

function HeldBookingRow({ booking, refreshAfterConfirm }: HeldBookingsProps & { booking: HeldBooking }) {
  const confirm = useConfirmHeldBooking(refreshAfterConfirm);
  const dismiss = useDismissHeldBooking();
  const busy = confirm.isPending || dismiss.isPending;
  const label = `${booking.airline} ${booking.bookingCode}`;
  return (
    <Box as="li" listStyleType="none" borderWidth="1px" borderRadius="md" p="3" bg="bg">
      <Stack gap="2">
        <HStack justify="space-between" align="flex-start" gap="2" wrap="wrap">
          <Text fontWeight="semibold" fontSize="sm">
            {label}
          </Text>
          <StatusBadge tone="warning">Not watched</StatusBadge>
        </HStack>
        <Text fontSize="sm">
          {booking.flightNumber} · {booking.departureAirport} → {booking.arrivalAirport} ·{' '}
          {formatDate(booking.departureDate)}
          {booking.returnDate ? ` (return ${formatDate(booking.returnDate)})` : ''}
        </Text>
        <Text fontSize="xs" color="fg.muted" overflowWrap="anywhere">
          From {booking.from || 'an unknown sender'} · {booking.subject || '(no subject)'}
        </Text>
        <HStack gap="2" wrap="wrap">
          <Button
            size="sm"
            colorPalette="brand"
            aria-label={`Confirm ${label}`}
            onClick={() => confirm.mutate(booking.id)}
            loading={confirm.isPending}
            disabled={busy}
          >
            Confirm
          </Button>
          <Button
            size="sm"
            variant="outline"
            aria-label={`Dismiss ${label}`}
            onClick={() => dismiss.mutate(booking.id)}
            loading={dismiss.isPending}
            disabled={busy}
          >
            Dismiss
          </Button>
        </HStack>
      </Stack>
    </Box>
  );
}

/**
 * Bookings read from the traveller's mailbox whose sender is not a known airline or agency: held,
 * not watched and not counted against the plan until the traveller confirms one (it becomes a
 * flight) or dismisses it. Shows nothing while there are none (or while they load).
 */
export function HeldBookings({ refreshAfterConfirm }: HeldBookingsProps) {
  const held = useHeldBookings();
  const bookings = held.data ?? [];
  if (bookings.length === 0) return null;
  return (
    <Card.Root variant="outline" borderColor="orange.muted" bg="orange.subtle" size="sm">
      <Card.Header>
        <Heading as="h4" size="sm">
          Bookings to confirm ({bookings.length})
        </Heading>
        <Text fontSize="sm" color="fg.muted">
          These emails look like flight bookings but come from senders FareBack doesn&apos;t know. Confirm the ones you
          made to start watching them; until then they don&apos;t count toward your plan.
        </Text>
      </Card.Header>
      <Card.Body>
        <Stack as="ul" gap="2" ps="0" aria-label="Bookings to confirm">
          {bookings.map((booking) => (
            <HeldBookingRow key={booking.id} booking={booking} refreshAfterConfirm={refreshAfterConfirm} />
          ))}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}
