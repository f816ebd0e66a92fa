// The Duffel fare source (FARE_SOURCE=duffel, DUFFEL_ACCESS_TOKEN, DUFFEL_API_URL): talks to the
// Duffel Flights API over HTTPS with `Authorization: Bearer`, `Duffel-Version: v2` and JSON
// bodies wrapped in `{ data }`.
//
// - retrieveBooking: GET /air/orders?booking_reference=X, then the order whose passenger has the
//   traveller's family name (and whose airline is the one chosen). The order's total_amount (the
//   whole party's) is the price paid and its passengers the party; slices give the outbound and return flights (the
//   first segment's marketing carrier and number); the order's
//   conditions.change_before_departure says whether the fare can be changed; the order id is the
//   sourceReference.
// - quote: POST /air/offer_requests?return_offers=true for the same slices and cabin, one adult
//   per passenger of the booking (Duffel offers only fares on sale for all of them); the cheapest
//   offer on the same marketing flights with the same fare brand is the quote, its total the
//   party's. For an itinerary typed by hand (`verify`), no such offer is NoSuchFlightError.
// Every amount is the whole order's: FareBack keeps a booking's totals (issue 23).
// - rebook: the request only names the booking; the order decides everything else.
//   1. Find the order again exactly as retrieval does (booking reference, family name, airline)
//      and refuse unless it is the order the request names (`sourceReference`) and still flies
//      the request's flights (BookingMismatchError; nothing is sent to change it). So another
//      customer's order id, or a request altered since retrieval, changes nothing.
//   2. POST /air/order_change_requests replacing the order's slices with the same flights on the
//      same dates, in the order's own cabin (the traveller's segment cabin_class), whatever
//      cabin the request names; GET /air/order_change_offers for that request.
//   3. Keep the offers on the order's flights, cabin and fare brand that lower the fare: a
//      change_total_amount of zero or less, and a new per-traveller total below both the price
//      paid and the order's own price, and at most maxPrice. Take the cheapest; none is
//      FareNoLongerAvailableError.
//   4. POST /air/order_changes; if the pending change costs anything after all, stop
//      (FareNoLongerAvailableError; an unconfirmed change expires on its own). Then POST
//      /air/order_changes/{id}/actions/confirm with no payment. A change that costs money is
//      never created or confirmed, so the Duffel balance never pays for one.
//   The credit is the refund (a negative change_total_amount, the traveller's share), and the
//   reference is the order change id.
// - rebookingOutcome (a rebook whose answer was lost): find the order again as in 1. If its
//   per-traveller total is now below the price paid, the change went through: the new price is
//   that total, the credit the difference less the traveller's share of the order's change
//   penalty, the reference the confirmed order change if the order lists its changes (`changes`,
//   read when Duffel sends it) and else the order id. Otherwise null: nothing happened.
//
// Failures: 429 and 5xx and dropped connections throw RetryableFareSourceError with the wait
// Duffel asked for (Retry-After, or ratelimit-reset against the response's Date); the resilience
// wrapper retries them. Duffel asks not to retry 500/502 because a request may have taken effect:
// the one call where that matters, the confirm, is never retried: a confirm that fails (429, 5xx,
// a dropped connection, an abort or timeout, an answer that cannot be read, or a confirmed change
// we fail to read) is RebookOutcomeUnknownError, and the caller asks rebookingOutcome. Every
// other failure in a rebook happens before anything changed. 401/403 are an outage (the token is
// wrong); 404 on an order is BookingNotFoundError; 422 'offer no longer available' or 'price
// changed' is FareNoLongerAvailableError; any other Duffel error is DuffelApiError, which keeps
// the error list and request id for the logs.
import { creditExpiryDate } from '../flights/rules.ts';
import { normalizeAirlineName } from './airline-names.ts';
import {
  BookingMismatchError,
  BookingNotChangeableError,
  BookingNotFoundError,
  RebookOutcomeUnknownError,
  FareNoLongerAvailableError,
  NoSuchFlightError,
  type FareQuote,
  type FareSource,
  type FareSourceCallOptions,
  FareSourceError,
  FareSourceUnavailableError,
  type Itinerary,
  type RebookRequest,
  type RebookResult,
  type RefundForm,
  RetryableFareSourceError,
  type RetrieveBookingRequest,
  type RetrievedBooking,
} from './types.ts';

export interface DuffelFareSourceOptions {
  accessToken: string;
  /** Default https://api.duffel.com. */
  apiUrl?: string;
  /** The clock for quotedAt, rebookedAt, credit expiry and ratelimit-reset waits. */
  now?: () => Date;
  fetch?: typeof fetch;
}

// ---- Duffel's shapes (the fields this client reads) ----

export interface DuffelErrorItem {
  type: string;
  title: string;
  message: string;
  code: string;
  documentation_url?: string;
  source?: { field?: string; pointer?: string };
}

interface DuffelPlace {
  iata_code: string;
  name?: string;
}

interface DuffelCarrier {
  iata_code: string;
  name: string;
}

interface DuffelSegment {
  id?: string;
  origin: DuffelPlace;
  destination: DuffelPlace;
  departing_at: string;
  arriving_at: string;
  marketing_carrier: DuffelCarrier;
  marketing_carrier_flight_number: string;
  passengers?: {
    passenger_id?: string;
    cabin_class?: string;
    cabin_class_marketing_name?: string;
    seat?: { designator: string } | null;
  }[];
}

interface DuffelSlice {
  id: string;
  origin: DuffelPlace;
  destination: DuffelPlace;
  fare_brand_name?: string | null;
  changeable?: boolean | null;
  segments: DuffelSegment[];
}

interface DuffelConditions {
  change_before_departure?: {
    allowed: boolean;
    penalty_amount?: string | null;
    penalty_currency?: string | null;
  } | null;
}

interface DuffelOrder {
  id: string;
  booking_reference: string;
  total_amount: string;
  total_currency: string;
  owner?: DuffelCarrier;
  passengers: { id: string; family_name: string; given_name?: string }[];
  slices: DuffelSlice[];
  conditions?: DuffelConditions;
  /** The order's confirmed changes, when Duffel lists them on the order. */
  changes?: { id: string; confirmed_at?: string | null }[] | null;
}

interface DuffelOffer {
  id: string;
  total_amount: string;
  total_currency: string;
  slices: DuffelSlice[];
  /** The fare's conditions: change_before_departure.penalty_amount is its change penalty. */
  conditions?: DuffelConditions;
}

/** Duffel's refund_to: credits and vouchers stay with the airline, the rest is money back. */
export function refundFormOf(refundTo: string | null | undefined): RefundForm {
  return refundTo === 'airline_credits' || refundTo === 'voucher' ? 'credit' : 'cash';
}

interface DuffelOrderChangeOffer {
  id: string;
  new_total_amount: string | null;
  new_total_currency: string;
  change_total_amount: string | null;
  change_total_currency: string | null;
  penalty_total_amount?: string | null;
  penalty_amount?: string | null;
  refund_to?: string | null;
  slices: { add: DuffelSlice[]; remove: DuffelSlice[] };
}

interface DuffelOrderChange extends DuffelOrderChangeOffer {
  order_id: string;
  confirmed_at: string | null;
}

/** A Duffel error that is not one of the typed outcomes: kept whole for the logs. */
export class DuffelApiError extends FareSourceError {
  constructor(
    readonly status: number,
    readonly errors: DuffelErrorItem[],
    readonly requestId: string | null,
  ) {
    super(
      `Duffel answered ${status}: ${errors.map((e) => `${e.code}: ${e.message}`).join('; ') || 'no error body'}` +
        (requestId ? ` (request ${requestId})` : ''),
    );
    this.name = 'DuffelApiError';
  }
}

// ---- money ----

/**
 * Duffel money strings ('123.45', '-30.2', '99') as integer cents, by string arithmetic so no
 * binary fraction creeps in. More than two decimals round half away from zero.
 */
export function moneyToCents(amount: string): number {
  const match = /^\s*(-)?(\d+)(?:\.(\d+))?\s*$/.exec(amount);
  if (!match) throw new FareSourceError(`Duffel sent an amount that is not a number: '${amount}'`);
  const [, minus, whole, fraction = ''] = match;
  let cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2));
  if (fraction.length > 2 && Number(fraction[2]) >= 5) cents += 1;
  return minus && cents !== 0 ? -cents : cents;
}

export function centsToMoney(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

// ---- waits Duffel asks for ----

/**
 * Milliseconds to wait from Retry-After (seconds or an HTTP date) or, for a 429, ratelimit-reset
 * (an HTTP date; Duffel sends it on every answer, where it only says when the window rolls over).
 */
export function retryAfterMs(headers: Headers, nowMs: number, rateLimited = true): number | null {
  const serverNow = Date.parse(headers.get('date') ?? '');
  const reference = Number.isNaN(serverNow) ? nowMs : serverNow;
  const retryAfter = headers.get('retry-after')?.trim();
  if (retryAfter) {
    if (/^\d+(\.\d+)?$/.test(retryAfter)) return Math.round(Number(retryAfter) * 1000);
    const at = Date.parse(retryAfter);
    if (!Number.isNaN(at)) return Math.max(0, at - reference);
  }
  const reset = rateLimited ? headers.get('ratelimit-reset')?.trim() : undefined;
  if (reset) {
    const at = Date.parse(reset);
    if (!Number.isNaN(at)) return Math.max(0, at - reference);
    if (/^\d+$/.test(reset)) {
      const value = Number(reset);
      // Some gateways send epoch seconds, others seconds to wait.
      return value > 1e9 ? Math.max(0, value * 1000 - reference) : value * 1000;
    }
  }
  return null;
}

// ---- mapping ----

const CABINS: Record<string, string> = {
  economy: 'Economy',
  premium_economy: 'Premium Economy',
  business: 'Business',
  first: 'First',
};

function duffelCabin(cabinClass: string | null): string | undefined {
  const cabin = (cabinClass ?? '').toLowerCase();
  if (!cabin) return undefined;
  if (cabin.includes('premium')) return 'premium_economy';
  if (cabin.includes('business')) return 'business';
  if (cabin.includes('first')) return 'first';
  return 'economy';
}

function flightOf(segment: DuffelSegment | undefined): string {
  return segment
    ? `${segment.marketing_carrier.iata_code}${segment.marketing_carrier_flight_number}`.toUpperCase()
    : '';
}

/** The fare brand the way retrieval records it: the slice's brand, else the cabin's marketing name. */
function brandOf(slice: DuffelSlice | undefined): string | null {
  return slice?.fare_brand_name ?? slice?.segments[0]?.passengers?.[0]?.cabin_class_marketing_name ?? null;
}

function foldName(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z]/gi, '')
    .toLowerCase();
}

function sameAirline(requested: string, carrier: DuffelCarrier | undefined): boolean {
  if (!carrier) return false;
  const wanted = requested.trim();
  if (wanted.toUpperCase() === carrier.iata_code.toUpperCase()) return true;
  return normalizeAirlineName(wanted) === normalizeAirlineName(carrier.name);
}

/** Does this slice fly the same marketing flight as the itinerary's, on the same day? */
function sameFlight(slice: DuffelSlice | undefined, flightNumber: string | null, date: string | null): boolean {
  if (!slice || !flightNumber) return false;
  const first = slice.segments[0];
  return (
    flightOf(first) === flightNumber.toUpperCase().replace(/\s+/g, '') &&
    (!date || first?.departing_at.slice(0, 10) === date)
  );
}

/** The flights an itinerary (or an order) is on: what a change must keep. */
type Flights = Pick<Itinerary, 'flightNumber' | 'departureDate' | 'returnFlightNumber' | 'returnDate'>;

function matchesItinerary(slices: DuffelSlice[], it: Flights): boolean {
  if (!sameFlight(slices[0], it.flightNumber, it.departureDate)) return false;
  if (it.returnFlightNumber) return sameFlight(slices[1], it.returnFlightNumber, it.returnDate);
  return slices.length === 1;
}

function sameBrand(slices: DuffelSlice[], fareType: string | null): boolean {
  if (!fareType) return true;
  return (brandOf(slices[0]) ?? '').toLowerCase() === fareType.toLowerCase();
}

/** Every segment of these slices is in this cabin for the passengers it lists. */
function sameCabin(slices: DuffelSlice[], cabin: string): boolean {
  return slices.every((slice) =>
    slice.segments.every((segment) =>
      (segment.passengers ?? []).every((p) => !p.cabin_class || p.cabin_class === cabin),
    ),
  );
}

/** The order's own flights, as retrieval reports them. */
function flightsOfOrder(order: DuffelOrder): Flights {
  const [outbound, inbound] = order.slices;
  return {
    flightNumber: flightOf(outbound?.segments[0]),
    departureDate: outbound?.segments[0]?.departing_at.slice(0, 10) ?? '',
    returnFlightNumber: inbound ? flightOf(inbound.segments[0]) : null,
    returnDate: inbound?.segments[0]?.departing_at.slice(0, 10) ?? null,
  };
}

function sameFlights(a: Flights, b: Flights): boolean {
  const flight = (value: string | null) => (value ?? '').toUpperCase().replace(/\s+/g, '');
  return (
    flight(a.flightNumber) === flight(b.flightNumber) &&
    a.departureDate === b.departureDate &&
    flight(a.returnFlightNumber) === flight(b.returnFlightNumber) &&
    (a.returnDate ?? null) === (b.returnDate ?? null)
  );
}

/** The order's own slices, to search again: same airports and dates. */
function slicesOfOrder(order: DuffelOrder) {
  return order.slices.map((slice) => ({
    origin: slice.origin.iata_code,
    destination: slice.destination.iata_code,
    departure_date: slice.segments[0]?.departing_at.slice(0, 10) ?? '',
  }));
}

function slicesRequested(it: Itinerary) {
  const slices = [{ origin: it.departureAirport, destination: it.arrivalAirport, departure_date: it.departureDate }];
  if (it.returnDate) {
    slices.push({ origin: it.arrivalAirport, destination: it.departureAirport, departure_date: it.returnDate });
  }
  return slices;
}

/** The parsed body, or null for an empty one or a gateway's HTML error page. */
function parseJson<T>(text: string): T | null {
  try {
    return text ? (JSON.parse(text) as T) : null;
  } catch {
    return null;
  }
}

// ---- the client ----

type Phase = 'read' | 'confirm';

export function createDuffelFareSource(options: DuffelFareSourceOptions): FareSource {
  const baseUrl = (options.apiUrl ?? 'https://api.duffel.com').replace(/\/+$/, '');
  const now = options.now ?? (() => new Date());
  const doFetch = options.fetch ?? fetch;

  async function call<T>(
    method: 'GET' | 'POST',
    path: string,
    init: { body?: unknown; signal?: AbortSignal; phase?: Phase; notFound?: () => Error } = {},
  ): Promise<T> {
    let response: Response;
    try {
      response = await doFetch(`${baseUrl}${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${options.accessToken}`,
          'Duffel-Version': 'v2',
          Accept: 'application/json',
          ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: init.body === undefined ? undefined : JSON.stringify({ data: init.body }),
        signal: init.signal,
      });
    } catch (error) {
      const reason = init.signal?.aborted ? (init.signal.reason ?? error) : error;
      if (init.phase === 'confirm') throw confirmUnknown(reason);
      if (init.signal?.aborted) throw reason;
      throw new RetryableFareSourceError('Could not reach Duffel', null, null, { cause: error });
    }
    const text = await response.text().catch(() => '');
    const json = parseJson<{ data?: T; errors?: DuffelErrorItem[]; meta?: { request_id?: string } }>(text);
    if (response.ok) {
      if (!json || json.data === undefined) {
        const unreadable = new DuffelApiError(response.status, [], null);
        if (init.phase === 'confirm') throw confirmUnknown(unreadable);
        throw unreadable;
      }
      return json.data;
    }
    const errors = Array.isArray(json?.errors) ? json.errors : [];
    const apiError = new DuffelApiError(response.status, errors, json?.meta?.request_id ?? null);
    const status = response.status;
    if (status === 429 || status >= 500) {
      if (init.phase === 'confirm') throw confirmUnknown(apiError);
      const wait = retryAfterMs(response.headers, now().getTime(), status === 429);
      throw new RetryableFareSourceError(apiError.message, status, wait, { cause: apiError });
    }
    if (status === 401 || status === 403) throw new FareSourceUnavailableError(undefined, { cause: apiError });
    if (status === 404 && init.notFound) throw init.notFound();
    const codes = errors.map((e) => e.code);
    if (codes.some((code) => /offer_no_longer_available|price_changed|offer_expired|order_change_offer/.test(code))) {
      throw new FareNoLongerAvailableError();
    }
    throw apiError;
  }

  /** After a confirm we could not read, the change may have happened: never retried, never guessed. */
  function confirmUnknown(cause: unknown): RebookOutcomeUnknownError {
    return new RebookOutcomeUnknownError(undefined, { cause });
  }

  /** Every order with this booking reference, airline and family name, as retrieval matches them. */
  async function matchingOrders(request: RetrieveBookingRequest, signal?: AbortSignal) {
    const reference = request.bookingCode.trim().toUpperCase();
    const orders = await call<DuffelOrder[]>('GET', `/air/orders?booking_reference=${encodeURIComponent(reference)}`, {
      signal,
    });
    const family = foldName(request.passengerLastName);
    const found: { order: DuffelOrder; passenger: DuffelOrder['passengers'][number] }[] = [];
    for (const order of orders) {
      if (order.booking_reference.toUpperCase() !== reference) continue;
      const carrier = order.owner ?? order.slices[0]?.segments[0]?.marketing_carrier;
      if (!sameAirline(request.airline, carrier)) continue;
      const passenger = order.passengers.find((p) => foldName(p.family_name) === family);
      if (passenger) found.push({ order, passenger });
    }
    return found;
  }

  async function findOrder(request: RetrieveBookingRequest, signal?: AbortSignal) {
    const [first] = await matchingOrders(request, signal);
    if (!first) throw new BookingNotFoundError();
    return first;
  }

  /**
   * The order a rebooking names, found again by booking code, last name and airline as retrieval
   * finds it, and only when it is the order retrieval returned. A request naming another order
   * (someone else's, or a forged id) finds nothing to change.
   */
  async function orderNamedBy(booking: RebookRequest['booking'], signal?: AbortSignal) {
    if (!booking.sourceReference) throw new BookingMismatchError();
    const found = await matchingOrders(
      { airline: booking.airline, bookingCode: booking.bookingCode, passengerLastName: booking.passengerLastName },
      signal,
    );
    if (found.length === 0) throw new BookingNotFoundError();
    const named = found.find(({ order }) => order.id === booking.sourceReference);
    if (!named) throw new BookingMismatchError();
    return named;
  }

  /** The cabin the traveller holds on the order (their first segment's cabin_class). */
  function cabinOf(order: DuffelOrder, passengerId: string): string {
    const first = order.slices[0]?.segments[0];
    const mine = first?.passengers?.find((p) => p.passenger_id === passengerId) ?? first?.passengers?.[0];
    if (!mine?.cabin_class)
      throw new BookingNotChangeableError('The airline does not say which cabin this booking is in.');
    return mine.cabin_class;
  }

  return {
    name: 'duffel',

    async retrieveBooking(
      request: RetrieveBookingRequest,
      callOptions?: FareSourceCallOptions,
    ): Promise<RetrievedBooking> {
      const { order, passenger } = await findOrder(request, callOptions?.signal);
      const outbound = order.slices[0];
      const first = outbound?.segments[0];
      const last = outbound?.segments.at(-1);
      if (!outbound || !first || !last) throw new DuffelApiError(200, [], null);
      const inbound = order.slices[1];
      const mine = first.passengers?.find((p) => p.passenger_id === passenger.id) ?? first.passengers?.[0];
      const carrier = first.marketing_carrier;
      return {
        airline: order.owner?.name ?? carrier.name,
        airlineCode: carrier.iata_code,
        bookingCode: order.booking_reference.toUpperCase(),
        passengerLastName: passenger.family_name,
        flightNumber: flightOf(first),
        departureAirport: outbound.origin.iata_code,
        arrivalAirport: outbound.destination.iata_code,
        departureDate: first.departing_at.slice(0, 10),
        departureTime: first.departing_at.slice(11, 16) || null,
        arrivalTime: last.arriving_at.slice(11, 16) || null,
        isRoundTrip: inbound !== undefined,
        returnFlightNumber: inbound ? flightOf(inbound.segments[0]) : null,
        returnDate: inbound?.segments[0]?.departing_at.slice(0, 10) ?? null,
        cabinClass: CABINS[mine?.cabin_class ?? ''] ?? mine?.cabin_class_marketing_name ?? 'Economy',
        seatNumber: mine?.seat?.designator ?? null,
        fareType: brandOf(outbound) ?? 'Economy',
        fareChangeable: order.conditions?.change_before_departure?.allowed === true,
        pricePaid: moneyToCents(order.total_amount),
        currency: order.total_currency,
        passengerCount: order.passengers.length,
        rebookingMethod: 'source',
        sourceReference: order.id,
      };
    },

    async quote(itinerary: Itinerary, callOptions?: FareSourceCallOptions): Promise<FareQuote> {
      const request = await call<{ id: string; offers?: DuffelOffer[] }>(
        'POST',
        '/air/offer_requests?return_offers=true',
        {
          signal: callOptions?.signal,
          body: {
            slices: slicesRequested(itinerary),
            passengers: Array.from({ length: Math.min(9, Math.max(1, itinerary.passengers ?? 1)) }, () => ({
              type: 'adult',
            })),
            cabin_class: duffelCabin(itinerary.cabinClass),
          },
        },
      );
      const matching = (request.offers ?? [])
        .filter((offer) => offer.total_currency === itinerary.currency || !itinerary.currency)
        .filter((offer) => matchesItinerary(offer.slices, itinerary) && sameBrand(offer.slices, itinerary.fareType))
        .sort((a, b) => moneyToCents(a.total_amount) - moneyToCents(b.total_amount));
      const best = matching[0];
      if (!best && itinerary.verify) {
        throw new NoSuchFlightError(
          'flightNumber',
          `We could not find flight ${itinerary.flightNumber.toUpperCase()} from ${itinerary.departureAirport} to ${itinerary.arrivalAirport} on ${itinerary.departureDate}. Check the flight number, date and airports.`,
        );
      }
      if (!best) throw new FareNoLongerAvailableError('This flight and fare are no longer on sale.');
      // The fare's change penalty as its conditions state it (the same brand as the booking's);
      // the change offers a rebook asks for then carry the penalty actually charged.
      const change = best.conditions?.change_before_departure;
      const penalty =
        change?.allowed === true &&
        change.penalty_amount != null &&
        (change.penalty_currency ?? best.total_currency) === best.total_currency
          ? moneyToCents(change.penalty_amount)
          : null;
      return {
        price: moneyToCents(best.total_amount),
        currency: best.total_currency,
        quotedAt: now().toISOString(),
        offerId: best.id,
        changePenalty: penalty,
        refundForm: null,
      };
    },

    async rebook(request: RebookRequest, callOptions?: FareSourceCallOptions): Promise<RebookResult> {
      const signal = callOptions?.signal;
      const booking = request.booking;
      const { order, passenger } = await orderNamedBy(booking, signal);
      const flights = flightsOfOrder(order);
      if (!sameFlights(flights, booking)) throw new BookingMismatchError();
      if (order.conditions?.change_before_departure?.allowed !== true) throw new BookingNotChangeableError();
      // The order's own cabin and fare brand, never what the request names.
      const cabin = cabinOf(order, passenger.id);
      const brand = brandOf(order.slices[0]);
      const currency = order.total_currency;
      const orderPrice = moneyToCents(order.total_amount);
      // A rebooking lowers the fare: below what was paid (as retrieved, and as the order stands
      // now) and never above the fare the traveller saw.
      const ceiling = Math.min(request.maxPrice, request.pricePaid - 1, orderPrice - 1);

      const changeRequest = await call<{ id: string }>('POST', '/air/order_change_requests', {
        signal,
        body: {
          order_id: order.id,
          slices: {
            remove: order.slices.map((slice) => ({ slice_id: slice.id })),
            add: slicesOfOrder(order).map((slice) => ({ ...slice, cabin_class: cabin })),
          },
        },
      });
      const offers = await call<DuffelOrderChangeOffer[]>(
        'GET',
        `/air/order_change_offers?order_change_request_id=${encodeURIComponent(changeRequest.id)}`,
        { signal },
      );
      const chosen = offers
        .filter(
          (offer) =>
            offer.new_total_amount !== null &&
            offer.change_total_amount !== null &&
            offer.new_total_currency === currency &&
            (offer.change_total_currency ?? currency) === currency &&
            matchesItinerary(offer.slices.add, flights) &&
            sameCabin(offer.slices.add, cabin) &&
            sameBrand(offer.slices.add, brand),
        )
        .map((offer) => {
          const price = moneyToCents(offer.new_total_amount as string);
          const change = moneyToCents(offer.change_total_amount as string);
          const penalty = moneyToCents(offer.penalty_total_amount ?? offer.penalty_amount ?? '0');
          // what the traveller gets back after the change offer's penalty
          const credit = change < 0 ? -change : orderPrice - price - penalty;
          return { offer, price, change, credit };
        })
        .filter(
          (candidate) =>
            candidate.change <= 0 &&
            candidate.price <= ceiling &&
            candidate.credit >= Math.max(1, request.minCredit ?? 1),
        )
        .sort((a, b) => a.price - b.price)[0];
      if (!chosen) throw new FareNoLongerAvailableError();

      const pending = await call<DuffelOrderChange>('POST', '/air/order_changes', {
        signal,
        body: { selected_order_change_offer: chosen.offer.id },
      });
      if (pending.order_id && pending.order_id !== order.id) throw new BookingMismatchError();
      const change = moneyToCents(pending.change_total_amount ?? (chosen.offer.change_total_amount as string));
      const pendingPrice = pending.new_total_amount ? moneyToCents(pending.new_total_amount) : chosen.price;
      // Repriced between the offer and the change: a change that costs money is never confirmed.
      if (change > 0 || pendingPrice > ceiling) throw new FareNoLongerAvailableError();

      const confirmed = await call<DuffelOrderChange>(
        'POST',
        `/air/order_changes/${encodeURIComponent(pending.id)}/actions/confirm`,
        { signal, phase: 'confirm', body: {} },
      );
      try {
        const confirmedChange =
          confirmed.change_total_amount != null ? moneyToCents(confirmed.change_total_amount) : change;
        const penalty = moneyToCents(confirmed.penalty_total_amount ?? confirmed.penalty_amount ?? '0');
        const newPrice = confirmed.new_total_amount ? moneyToCents(confirmed.new_total_amount) : pendingPrice;
        // The credit is what the airline gives back: the refund of a negative change, else what the
        // lower fare saves on the order's price after the penalty.
        const refund = confirmedChange < 0 ? -confirmedChange : 0;
        const airlineCredit = refund > 0 ? refund : Math.max(0, orderPrice - newPrice - penalty);
        const at = now();
        return {
          newPrice,
          currency: confirmed.new_total_currency ?? currency,
          airlineCredit,
          creditReference: confirmed.id ?? pending.id,
          creditExpiryDate: creditExpiryDate(at),
          seatNumber: booking.seatNumber,
          rebookedAt: (confirmed.confirmed_at ? new Date(confirmed.confirmed_at) : at).toISOString(),
          changePenalty: penalty,
          refundForm: refundFormOf(confirmed.refund_to ?? chosen.offer.refund_to),
        };
      } catch (error) {
        // Confirmed, but the answer cannot be read: the change is made and must not be retried.
        throw confirmUnknown(error);
      }
    },

    async rebookingOutcome(request: RebookRequest, callOptions?: FareSourceCallOptions): Promise<RebookResult | null> {
      const { order } = await orderNamedBy(request.booking, callOptions?.signal);
      // Our change keeps the flights; an order on other flights was changed by someone else.
      if (!sameFlights(flightsOfOrder(order), request.booking)) throw new BookingMismatchError();
      const nowPaying = moneyToCents(order.total_amount);
      // The order still costs what was paid: no change went through.
      if (nowPaying >= request.pricePaid) return null;
      const penalty = moneyToCents(order.conditions?.change_before_departure?.penalty_amount ?? '0');
      const change = (order.changes ?? []).filter((c) => c.confirmed_at).at(-1) ?? null;
      const at = now();
      return {
        newPrice: nowPaying,
        currency: order.total_currency,
        airlineCredit: Math.max(0, request.pricePaid - nowPaying - penalty),
        creditReference: change?.id ?? order.id,
        creditExpiryDate: creditExpiryDate(at),
        seatNumber: request.booking.seatNumber,
        rebookedAt: (change?.confirmed_at ? new Date(change.confirmed_at) : at).toISOString(),
      };
    },
  };
}
