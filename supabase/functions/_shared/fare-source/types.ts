// The fare source contract (DESIGN "Adapters"): retrieve a booking, quote the same itinerary and
// fare type now, rebook the booking at a quoted fare, and, when a rebooking's answer was lost, ask
// what happened. Implementations: `simulated` (default, deterministic) and `duffel` (the Duffel
// API). Every implementation is wrapped so each call has a timeout, bounded retries with backoff
// on 429 and 5xx, and a per-source rate limit; failures surface as the typed errors below and
// never as partial data.
//
// A rebooking is steered by nothing a traveller wrote: the caller sends what retrieval returned
// (kept where users cannot write it), and the source checks it again before changing anything.
// It finds the booking again by code and last name and refuses unless it is the booking
// retrieval returned (`sourceReference`; BookingMismatchError), and it never makes a change that
// costs money: a rebooking lowers the fare or does not happen.
//
// Money is integer cents in `currency`. Dates are 'YYYY-MM-DD' (the airport's local date), times
// 'HH:MM' local, or null when the source does not say.

export type RebookingMethod = 'source' | 'assisted';

/** What a booking retrieval yields: the itinerary as the airline holds it. */
export interface RetrievedBooking {
  /** Display name, e.g. 'United Airlines'. */
  airline: string;
  /** IATA carrier code, e.g. 'UA'. */
  airlineCode: string;
  bookingCode: string;
  passengerLastName: string;
  /** Outbound flight number with carrier prefix, e.g. 'UA1234'. */
  flightNumber: string;
  departureAirport: string;
  arrivalAirport: string;
  departureDate: string;
  departureTime: string | null;
  arrivalTime: string | null;
  isRoundTrip: boolean;
  returnFlightNumber: string | null;
  returnDate: string | null;
  cabinClass: string;
  seatNumber: string | null;
  /** The fare brand, e.g. 'Flexible Economy', 'Basic Economy'. */
  fareType: string;
  /** Whether the airline allows changing this fare (Basic Economy never). */
  fareChangeable: boolean;
  /** What the whole booking cost (every passenger on it), cents. */
  pricePaid: number;
  currency: string;
  /** How many travel on the booking (1-9); absent or null where the source does not say: one. */
  passengerCount?: number | null;
  /** 'source' when this source can change the booking itself; 'assisted' when the traveller must. */
  rebookingMethod: RebookingMethod;
  /**
   * The source's own id for the booking: a Duffel order id; for the simulated source a reference
   * derived from the booking ('SIM-...'). A rebooking must send it back unchanged.
   */
  sourceReference: string | null;
}

export interface RetrieveBookingRequest {
  /** The airline's display name as chosen in the manual entry form, or an IATA code. */
  airline: string;
  bookingCode: string;
  passengerLastName: string;
}

/** The itinerary to quote: same flights, dates, cabin and fare type as the booking. */
export interface Itinerary {
  airline: string;
  flightNumber: string;
  departureAirport: string;
  arrivalAirport: string;
  departureDate: string;
  returnFlightNumber: string | null;
  returnDate: string | null;
  cabinClass: string | null;
  fareType: string | null;
  currency: string;
  /**
   * How many adults the quote is for (the booking's party, 1-9; absent: one). The quote is the
   * total for all of them, and only a fare on offer for every one of them in the same cabin and
   * fare brand counts: a fare with fewer seats left than the party is not a quote for it.
   */
  passengers?: number;
  /**
   * A traveller typed this itinerary (the manual path when retrieval cannot find the booking):
   * the quote must be for exactly these flights on these dates, and a flight the source does not
   * sell is NoSuchFlightError rather than a missing fare.
   */
  verify?: boolean;
  /** Lets deterministic sources tie a quote to a booking; real sources ignore it. */
  bookingCode?: string;
  sourceReference?: string | null;
}

export interface FareQuote {
  /** Current total fare for the itinerary and all its passengers, cents. */
  price: number;
  currency: string;
  /** ISO timestamp of the quote. */
  quotedAt: string;
  /** Source-specific offer id the rebook call can confirm, when the source has one. */
  offerId: string | null;
  /**
   * What changing the booking to this fare costs (the airline's change penalty for the fare
   * type), cents; null when the source does not say. Net savings are the fare difference minus
   * this (migration 20261122000600_rebooking.sql, private.rebooking_verdict).
   */
  changePenalty?: number | null;
  /** How the difference comes back: airline credit, or cash to the original payment. */
  refundForm?: RefundForm | null;
}

export type RefundForm = 'credit' | 'cash';

/**
 * A rebooking, built from what `retrieveBooking` returned (never from anything the traveller can
 * edit). The source finds the booking again by airline, booking code and last name, and refuses
 * unless it is the one `sourceReference` names.
 */
export interface RebookRequest {
  booking: Itinerary & {
    bookingCode: string;
    passengerLastName: string;
    seatNumber: string | null;
    /** `RetrievedBooking.sourceReference`, as retrieval returned it. */
    sourceReference: string | null;
  };
  /** What the traveller paid (as retrieved), cents: the credit is the difference. */
  pricePaid: number;
  /** Refuse to rebook above this price (the fare the traveller saw), cents. */
  maxPrice: number;
  /**
   * Refuse (FareNoLongerAvailableError) unless the traveller gets at least this back after the
   * change penalty, cents: an automatic rebooking's threshold, applied to the net figure the
   * source actually offers. Default 1: a change that costs money is never made.
   */
  minCredit?: number;
}

export interface RebookResult {
  newPrice: number;
  currency: string;
  /** Credit the airline issued for the difference, cents. */
  airlineCredit: number;
  creditReference: string;
  /** 'YYYY-MM-DD', one year after the rebooking. */
  creditExpiryDate: string;
  /** The seat is kept. */
  seatNumber: string | null;
  rebookedAt: string;
  /** The change penalty the source charged, cents (already deducted from airlineCredit). */
  changePenalty?: number;
  /** How the difference came back. */
  refundForm?: RefundForm;
}

/**
 * Per-call options. The resilience wrapper passes a signal that aborts when the call's timeout
 * expires, so an HTTP source can cancel its request; callers outside the wrapper may omit it.
 */
export interface FareSourceCallOptions {
  signal?: AbortSignal;
}

export interface FareSource {
  readonly name: 'simulated' | 'duffel';
  retrieveBooking(request: RetrieveBookingRequest, options?: FareSourceCallOptions): Promise<RetrievedBooking>;
  quote(itinerary: Itinerary, options?: FareSourceCallOptions): Promise<FareQuote>;
  /**
   * Changes the booking to the lower fare. Refusals change nothing: BookingNotFoundError,
   * BookingMismatchError, BookingNotChangeableError, FareNoLongerAvailableError. When the change
   * may have happened but no answer came (a confirm that failed or timed out):
   * RebookOutcomeUnknownError; ask `rebookingOutcome` before trying again.
   */
  rebook(request: RebookRequest, options?: FareSourceCallOptions): Promise<RebookResult>;
  /**
   * Asks the source whether a rebooking whose answer was lost went through, given the request that
   * was sent: the change it finds on the booking (as `rebook` would have answered), or null when
   * the booking is as it was. Only reads, so it may be retried. Throws BookingNotFoundError or
   * BookingMismatchError when the booking cannot be found again as the request names it.
   */
  rebookingOutcome(request: RebookRequest, options?: FareSourceCallOptions): Promise<RebookResult | null>;
}

/** Base class: everything a fare source throws on purpose. */
export class FareSourceError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'FareSourceError';
  }
}

/** No booking with that code and last name at that airline. Maps to 404/400 for the user. */
export class BookingNotFoundError extends FareSourceError {
  constructor(message = 'We could not find a booking with that confirmation code and last name.') {
    super(message);
    this.name = 'BookingNotFoundError';
  }
}

/** The source failed, timed out or kept rate-limiting after the retries. Maps to 503. */
export class FareSourceUnavailableError extends FareSourceError {
  constructor(
    message = 'The fare service is unavailable right now. Please try again in a few minutes.',
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'FareSourceUnavailableError';
  }
}

/**
 * A failure worth trying again (429, 5xx, a dropped connection): the resilience wrapper retries
 * it with backoff and turns it into FareSourceUnavailableError when the retries run out.
 * `retryAfterMs` carries the source's own hint (Retry-After, ratelimit-reset) when it gave one.
 */
export class RetryableFareSourceError extends FareSourceError {
  constructor(
    message: string,
    readonly status: number | null = null,
    readonly retryAfterMs: number | null = null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'RetryableFareSourceError';
  }
}

/**
 * The fare changed before the rebooking went through: now above maxPrice, or the only change on
 * offer would not lower what the traveller paid (a change that costs money is never made). Maps
 * to 409.
 */
export class FareNoLongerAvailableError extends FareSourceError {
  constructor(message = 'The lower fare is no longer available.') {
    super(message);
    this.name = 'FareNoLongerAvailableError';
  }
}

/**
 * A rebooking that does not match the booking the source holds: the booking found by code and
 * last name is not the one `sourceReference` names (another customer's order, a forged or
 * altered request), or its flights are no longer those retrieved. Nothing is changed. Maps to 409.
 */
export class BookingMismatchError extends FareSourceError {
  constructor(message = 'This booking no longer matches the one we retrieved, so it was not changed.') {
    super(message);
    this.name = 'BookingMismatchError';
  }
}

/**
 * A rebooking whose outcome is unknown: the change may have gone through (a confirm that failed
 * or timed out, or a rebook attempt that timed out). Never retried; the caller keeps its claim
 * until it has asked the source (`rebookingOutcome`). A FareSourceUnavailableError, so it maps
 * to 503 wherever that does.
 */
export class RebookOutcomeUnknownError extends FareSourceUnavailableError {
  constructor(
    message = 'The airline did not confirm the change. Please check the booking before trying again.',
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'RebookOutcomeUnknownError';
  }
}

/**
 * The airline cancelled the flight: there is no fare to quote and nothing to rebook. The flight
 * is marked cancelled and its owner told (flight_cancelled). Maps to 409.
 */
export class FlightCancelledError extends FareSourceError {
  constructor(message = 'The airline has cancelled this flight.') {
    super(message);
    this.name = 'FlightCancelledError';
  }
}

/**
 * The source sells no such flight: the flight number does not fly that route on that date (an
 * itinerary typed by hand). `field` names the itinerary field at fault. Maps to 422.
 */
export class NoSuchFlightError extends FareSourceError {
  constructor(
    readonly field: 'flightNumber' | 'departureDate' | 'route',
    message = 'We could not find this flight on that date. Check the flight number, date and airports.',
  ) {
    super(message);
    this.name = 'NoSuchFlightError';
  }
}

/** The airline does not allow changing this booking through the source. Maps to 409. */
export class BookingNotChangeableError extends FareSourceError {
  constructor(message = 'This booking cannot be changed through the fare service.') {
    super(message);
    this.name = 'BookingNotChangeableError';
  }
}

/** The itinerary of a retrieved booking, tied to it by code and reference: what to quote for it. */
export function itineraryOfBooking(b: RetrievedBooking): Itinerary {
  return {
    airline: b.airline,
    flightNumber: b.flightNumber,
    departureAirport: b.departureAirport,
    arrivalAirport: b.arrivalAirport,
    departureDate: b.departureDate,
    returnFlightNumber: b.returnFlightNumber,
    returnDate: b.returnDate,
    cabinClass: b.cabinClass,
    fareType: b.fareType,
    currency: b.currency,
    passengers: b.passengerCount ?? 1,
    bookingCode: b.bookingCode,
    sourceReference: b.sourceReference,
  };
}

/**
 * The key that makes two travellers' flights the same search: airline, flight numbers, dates,
 * cabin, fare type and party size. A sweep quotes each key once.
 */
export function itineraryKey(it: Itinerary): string {
  return [
    it.airline.trim().toUpperCase(),
    it.flightNumber.toUpperCase(),
    it.departureAirport,
    it.arrivalAirport,
    it.departureDate,
    it.returnFlightNumber?.toUpperCase() ?? '',
    it.returnDate ?? '',
    (it.cabinClass ?? '').toLowerCase(),
    (it.fareType ?? '').toLowerCase(),
    it.currency,
    String(it.passengers ?? 1),
  ].join('|');
}
