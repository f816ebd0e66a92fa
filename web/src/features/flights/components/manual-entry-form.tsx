import { Alert, Box, Button, Card, Heading, Stack, Text } from '@chakra-ui/react';
import { MANUAL_ENTRY_AIRLINES } from '@shared/constants.ts';
import { manualFlightInputSchema } from '@shared/schemas/flights.ts';
import { SelectField } from '@/components/form/select-field';
import { TextField } from '@/components/form/text-field';
import { useZodForm } from '@/hooks/use-zod-form';
import { useAddFlight } from '../api';
import { FlightLimitNotice, useFlightLimitReached } from './flight-limit-notice';

const EMPTY = { airline: '', passengerLastName: '', bookingCode: '' };

interface ManualEntryFormProps {
  /** Called once the flight is stored (the dashboard then shows the Flights tab). */
  onAdded?: () => void;
}

/**
 * 'Manual Flight Entry': validated with the request's own schema, so the api's messages show
 * under the fields before anything is sent, and the api's own per-field answer lands on its field.
 */
export function ManualEntryForm({ onAdded }: ManualEntryFormProps) {
  const addFlight = useAddFlight();
  const form = useZodForm(manualFlightInputSchema, EMPTY);
  const flightLimit = useFlightLimitReached();

  const onSubmit = form.handleSubmit((input) =>
    addFlight.mutate(input, {
      onSuccess: () => {
        form.reset();
        onAdded?.();
      },
      onError: form.showServerErrors,
    }),
  );

  const busy = addFlight.isPending;
  // At the plan's limit the form says so up front and cannot be sent (the api would refuse it).
  const full = flightLimit.reached;

  return (
    <Card.Root variant="outline" maxW="2xl">
      <Card.Header>
        <Heading as="h2" size="lg">
          Manual Flight Entry
        </Heading>
        <Text color="fg.muted">Add a flight you booked and we&apos;ll look up its itinerary and watch its price.</Text>
      </Card.Header>
      <Card.Body>
        <form onSubmit={onSubmit} noValidate aria-label="Manual Flight Entry">
          <Stack gap="5">
            {full && <FlightLimitNotice limit={flightLimit.limit} />}
            <SelectField
              label="Airline"
              placeholder="Select an airline"
              options={MANUAL_ENTRY_AIRLINES}
              required
              disabled={busy}
              {...form.field('airline')}
            />
            <TextField
              label="Passenger Last Name"
              autoComplete="family-name"
              placeholder="e.g. Smith"
              hint="Last name as it appears on your booking"
              required
              disabled={busy}
              {...form.field('passengerLastName')}
            />
            <TextField
              label="Booking Confirmation Code"
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              placeholder="e.g. ABC123"
              hint="We'll use this to retrieve flight details"
              required
              disabled={busy}
              {...form.field('bookingCode')}
            />
            <Alert.Root status="info" variant="subtle" borderRadius="md">
              <Alert.Indicator />
              <Alert.Description>
                Only refundable or changeable tickets can be automatically rebooked. We&apos;ll still alert you to price
                drops on other fares.
              </Alert.Description>
            </Alert.Root>
            <Box>
              <Button
                type="submit"
                size="lg"
                loading={busy}
                loadingText="Adding Flight..."
                disabled={full}
                width={{ base: 'full', sm: 'auto' }}
              >
                Add Flight
              </Button>
            </Box>
          </Stack>
        </form>
      </Card.Body>
    </Card.Root>
  );
}
