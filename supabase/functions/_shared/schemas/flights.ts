// Request bodies of the flight endpoints. The manual entry form and the assisted
// rebooking form validate with these same schemas.
import { z } from 'zod';
import { MANUAL_ENTRY_AIRLINES } from '../constants.ts';

function requiredText(requiredMessage: string, label: string) {
  return z
    .string({
      error: (issue) => (issue.input === undefined || issue.input === null ? requiredMessage : `${label} must be text`),
    })
    .trim()
    .min(1, { error: requiredMessage, abort: true });
}

export const MANUAL_FLIGHT_MESSAGES = {
  airlineRequired: 'Airline is required',
  bookingCodeRequired: 'Booking confirmation code is required',
  lastNameRequired: 'Last name is required',
} as const;

/** Booking codes are letters and digits (airline PNRs are 6; some carriers use up to 20). */
export const manualFlightInputSchema = z.strictObject({
  airline: requiredText(MANUAL_FLIGHT_MESSAGES.airlineRequired, 'Airline').pipe(
    z.enum(MANUAL_ENTRY_AIRLINES, { error: 'Airline must be one of the airlines in the list' }),
  ),
  bookingCode: requiredText(MANUAL_FLIGHT_MESSAGES.bookingCodeRequired, 'Booking confirmation code')
    .max(20, { error: 'Booking confirmation code must be at most 20 characters', abort: true })
    .regex(/^[A-Za-z0-9]+$/, { error: 'Booking confirmation code may contain only letters and digits' })
    .transform((code) => code.toUpperCase()),
  passengerLastName: requiredText(MANUAL_FLIGHT_MESSAGES.lastNameRequired, 'Last name').max(100, {
    error: 'Last name must be at most 100 characters',
  }),
  notes: z
    .string({ error: 'Notes must be text' })
    .trim()
    .max(1000, { error: 'Notes must be at most 1000 characters' })
    .optional()
    .transform((notes) => (notes ? notes : undefined)),
});
export type ManualFlightInput = z.input<typeof manualFlightInputSchema>;
export type ManualFlight = z.output<typeof manualFlightInputSchema>;

const cents = (label: string) =>
  z
    .number({ error: `${label} must be a number` })
    .int({ error: `${label} must be a whole number of cents` })
    .min(0, { error: `${label} cannot be negative` })
    .max(10_000_000, { error: `${label} is too large` });

/**
 * The assisted path: the traveller changed the booking with the airline themselves and tells us
 * the new price and the credit the airline gave them.
 */
export const confirmRebookingInputSchema = z.strictObject({
  newPrice: cents('New price'),
  airlineCredit: cents('Airline credit').min(1, { error: 'Airline credit must be more than $0' }),
  creditReferenceNumber: z
    .string({ error: 'Credit reference must be text' })
    .trim()
    .max(50, { error: 'Credit reference must be at most 50 characters' })
    .optional()
    .transform((ref) => (ref ? ref : undefined)),
  creditExpiryDate: z.iso.date({ error: 'Credit expiry date must be a date (YYYY-MM-DD)' }),
});
export type ConfirmRebookingInput = z.input<typeof confirmRebookingInputSchema>;

/** Path parameter: flight ids are positive integers. */
export const flightIdSchema = z.coerce
  .number({ error: 'Flight id must be a number' })
  .int({ error: 'Flight id must be a whole number' })
  .positive({ error: 'Flight id must be positive' })
  .max(Number.MAX_SAFE_INTEGER, { error: 'Flight id is too large' });

/**
 * `POST /api/flights/{id}/rebook`: `{}` from the card's button (its owner's click is the approval),
 * or the signed single-use token of an approval email's link (services/rebooking-approvals.ts).
 * Other fields are ignored, as the spec's `{}` body always was.
 */
export const rebookInputSchema = z.object({
  approvalToken: z.string().trim().min(1).max(300).optional(),
});
export type RebookInput = z.input<typeof rebookInputSchema>;
