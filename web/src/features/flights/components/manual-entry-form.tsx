import { Alert, Box, Button, Card, Fieldset, Heading, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import type { ChangeEvent, FormEvent } from 'react';
import { useMemo, useState } from 'react';
import { ITINERARY_CABINS, ITINERARY_CURRENCIES, manualFlightInputSchema } from '@shared/schemas/flights.ts';
import { MAX_FLIGHT_PARTY } from '@shared/constants.ts';
import { CheckboxField } from '@/components/form/checkbox-field';
import { ComboboxField, type ComboboxOption } from '@/components/form/combobox-field';
import { MoneyField } from '@/components/form/money-field';
import { NumberField } from '@/components/form/number-field';
import { SelectField } from '@/components/form/select-field';
import { TextField } from '@/components/form/text-field';
import { useZodForm } from '@/hooks/use-zod-form';
import { needsItinerary, useAddFlight, useAirlines, useAirportSearch } from '../api';
import {
  EMPTY_ITINERARY,
  itineraryFormSchema,
  itineraryOf,
  onFormFields,
  type ItineraryFormValues,
} from '../itinerary-form';
import { FlightLimitNotice, useFlightLimitReached } from './flight-limit-notice';

const bookingSchema = manualFlightInputSchema.omit({ itinerary: true });
const EMPTY = { airline: '', passengerLastName: '', bookingCode: '' };
/** The most suggestions the airline picker lists at once. */
const AIRLINE_SUGGESTIONS = 30;

interface ManualEntryFormProps {
  /** Called once the flight is stored (the dashboard then shows the Flights tab). */
  onAdded?: () => void;
}

/** A change event for fields whose widget answers with the text alone. */
function asChange(value: string) {
  return { target: { value } } as ChangeEvent<HTMLInputElement>;
}

/**
 * 'Manual Flight Entry': validated with the request's own schema, so the api's messages show
 * under the fields before anything is sent, and the api's own per-field answer lands on its field.
 * Retrieval first; when the airline's booking cannot be retrieved (a 422 with needsItinerary)
 * the form grows, on the same screen, into the itinerary form (issue 23).
 */
export function ManualEntryForm({ onAdded }: ManualEntryFormProps) {
  const addFlight = useAddFlight();
  const form = useZodForm(bookingSchema, EMPTY);
  const trip = useZodForm(itineraryFormSchema, EMPTY_ITINERARY);
  const [askItinerary, setAskItinerary] = useState<string | null>(null);
  const airlines = useAirlines();
  const flightLimit = useFlightLimitReached();

  const airlineField = form.field('airline');
  const typed = airlineField.value.trim().toLowerCase();
  const airlineOptions = useMemo<ComboboxOption[]>(() => {
    const all = airlines.data?.airlines ?? [];
    const matches = typed
      ? all.filter((a) => a.name.toLowerCase().includes(typed) || a.code.toLowerCase() === typed)
      : all.filter((a) => a.automaticRebooking);
    return matches.slice(0, AIRLINE_SUGGESTIONS).map((a) => ({ value: a.name, label: `${a.name} (${a.code})` }));
  }, [airlines.data, typed]);
  const chosen = airlines.data?.airlines.find((a) => a.name.toLowerCase() === typed || a.code.toLowerCase() === typed);

  const done = () => {
    form.reset();
    trip.reset();
    setAskItinerary(null);
    onAdded?.();
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    let booking: ReturnType<typeof bookingSchema.parse> | undefined;
    form.handleSubmit((data) => {
      booking = data;
    })(event);
    if (askItinerary === null) {
      if (!booking) return;
      addFlight.mutate(booking, {
        onSuccess: done,
        onError: (error) => {
          if (needsItinerary(error)) setAskItinerary(error.serverMessage ?? '');
          else form.showServerErrors(error);
        },
      });
      return;
    }
    trip.handleSubmit((values) => {
      if (!booking) return;
      addFlight.mutate(
        { ...booking, itinerary: itineraryOf(values as Partial<ItineraryFormValues>) },
        {
          onSuccess: done,
          onError: (error) => trip.showServerErrors(onFormFields(error)) || form.showServerErrors(error),
        },
      );
    })(event);
  };

  const busy = addFlight.isPending;
  // At the plan's limit the form says so up front and cannot be sent (the api would refuse it).
  const full = flightLimit.reached;
  const fareBrands = chosen?.fareBrands ?? [];

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
            <ComboboxField
              label="Airline"
              placeholder="Search by airline name or code"
              hint="Any airline: type its name or two-letter code"
              options={airlineOptions}
              required
              disabled={busy}
              name={airlineField.name}
              error={airlineField.error}
              value={airlineField.value}
              onChange={(text) => airlineField.onChange(asChange(text))}
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
            {askItinerary !== null && (
              <ItineraryFields trip={trip} fareBrands={fareBrands} busy={busy} message={askItinerary} />
            )}
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

type TripForm = ReturnType<typeof useZodForm<typeof itineraryFormSchema>>;

/** The itinerary as the ticket shows it: asked for when the booking could not be retrieved. */
function ItineraryFields({
  trip,
  fareBrands,
  busy,
  message,
}: {
  trip: TripForm;
  fareBrands: string[];
  busy: boolean;
  message: string;
}) {
  const roundTrip = trip.values.roundTrip === true;
  return (
    <Stack gap="5">
      <Alert.Root status="warning" variant="subtle" borderRadius="md">
        <Alert.Indicator />
        <Alert.Description>{message}</Alert.Description>
      </Alert.Root>
      <Fieldset.Root disabled={busy}>
        <Fieldset.Legend>Outbound flight</Fieldset.Legend>
        <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4" mt="2">
          <TextField
            label="Flight number"
            placeholder="e.g. LH400"
            autoCapitalize="characters"
            spellCheck={false}
            required
            {...trip.field('outFlightNumber')}
          />
          <TextField label="Date" type="date" required {...trip.field('outDate')} />
          <AirportField label="From" trip={trip} name="outFrom" />
          <AirportField label="To" trip={trip} name="outTo" />
        </SimpleGrid>
      </Fieldset.Root>
      <CheckboxField label="Round trip: add the return flight" disabled={busy} {...trip.checkboxField('roundTrip')} />
      {roundTrip && (
        <Fieldset.Root disabled={busy}>
          <Fieldset.Legend>Return flight</Fieldset.Legend>
          <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4" mt="2">
            <TextField
              label="Return flight number"
              placeholder="e.g. LH401"
              autoCapitalize="characters"
              spellCheck={false}
              required
              {...trip.field('backFlightNumber')}
            />
            <TextField label="Return date" type="date" required {...trip.field('backDate')} />
          </SimpleGrid>
        </Fieldset.Root>
      )}
      <Fieldset.Root disabled={busy}>
        <Fieldset.Legend>Fare</Fieldset.Legend>
        <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4" mt="2">
          <MoneyField
            label="Price paid (whole booking)"
            placeholder="e.g. 1,845.00"
            required
            {...trip.moneyField('pricePaid')}
          />
          <SelectField label="Currency" options={ITINERARY_CURRENCIES} required {...trip.field('currency')} />
          <SelectField label="Cabin" options={ITINERARY_CABINS} required {...trip.field('cabinClass')} />
          {fareBrands.length > 0 ? (
            <SelectField label="Fare brand" placeholder="Not sure" options={fareBrands} {...trip.field('fareBrand')} />
          ) : (
            <TextField label="Fare brand" placeholder="e.g. Economy Classic" {...trip.field('fareBrand')} />
          )}
          <NumberField
            label="Passengers"
            min={1}
            max={MAX_FLIGHT_PARTY}
            hint="Everyone on this booking"
            required
            {...trip.numberField('passengers')}
          />
        </SimpleGrid>
      </Fieldset.Root>
    </Stack>
  );
}

/** An airport by code, city or name, from the airport dataset. */
function AirportField({ label, trip, name }: { label: string; trip: TripForm; name: 'outFrom' | 'outTo' }) {
  const field = trip.field(name);
  const search = useAirportSearch(field.value);
  const options = useMemo<ComboboxOption[]>(
    () => (search.data?.airports ?? []).map((a) => ({ value: a.code, label: `${a.code} · ${a.name}` })),
    [search.data],
  );
  return (
    <ComboboxField
      label={label}
      placeholder="Code, city or airport"
      options={options}
      emptyText="Type a city, airport or code"
      required
      name={field.name}
      error={field.error}
      value={field.value}
      onChange={(text) => field.onChange(asChange(/^[a-z]{3}$/i.test(text) ? text.toUpperCase() : text))}
    />
  );
}
