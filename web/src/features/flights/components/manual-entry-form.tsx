import { Alert, Box, Button, Card, Field, Heading, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { MANUAL_ENTRY_AIRLINES } from '@shared/constants.ts';
import { manualFlightInputSchema, type ManualFlightInput } from '@shared/schemas/flights.ts';
import { useState, type FormEvent } from 'react';
import { TextField } from '@/components/form/text-field';
import { fieldErrors, type FieldErrors } from '@/hooks/use-zod-form';
import { useAddFlight } from '../api';

type FormValues = Required<Omit<ManualFlightInput, 'notes'>>;
const EMPTY: FormValues = { airline: '', passengerLastName: '', bookingCode: '' };

interface ManualEntryFormProps {
  /** Called once the flight is stored (the dashboard then shows the Flights tab). */
  onAdded?: () => void;
}

/**
 * 'Manual Flight Entry' (spec section 2): validated with the request's own schema, so the messages
 * of spec section 5 show under the fields before anything is sent. After a first submit the form
 * re-validates as the person types, so a fixed field clears its message.
 */
export function ManualEntryForm({ onAdded }: ManualEntryFormProps) {
  const addFlight = useAddFlight();
  const [values, setValues] = useState<FormValues>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors<FormValues>>({});
  const [submitted, setSubmitted] = useState(false);

  const validate = (next: FormValues) => {
    const result = manualFlightInputSchema.safeParse(next);
    return result.success
      ? { data: result.data, errors: {} }
      : { data: undefined, errors: fieldErrors<FormValues>(result.error) };
  };

  const change = (name: keyof FormValues) => (event: { target: { value: string } }) => {
    const next = { ...values, [name]: event.target.value };
    setValues(next);
    if (submitted) setErrors(validate(next).errors);
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitted(true);
    const result = validate(values);
    setErrors(result.errors);
    const firstInvalid = Object.keys(result.errors)[0];
    if (firstInvalid || !result.data) {
      event.currentTarget.querySelector<HTMLElement>(`[name="${firstInvalid}"]`)?.focus();
      return;
    }
    addFlight.mutate(result.data, {
      onSuccess: () => {
        setValues(EMPTY);
        setSubmitted(false);
        onAdded?.();
      },
    });
  };

  const busy = addFlight.isPending;

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
            <Field.Root invalid={Boolean(errors.airline)} required disabled={busy}>
              <Field.Label>Airline</Field.Label>
              <NativeSelect.Root size="lg">
                <NativeSelect.Field name="airline" value={values.airline} onChange={change('airline')}>
                  <option value="">Select an airline</option>
                  {MANUAL_ENTRY_AIRLINES.map((airline) => (
                    <option key={airline} value={airline}>
                      {airline}
                    </option>
                  ))}
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
              <Field.ErrorText>{errors.airline}</Field.ErrorText>
            </Field.Root>
            <TextField
              label="Passenger Last Name"
              name="passengerLastName"
              autoComplete="family-name"
              placeholder="e.g. Smith"
              hint="Last name as it appears on your booking"
              required
              disabled={busy}
              value={values.passengerLastName}
              onChange={change('passengerLastName')}
              error={errors.passengerLastName}
            />
            <TextField
              label="Booking Confirmation Code"
              name="bookingCode"
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              placeholder="e.g. ABC123"
              hint="We'll use this to retrieve flight details"
              required
              disabled={busy}
              value={values.bookingCode}
              onChange={change('bookingCode')}
              error={errors.bookingCode}
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
