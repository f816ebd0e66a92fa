// The itinerary form's flat fields and the request's nested `itinerary` (issue 23): the form
// validates with the request's own schema (itineraryInputSchema), its messages put back on the
// flat fields, and the api's per-field answers ('itinerary.segments.0.flightNumber') likewise.
import { z } from 'zod';
import { itineraryInputSchema, type ItineraryInput } from '@shared/schemas/flights.ts';
import { ApiError } from '@/lib/api-client';

export interface ItineraryFormValues extends Record<string, string | number | boolean | null | undefined> {
  outFlightNumber: string;
  outFrom: string;
  outTo: string;
  outDate: string;
  roundTrip: boolean;
  backFlightNumber: string;
  backDate: string;
  pricePaid: number | undefined;
  currency: string;
  cabinClass: string;
  fareBrand: string;
  passengers: number | undefined;
}

export const EMPTY_ITINERARY: ItineraryFormValues = {
  outFlightNumber: '',
  outFrom: '',
  outTo: '',
  outDate: '',
  roundTrip: false,
  backFlightNumber: '',
  backDate: '',
  pricePaid: undefined,
  currency: 'USD',
  cabinClass: 'Economy',
  fareBrand: '',
  passengers: 1,
};

/** The request's itinerary from the form (the return leg flies back the same way). */
export function itineraryOf(v: Partial<ItineraryFormValues>): z.input<typeof itineraryInputSchema> {
  const segments = [
    {
      flightNumber: v.outFlightNumber ?? '',
      departureAirport: v.outFrom ?? '',
      arrivalAirport: v.outTo ?? '',
      departureDate: v.outDate ?? '',
    },
  ];
  if (v.roundTrip) {
    segments.push({
      flightNumber: v.backFlightNumber ?? '',
      departureAirport: v.outTo ?? '',
      arrivalAirport: v.outFrom ?? '',
      departureDate: v.backDate ?? '',
    });
  }
  return {
    segments,
    pricePaid: v.pricePaid as number,
    currency: (v.currency ?? '') as ItineraryInput['currency'],
    cabinClass: (v.cabinClass ?? '') as ItineraryInput['cabinClass'],
    fareBrand: v.fareBrand || undefined,
    passengers: v.passengers as number,
  };
}

/** The form field a request path names ('segments.1.departureDate' -> backDate). */
export function formFieldOf(path: string): keyof ItineraryFormValues | null {
  const parts = path.replace(/^itinerary\./, '').split('.');
  if (parts[0] !== 'segments') return (parts[0] as keyof ItineraryFormValues) ?? null;
  const leg = parts[1] === '1' ? 'back' : 'out';
  const field = parts[2];
  if (field === 'flightNumber') return leg === 'out' ? 'outFlightNumber' : 'backFlightNumber';
  if (field === 'departureDate') return leg === 'out' ? 'outDate' : 'backDate';
  if (field === 'departureAirport') return leg === 'out' ? 'outFrom' : 'outTo';
  if (field === 'arrivalAirport') return leg === 'out' ? 'outTo' : 'outFrom';
  return leg === 'out' ? 'outFlightNumber' : 'backFlightNumber';
}

/** The flat form's schema: the request's own rules, each message on the field it is about. */
export const itineraryFormSchema = z
  .object({
    outFlightNumber: z.string().optional(),
    outFrom: z.string().optional(),
    outTo: z.string().optional(),
    outDate: z.string().optional(),
    roundTrip: z.boolean().optional(),
    backFlightNumber: z.string().optional(),
    backDate: z.string().optional(),
    pricePaid: z.number().optional(),
    currency: z.string().optional(),
    cabinClass: z.string().optional(),
    fareBrand: z.string().optional(),
    passengers: z.number().optional(),
  })
  .superRefine((values, ctx) => {
    const result = itineraryInputSchema.safeParse(itineraryOf(values as Partial<ItineraryFormValues>));
    if (result.success) return;
    for (const issue of result.error.issues) {
      const field = formFieldOf(issue.path.map(String).join('.'));
      if (field) ctx.addIssue({ code: 'custom', path: [field], message: issue.message });
    }
  });

/** The api's answer with its itinerary fields renamed to the form's, for showServerErrors. */
export function onFormFields(error: unknown): unknown {
  if (!(error instanceof ApiError)) return error;
  const body = error.body as { message?: string; errors?: { field: string; message: string }[] } | undefined;
  if (!body?.errors) return error;
  const errors = body.errors.map((e) => ({ ...e, field: formFieldOf(e.field) ?? e.field }));
  return new ApiError(error.status, '', JSON.stringify({ ...body, errors }));
}
