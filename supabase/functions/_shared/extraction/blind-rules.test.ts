// Rules added after the blind holdout exposed them: cancelled and unpurchased trips, places
// printed without codes, per-passenger seat tables, labels after a <br> in one cell.
import { describe, expect, it } from './testing/harness.ts';
import { extractFlightBookings } from './index.ts';
import { buildEmail } from './testing/email-factory.ts';
import { findCityAirports } from './cities.ts';

const extract = (from: string, body: string, extra: { subject?: string; html?: boolean } = {}) =>
  extractFlightBookings(
    buildEmail({
      from,
      subject: extra.subject ?? 'Your trip',
      date: 'Tue, 02 Feb 2027 10:00:00 -0500',
      ...(extra.html ? { html: body } : { text: body }),
      encoding: 'quoted-printable',
    }),
  );

const itinerary = [
  'Record locator: ZLQWTN',
  'Fri, Sep 17, 2027 | AA 1087 | Dallas/Fort Worth (DFW) 8:15 AM | Miami (MIA) 11:55 AM',
  'Passenger: CORDELIA NWACHUKWU',
];

describe('trips that are no longer (or not yet) bookings', () => {
  it('treats a full cancellation as not a booking', async () => {
    const result = await extract(
      'American Airlines <no-reply@info.email.aa.com>',
      ['Your trip has been canceled', ...itinerary, 'Refund amount: $402.80'].join('\n'),
    );
    expect(result).toEqual({ isFlightBooking: false, bookings: [] });
  });

  it('treats an abandoned cart with a reference as not a booking', async () => {
    const result = await extract(
      'United <United@news.united.com>',
      ['Your itinerary is on hold, but it is not booked yet.', ...itinerary].join('\n'),
      { subject: 'Complete your booking' },
    );
    expect(result.isFlightBooking).toBe(false);
  });

  it('keeps a confirmation whose fine print speaks of cancellation', async () => {
    const result = await extract(
      'American Airlines <no-reply@info.email.aa.com>',
      [
        ...itinerary,
        'If your booking was cancelled within 24 hours, you receive a full refund.',
        'Seat assignments are not guaranteed until check-in.',
      ].join('\n'),
    );
    expect(result.bookings[0]?.bookingCode).toBe('ZLQWTN');
  });

  it('keeps a cancelled flight that was replaced', async () => {
    const result = await extract(
      'American Airlines <no-reply@info.email.aa.com>',
      [
        'Your flight has been canceled and your trip was cancelled in part',
        'Record locator: RWQZ7B',
        'Your new flight',
        'Tue, Mar 9, 2027 | AA 2210 | Dallas/Fort Worth (DFW) 2:05 PM | Miami (MIA) 5:55 PM',
        'Passenger: TOBIN MARCHETTI',
      ].join('\n'),
    );
    expect(result.bookings[0]?.segments.map((segment) => segment.flightNumber)).toEqual(['AA 2210']);
  });
});

describe('places printed without airport codes', () => {
  it('maps unambiguous names and skips ambiguous cities', () => {
    expect(findCityAirports('Depart Auckland 8:30am Arrive Sydney 10:05am').map((c) => c.code)).toEqual(['AKL', 'SYD']);
    expect(findCityAirports('London to Paris')).toEqual([]);
    expect(findCityAirports('Tokyo (Narita)').map((c) => c.code)).toEqual(['NRT']);
  });

  it('reads legs named by city in an airline confirmation', async () => {
    const result = await extract(
      'Air New Zealand <noreply@airnz.co.nz>',
      [
        'Your booking reference is 7QWTLM.',
        'Friday 9 April 2027',
        'NZ103  Depart Auckland 8:30am  Arrive Sydney 10:05am',
        'Passenger: Aroha Tipene',
      ].join('\n'),
    );
    expect(result.bookings[0]?.segments[0]).toMatchObject({
      flightNumber: 'NZ 103',
      departureAirport: 'AKL',
      arrivalAirport: 'SYD',
      departureTime: '2027-04-09T08:30:00+12:00',
      arrivalTime: '2027-04-09T10:05:00+10:00',
    });
  });

  it('does not read city names outside an airline sender', async () => {
    const result = await extract(
      'Hilton <reservations@res.hilton.com>',
      [
        'Confirmation number: 7QWTLM',
        'Friday 9 April 2027',
        'NZ103  Depart Auckland 8:30am  Arrive Sydney 10:05am',
      ].join('\n'),
    );
    expect(result.isFlightBooking).toBe(false);
  });
});

describe('HTML cells', () => {
  it('reads the first passenger of a seat table with one column per flight', async () => {
    const result = await extract(
      'Singapore Airlines <noreply@singaporeair.com.sg>',
      `<p>Booking reference <b>6KPRZW</b></p>
<table><tr><td>SQ638</td><td>Thu, 11 Mar 2027</td><td>Singapore SIN 07:55</td><td>Tokyo (Narita) NRT 15:55</td></tr></table>
<table><tr><th>Passenger</th><th>SQ638</th></tr><tr><td>MR WENG HUI LIM</td><td>11A</td></tr><tr><td>MS JIA MIN KOH</td><td>11C</td></tr></table>`,
      { html: true },
    );
    expect(result.bookings[0]?.segments[0]?.seatNumber).toBe('11A');
  });

  it('ends a value at a label after a <br> in the same cell', async () => {
    const result = await extract(
      'SWISS <noreply@notifications.swiss.com>',
      `<table><tr><td>Booking reference: P8XNRD<br>Passenger: Mr Reto Zimmerli</td></tr>
<tr><td>Thu 23 Sep 2027 LX2084</td><td>Zurich ZRH 12:40</td><td>Lisbon LIS 14:25</td></tr>
<tr><td>Fare: Business Saver<br>Total price: CHF 1'985.40</td></tr></table>`,
      { html: true },
    );
    expect(result.bookings[0]).toMatchObject({ fareType: 'Business Saver', passengers: ['Reto Zimmerli'] });
  });
});
