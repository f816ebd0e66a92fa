import { describe, expect, it } from './testing/harness.ts';
import { f1, scoreEmail } from './evaluation.ts';
import type { ExtractionResult, FlightBooking } from './types.ts';

const booking = (overrides: Partial<FlightBooking> = {}): FlightBooking => ({
  airline: 'Delta Air Lines',
  airlineIata: 'DL',
  bookingCode: 'GZK4WQ',
  passengerLastName: 'Quennell',
  passengers: ['Marisol Quennell'],
  passengerCount: 1,
  segments: [
    {
      flightNumber: 'DL 423',
      departureAirport: 'JFK',
      arrivalAirport: 'LAX',
      departureTime: '2027-03-14T08:05:00-04:00',
      arrivalTime: '2027-03-14T11:10:00-07:00',
      cabinClass: 'Economy',
      seatNumber: '14C',
    },
  ],
  isRoundTrip: false,
  totalPrice: { amountCents: 45210, currency: 'USD' },
  fareType: 'Main Cabin',
  ...overrides,
});
const result = (...bookings: FlightBooking[]): ExtractionResult => ({ isFlightBooking: bookings.length > 0, bookings });

describe('scoreEmail', () => {
  it('counts every field of an exact match as a true positive', () => {
    const score = scoreEmail(result(booking()), result(booking({ passengers: ['MARISOL QUENNELL'] })));
    expect(score.errors).toEqual([]);
    expect(score.counts.seatNumber).toEqual({ tp: 1, fp: 0, fn: 0 });
  });

  it('counts a wrong field as both a false positive and a false negative', () => {
    const score = scoreEmail(result(booking()), result(booking({ fareType: null })));
    expect(score.counts.fareType).toEqual({ tp: 0, fp: 1, fn: 1 });
  });

  it('counts a booking on a negative as a false booking', () => {
    const score = scoreEmail(result(), result(booking()));
    expect(score.falseBookings).toBe(1);
    expect(score.counts.isFlightBooking).toEqual({ tp: 0, fp: 1, fn: 1 });
    expect(f1(score.counts.bookingCode)).toEqual({ precision: 0, recall: 1, f1: 0 });
  });

  it('counts a missed booking as false negatives only', () => {
    const score = scoreEmail(result(booking()), result());
    expect(score.falseBookings).toBe(0);
    expect(score.counts.flightNumber).toEqual({ tp: 0, fp: 0, fn: 1 });
  });
});

describe('scoreEmail: the party', () => {
  it('scores the passenger count only where the truth states it', () => {
    const older = booking();
    const { passengerCount: _count, ...withoutCount } = older;
    const silent = scoreEmail(result(withoutCount as FlightBooking), result(booking({ passengerCount: 3 })));
    expect(silent.counts.passengerCount).toEqual({ tp: 0, fp: 0, fn: 0 });
    const stated = scoreEmail(result(booking({ passengerCount: 2 })), result(booking({ passengerCount: 3 })));
    expect(stated.counts.passengerCount).toEqual({ tp: 0, fp: 1, fn: 1 });
  });
});
