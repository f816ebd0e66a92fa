// Request bodies of the flight endpoints. The manual entry form and the assisted
// rebooking form validate with these same schemas.
import { z } from 'zod';
import { MAX_FLIGHT_PARTY } from '../constants.ts';

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

/** Currencies a price paid may be entered in (ISO 4217). */
export const ITINERARY_CURRENCIES = [
  'USD',
  'EUR',
  'GBP',
  'CAD',
  'AUD',
  'JPY',
  'CHF',
  'SGD',
  'AED',
  'QAR',
  'MXN',
] as const;
/** Cabins an itinerary may name. */
export const ITINERARY_CABINS = ['Economy', 'Premium Economy', 'Business', 'First'] as const;
/** The most a booking entered by hand may have cost: $100,000, in cents. */
export const MAX_ITINERARY_PRICE = 10_000_000;

const iataAirport = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{3}$/, { error: `${label} must be a three-letter airport code` });

/** One flight of an itinerary typed by hand. */
export const itinerarySegmentSchema = z.strictObject({
  flightNumber: z
    .string({ error: 'Flight number is required' })
    .trim()
    .transform((n) => n.replace(/\s+/g, '').toUpperCase())
    .pipe(
      z
        .string()
        .regex(/^[A-Z0-9]{2}\d{1,4}$/, { error: 'Flight number must be the airline code and digits, e.g. LH401' }),
    ),
  departureAirport: iataAirport('From'),
  arrivalAirport: iataAirport('To'),
  departureDate: z.iso.date({ error: 'Date must be a date (YYYY-MM-DD)' }),
});

/**
 * The booking as the traveller read it from their ticket, for when the fare source cannot
 * retrieve it: the outbound flight and, for a round trip, the return; what the whole booking
 * cost; cabin, fare brand and how many travel. Dates in the past and unknown airports are
 * judged by the api (they need today's date and the airport list).
 */
export const itineraryInputSchema = z
  .strictObject({
    segments: z
      .array(itinerarySegmentSchema, { error: 'Flights must be a list' })
      .min(1, { error: 'Add the outbound flight' })
      .max(2, { error: 'Add at most the outbound and the return flight' }),
    pricePaid: z
      .number({ error: 'Price paid must be a number' })
      .int({ error: 'Price paid must be a whole number of cents' })
      .min(1, { error: 'Price paid must be more than 0' })
      .max(MAX_ITINERARY_PRICE, { error: 'Price paid must be at most 100,000' }),
    currency: z.enum(ITINERARY_CURRENCIES, {
      error: `Currency must be one of ${ITINERARY_CURRENCIES.join(', ')}`,
    }),
    cabinClass: z.enum(ITINERARY_CABINS, { error: `Cabin must be one of ${ITINERARY_CABINS.join(', ')}` }),
    fareBrand: z
      .string({ error: 'Fare brand must be text' })
      .trim()
      .max(60, { error: 'Fare brand must be at most 60 characters' })
      .optional()
      .transform((brand) => (brand ? brand : undefined)),
    passengers: z
      .number({ error: 'Passengers must be a number' })
      .int({ error: 'Passengers must be a whole number' })
      .min(1, { error: 'Passengers must be at least 1' })
      .max(MAX_FLIGHT_PARTY, { error: `Passengers must be at most ${MAX_FLIGHT_PARTY}` }),
  })
  .superRefine((it, ctx) => {
    const [outbound, back] = it.segments;
    if (outbound && back && back.departureDate < outbound.departureDate) {
      ctx.addIssue({
        code: 'custom',
        path: ['segments', 1, 'departureDate'],
        message: 'The return flight cannot be before the outbound flight',
      });
    }
    for (const [i, segment] of it.segments.entries()) {
      if (segment.departureAirport === segment.arrivalAirport) {
        ctx.addIssue({
          code: 'custom',
          path: ['segments', i, 'arrivalAirport'],
          message: 'To must be another airport than From',
        });
      }
    }
  });
export type ItineraryInput = z.output<typeof itineraryInputSchema>;
export type ItinerarySegment = z.output<typeof itinerarySegmentSchema>;

/**
 * Booking codes are letters and digits (airline PNRs are 6; some carriers use up to 20). Any
 * airline is accepted, by name or IATA code: what FareBack can do with it is a property of the
 * airline and fare shown on the card, not a reason to refuse the booking.
 */
export const manualFlightInputSchema = z.strictObject({
  airline: requiredText(MANUAL_FLIGHT_MESSAGES.airlineRequired, 'Airline').max(100, {
    error: 'Airline must be at most 100 characters',
  }),
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
  /** The booking as the ticket shows it, sent after a 422 with needsItinerary. */
  itinerary: itineraryInputSchema.optional(),
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
