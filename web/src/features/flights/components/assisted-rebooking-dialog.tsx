import { Box, Button, Dialog, Icon, Link, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { airlineManageUrl, savingsSummary } from '../display';
import { creditExpiryDate } from '@shared/flights/rules.ts';
import { confirmRebookingInputSchema } from '@shared/schemas/flights.ts';
import type { Flight } from '@shared/types/flights.ts';
import { useState, type FormEvent } from 'react';
import { LuExternalLink } from 'react-icons/lu';
import { TextField } from '@/components/form/text-field';
import { fieldErrors, type FieldErrors } from '@/hooks/use-zod-form';
import { formatMoney } from '@/lib/format';
import { useConfirmRebooking } from '../api';
import { FlightDialog } from './flight-dialog';

type FormValues = Record<'newPrice' | 'airlineCredit' | 'creditReferenceNumber' | 'creditExpiryDate', string>;

/** '123.45' -> 12345 cents; blank or unreadable stays not-a-number so the schema names the field. */
function dollarsToCents(value: string): number {
  const trimmed = value.trim().replace(/^\$/, '').replace(/,/g, '');
  return trimmed === '' ? Number.NaN : Math.round(Number(trimmed) * 100);
}

const centsToDollars = (cents: number) => (cents / 100).toFixed(2);

interface AssistedRebookingDialogProps {
  flight: Flight;
  onClose: () => void;
}

/**
 * The assisted path (issue 3): the fare source cannot change this booking, so the traveller
 * changes it with the airline, guided here, then tells us the new price and the credit the
 * airline gave; only that confirmation records the flight as rebooked. Dollars typed in the form
 * become cents and are validated with the request's own schema.
 */
export function AssistedRebookingDialog({ flight, onClose }: AssistedRebookingDialogProps) {
  const confirm = useConfirmRebooking();
  const { savings } = savingsSummary(flight);
  const manageUrl = airlineManageUrl(flight);
  const [values, setValues] = useState<FormValues>({
    newPrice: flight.currentPrice === null ? '' : centsToDollars(flight.currentPrice),
    airlineCredit: savings > 0 ? centsToDollars(savings) : '',
    creditReferenceNumber: '',
    creditExpiryDate: creditExpiryDate(new Date()),
  });
  const [errors, setErrors] = useState<FieldErrors<FormValues>>({});

  const change = (name: keyof FormValues) => (event: { target: { value: string } }) =>
    setValues((current) => ({ ...current, [name]: event.target.value }));

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = confirmRebookingInputSchema.safeParse({
      newPrice: dollarsToCents(values.newPrice),
      airlineCredit: dollarsToCents(values.airlineCredit),
      creditReferenceNumber: values.creditReferenceNumber,
      creditExpiryDate: values.creditExpiryDate,
    });
    if (!result.success) {
      const next = fieldErrors<FormValues>(result.error);
      setErrors(next);
      const first = Object.keys(next)[0];
      if (first) event.currentTarget.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
      return;
    }
    setErrors({});
    // The toast comes from the hook; once the list refetches, this card (and dialog) moves to History.
    confirm.mutate({ flightId: flight.id, input: result.data }, { onSuccess: onClose });
  };

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
              <TextField
                label="New price ($)"
                name="newPrice"
                inputMode="decimal"
                required
                value={values.newPrice}
                onChange={change('newPrice')}
                error={errors.newPrice}
                hint="What the airline now charges for this booking"
              />
              <TextField
                label="Airline credit ($)"
                name="airlineCredit"
                inputMode="decimal"
                required
                value={values.airlineCredit}
                onChange={change('airlineCredit')}
                error={errors.airlineCredit}
                hint="The credit the airline issued you"
              />
              <TextField
                label="Credit reference (optional)"
                name="creditReferenceNumber"
                autoComplete="off"
                value={values.creditReferenceNumber}
                onChange={change('creditReferenceNumber')}
                error={errors.creditReferenceNumber}
              />
              <TextField
                label="Credit expiry date"
                name="creditExpiryDate"
                type="date"
                required
                value={values.creditExpiryDate}
                onChange={change('creditExpiryDate')}
                error={errors.creditExpiryDate}
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
