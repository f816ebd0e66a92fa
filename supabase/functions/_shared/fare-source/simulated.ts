// The simulated fare source: the default, and what tests, demos and benchmarks run against. It
// talks to nothing; every answer is computed from its inputs, so a run repeats exactly.
//
// Model
// - Retrieval: a booking is a pure function of (airline, booking code, 28-day period of `now()`).
//   The code's hash picks a route between real airports the airline serves (hubs and focus
//   cities), an even flight number with the airline's IATA prefix (the return flight is the next,
//   odd number, as airlines pair them), a departure 6 to 19 weeks after the start of the current
//   28-day period (so always 2 to 20 weeks ahead of `now()`), a local departure time, the arrival
//   time from the great-circle distance and both airports' time zones, a round trip for 40% of codes
//   (return 3 to 14 days later), the fare type, cabin and seat. About 20% of bookings are Basic
//   Economy (not changeable, no seat assigned half the time); the rest are spread over
//   Flexible/Refundable Economy, and Premium Economy, Business and First Class where the airline
//   sells them. Southwest has open seating (no seat). Prices are USD cents.
// - Fares: an itinerary's base fare comes from the itinerary alone (airline, route, flight, date,
//   cabin and fare type, round trip), so two travellers on the same itinerary always get the same
//   quote whatever their booking codes; it grows with distance and by fare type (Basic 0.78x,
//   Refundable 1.45x, Premium Economy 1.65x, Business 3.2x, First 4.6x a flexible economy
//   fare; a round trip 1.9x). The quote is the base times a drift factor that is a
//   function of itineraryKey() and the clock bucket (6 hours of `now()` by default): a daily level
//   interpolated across the day's buckets plus a small per-bucket wobble, within about +-15%.
//   The price paid is the base times a per-booking factor of 0.90 to 1.02, so roughly a third of
//   checks find a fare below it and fares cross back and forth as buckets pass.
// - Booking reference: every retrieved booking carries sourceReference 'SIM-' and 16 hex digits,
//   a hash of what identifies and prices it (airline code, booking code, folded last name,
//   flights, dates, airports, cabin, fare type, currency, price paid; simulatedSourceReference).
//   It does not depend on the clock, so a kept retrieval stays valid after the 28-day period
//   rolls over.
// - Rebooking: this source can change its own bookings (rebookingMethod 'source'). A rebook
//   first checks that the request's sourceReference is the one its own booking fields give, so a
//   request whose fields were altered (a forged price paid, another fare type, another booking)
//   is refused (BookingMismatchError). It re-quotes (the rebooking's own re-check at the source,
//   as Duffel's change offer is requested anew: a fare gone since the drop was confirmed is not
//   booked); above `maxPrice`, or not below the price
//   paid, it refuses (FareNoLongerAvailableError); a non-changeable fare or a DIRECT booking is
//   refused (BookingNotChangeableError). Otherwise the new price is the quote, the airline credit
//   is price paid minus new price, the credit reference looks like 'UA-CR-7Q2K9D' (deterministic
//   from the booking and bucket), the credit expires one year out, and the seat is kept.
// - Change penalties (what the quote reports and a rebook deducts from the credit): Refundable
//   Economy changes free and the difference comes back as cash; every other changeable fare
//   returns airline credit. US carriers charge no change fee since 2020; the international
//   carriers here (AC, BA, LH, AF, EK, QR, SQ, JL) charge $150 on Flexible Economy, $200 on
//   Premium Economy and $250 on Business, nothing on First. A rebook whose credit after the
//   penalty would be below the request's minCredit (default 1 cent) is refused.
// - rebookingOutcome: always null. A rebook here changes nothing anywhere until it answers (it
//   computes its answer and keeps no state), so a rebooking whose answer was lost did not happen.
//   The reference has no secret in it: it catches a request assembled from anything but the
//   retrieval (a flight row, an edited field), not a caller who can compute hashes; the api keeps
//   the retrieval where users cannot write it.
//
// Test controls, by booking-code prefix (codes are upper-case letters and digits, up to 20), so a
// test that drives a running server over HTTP can steer it:
//   DIRECT...    a ticket bought directly from the airline: retrieval answers rebookingMethod
//                'assisted' and rebook refuses (BookingNotChangeableError); the traveller changes
//                it with the airline. Combines with the others: DIRECTDROP1, DIRECTBASIC1.
//   BASIC...     Basic Economy fare (not changeable); may be combined: BASICDROP1, BASICRISE1.
//   DROP...      the price paid is the base fare and every quote is 20% below it.
//   RISE...      the price paid is the base fare and every quote is 15-20% above it.
//   GHOST...     a ghost fare: the price paid is the base fare, and the first quote of the
//                itinerary this source instance gives is 20% below it; every later quote (the
//                second quote that would confirm the drop, a rebooking's re-check) is 2% above
//                it. The one control with memory: the instance keeps the itineraries whose dip
//                it has shown (a fresh instance, e.g. a restarted api, shows the dip once more).
//   FAIL..., DOWN...   every call for the booking fails with FareSourceUnavailableError.
//   OUTAGE...    retrieval works; every quote and rebook then fails with FareSourceUnavailableError.
//   NOTFOUND..., NONE...   retrieval fails with BookingNotFoundError.
//   CANCEL...    the airline cancelled the flight: quotes and rebooks fail with FlightCancelledError.
//   ...FEE (after the words above: DROPFEE1)   the fare carries a change penalty of 15% of its
//                base fare, so a 20% drop nets only about 5%.
//   SEATS2...    the price paid is the base fare, and a fare 20% below it has two seats left: a
//                quote for one or two passengers finds it, a quote for three or more does not (the
//                party's fare stays at the base), so a one- or two-seat drop never alerts a party
//                of three.
//   ...PARTY<n> (last, after the words above: SEATS2PARTY3, DROPPARTY4)   the booking is for n
//                passengers (1-9); without it a booking is for one.
// The party: a booking's price paid and every quote are totals for all its passengers (the
// itinerary's `passengers`, one when absent): n times the one-passenger fare.
// Itineraries typed by hand (the manual path's verifying quote, `verify`): for an airline this source
// knows, a flight number outside the airline's range, or a route that touches none of its hubs,
// is no such flight (NoSuchFlightError on flightNumber or route); a date more than 330 days ahead
// is not yet on sale (departureDate). Flights of other airlines are quoted as they are.
// DROP, RISE, OUTAGE, SEATS2 and GHOST bookings also carry the control in their outbound flight
// number (9900-9928 DROP, 9930-9958 RISE, 9960-9988 OUTAGE, 9840-9870 SEATS2, 9800-9830 GHOST; other
// bookings never get numbers above 4999), so a quote of that itinerary obeys the control even when
// the caller does not pass the booking code.
//
// Failure: only through the controls above, and BookingMismatchError for a rebook whose request
// is not the booking retrieval returned; `latencyMs` delays every call, as a real API would.
import { localToUtcMillis, formatAtAirport } from '../extraction/airports.ts';
import { creditExpiryDate, isEligibleFareType } from '../flights/rules.ts';
import { normalizeAirlineName } from './airline-names.ts';
import {
  BookingMismatchError,
  BookingNotChangeableError,
  BookingNotFoundError,
  type FareQuote,
  type FareSource,
  FareSourceUnavailableError,
  FareNoLongerAvailableError,
  FlightCancelledError,
  type Itinerary,
  itineraryKey,
  NoSuchFlightError,
  type RebookRequest,
  type RebookResult,
  type RefundForm,
  type RetrieveBookingRequest,
  type RetrievedBooking,
} from './types.ts';

export interface SimulatedFareSourceOptions {
  /** The clock; buckets and departure dates follow it. Default: the system clock. */
  now?: () => Date;
  /** Added to every call, as a network round trip would be (SIMULATED_FARE_LATENCY_MS). */
  latencyMs?: number;
  /** Length of a fare bucket: quotes are constant within one. Default 6 hours. */
  bucketHours?: number;
  /** How latency is waited for; tests may pass a fake. */
  sleep?: (ms: number) => Promise<void>;
}

// ---- deterministic randomness ----

/** 32-bit FNV-1a, finished with murmur3's avalanche so nearby strings spread out. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A number in [0, 1) fixed by the parts. */
function unit(...parts: (string | number)[]): number {
  return hash32(parts.join('\u0001')) / 2 ** 32;
}

function pick<T>(items: readonly T[], ...parts: (string | number)[]): T {
  return items[Math.floor(unit(...parts) * items.length)] as T;
}

function intBetween(min: number, maxExclusive: number, ...parts: (string | number)[]): number {
  return min + Math.floor(unit(...parts) * (maxExclusive - min));
}

function foldName(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z]/gi, '')
    .toLowerCase();
}

// ---- airports and airlines ----

interface Airport {
  zone: string;
  lat: number;
  lon: number;
}

/** Airports the simulated airlines fly: IATA code, IANA zone (arrival times), position (distance). */
const AIRPORTS: Record<string, Airport> = Object.fromEntries(
  [
    'ATL America/New_York 33.64 -84.43|BOS America/New_York 42.36 -71.01|BWI America/New_York 39.18 -76.67',
    'CLT America/New_York 35.21 -80.94|DCA America/New_York 38.85 -77.04|IAD America/New_York 38.95 -77.46',
    'DTW America/Detroit 42.21 -83.35|EWR America/New_York 40.69 -74.17|JFK America/New_York 40.64 -73.78',
    'LGA America/New_York 40.78 -73.87|MCO America/New_York 28.43 -81.31|FLL America/New_York 26.07 -80.15',
    'MIA America/New_York 25.79 -80.29|PHL America/New_York 39.87 -75.24|TPA America/New_York 27.98 -82.53',
    'SFB America/New_York 28.78 -81.24|PIE America/New_York 27.91 -82.69|RDU America/New_York 35.88 -78.79',
    'SJU America/Puerto_Rico 18.44 -66.00|ORD America/Chicago 41.98 -87.90|MDW America/Chicago 41.79 -87.75',
    'DFW America/Chicago 32.90 -97.04|DAL America/Chicago 32.85 -96.85|IAH America/Chicago 29.99 -95.34',
    'HOU America/Chicago 29.65 -95.28|MSP America/Chicago 44.88 -93.22|AUS America/Chicago 30.19 -97.67',
    'MSY America/Chicago 29.99 -90.26|BNA America/Chicago 36.12 -86.68|DEN America/Denver 39.86 -104.67',
    'SLC America/Denver 40.79 -111.98|PHX America/Phoenix 33.43 -112.01|AZA America/Phoenix 33.31 -111.66',
    'LAS America/Los_Angeles 36.08 -115.15|LAX America/Los_Angeles 33.94 -118.41|SFO America/Los_Angeles 37.62 -122.38',
    'SAN America/Los_Angeles 32.73 -117.19|OAK America/Los_Angeles 37.72 -122.22|SEA America/Los_Angeles 47.45 -122.31',
    'PDX America/Los_Angeles 45.59 -122.60|ANC America/Anchorage 61.17 -150.00|HNL Pacific/Honolulu 21.32 -157.92',
    'OGG Pacific/Honolulu 20.90 -156.43|KOA Pacific/Honolulu 19.74 -156.05|YYZ America/Toronto 43.68 -79.63',
    'YUL America/Toronto 45.47 -73.74|YVR America/Vancouver 49.19 -123.18|LHR Europe/London 51.47 -0.45',
    'CDG Europe/Paris 49.01 2.55|FRA Europe/Berlin 50.03 8.56|MUC Europe/Berlin 48.35 11.79',
    'DXB Asia/Dubai 25.25 55.36|DOH Asia/Qatar 25.27 51.61|SIN Asia/Singapore 1.36 103.99',
    'HND Asia/Tokyo 35.55 139.78|NRT Asia/Tokyo 35.77 140.39',
  ]
    .join('|')
    .split('|')
    .map((row) => {
      const [code, zone, lat, lon] = row.split(' ') as [string, string, string, string];
      return [code, { zone, lat: Number(lat), lon: Number(lon) }];
    }),
);

/** Great-circle distance in km; unknown airports (flights imported from email) count as 1,500 km. */
function distanceKm(from: string, to: string): number {
  const a = AIRPORTS[from];
  const b = AIRPORTS[to];
  if (!a || !b) return 1500;
  const rad = Math.PI / 180;
  const h =
    Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 +
    Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(((b.lon - a.lon) * rad) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

export const SIMULATED_AIRPORTS: readonly string[] = Object.keys(AIRPORTS);

const FULL_SERVICE = [
  'Basic Economy',
  'Flexible Economy',
  'Refundable Economy',
  'Premium Economy',
  'Business Class',
  'First Class',
] as const;
const NO_FIRST = ['Basic Economy', 'Flexible Economy', 'Refundable Economy', 'Premium Economy', 'Business Class'];
const ECONOMY_ONLY = ['Basic Economy', 'Flexible Economy', 'Refundable Economy'];

interface SimulatedAirline {
  code: string;
  name: string;
  /** Every route touches a hub. */
  hubs: string[];
  destinations: string[];
  /** Fare types sold, Basic Economy first. */
  fares: readonly string[];
  /** Range of outbound flight numbers. */
  flightNumbers: [number, number];
  /** Open seating: no seat numbers. */
  openSeating?: boolean;
}

const US_GATEWAYS = ['JFK', 'ORD', 'LAX', 'SFO', 'IAD', 'BOS', 'MIA', 'SEA', 'DFW', 'IAH'];

/** The manual form's airlines (constants MANUAL_ENTRY_AIRLINES) and the dashboard's others. */
const AIRLINES: SimulatedAirline[] = [
  {
    code: 'UA',
    name: 'United Airlines',
    hubs: ['ORD', 'DEN', 'IAH', 'EWR', 'SFO', 'IAD', 'LAX'],
    destinations: ['BOS', 'SEA', 'MCO', 'LAS', 'PHX', 'ATL', 'MIA', 'AUS', 'HNL'],
    fares: FULL_SERVICE,
    flightNumbers: [100, 2999],
  },
  {
    code: 'AA',
    name: 'American Airlines',
    hubs: ['DFW', 'CLT', 'ORD', 'PHX', 'MIA', 'PHL', 'LAX', 'JFK', 'DCA'],
    destinations: ['BOS', 'LAS', 'SEA', 'MCO', 'AUS', 'SAN', 'SJU'],
    fares: FULL_SERVICE,
    flightNumbers: [100, 2999],
  },
  {
    code: 'DL',
    name: 'Delta Air Lines',
    hubs: ['ATL', 'DTW', 'MSP', 'SLC', 'JFK', 'LAX', 'SEA', 'BOS', 'LGA'],
    destinations: ['MCO', 'LAS', 'SFO', 'MIA', 'AUS', 'RDU', 'TPA'],
    fares: FULL_SERVICE,
    flightNumbers: [100, 2999],
  },
  {
    code: 'WN',
    name: 'Southwest Airlines',
    hubs: ['DAL', 'MDW', 'BWI', 'LAS', 'DEN', 'PHX', 'HOU', 'OAK'],
    destinations: ['MCO', 'SAN', 'AUS', 'BNA', 'MSY', 'TPA'],
    fares: ECONOMY_ONLY,
    flightNumbers: [100, 4999],
    openSeating: true,
  },
  {
    code: 'B6',
    name: 'JetBlue Airways',
    hubs: ['JFK', 'BOS', 'FLL', 'MCO'],
    destinations: ['LAX', 'SFO', 'SJU', 'LAS', 'TPA'],
    fares: NO_FIRST,
    flightNumbers: [100, 2999],
  },
  {
    code: 'AS',
    name: 'Alaska Airlines',
    hubs: ['SEA', 'PDX', 'ANC', 'SFO', 'LAX'],
    destinations: ['SAN', 'LAS', 'BOS', 'JFK', 'HNL', 'OGG'],
    fares: FULL_SERVICE,
    flightNumbers: [100, 1999],
  },
  {
    code: 'NK',
    name: 'Spirit Airlines',
    hubs: ['FLL', 'LAS', 'MCO', 'DTW'],
    destinations: ['ATL', 'LAX', 'EWR', 'DFW'],
    fares: ECONOMY_ONLY,
    flightNumbers: [100, 3999],
  },
  {
    code: 'F9',
    name: 'Frontier Airlines',
    hubs: ['DEN', 'LAS', 'MCO', 'PHL'],
    destinations: ['ATL', 'PHX', 'DFW', 'MIA'],
    fares: ECONOMY_ONLY,
    flightNumbers: [100, 3999],
  },
  {
    code: 'HA',
    name: 'Hawaiian Airlines',
    hubs: ['HNL', 'OGG', 'KOA'],
    destinations: ['LAX', 'SFO', 'SEA', 'SAN', 'LAS'],
    fares: FULL_SERVICE,
    flightNumbers: [100, 999],
  },
  {
    code: 'G4',
    name: 'Allegiant Air',
    hubs: ['LAS', 'SFB', 'AZA', 'PIE'],
    destinations: ['BNA', 'AUS', 'MSY'],
    fares: ECONOMY_ONLY,
    flightNumbers: [100, 2999],
  },
  {
    code: 'AC',
    name: 'Air Canada',
    hubs: ['YYZ', 'YVR', 'YUL'],
    destinations: [...US_GATEWAYS, 'LHR'],
    fares: NO_FIRST,
    flightNumbers: [100, 999],
  },
  {
    code: 'BA',
    name: 'British Airways',
    hubs: ['LHR'],
    destinations: US_GATEWAYS,
    fares: FULL_SERVICE,
    flightNumbers: [1, 299],
  },
  {
    code: 'LH',
    name: 'Lufthansa',
    hubs: ['FRA', 'MUC'],
    destinations: US_GATEWAYS,
    fares: FULL_SERVICE,
    flightNumbers: [400, 499],
  },
  { code: 'AF', name: 'Air France', hubs: ['CDG'], destinations: US_GATEWAYS, fares: NO_FIRST, flightNumbers: [1, 99] },
  {
    code: 'EK',
    name: 'Emirates',
    hubs: ['DXB'],
    destinations: US_GATEWAYS,
    fares: FULL_SERVICE,
    flightNumbers: [200, 249],
  },
  {
    code: 'QR',
    name: 'Qatar Airways',
    hubs: ['DOH'],
    destinations: US_GATEWAYS,
    fares: NO_FIRST,
    flightNumbers: [700, 799],
  },
  {
    code: 'SQ',
    name: 'Singapore Airlines',
    hubs: ['SIN'],
    destinations: ['SFO', 'LAX', 'JFK', 'SEA', 'EWR'],
    fares: FULL_SERVICE,
    flightNumbers: [1, 39],
  },
  {
    code: 'JL',
    name: 'Japan Airlines',
    hubs: ['HND', 'NRT'],
    destinations: US_GATEWAYS,
    fares: FULL_SERVICE,
    flightNumbers: [1, 99],
  },
];

const BY_CODE = new Map(AIRLINES.map((airline) => [airline.code, airline]));
const BY_NAME = new Map(AIRLINES.map((airline) => [normalizeAirlineName(airline.name), airline]));

/** The airline by display name ('United Airlines', 'United') or IATA code ('UA'). */
export function simulatedAirline(nameOrCode: string): SimulatedAirline | null {
  const trimmed = nameOrCode.trim();
  return BY_CODE.get(trimmed.toUpperCase()) ?? BY_NAME.get(normalizeAirlineName(trimmed)) ?? null;
}

// ---- the booking reference ----

/** What the simulated reference is derived from: a booking as retrieval returned it. */
export type SimulatedBookingFields = Itinerary & { bookingCode: string; passengerLastName: string };

/**
 * The sourceReference the simulated source gives a booking: 'SIM-' and 16 hex digits, fixed by
 * the airline, booking code, last name (without case, accents or punctuation), flights, dates,
 * airports, cabin, fare type, currency and the price paid. Two requests describing the same
 * booking get the same reference; changing any of those fields changes it.
 */
export function simulatedSourceReference(booking: SimulatedBookingFields, pricePaid: number): string {
  const flight = (value: string | null) => (value ?? '').toUpperCase().replace(/\s+/g, '');
  const text = [
    simulatedAirline(booking.airline)?.code ?? booking.airline.trim().toUpperCase(),
    booking.bookingCode.trim().toUpperCase(),
    foldName(booking.passengerLastName),
    flight(booking.flightNumber),
    booking.departureDate,
    booking.departureAirport.toUpperCase(),
    booking.arrivalAirport.toUpperCase(),
    flight(booking.returnFlightNumber),
    booking.returnDate ?? '',
    (booking.cabinClass ?? '').trim().toLowerCase(),
    (booking.fareType ?? '').trim().toLowerCase(),
    booking.currency.toUpperCase(),
    String(pricePaid),
  ].join('|');
  const hex = (salt: string) => hash32(`${salt}|${text}`).toString(16).toUpperCase().padStart(8, '0');
  return `SIM-${hex('sim-ref-a')}${hex('sim-ref-b')}`;
}

// ---- fares ----

const CABIN_OF_FARE: Record<string, string> = {
  'basic economy': 'Economy',
  'flexible economy': 'Economy',
  'refundable economy': 'Economy',
  'premium economy': 'Premium Economy',
  'business class': 'Business',
  'first class': 'First',
};

/** Price of a fare type relative to a flexible economy ticket on the same flight. */
function fareMultiplier(fareType: string | null, cabinClass: string | null): number {
  const fare = `${fareType ?? ''} ${cabinClass ?? ''}`.toLowerCase();
  if (/first/.test(fare)) return 4.6;
  if (/business/.test(fare)) return 3.2;
  if (/premium/.test(fare)) return 1.65;
  if (/refundable/.test(fare) && !/non/.test(fare)) return 1.45;
  if (/basic|light|lite|saver/.test(fare)) return 0.78;
  return 1;
}

/** Block time: taxi and climb plus cruise at about 780 km/h, give or take a few minutes. */
function blockMinutes(from: string, to: string, seed: string): number {
  return Math.round(35 + (distanceKm(from, to) / 780) * 60 + intBetween(0, 20, seed, 'block'));
}

function isRoundTrip(it: Itinerary): boolean {
  return it.returnFlightNumber !== null || it.returnDate !== null;
}

/** The base fare of an itinerary in cents: a function of the itinerary alone. */
function baseFare(it: Itinerary): number {
  const airline = simulatedAirline(it.airline)?.code ?? it.airline.trim().toUpperCase();
  const route = [it.departureAirport, it.arrivalAirport].sort().join('-');
  // A one-way flexible economy fare: a fixed part plus a rate per km, dearer on some routes.
  const dollars =
    (59 + 0.085 * distanceKm(it.departureAirport, it.arrivalAirport)) * (0.85 + 0.4 * unit('route', airline, route));
  // The same route costs a little more or less by flight and day.
  const flight = 0.94 + 0.12 * unit('flight', airline, it.flightNumber.toUpperCase(), it.departureDate);
  const trip = isRoundTrip(it) ? 1.9 : 1;
  return Math.round(dollars * 100 * flight * trip * fareMultiplier(it.fareType, it.cabinClass));
}

/** A value in [-1, 1) fixed by the parts. */
function noise(...parts: (string | number)[]): number {
  return unit(...parts) * 2 - 1;
}

/** The itinerary's fare now relative to its base: a daily level interpolated over the day's buckets plus a wobble. */
function driftFactor(key: string, bucket: number, bucketsPerDay: number): number {
  const day = Math.floor(bucket / bucketsPerDay);
  const through = (bucket - day * bucketsPerDay) / bucketsPerDay;
  const level = noise('day', key, day) * (1 - through) + noise('day', key, day + 1) * through;
  return 1 + 0.11 * level + 0.04 * noise('bucket', key, bucket);
}

// ---- test controls ----

type PriceControl = 'drop' | 'rise' | 'outage' | 'seats2' | 'ghost' | null;
interface Controls {
  /** Bought directly from the airline: the source cannot change it (the assisted path). */
  direct: boolean;
  basic: boolean;
  price: PriceControl;
  failAll: boolean;
  notFound: boolean;
  /** The fare carries a 15% change penalty (test control ...FEE). */
  fee: boolean;
  /** The airline cancelled the flight (test control CANCEL...). */
  cancelled: boolean;
  /** Passengers on the booking (test control ...PARTY<n>); one without it. */
  party: number;
}

const PRICE_CONTROLS: Record<string, PriceControl> = {
  DROP: 'drop',
  RISE: 'rise',
  OUTAGE: 'outage',
  SEATS2: 'seats2',
  GHOST: 'ghost',
};

function controlsOf(bookingCode: string | undefined): Controls {
  const match =
    /^(DIRECT)?(BASIC)?(DROP|RISE|FAIL|DOWN|OUTAGE|NOTFOUND|NONE|CANCEL|SEATS2|GHOST)?(FEE)?(?:PARTY([1-9]))?/.exec(
      (bookingCode ?? '').toUpperCase(),
    );
  const word = match?.[3];
  return {
    direct: match?.[1] === 'DIRECT',
    basic: match?.[2] === 'BASIC',
    price: PRICE_CONTROLS[word ?? ''] ?? null,
    failAll: word === 'FAIL' || word === 'DOWN',
    notFound: word === 'NOTFOUND' || word === 'NONE',
    fee: match?.[4] === 'FEE',
    cancelled: word === 'CANCEL',
    party: match?.[5] ? Number(match[5]) : 1,
  };
}

const INTERNATIONAL_CARRIERS = new Set(['AC', 'BA', 'LH', 'AF', 'EK', 'QR', 'SQ', 'JL']);

/** What changing to another fare of this itinerary costs, and how the difference comes back. */
export function simulatedChangeTerms(
  it: Itinerary,
  base: number,
  fee = false,
): { changePenalty: number; refundForm: RefundForm } {
  const fare = `${it.fareType ?? ''}`.toLowerCase();
  if (fee) return { changePenalty: Math.round(base * 0.15), refundForm: 'credit' };
  if (/refundable/.test(fare) && !/non/.test(fare)) return { changePenalty: 0, refundForm: 'cash' };
  const airline = simulatedAirline(it.airline)?.code ?? it.airline.trim().toUpperCase();
  if (!INTERNATIONAL_CARRIERS.has(airline)) return { changePenalty: 0, refundForm: 'credit' };
  const penalty = /first/.test(fare) ? 0 : /business/.test(fare) ? 25_000 : /premium/.test(fare) ? 20_000 : 15_000;
  return { changePenalty: penalty, refundForm: 'credit' };
}

const MARKER_BASE: Record<Exclude<PriceControl, null>, number> = {
  drop: 9900,
  rise: 9930,
  outage: 9960,
  seats2: 9840,
  ghost: 9800,
};

/** The control carried by an outbound flight number of 9800-9870 or 9900-9988, if any. */
function controlOfFlightNumber(flightNumber: string): PriceControl {
  const number = Number(/(\d+)$/.exec(flightNumber)?.[1] ?? NaN);
  if (number >= 9900 && number < 9930) return 'drop';
  if (number >= 9930 && number < 9960) return 'rise';
  if (number >= 9960 && number < 9990) return 'outage';
  if (number >= 9840 && number < 9872) return 'seats2';
  if (number >= 9800 && number < 9832) return 'ghost';
  return null;
}

/** How many passengers a quote is for: the itinerary's party, one when it names none. */
function partyOf(it: Itinerary): number {
  const n = it.passengers ?? 1;
  return Number.isInteger(n) && n >= 1 && n <= 9 ? n : 1;
}

/** Days ahead an airline sells: a date further out is not on sale yet. */
const SCHEDULE_DAYS = 330;

/**
 * Refuses an itinerary this source would not sell (NoSuchFlightError): for an airline it
 * knows, a flight number outside the airline's range (test markers aside) or a route that
 * touches none of its hubs; for any airline, a date past the schedule.
 */
function checkFlightExists(it: Itinerary, at: Date): void {
  const ahead = (Date.parse(`${it.departureDate}T00:00:00Z`) - at.getTime()) / DAY_MS;
  if (ahead > SCHEDULE_DAYS) {
    throw new NoSuchFlightError('departureDate', 'This flight is not on sale for that date yet. Check the date.');
  }
  const airline = simulatedAirline(it.airline);
  if (!airline) return;
  const legs = [it.flightNumber, ...(it.returnFlightNumber ? [it.returnFlightNumber] : [])];
  for (const leg of legs) {
    const match = /^([A-Z0-9]{2})\s?(\d{1,4})$/i.exec(leg.trim());
    const number = Number(match?.[2] ?? NaN);
    const [low, high] = airline.flightNumbers;
    const inRange = number >= low && number <= high + 1;
    if (!match || match[1]?.toUpperCase() !== airline.code || (!inRange && controlOfFlightNumber(leg) === null)) {
      throw new NoSuchFlightError(
        'flightNumber',
        `${airline.name} has no flight ${leg.toUpperCase()} on that date. Check the flight number.`,
      );
    }
  }
  if (!airline.hubs.includes(it.departureAirport) && !airline.hubs.includes(it.arrivalAirport)) {
    throw new NoSuchFlightError(
      'route',
      `${airline.name} does not fly ${it.departureAirport} to ${it.arrivalAirport}. Check the airports.`,
    );
  }
}

// ---- dates ----

const DAY_MS = 86_400_000;
/** Bookings are fixed for a 28-day period of the clock, so a retrieval repeats within it. */
const PERIOD_DAYS = 28;

function isoDate(utcMillis: number): string {
  return new Date(utcMillis).toISOString().slice(0, 10);
}

function pad2(value: number): string {
  return String(value).padStart(2, '0');
}

// ---- the source ----

const SEAT_LETTERS = ['A', 'B', 'C', 'D', 'E', 'F'];
const WIDE_LETTERS = ['A', 'C', 'D', 'F'];

export function createSimulatedFareSource(options: SimulatedFareSourceOptions = {}): FareSource {
  const now = options.now ?? (() => new Date());
  const latencyMs = options.latencyMs ?? 0;
  const bucketMs = (options.bucketHours ?? 6) * 3_600_000;
  const bucketsPerDay = Math.max(1, Math.round(DAY_MS / bucketMs));
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));

  async function latency(): Promise<void> {
    if (latencyMs > 0) await sleep(latencyMs);
  }

  function bucketOf(at: Date): number {
    return Math.floor(at.getTime() / bucketMs);
  }

  // GHOST itineraries whose one dip this instance has quoted (bounded: a long-lived instance forgets)
  const ghostsShown = new Set<string>();
  function ghostFactor(key: string): number {
    if (ghostsShown.has(key)) return 1.02;
    if (ghostsShown.size >= 10_000) ghostsShown.clear();
    ghostsShown.add(key);
    return 0.8;
  }

  function quoteAt(it: Itinerary, at: Date): FareQuote {
    const byCode = controlsOf(it.bookingCode);
    if (byCode.failAll) throw new FareSourceUnavailableError();
    if (byCode.cancelled) throw new FlightCancelledError();
    const control = byCode.price ?? controlOfFlightNumber(it.flightNumber);
    if (control === 'outage') throw new FareSourceUnavailableError();
    if (it.verify) checkFlightExists(it, at);
    const passengers = partyOf(it);
    // one passenger's fare: the party pays n of them (the drift does not depend on the party)
    const key = itineraryKey({ ...it, passengers: 1 });
    const bucket = bucketOf(at);
    const base = baseFare(it);
    let factor: number;
    if (control === 'drop') factor = 0.8;
    // two seats at the low fare: a larger party is quoted the fare all of them can have
    else if (control === 'seats2') factor = passengers <= 2 ? 0.8 : 1;
    else if (control === 'rise') factor = 1.15 + 0.05 * unit('rise', key, bucket);
    else if (control === 'ghost') factor = ghostFactor(key);
    else factor = driftFactor(key, bucket, bucketsPerDay);
    const terms = simulatedChangeTerms(it, base, byCode.fee);
    return {
      price: Math.round(base * factor) * passengers,
      currency: it.currency,
      quotedAt: at.toISOString(),
      offerId: `sim_${hash32(`${key}|${bucket}|${passengers}`).toString(36)}`,
      changePenalty: terms.changePenalty * passengers,
      refundForm: terms.refundForm,
    };
  }

  return {
    name: 'simulated',

    async retrieveBooking(request: RetrieveBookingRequest): Promise<RetrievedBooking> {
      await latency();
      const code = request.bookingCode.trim().toUpperCase();
      const controls = controlsOf(code);
      if (controls.failAll) throw new FareSourceUnavailableError();
      const airline = simulatedAirline(request.airline);
      const lastName = request.passengerLastName.trim();
      if (controls.notFound || !airline || !/^[A-Z0-9]{1,20}$/.test(code) || !lastName) {
        throw new BookingNotFoundError();
      }
      const at = now();
      const period = Math.floor(at.getTime() / (PERIOD_DAYS * DAY_MS));
      const seed = `${airline.code}|${code}|${period}`;

      // Route: one end a hub, the other any other airport of the airline; either direction.
      const hub = pick(airline.hubs, seed, 'hub');
      const others = [...airline.hubs, ...airline.destinations].filter((airport) => airport !== hub);
      const other = pick(others, seed, 'other');
      const outbound = unit(seed, 'direction') < 0.5;
      const from = outbound ? hub : other;
      const to = outbound ? other : hub;

      // Dates: 6 to 19 weeks after the period's start, which is at most 4 weeks ago.
      const departureMs = period * PERIOD_DAYS * DAY_MS + intBetween(42, 133, seed, 'day') * DAY_MS;
      const departureDate = isoDate(departureMs);
      const roundTrip = unit(seed, 'round-trip') < 0.4;
      const returnDate = roundTrip ? isoDate(departureMs + intBetween(3, 15, seed, 'stay') * DAY_MS) : null;

      // Flight numbers: even outbound, the next odd number back; test controls get a marked range.
      const [low, high] = airline.flightNumbers;
      const number = controls.price
        ? MARKER_BASE[controls.price] + 2 * intBetween(0, 15, seed, 'number')
        : 2 * intBetween(Math.ceil(low / 2), Math.floor(high / 2) + 1, seed, 'number');
      const flightNumber = `${airline.code}${number}`;
      const returnFlightNumber = roundTrip ? `${airline.code}${number + 1}` : null;

      // Times: departures 06:00-21:55 local; arrival from the block time and both zones.
      const hour = intBetween(6, 22, seed, 'hour');
      const minute = 5 * intBetween(0, 12, seed, 'minute');
      const day = new Date(departureMs);
      const fromZone = AIRPORTS[from]?.zone ?? 'UTC';
      const toZone = AIRPORTS[to]?.zone ?? 'UTC';
      const departureUtc = localToUtcMillis(
        { year: day.getUTCFullYear(), month: day.getUTCMonth() + 1, day: day.getUTCDate(), hour, minute },
        fromZone,
      );
      const arrivalLocal = formatAtAirport(departureUtc + blockMinutes(from, to, seed) * 60_000, toZone);

      // Fare: about 20% Basic Economy, the rest over the fares the airline sells.
      // A DROP/RISE/OUTAGE booking without BASIC is changeable, so a test can rebook it.
      const basic = controls.basic || (!controls.price && unit(seed, 'basic') < 0.2);
      const fareType = basic ? 'Basic Economy' : pick(airline.fares.slice(1), seed, 'fare');
      const cabinClass = CABIN_OF_FARE[fareType.toLowerCase()] ?? 'Economy';
      const fareChangeable = isEligibleFareType(fareType);

      let seatNumber: string | null = null;
      if (!airline.openSeating && !(fareType === 'Basic Economy' && unit(seed, 'seat-assigned') < 0.5)) {
        if (cabinClass === 'First') seatNumber = `${intBetween(1, 4, seed, 'row')}${pick(WIDE_LETTERS, seed, 'seat')}`;
        else if (cabinClass === 'Business')
          seatNumber = `${intBetween(1, 8, seed, 'row')}${pick(WIDE_LETTERS, seed, 'seat')}`;
        else if (cabinClass === 'Premium Economy')
          seatNumber = `${intBetween(8, 12, seed, 'row')}${pick(SEAT_LETTERS, seed, 'seat')}`;
        else seatNumber = `${intBetween(12, 39, seed, 'row')}${pick(SEAT_LETTERS, seed, 'seat')}`;
      }

      const itinerary: Itinerary = {
        airline: airline.name,
        flightNumber,
        departureAirport: from,
        arrivalAirport: to,
        departureDate,
        returnFlightNumber,
        returnDate,
        cabinClass,
        fareType,
        currency: 'USD',
      };
      const base = baseFare(itinerary);
      // What the party paid: the base for controlled bookings, else 0.90-1.02 of it, per passenger.
      const perPassenger = controls.price ? base : Math.round(base * (0.9 + 0.12 * unit(seed, 'paid')));
      const pricePaid = perPassenger * controls.party;
      const sourceReference = simulatedSourceReference(
        { ...itinerary, bookingCode: code, passengerLastName: lastName },
        pricePaid,
      );

      return {
        airline: airline.name,
        airlineCode: airline.code,
        bookingCode: code,
        passengerLastName: lastName,
        flightNumber,
        departureAirport: from,
        arrivalAirport: to,
        departureDate,
        departureTime: `${pad2(hour)}:${pad2(minute)}`,
        arrivalTime: arrivalLocal.slice(11, 16),
        isRoundTrip: roundTrip,
        returnFlightNumber,
        returnDate,
        cabinClass,
        seatNumber,
        fareType,
        fareChangeable,
        pricePaid,
        currency: 'USD',
        passengerCount: controls.party,
        rebookingMethod: controls.direct ? 'assisted' : 'source',
        sourceReference,
      };
    },

    async quote(itinerary: Itinerary): Promise<FareQuote> {
      await latency();
      return quoteAt(itinerary, now());
    },

    async rebook(request: RebookRequest): Promise<RebookResult> {
      await latency();
      const booking = request.booking;
      const controls = controlsOf(booking.bookingCode);
      if (controls.failAll || controls.price === 'outage') throw new FareSourceUnavailableError();
      // Only the booking retrieval returned, as it returned it: any field altered since (the price
      // paid, the fare, the flights, the booking code) gives another reference.
      if (booking.sourceReference !== simulatedSourceReference(booking, request.pricePaid)) {
        throw new BookingMismatchError();
      }
      if (controls.direct) throw new BookingNotChangeableError();
      // The airline refuses changes only on no-change fare brands; the route has already checked
      // the flight's eligibility by the rules in flights/rules.ts.
      if (!isEligibleFareType(booking.fareType, true)) throw new BookingNotChangeableError();
      const at = now();
      const quote = quoteAt({ ...booking, passengers: booking.passengers ?? controls.party }, at);
      // A rebooking lowers the fare, and never above the fare the traveller saw.
      if (quote.price > request.maxPrice || quote.price >= request.pricePaid) throw new FareNoLongerAvailableError();
      // The penalty comes off what is given back; below the floor asked for, no change is made.
      const changePenalty = quote.changePenalty ?? 0;
      const credit = request.pricePaid - quote.price - changePenalty;
      if (credit < Math.max(1, request.minCredit ?? 1)) throw new FareNoLongerAvailableError();
      const airlineCode =
        simulatedAirline(booking.airline)?.code ?? /^([A-Z0-9]{2})\d/.exec(booking.flightNumber)?.[1] ?? 'XX';
      const reference = hash32(`credit|${booking.bookingCode}|${itineraryKey(booking)}|${bucketOf(at)}`)
        .toString(36)
        .toUpperCase()
        .padStart(6, '0')
        .slice(-6);
      return {
        newPrice: quote.price,
        currency: quote.currency,
        airlineCredit: credit,
        creditReference: `${airlineCode}-CR-${reference}`,
        creditExpiryDate: creditExpiryDate(at),
        seatNumber: booking.seatNumber,
        rebookedAt: at.toISOString(),
        changePenalty,
        refundForm: quote.refundForm ?? 'credit',
      };
    },

    // A rebook here has no effect anywhere until it answers, so a lost answer means no change.
    async rebookingOutcome(): Promise<RebookResult | null> {
      await latency();
      return null;
    },
  };
}
