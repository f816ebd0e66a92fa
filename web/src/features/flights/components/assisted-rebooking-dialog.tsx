import { Box, Button, Dialog, Icon, Link, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { creditExpiryDate, creditPlausibility } from '@shared/flights/rules.ts';
import { confirmRebookingInputSchema } from '@shared/schemas/flights.ts';
import type { Flight } from '@shared/types/flights.ts';
import { LuExternalLink } from 'react-icons/lu';
import { MoneyField } from '@/components/form/money-field';
import { TextField } from '@/components/form/text-field';
import { useZodForm } from '@/hooks/use-zod-form';
import { formatDate, formatMoney } from '@/lib/format';
import { useConfirmRebooking } from '../api';
import { airlineManageUrl, savingsSummary } from '../display';
import { FlightDialog } from './flight-dialog';

interface AssistedRebookingDialogProps {
  flight: Flight;
  onClose: () => void;
}

/**
 * The assisted path: the fare source cannot change this booking, so the traveller changes it
 * with the airline, guided here, then tells us the new price and the credit the airline gave;
 * only that confirmation records the flight as rebooked. The amounts are typed in dollars and
 * sent in cents, validated with the request's own schema.
 *
 * The fields start empty: what is recorded is what the airline actually gave, typed by the
 * traveller, never a figure one click confirms. What FareBack expects (the fare it found, the
 * credit that drop should bring, the usual year of validity) stands beside each field as guidance.
 */
export function AssistedRebookingDialog({ flight, onClose }: AssistedRebookingDialogProps) {
  const confirm = useConfirmRebooking();
  const { savings } = savingsSummary(flight);
  const manageUrl = airlineManageUrl(flight);
  const expectedCredit = creditPlausibility({
    pricePaid: flight.originalPrice,
    foundPrice: flight.currentPrice,
    changePenalty: flight.changePenalty,
    newPrice: flight.currentPrice ?? flight.originalPrice,
  }).expected;
  const form = useZodForm(confirmRebookingInputSchema, {
    newPrice: undefined,
    airlineCredit: undefined,
    creditReferenceNumber: '',
    creditExpiryDate: '',
  });

  // The toast comes from the hook; once the list refetches, this card (and dialog) moves to History.
  const onSubmit = form.handleSubmit((input) =>
    confirm.mutate({ flightId: flight.id, input }, { onSuccess: onClose, onError: form.showServerErrors }),
  );

  return (
    <FlightDialog closeLabel="Close" onClose={onClose}>
      <Dialog.Header flexDirection="column" alignItems="flex-start" gap="1">
        <Dialog.Title>Rebook at Lower Price</Dialog.Title>
        <Text color="fg.muted" fontSize="sm">
          {flight.airline} {flight.flightNumber} · {flight.departureAirport} → {flight.arrivalAirport}
        </Text>
      </Dialog.Header>
      <form onSubmit={onSubmit} noValidate aria-label="Confirm your rebooking" style={{ display: 'contents' }}>
        <Dialog.Body>
          <Stack gap="5">
            <Text>
              This ticket was bought directly from {flight.airline}, so you change it with the airline and we guide you.
              The fare is now {formatMoney(flight.currentPrice)}, {formatMoney(savings)} less than the{' '}
              {formatMoney(flight.originalPrice)} you paid.
            </Text>
            <Box as="ol" listStyleType="decimal" ps="5" display="flex" flexDirection="column" gap="2">
              <Box as="li">
                Open your booking on{' '}
                <Link href={manageUrl} target="_blank" rel="noopener noreferrer" color="brand.fg" fontWeight="medium">
                  {flight.airline}&apos;s manage booking page
                  <Icon as={LuExternalLink} boxSize="3.5" aria-hidden />
                </Link>{' '}
                with booking code <strong>{flight.bookingCode}</strong> and last name{' '}
                <strong>{flight.passengerLastName}</strong>.
              </Box>
              <Box as="li">
                Choose to change the flight, and pick the very same flights, dates and cabin, keeping your seat
                {flight.seatNumber ? ` (${flight.seatNumber})` : ''}. Only the fare should change.
              </Box>
              <Box as="li">
                Ask for the fare difference as airline credit (a travel credit or eCredit), not a cash refund, and note
                its amount, reference number and expiry date.
              </Box>
              <Box as="li">Enter what the airline gave you below to record the rebooking.</Box>
            </Box>
            <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4">
              <MoneyField
                label="New price ($)"
                required
                hint={`What the airline now charges for this booking. Expected: about ${formatMoney(flight.currentPrice)}, the fare FareBack found.`}
                {...form.moneyField('newPrice')}
              />
              <MoneyField
                label="Airline credit ($)"
                required
                hint={`The credit the airline issued you. Expected: about ${formatMoney(expectedCredit)}${
                  (flight.changePenalty ?? 0) > 0
                    ? `, the drop less the ${formatMoney(flight.changePenalty)} change fee`
                    : ''
                }.`}
                {...form.moneyField('airlineCredit')}
              />
              <TextField
                label="Credit reference (optional)"
                autoComplete="off"
                {...form.field('creditReferenceNumber')}
              />
              <TextField
                label="Credit expiry date"
                type="date"
                required
                hint={`As the airline states it. Credits usually last a year: about ${formatDate(creditExpiryDate(new Date()))}.`}
                {...form.field('creditExpiryDate')}
              />
            </SimpleGrid>
          </Stack>
        </Dialog.Body>
        <Dialog.Footer>
          <Dialog.ActionTrigger asChild>
            <Button variant="outline" disabled={confirm.isPending}>
              Cancel
            </Button>
          </Dialog.ActionTrigger>
          <Button type="submit" colorPalette="green" loading={confirm.isPending} loadingText="Saving...">
            Confirm Rebooking
          </Button>
        </Dialog.Footer>
      </form>
    </FlightDialog>
  );
}
