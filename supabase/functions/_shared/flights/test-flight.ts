// A test factory for the api's Flight shape, for the web app's tests (its display rules and
// components): an eligible, monitored, never-checked manual flight; override what a test needs.
import type { Flight } from '../types/flights.ts';

let nextId = 1;

export function buildFlight(overrides: Partial<Flight> = {}): Flight {
  const id = nextId++;
  const flight = {
    id,
    userId: 'user-1',
    airline: 'Delta Air Lines',
    flightNumber: 'DL1234',
    bookingCode: `ABC${id}`,
    passengerLastName: 'Smith',
    departureAirport: 'JFK',
    arrivalAirport: 'LAX',
    departureDate: '2027-03-14',
    returnDate: null,
    isRoundTrip: false,
    returnFlightNumber: null,
    currency: 'USD',
    originalPrice: 40000,
    currentPrice: 40000,
    lowestPrice: 40000,
    highestPrice: 40000,
    lastChecked: null,
    fareType: 'Flexible Economy',
    isEligibleForRebooking: true,
    hasBeenRebooked: false,
    rebookingDate: null,
    rebookingPrice: null,
    airlineCredit: null,
    creditExpiryDate: null,
    creditReferenceNumber: null,
    commissionAmount: null,
    status: 'monitoring',
    rebookingMethod: 'source',
    sourceReference: null,
    emailSource: null,
    isManualEntry: true,
    canCancel: true,
    isWatched: true,
    cancellationFee: null,
    seatNumber: '14C',
    cabinClass: 'Economy',
    notes: null,
    createdAt: '2027-01-01T12:00:00.000Z',
    priceHistory: [],
  } satisfies Partial<Record<keyof Flight | 'sourceReference', unknown>>;
  // A plain object rather than a Flight literal, so a field the api adds later does not break the
  // factory before its tests need it.
  return { ...flight, ...overrides } as Flight;
}
