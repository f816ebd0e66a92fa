// Monitored flights (spec sections 2, 4, 5, 7; issue 3): add a booking by code, check its price,
// and rebook it. Reads and inserts run as the user; price and rebooking writes, which users may
// not make themselves, run on the service connection naming the owner. No transaction is held
// open across a fare-source call: the source can be slow, and on the local stack one open
// transaction blocks every other request.
import {
  BookingNotChangeableError,
  FareNoLongerAvailableError,
  type Itinerary,
} from '../../_shared/fare-source/types.ts';
import {
  canRebook,
  creditExpiryDate,
  initialStatus,
  isEligibleFareType,
  roundPercent,
  savingsPercent,
} from '../../_shared/flights/rules.ts';
import type { ConfirmRebookingInput, ManualFlight } from '../../_shared/schemas/flights.ts';
import type { AddFlightResponse, CheckPriceResponse, Flight, RebookResponse } from '../../_shared/types/flights.ts';
import type { AppDeps } from '../context.ts';
import type { AuthClaims } from '../db.ts';
import { HttpError } from '../errors.ts';
import {
  claimRebooking,
  flightAllowance,
  getFlight,
  hasBooking,
  insertFlight,
  recordRebooking,
  releaseRebooking,
} from '../queries/flights.ts';
import { recordPriceChecks } from '../queries/price-checks.ts';
import { deliverPendingEmails } from './notifications.ts';

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
} as const;

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
    bookingCode: flight.bookingCode,
    sourceReference: flight.sourceReference,
  };
}

function isPgError(error: unknown, code: string): boolean {
  return error instanceof Error && (error as Error & { code?: unknown }).code === code;
}

async function ownFlight(deps: AppDeps, claims: AuthClaims, flightId: number): Promise<Flight> {
  const flight = await deps.db.withUser(claims, (tx) => getFlight(tx, claims.sub, flightId));
  if (!flight) throw new HttpError(404, FLIGHT_MESSAGES.notFound);
  return flight;
}

export async function addManualFlight(
  deps: AppDeps,
  claims: AuthClaims,
  input: ManualFlight,
): Promise<AddFlightResponse> {
  const userId = claims.sub;
  // Cheap refusals first: a search costs money at real fare sources.
  await deps.db.withUser(claims, async (tx) => {
    const { flightLimit, watched } = await flightAllowance(tx, userId);
    if (flightLimit !== -1 && watched >= flightLimit) throw new HttpError(409, flightLimitMessage(flightLimit));
    if (await hasBooking(tx, userId, input.bookingCode)) throw new HttpError(409, FLIGHT_MESSAGES.duplicate);
  });

  const booking = await deps.fareSource.retrieveBooking({
    airline: input.airline,
    bookingCode: input.bookingCode,
    passengerLastName: input.passengerLastName,
  });
  if (booking.departureDate < today()) throw new HttpError(409, FLIGHT_MESSAGES.departed);

  const eligible = isEligibleFareType(booking.fareType, booking.fareChangeable);
  try {
    const flightId = await deps.db.withUser(claims, async (tx) => {
      // the booking code is the one the traveller typed (upper-cased), whatever the source echoes
      const id = await insertFlight(tx, {
        userId,
        booking: { ...booking, bookingCode: input.bookingCode, passengerLastName: input.passengerLastName },
        isEligibleForRebooking: eligible,
        status: initialStatus(eligible),
        notes: input.notes ?? null,
        isManualEntry: true,
      });
      return id;
    });
    const flight = await ownFlight(deps, claims, flightId);
    return { flight, message: FLIGHT_MESSAGES.added };
  } catch (error) {
    // the same checks, lost to a concurrent request: the database's unique key and limit trigger
    if (isPgError(error, '23505')) throw new HttpError(409, FLIGHT_MESSAGES.duplicate);
    if (isPgError(error, 'FB409')) {
      const { flightLimit } = await deps.db.withUser(claims, (tx) => flightAllowance(tx, userId));
      throw new HttpError(409, flightLimitMessage(flightLimit));
    }
    throw error;
  }
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

  const quote = await deps.fareSource.quote(itineraryOf(flight));
  const [result] = await deps.db.withService((tx) =>
    recordPriceChecks(tx, [
      {
        flightId: flight.id,
        userId: claims.sub,
        price: quote.price,
        currency: quote.currency,
        checkedAt: new Date(quote.quotedAt),
        source: deps.fareSource.name,
      },
    ]),
  );
  if (result?.alertQueued) {
    // the traveller hears of the drop by email too; a mail failure must not fail the check
    await deliverPendingEmails(deps, 10).catch((error: unknown) =>
      deps.log({ level: 'error', msg: 'price alert delivery failed', error: String(error) }),
    );
  }
  const updated = await ownFlight(deps, claims, flightId);
  return { flight: updated, priceDropped: result?.priceDropped ?? false, message: FLIGHT_MESSAGES.priceUpdated };
}

function refuseRebooking(flight: Flight): void {
  if (flight.hasBeenRebooked) throw new HttpError(409, FLIGHT_MESSAGES.alreadyRebooked);
  if (flight.status === 'rebooking') throw new HttpError(409, FLIGHT_MESSAGES.rebookInProgress);
  if (!flight.isEligibleForRebooking) throw new HttpError(409, FLIGHT_MESSAGES.notEligible);
  if (!canRebook(flight)) throw new HttpError(409, FLIGHT_MESSAGES.noPriceDrop);
}

function rebookResponse(flight: Flight, commission: number): RebookResponse {
  const savings = flight.airlineCredit ?? 0;
  const percentSaved = roundPercent(savingsPercent(savings, flight.originalPrice));
  const dollars = (savings / 100).toLocaleString('en-US', { style: 'currency', currency: 'USD' });
  return {
    flight,
    savings,
    percentSaved,
    commission,
    message: `You saved ${dollars} (${percentSaved.toFixed(1)}%) as airline credit.`,
  };
}

/**
 * The source path: FareBack changes the booking itself. Exactly once: the claim (one conditional
 * UPDATE) lets one of two concurrent calls through; the other gets a 409.
 */
export async function rebookFlight(deps: AppDeps, claims: AuthClaims, flightId: number): Promise<RebookResponse> {
  const userId = claims.sub;
  const flight = await ownFlight(deps, claims, flightId);
  refuseRebooking(flight);
  if (flight.rebookingMethod !== 'source') throw new HttpError(409, FLIGHT_MESSAGES.assistedOnly);

  // The source gets the flight as read above; the claim only succeeds while it is still a price drop.
  const claimed = await deps.db.withService((tx) => claimRebooking(tx, userId, flightId, ['price_drop']));
  if (!claimed) {
    const now = await ownFlight(deps, claims, flightId);
    refuseRebooking(now);
    throw new HttpError(409, FLIGHT_MESSAGES.rebookInProgress);
  }

  let result;
  try {
    result = await deps.fareSource.rebook({
      booking: {
        ...itineraryOf(flight),
        passengerLastName: flight.passengerLastName,
        seatNumber: flight.seatNumber,
        sourceReference: flight.sourceReference,
      },
      pricePaid: flight.originalPrice,
      maxPrice: flight.currentPrice ?? flight.originalPrice,
    });
  } catch (error) {
    // The drop is gone: show the flight as monitored again until the next check finds one.
    const status =
      error instanceof FareNoLongerAvailableError || error instanceof BookingNotChangeableError
        ? flight.isEligibleForRebooking
          ? 'monitoring'
          : 'limited'
        : 'price_drop';
    await deps.db.withService((tx) => releaseRebooking(tx, userId, flightId, status));
    throw error;
  }

  const recorded = await deps.db.withService((tx) =>
    recordRebooking(tx, {
      userId,
      flightId,
      newPrice: result.newPrice,
      airlineCredit: result.airlineCredit,
      creditReference: result.creditReference,
      creditExpiryDate: result.creditExpiryDate,
      seatNumber: result.seatNumber,
      rebookedAt: new Date(result.rebookedAt),
    }),
  );
  if (!recorded) throw new HttpError(409, FLIGHT_MESSAGES.rebookInProgress);
  return rebookResponse(await ownFlight(deps, claims, flightId), recorded.commission);
}

/**
 * The assisted path: the traveller changed the ticket with the airline and confirms what they
 * got. Recorded only now, with the same claim so it also happens once.
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
  if (input.newPrice >= flight.originalPrice) throw new HttpError(400, FLIGHT_MESSAGES.newPriceNotLower);
  if (input.airlineCredit > flight.originalPrice) throw new HttpError(400, FLIGHT_MESSAGES.creditTooLarge);

  const recorded = await deps.db.withService(async (tx) => {
    if (!(await claimRebooking(tx, userId, flightId, ['price_drop']))) return null;
    return await recordRebooking(tx, {
      userId,
      flightId,
      newPrice: input.newPrice,
      airlineCredit: input.airlineCredit,
      creditReference: input.creditReferenceNumber ?? null,
      creditExpiryDate: input.creditExpiryDate ?? creditExpiryDate(new Date()),
      seatNumber: null,
      rebookedAt: new Date(),
    });
  });
  if (!recorded) {
    refuseRebooking(await ownFlight(deps, claims, flightId));
    throw new HttpError(409, FLIGHT_MESSAGES.rebookInProgress);
  }
  return rebookResponse(await ownFlight(deps, claims, flightId), recorded.commission);
}
