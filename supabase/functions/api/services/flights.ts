// Monitored flights: add a booking by code, check its price,
// and rebook it. Reads and inserts run as the user; price and rebooking writes, which users may
// not make themselves, run on the service connection naming the owner. No transaction is held
// open across a fare-source call: the source can be slow, and on the local stack one open
// transaction blocks every other request.
import {
  BookingMismatchError,
  BookingNotChangeableError,
  BookingNotFoundError,
  FareNoLongerAvailableError,
  type FareQuote,
  FlightCancelledError,
  type Itinerary,
  NoSuchFlightError,
  RebookOutcomeUnknownError,
  type RebookRequest,
  type RebookResult,
  type RetrievedBooking,
} from '../../_shared/fare-source/types.ts';
import {
  canRebook,
  creditExpiryDate,
  creditPlausibility,
  isEligibleFareType,
  roundPercent,
  savingsPercent,
} from '../../_shared/flights/rules.ts';
import { findAirline } from '../../_shared/airlines.ts';
import { lookupAirport } from '../../_shared/extraction/airports.ts';
import type {
  ConfirmRebookingInput,
  ItineraryInput,
  ItinerarySegment,
  ManualFlight,
} from '../../_shared/schemas/flights.ts';
import type { AddFlightResponse, CheckPriceResponse, Flight, RebookResponse } from '../../_shared/types/flights.ts';
import type { AppDeps } from '../context.ts';
import type { AuthClaims } from '../db.ts';
import { type FieldError, FieldValidationError, HttpError } from '../errors.ts';
import { type FareCallKind, spendFareCall } from '../queries/fare-budget.ts';
import {
  cancelFlights,
  claimRebooking,
  confirmRebooking,
  deleteFlight,
  flightAllowance,
  getFlight,
  getFlightBooking,
  hasBooking,
  insertFlight,
  type KeptBooking,
  noteRebookingAttempt,
  recordRebooking,
  releaseRebooking,
  roomOnPlan,
  saveFlightBooking,
} from '../queries/flights.ts';
import { type RecordedPriceCheck, recordPriceChecks } from '../queries/price-checks.ts';
import { closeApproval } from '../queries/rebooking-approvals.ts';
import { confirmPendingDrops } from './drop-confirmation.ts';
import type { JobHandler } from './job-runner.ts';
import { sendQueuedNotifications } from './notifications.ts';
import { redeemApproval } from './rebooking-approvals.ts';

/** A traveller waiting on Check Now: their drop's confirmation is claimed before a sweep's. */
const CHECK_NOW_CONFIRM_PRIORITY = 10;

export const FLIGHT_MESSAGES = {
  added: 'Your flight has been added successfully and will now be monitored.',
  notFound: 'Flight not found',
  duplicate: 'This booking is already being monitored.',
  departed: 'This flight has already departed, so there is nothing left to monitor.',
  priceUpdated: 'Flight price has been updated.',
  alreadyRebooked: 'This flight has already been rebooked.',
  rebookInProgress: 'This flight is already being rebooked. Refresh in a moment to see the result.',
  noPriceDrop: 'There is no price drop to rebook: the current fare is not below what you paid.',
  notEligible:
    'This fare is not eligible for rebooking: Basic Economy and other non-changeable tickets cannot be changed automatically.',
  assistedOnly:
    'This ticket was bought directly from the airline, so the change has to be made with the airline. Follow the guided steps, then confirm the new price and credit here.',
  sourceHandles:
    'FareBack can change this booking for you: use Rebook at Lower Price instead of confirming a change yourself.',
  newPriceNotLower: 'New price must be lower than the price you paid.',
  creditTooLarge: 'Airline credit cannot be more than the price you paid.',
  bookingChanged:
    'This booking no longer matches what the airline holds (it may have been changed or cancelled), so FareBack will not change it. Check it with the airline.',
  rebookOutcomeUnknown:
    'The airline did not confirm the change in time. FareBack is checking with the airline and will update this flight shortly; nothing more is needed from you.',
  recordingDelayed:
    'Your flight was rebooked, but recording the credit is taking longer than usual. It will appear on your dashboard shortly.',
  removed: 'Flight removed.',
  cancelledByAirline:
    'The airline has cancelled this flight, so FareBack has stopped monitoring it. Contact the airline about a refund or another flight.',
  removeWhileRebooking: 'This flight is being rebooked. It can be removed once the rebooking has finished.',
  needsItinerary:
    'We could not find this booking with the airline. Enter the flights from your ticket and FareBack will check them.',
  fareNotOnSale: 'This fare is not on sale for this flight. Check the cabin and fare brand.',
} as const;

export function fareBudgetMessage(kind: FareCallKind, retryAfterSeconds: number): string {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  const wait =
    retryAfterSeconds <= 90
      ? `${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}`
      : `${minutes} minute${minutes === 1 ? '' : 's'}`;
  return kind === 'check'
    ? `Prices were checked moments ago. Please wait ${wait} before checking again.`
    : `Too many flight searches in the last hour. Please wait ${wait} and try again.`;
}

export function flightLimitMessage(limit: number): string {
  return `You've reached your plan's limit of ${limit} monitored flight${limit === 1 ? '' : 's'}. Upgrade to Premium to monitor unlimited flights.`;
}

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

function itineraryOf(flight: Flight): Itinerary & { bookingCode: string } {
  return {
    airline: flight.airline,
    flightNumber: flight.flightNumber,
    departureAirport: flight.departureAirport,
    arrivalAirport: flight.arrivalAirport,
    departureDate: flight.departureDate,
    returnFlightNumber: flight.returnFlightNumber,
    returnDate: flight.returnDate,
    cabinClass: flight.cabinClass,
    fareType: flight.fareType,
    currency: flight.currency,
    passengers: flight.passengerCount ?? 1,
    bookingCode: flight.bookingCode,
    sourceReference: flight.sourceReference,
  };
}

function isPgError(error: unknown, code: string): boolean {
  return error instanceof Error && (error as Error & { code?: unknown }).code === code;
}

/** Counts one fare-source call against the traveller's budget, or refuses with 429 and Retry-After. */
async function spendBudget(deps: AppDeps, userId: string, kind: FareCallKind, flightId: number | null): Promise<void> {
  const wait = await deps.db.asService((tx) =>
    spendFareCall(tx, deps.config.travellerLimits, { userId, kind, flightId }),
  );
  if (wait > 0) throw new HttpError(429, fareBudgetMessage(kind, wait), { 'Retry-After': String(wait) });
}

async function ownFlight(deps: AppDeps, claims: AuthClaims, flightId: number): Promise<Flight> {
  const flight = await deps.db.asUser(claims, (tx) => getFlight(tx, claims.sub, flightId));
  if (!flight) throw new HttpError(404, FLIGHT_MESSAGES.notFound);
  return flight;
}

/** The 422 that asks for the itinerary: the fare source cannot retrieve this booking. */
export class NeedsItineraryError extends HttpError {
  constructor() {
    super(422, FLIGHT_MESSAGES.needsItinerary, {}, { needsItinerary: true });
    this.name = 'NeedsItineraryError';
  }
}

async function refuseAdding(deps: AppDeps, claims: AuthClaims, bookingCode: string): Promise<void> {
  const userId = claims.sub;
  await deps.db.asUser(claims, async (tx) => {
    const { flightLimit, room } = await roomOnPlan(tx, userId);
    if (room <= 0) throw new HttpError(409, flightLimitMessage(flightLimit));
    if (await hasBooking(tx, userId, bookingCode)) throw new HttpError(409, FLIGHT_MESSAGES.duplicate);
  });
}

/**
 * `POST /api/flights/manual`: retrieval first; when the fare source cannot retrieve the booking
 * (not found, or a source that only knows its own orders), a 422 with `needsItinerary`, and the
 * same call with `itinerary` adds the flight from what the ticket says (addItineraryFlight).
 */
export async function addManualFlight(
  deps: AppDeps,
  claims: AuthClaims,
  input: ManualFlight,
): Promise<AddFlightResponse> {
  if (input.itinerary) return await addItineraryFlight(deps, claims, { ...input, itinerary: input.itinerary });
  const userId = claims.sub;
  // Cheap refusals first: a search costs money at real fare sources.
  await refuseAdding(deps, claims, input.bookingCode);

  await spendBudget(deps, userId, 'add', null);
  let booking: RetrievedBooking;
  try {
    booking = await deps.fareSource.retrieveBooking({
      airline: input.airline,
      bookingCode: input.bookingCode,
      passengerLastName: input.passengerLastName,
    });
  } catch (error) {
    if (error instanceof BookingNotFoundError) throw new NeedsItineraryError();
    throw error;
  }
  if (booking.departureDate < today()) throw new HttpError(409, FLIGHT_MESSAGES.departed);
  const eligible = isEligibleFareType(booking.fareType, booking.fareChangeable);
  // the booking code is the one the traveller typed (upper-cased), whatever the source echoes
  const kept = { ...booking, bookingCode: input.bookingCode, passengerLastName: input.passengerLastName };
  return await storeManualFlight(deps, claims, { booking: kept, eligible, notes: input.notes ?? null });
}

/** Writes a flight added by hand (on the service connection: users may not write flight rows). */
async function storeManualFlight(
  deps: AppDeps,
  claims: AuthClaims,
  f: { booking: KeptBooking; eligible: boolean; notes: string | null; firstQuote?: FareQuote },
): Promise<AddFlightResponse> {
  const userId = claims.sub;
  try {
    const flightId = await deps.db.asService(async (tx) => {
      const id = await insertFlight(tx, {
        userId,
        source: deps.fareSource.name,
        booking: f.booking,
        isEligibleForRebooking: f.eligible,
        notes: f.notes,
        isManualEntry: true,
        passengerCount: f.booking.passengerCount ?? 1,
      });
      // the verifying quote is the flight's first check: it is not quoted again at once
      if (f.firstQuote) await recordPriceChecks(tx, [priceCheckOf(deps, { id, userId }, f.firstQuote)]);
      return id;
    });
    const flight = await ownFlight(deps, claims, flightId);
    return { flight, message: FLIGHT_MESSAGES.added };
  } catch (error) {
    // the same checks, lost to a concurrent request: the database's unique key and limit trigger
    if (isPgError(error, '23505')) throw new HttpError(409, FLIGHT_MESSAGES.duplicate);
    if (isPgError(error, 'FB409')) {
      const { flightLimit } = await deps.db.asUser(claims, (tx) => flightAllowance(tx, userId));
      throw new HttpError(409, flightLimitMessage(flightLimit));
    }
    throw error;
  }
}

function priceCheckOf(deps: AppDeps, flight: { id: number; userId: string }, quote: FareQuote) {
  return {
    flightId: flight.id,
    userId: flight.userId,
    price: quote.price,
    currency: quote.currency,
    checkedAt: new Date(quote.quotedAt),
    source: deps.fareSource.name,
    changePenalty: quote.changePenalty ?? null,
    refundForm: quote.refundForm ?? null,
    offerId: quote.offerId,
  };
}

const ITINERARY_FIELD_OF = { flightNumber: 'flightNumber', departureDate: 'departureDate', route: 'arrivalAirport' };

/** Field errors only the api can judge: airports the dataset does not know, dates in the past. */
async function refuseItineraryFields(itinerary: ItineraryInput): Promise<void> {
  const errors: FieldError[] = [];
  const now = today();
  for (const [i, segment] of itinerary.segments.entries()) {
    const at = `itinerary.segments.${i}`;
    for (const field of ['departureAirport', 'arrivalAirport'] as const) {
      if (!(await lookupAirport(segment[field]))) {
        errors.push({
          field: `${at}.${field}`,
          message: `Unknown airport ${segment[field]}: choose one from the list`,
        });
      }
    }
    if (segment.departureDate < now) {
      errors.push({ field: `${at}.departureDate`, message: 'The flight date is in the past' });
    }
  }
  if (errors.length > 0) throw new FieldValidationError(errors);
}

/**
 * The itinerary path: the traveller typed the flights from their ticket. FareBack quotes that
 * itinerary once (within the fare budget) before saving; a flight the source does not sell is a
 * 422 on the field at fault. The flight is changed by the traveller (assisted), as email imports
 * are, and the verifying quote is its first check.
 */
async function addItineraryFlight(
  deps: AppDeps,
  claims: AuthClaims,
  input: ManualFlight & { itinerary: ItineraryInput },
): Promise<AddFlightResponse> {
  const it = input.itinerary;
  await refuseItineraryFields(it);
  await refuseAdding(deps, claims, input.bookingCode);
  const [outbound, back] = it.segments as [ItinerarySegment, ItinerarySegment | undefined];
  const airline = findAirline(input.airline) ?? findAirline(outbound.flightNumber.slice(0, 2));
  const fareType = it.fareBrand ?? it.cabinClass;
  const itinerary: Itinerary = {
    airline: airline?.name ?? input.airline,
    flightNumber: outbound.flightNumber,
    departureAirport: outbound.departureAirport,
    arrivalAirport: outbound.arrivalAirport,
    departureDate: outbound.departureDate,
    returnFlightNumber: back?.flightNumber ?? null,
    returnDate: back?.departureDate ?? null,
    cabinClass: it.cabinClass,
    fareType,
    currency: it.currency,
    passengers: it.passengers,
    bookingCode: input.bookingCode,
    verify: true,
  };

  await spendBudget(deps, claims.sub, 'add', null);
  let quote: FareQuote;
  try {
    quote = await deps.fareSource.quote(itinerary);
  } catch (error) {
    if (error instanceof NoSuchFlightError) {
      const leg = error.field === 'flightNumber' && back && !error.message.includes(outbound.flightNumber) ? 1 : 0;
      throw new FieldValidationError(
        [{ field: `itinerary.segments.${leg}.${ITINERARY_FIELD_OF[error.field]}`, message: error.message }],
        422,
      );
    }
    if (error instanceof FareNoLongerAvailableError) {
      throw new FieldValidationError([{ field: 'itinerary.fareBrand', message: FLIGHT_MESSAGES.fareNotOnSale }], 422);
    }
    throw error;
  }

  const booking: KeptBooking = {
    airline: itinerary.airline,
    airlineCode: airline?.code ?? outbound.flightNumber.slice(0, 2),
    bookingCode: input.bookingCode,
    passengerLastName: input.passengerLastName,
    flightNumber: outbound.flightNumber,
    departureAirport: outbound.departureAirport,
    arrivalAirport: outbound.arrivalAirport,
    departureDate: outbound.departureDate,
    departureTime: null,
    arrivalTime: null,
    isRoundTrip: back !== undefined,
    returnFlightNumber: itinerary.returnFlightNumber,
    returnDate: itinerary.returnDate,
    cabinClass: it.cabinClass,
    seatNumber: null,
    fareType,
    fareChangeable: isEligibleFareType(fareType),
    pricePaid: it.pricePaid,
    currency: it.currency,
    passengerCount: it.passengers,
    // FareBack cannot change a booking it could not retrieve: the traveller does, guided
    rebookingMethod: 'assisted',
    sourceReference: null,
  };
  return await storeManualFlight(deps, claims, {
    booking,
    eligible: isEligibleFareType(fareType),
    notes: input.notes ?? null,
    firstQuote: quote,
  });
}

/**
 * Quotes one flight for its whole party and records the check (Check Now and a new flight's
 * first check). A cancelled flight is marked so (FlightCancelledError is thrown on).
 */
async function quoteAndRecord(
  deps: Pick<AppDeps, 'db' | 'fareSource' | 'log'>,
  userId: string,
  flight: Flight,
): Promise<RecordedPriceCheck | undefined> {
  let quote;
  try {
    quote = await deps.fareSource.quote(itineraryOf(flight));
  } catch (error) {
    if (error instanceof FlightCancelledError) {
      // the airline cancelled it: the card says so, and the traveller is told (flight_cancelled)
      await deps.db.asService((tx) => cancelFlights(tx, [{ flightId: flight.id, userId }]));
    }
    throw error;
  }
  const [recorded] = await deps.db.asService((tx) =>
    recordPriceChecks(tx, [priceCheckOf(deps as AppDeps, { id: flight.id, userId }, quote)], {
      confirmPriority: CHECK_NOW_CONFIRM_PRIORITY,
    }),
  );
  if (!recorded?.dropPending) return recorded;
  // a drop is believed on a second quote, taken through the queue (services/drop-confirmation.ts):
  // the traveller waiting on this check gets it now, their job being claimed first
  await confirmPendingDrops(deps as AppDeps, { maxJobs: 1, budgetMs: 10_000 }).catch((error: unknown) =>
    deps.log({ level: 'error', msg: 'price drop confirmation failed', error: String(error) }),
  );
  const after = await deps.db.asService((tx) => getFlight(tx, userId, flight.id));
  const priceDropped = after?.status === 'price_drop';
  if (priceDropped) {
    // the traveller hears of the drop by email too; a mail failure must not fail the check
    await sendQueuedNotifications(deps as AppDeps, { maxJobs: 10, budgetMs: 10_000 }).catch((error: unknown) =>
      deps.log({ level: 'error', msg: 'price alert delivery failed', error: String(error) }),
    );
  }
  return { ...recorded, status: after?.status ?? recorded.status, priceDropped };
}

export async function checkFlightPrice(
  deps: AppDeps,
  claims: AuthClaims,
  flightId: number,
): Promise<CheckPriceResponse> {
  const flight = await ownFlight(deps, claims, flightId);
  if (flight.hasBeenRebooked) throw new HttpError(409, FLIGHT_MESSAGES.alreadyRebooked);
  if (flight.status === 'rebooking') throw new HttpError(409, FLIGHT_MESSAGES.rebookInProgress);
  if (flight.departureDate < today()) throw new HttpError(409, FLIGHT_MESSAGES.departed);

  await spendBudget(deps, claims.sub, 'check', flight.id);
  let result;
  try {
    result = await quoteAndRecord(deps, claims.sub, flight);
  } catch (error) {
    if (error instanceof FlightCancelledError) throw new HttpError(409, FLIGHT_MESSAGES.cancelledByAirline);
    throw error;
  }
  const updated = await ownFlight(deps, claims, flightId);
  return { flight: updated, priceDropped: result?.priceDropped ?? false, message: FLIGHT_MESSAGES.priceUpdated };
}

export const FIRST_PRICE_CHECK_KIND = 'first_price_check';

/** Thrown to retry a first check later (the job's backoff): the traveller's fare budget is spent. */
class FareBudgetSpentError extends Error {
  constructor(wait: number) {
    super(`fare budget spent: next call allowed in ${wait} s`);
    this.name = 'FareBudgetSpentError';
  }
}

/**
 * A new flight's first quote (issue 23), whether added by hand, found in the inbox or forwarded:
 * enqueued by the flights insert trigger (private.enqueue_first_price_check), run by the job
 * runner within a minute, and counted in the traveller's fare budget; a spent budget retries
 * the job later. A flight already checked (the itinerary path's verifying quote, Check Now, a
 * sweep) or no longer watched is left alone.
 */
export const firstPriceCheckHandler: JobHandler<{ flightId: number; userId: string }> = {
  kind: FIRST_PRICE_CHECK_KIND,
  leaseSeconds: 60,
  async run(job, ctx) {
    const { deps } = ctx;
    const { flightId, userId } = job.payload;
    const flight = await deps.db.asService((tx) => getFlight(tx, userId, flightId));
    const watched =
      flight &&
      flight.lastChecked === null &&
      !flight.hasBeenRebooked &&
      (flight.status === 'monitoring' || flight.status === 'limited') &&
      flight.departureDate >= today();
    if (!flight || !watched) return await ctx.finish(() => Promise.resolve({ skipped: true }));
    const wait = await deps.db.asService((tx) =>
      spendFareCall(tx, deps.config.travellerLimits, { userId, kind: 'check', flightId }),
    );
    if (wait > 0) throw new FareBudgetSpentError(wait);
    try {
      await quoteAndRecord(deps, userId, flight);
    } catch (error) {
      if (error instanceof FlightCancelledError) return await ctx.finish(() => Promise.resolve({ cancelled: true }));
      throw error;
    }
    await ctx.finish(() => Promise.resolve({ checked: true }));
  },
};

function refuseRebooking(flight: Flight): void {
  if (flight.hasBeenRebooked) throw new HttpError(409, FLIGHT_MESSAGES.alreadyRebooked);
  if (flight.status === 'rebooking') throw new HttpError(409, FLIGHT_MESSAGES.rebookInProgress);
  if (!flight.isEligibleForRebooking) throw new HttpError(409, FLIGHT_MESSAGES.notEligible);
  if (!canRebook(flight)) throw new HttpError(409, FLIGHT_MESSAGES.noPriceDrop);
}

function dollars(cents: number): string {
  return (cents / 100).toLocaleString('en-US', { style: 'currency', currency: 'USD' });
}

function rebookResponse(flight: Flight, commission: number): RebookResponse {
  const savings = flight.airlineCredit ?? 0;
  const percentSaved = roundPercent(savingsPercent(savings, flight.originalPrice));
  return {
    flight,
    savings,
    percentSaved,
    commission,
    message: `You saved ${dollars(savings)} (${percentSaved.toFixed(1)}%) as airline credit.`,
  };
}

/**
 * The declared credit of a guided rebooking against what the fare drop FareBack found makes
 * plausible (creditPlausibility): outside the range a 400 naming the field and the range; inside
 * it but below what was expected, the reason an admin should look at it (flights.credit_review).
 */
function reviewDeclaredCredit(
  flight: Flight,
  pricePaid: number,
  input: { newPrice: number; airlineCredit: number },
): string | null {
  const range = creditPlausibility({
    pricePaid,
    foundPrice: flight.currentPrice,
    changePenalty: flight.changePenalty,
    newPrice: input.newPrice,
  });
  if (range.max < range.min) {
    throw new FieldValidationError([
      {
        field: 'newPrice',
        message:
          `New price must be at most ${dollars(pricePaid - range.min)}: FareBack found this fare at ` +
          `${dollars(flight.currentPrice ?? 0)}. Check the price again if it has changed.`,
      },
    ]);
  }
  if (input.airlineCredit < range.min || input.airlineCredit > range.max) {
    throw new FieldValidationError([
      {
        field: 'airlineCredit',
        message:
          `Airline credit must be between ${dollars(range.min)} and ${dollars(range.max)}: at most the fare ` +
          `difference you entered, and at least half the ${dollars(range.expected)} drop FareBack found ` +
          `(after any change fee). If the airline gave you less, contact support.`,
      },
    ]);
  }
  if (input.airlineCredit < range.reviewBelow) {
    return (
      `Declared credit ${dollars(input.airlineCredit)} is below 90% of the ${dollars(range.expected)} ` +
      `net drop FareBack found (paid ${dollars(pricePaid)}, found ${dollars(flight.currentPrice ?? 0)}).`
    );
  }
  return null;
}

function sameItinerary(a: RetrievedBooking, flight: Flight): boolean {
  return (
    a.flightNumber.toUpperCase() === flight.flightNumber.toUpperCase() &&
    a.departureAirport === flight.departureAirport &&
    a.arrivalAirport === flight.arrivalAirport &&
    a.departureDate === flight.departureDate &&
    (a.returnFlightNumber ?? null) === (flight.returnFlightNumber ?? null) &&
    (a.returnDate ?? null) === (flight.returnDate ?? null)
  );
}

/**
 * What a rebooking sends to the source: the booking as the source returned it at retrieval
 * (private.flight_bookings), never the flight row. A flight without a kept retrieval (added
 * before they were kept) is retrieved again by its code and last name first, and must still be
 * the itinerary on the card.
 */
async function rebookRequestFor(deps: AppDeps, userId: string, flight: Flight): Promise<RebookRequest> {
  let kept = await deps.db.asService((tx) => getFlightBooking(tx, userId, flight.id));
  if (!kept) {
    let fresh: RetrievedBooking;
    try {
      fresh = await deps.fareSource.retrieveBooking({
        airline: flight.airline,
        bookingCode: flight.bookingCode,
        passengerLastName: flight.passengerLastName,
      });
    } catch (error) {
      if (error instanceof BookingNotFoundError) throw new HttpError(409, FLIGHT_MESSAGES.bookingChanged);
      throw error;
    }
    if (!sameItinerary(fresh, flight)) throw new HttpError(409, FLIGHT_MESSAGES.bookingChanged);
    const booking = { ...fresh, bookingCode: flight.bookingCode, passengerLastName: flight.passengerLastName };
    await deps.db.asService((tx) =>
      saveFlightBooking(tx, { flightId: flight.id, userId, source: deps.fareSource.name, booking }),
    );
    kept = booking;
  }
  if (kept.rebookingMethod !== 'source') throw new HttpError(409, FLIGHT_MESSAGES.assistedOnly);
  return {
    booking: kept,
    pricePaid: kept.pricePaid,
    // never above the fare the traveller saw, and always below what they paid
    maxPrice: Math.min(flight.currentPrice ?? kept.pricePaid, kept.pricePaid - 1),
  };
}

/** Records a confirmed change; shared by the request that made it and the reconciler. */
export function recordConfirmedRebooking(
  deps: Pick<AppDeps, 'db'>,
  r: { rebookingId: number; userId: string; flightId: number; result: RebookResult },
): Promise<{ commission: number } | null> {
  return deps.db.asService((tx) =>
    recordRebooking(tx, {
      rebookingId: r.rebookingId,
      userId: r.userId,
      flightId: r.flightId,
      newPrice: r.result.newPrice,
      airlineCredit: r.result.airlineCredit,
      creditReference: r.result.creditReference,
      creditExpiryDate: r.result.creditExpiryDate,
      seatNumber: r.result.seatNumber,
      rebookedAt: new Date(r.result.rebookedAt),
    }),
  );
}

/** What became of a claimed source rebooking (rebookClaimed). */
export type ClaimedRebookOutcome =
  | { kind: 'recorded'; commission: number; result: RebookResult }
  /** The change may have happened (no answer, or an answer that cannot be read): the claim stays for the reconciler. */
  | { kind: 'unknown'; error: unknown }
  /** Nothing changed at the source; the claim was given back. */
  | { kind: 'refused'; error: unknown }
  /** The source made the change but recording it failed: the reconciler finishes it. */
  | { kind: 'unrecorded'; error: unknown }
  /** Someone else recorded or released the claim first. */
  | { kind: 'lost' };

/**
 * An answer we can record: a lower price than paid, a credit no larger than what was paid, a
 * reference and an expiry date. Anything else (a garbled or hostile answer) is not recorded: the
 * change may have happened, so the claim is kept for the reconciler to ask about.
 */
export function isReadableRebookResult(result: unknown, request: RebookRequest): result is RebookResult {
  const r = result as Partial<RebookResult> | null;
  return (
    !!r &&
    typeof r === 'object' &&
    Number.isSafeInteger(r.newPrice) &&
    (r.newPrice as number) >= 0 &&
    (r.newPrice as number) < request.pricePaid &&
    Number.isSafeInteger(r.airlineCredit) &&
    (r.airlineCredit as number) >= 0 &&
    (r.airlineCredit as number) <= request.pricePaid &&
    typeof r.creditReference === 'string' &&
    r.creditReference.length > 0 &&
    r.creditReference.length <= 100 &&
    typeof r.creditExpiryDate === 'string' &&
    /^\d{4}-\d{2}-\d{2}$/.test(r.creditExpiryDate) &&
    typeof r.rebookedAt === 'string' &&
    !Number.isNaN(Date.parse(r.rebookedAt))
  );
}

/**
 * The one source rebooking path, after the claim (claimRebooking): asks the source, keeps its
 * answer on the rebooking record before anything else, then records credit, commission and the
 * flight. Used by the Rebook call and by automatic runs (services/auto-rebooking.ts).
 */
export async function rebookClaimed(
  deps: Pick<AppDeps, 'db' | 'fareSource' | 'log'>,
  c: { rebookingId: number; userId: string; flightId: number; request: RebookRequest },
): Promise<ClaimedRebookOutcome> {
  const { rebookingId, userId, flightId, request } = c;
  let result: RebookResult;
  try {
    const answer: unknown = await deps.fareSource.rebook(request);
    if (!isReadableRebookResult(answer, request)) {
      throw new RebookOutcomeUnknownError('The fare source answered the change with something we cannot read.');
    }
    result = answer;
  } catch (error) {
    if (error instanceof RebookOutcomeUnknownError) {
      // The change may have happened: the claim stays until the reconciler has asked the source.
      await deps.db.asService((tx) => noteRebookingAttempt(tx, rebookingId, String(error)));
      return { kind: 'unknown', error };
    }
    // Nothing changed at the source. The drop is gone when the fare is: the flight shows no drop
    // until the next check finds one.
    const dropGone =
      error instanceof FareNoLongerAvailableError ||
      error instanceof BookingNotChangeableError ||
      error instanceof BookingMismatchError;
    await deps.db.asService((tx) =>
      releaseRebooking(tx, { rebookingId, userId, flightId, dropGone, error: String(error) }),
    );
    return { kind: 'refused', error };
  }

  try {
    await deps.db.asService((tx) => confirmRebooking(tx, rebookingId, result));
    const recorded = await recordConfirmedRebooking(deps, { rebookingId, userId, flightId, result });
    if (!recorded) return { kind: 'lost' };
    return { kind: 'recorded', commission: recorded.commission, result };
  } catch (error) {
    // The airline change is made; only our bookkeeping failed. The result is on the record (or,
    // if even that write failed, the reconciler asks the source), so it is finished later.
    deps.log({
      level: 'error',
      msg: 'rebooking confirmed by the source but not recorded',
      rebookingId,
      flightId,
      result,
      error: String(error),
    });
    return { kind: 'unrecorded', error };
  }
}

/**
 * The source path: FareBack changes the booking itself. Exactly once: the claim (one conditional
 * UPDATE) lets one of two concurrent calls through; the other gets a 409. The source's answer is
 * kept on the rebooking record before anything else is written, so a recording that fails is
 * finished by the reconciler (services/rebooking-reconciler.ts) rather than lost.
 */
export async function rebookFlight(
  deps: AppDeps,
  claims: AuthClaims,
  flightId: number,
  input: { approvalToken?: string | undefined } = {},
): Promise<RebookResponse> {
  const userId = claims.sub;
  const flight = await ownFlight(deps, claims, flightId);
  refuseRebooking(flight);
  if (flight.rebookingMethod !== 'source' || flight.rebookingMode === 'assisted') {
    throw new HttpError(409, FLIGHT_MESSAGES.assistedOnly);
  }
  // an approval email's link: checked and used once before anything changes (a refusal changes nothing)
  const approvalId = input.approvalToken
    ? await redeemApproval(deps, {
        token: input.approvalToken,
        callerId: userId,
        flightId,
        currentPrice: flight.currentPrice,
      })
    : null;
  const outcome = await rebookOwnFlight(deps, claims, flight);
  if (approvalId !== null) {
    const closed = outcome.kind === 'rebooked' ? 'rebooked' : 'refused';
    await deps.db.asService((tx) => closeApproval(tx, approvalId, closed));
  }
  if (outcome.kind === 'refused') throw outcome.error;
  return outcome.response;
}

async function rebookOwnFlight(
  deps: AppDeps,
  claims: AuthClaims,
  flight: Flight,
): Promise<{ kind: 'rebooked'; response: RebookResponse } | { kind: 'refused'; error: unknown }> {
  try {
    return { kind: 'rebooked', response: await rebookAtSource(deps, claims, flight) };
  } catch (error) {
    return { kind: 'refused', error };
  }
}

async function rebookAtSource(deps: AppDeps, claims: AuthClaims, flight: Flight): Promise<RebookResponse> {
  const userId = claims.sub;
  const flightId = flight.id;
  const request = await rebookRequestFor(deps, userId, flight);

  const rebookingId = await deps.db.asService((tx) =>
    claimRebooking(tx, { userId, flightId, method: 'source', request }),
  );
  if (rebookingId === null) {
    const now = await ownFlight(deps, claims, flightId);
    refuseRebooking(now);
    throw new HttpError(409, FLIGHT_MESSAGES.rebookInProgress);
  }

  const outcome = await rebookClaimed(deps, { rebookingId, userId, flightId, request });
  switch (outcome.kind) {
    case 'unknown':
      throw new HttpError(503, FLIGHT_MESSAGES.rebookOutcomeUnknown);
    case 'refused':
      if (outcome.error instanceof BookingMismatchError || outcome.error instanceof BookingNotFoundError) {
        throw new HttpError(409, FLIGHT_MESSAGES.bookingChanged);
      }
      throw outcome.error;
    case 'unrecorded':
      throw new HttpError(503, FLIGHT_MESSAGES.recordingDelayed);
    case 'lost':
      throw new HttpError(409, FLIGHT_MESSAGES.rebookInProgress);
    case 'recorded':
      return rebookResponse(await ownFlight(deps, claims, flightId), outcome.commission);
  }
}

/**
 * The assisted path: the traveller changed the ticket with the airline and confirms what they
 * got. Recorded only now, with the same claim so it also happens once. The bounds come from the
 * price paid as the source returned it, where it was kept.
 */
export async function confirmAssistedRebooking(
  deps: AppDeps,
  claims: AuthClaims,
  flightId: number,
  input: ConfirmRebookingInput,
): Promise<RebookResponse> {
  const userId = claims.sub;
  const flight = await ownFlight(deps, claims, flightId);
  refuseRebooking(flight);
  if (flight.rebookingMethod !== 'assisted') throw new HttpError(409, FLIGHT_MESSAGES.sourceHandles);
  const kept = await deps.db.asService((tx) => getFlightBooking(tx, userId, flightId));
  const pricePaid = kept?.pricePaid ?? flight.originalPrice;
  if (input.newPrice >= pricePaid) throw new HttpError(400, FLIGHT_MESSAGES.newPriceNotLower);
  if (input.airlineCredit > pricePaid) throw new HttpError(400, FLIGHT_MESSAGES.creditTooLarge);
  const creditReview = reviewDeclaredCredit(flight, pricePaid, input);

  const recorded = await deps.db.asService(async (tx) => {
    const rebookingId = await claimRebooking(tx, { userId, flightId, method: 'assisted', request: null });
    if (rebookingId === null) return null;
    return await recordRebooking(tx, {
      rebookingId,
      userId,
      flightId,
      newPrice: input.newPrice,
      airlineCredit: input.airlineCredit,
      creditReference: input.creditReferenceNumber ?? null,
      creditExpiryDate: input.creditExpiryDate ?? creditExpiryDate(new Date()),
      seatNumber: null,
      rebookedAt: new Date(),
      creditReview,
    });
  });
  if (!recorded) {
    refuseRebooking(await ownFlight(deps, claims, flightId));
    throw new HttpError(409, FLIGHT_MESSAGES.rebookInProgress);
  }
  return rebookResponse(await ownFlight(deps, claims, flightId), recorded.commission);
}

/** Removes one of the caller's flights; never one whose rebooking is under way. */
export async function removeFlight(deps: AppDeps, claims: AuthClaims, flightId: number): Promise<{ message: string }> {
  const flight = await ownFlight(deps, claims, flightId);
  if (flight.status === 'rebooking') throw new HttpError(409, FLIGHT_MESSAGES.removeWhileRebooking);
  // as the user: the delete policy holds the same rule, should the status change meanwhile
  const removed = await deps.db.asUser(claims, (tx) => deleteFlight(tx, claims.sub, flightId));
  if (!removed) {
    const now = await deps.db.asUser(claims, (tx) => getFlight(tx, claims.sub, flightId));
    if (now?.status === 'rebooking') throw new HttpError(409, FLIGHT_MESSAGES.removeWhileRebooking);
    throw new HttpError(404, FLIGHT_MESSAGES.notFound);
  }
  return { message: FLIGHT_MESSAGES.removed };
}
