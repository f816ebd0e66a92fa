// Rules added after the third blind holdout exposed them: places and times in separate columns,
// ticket-receipt times like '0805A' with the airport codes on the line below the row, flights left
// unchanged after a cancelled section, untitled and SURNAME/GIVEN greetings, an agency's fee that
// is one row of the price breakdown, 'Seat | 27K' cells, 'Bundle:' labels and fare values that run
// into the total.
import { describe, expect, it } from './testing/harness.ts';
import { extractFlightBookings } from './index.ts';
import { buildEmail } from './testing/email-factory.ts';
import { findTimes } from './dates.ts';

const extract = (from: string, text: string, subject = 'Your trip', date = 'Tue, 02 Mar 2027 10:00:00 -0500') =>
  extractFlightBookings(buildEmail({ from, subject, date, text, encoding: 'quoted-printable' }));

describe('times', () => {
  it('reads four-digit times with an A/P suffix, and nothing else as one', () => {
    expect(findTimes('ATLANTA 0805A DETROIT 0455P').map((t) => [t.hour, t.minute])).toEqual([
      [8, 5],
      [16, 55],
    ]);
    expect(findTimes('Flight 1822 row 23B code X1234P')).toEqual([]);
  });
});

describe('columns', () => {
  it('pairs two places with two times printed after them in other cells', async () => {
    const result = await extract(
      'Skyways <noreply@skyways.example>',
      [
        'Reservation code (PNR): QWX4TZ',
        'Passenger: Mr Ilan Castellanos',
        'Flight | From | To | Date | Dep. | Arr. | Class',
        'TK0017 | Istanbul (IST) | Paris (CDG) | 14.05.2027 | 08:10 | 10:35 | Economy',
      ].join('\n'),
    );
    expect(result.bookings[0]?.segments).toMatchObject([
      {
        flightNumber: 'TK 17',
        departureAirport: 'IST',
        arrivalAirport: 'CDG',
        departureTime: '2027-05-14T08:10:00+03:00',
        arrivalTime: '2027-05-14T10:35:00+02:00',
      },
    ]);
  });

  it('pairs a route with a time range printed further along the line', async () => {
    const result = await extract(
      'Trips <trips@agency.example>',
      [
        'Airline confirmation code: HQ2XMB',
        'Traveler: Ines Moreau',
        'Boston (BOS) to Denver (DEN) Thu, Jun 10, 2027 · United 455 · 7:15am - 9:52am · Economy',
      ].join('\n'),
    );
    expect(result.bookings[0]?.segments[0]).toMatchObject({
      departureAirport: 'BOS',
      arrivalAirport: 'DEN',
      departureTime: '2027-06-10T07:15:00-04:00',
      arrivalTime: '2027-06-10T09:52:00-06:00',
    });
  });

  it('reads codes on the line below a receipt row', async () => {
    const result = await extract(
      'Delta Air Lines <DeltaAirLines@e.delta.com>',
      [
        'Confirmation Number: GQ4ZTM',
        'Passenger Name: LINDQVIST/ARVID MR',
        'DATE FLIGHT STATUS CLASS DEPART ARRIVE SEAT',
        '10MAY27 DELTA 1402 OK T BOSTON 0700A ATLANTA 1015A 12C',
        '(BOS) (ATL)',
        '17MAY27 DELTA 1409 OK T ATLANTA 0330P BOSTON 0611P 14D',
        '(ATL) (BOS)',
      ].join('\n'),
    );
    expect(result.bookings[0]?.segments.map((s) => [s.flightNumber, s.departureTime, s.arrivalTime])).toEqual([
      ['DL 1402', '2027-05-10T07:00:00-04:00', '2027-05-10T10:15:00-04:00'],
      ['DL 1409', '2027-05-17T15:30:00-04:00', '2027-05-17T18:11:00-04:00'],
    ]);
  });
});

describe('change emails', () => {
  it('keeps flights listed as unchanged after the cancelled one', async () => {
    const result = await extract(
      'Air Canada <notification@aircanada.ca>',
      [
        'Booking reference: T7QWMZ',
        'Dear Lea Fontaine,',
        'YOUR NEW FLIGHT',
        'AC 411 Fri 10 Sep 2027 Toronto (YYZ) 09:00 -> Montreal (YUL) 10:12',
        'YOUR PREVIOUS FLIGHT (cancelled)',
        'AC 407 Fri 10 Sep 2027 Toronto (YYZ) 07:00 -> Montreal (YUL) 08:12',
        'All other flights in your booking are unchanged:',
        'AC 420 Sun 12 Sep 2027 Montreal (YUL) 17:00 -> Toronto (YYZ) 18:20',
      ].join('\n'),
      'Schedule change',
    );
    const booking = result.bookings[0];
    expect(booking?.segments.map((s) => s.flightNumber)).toEqual(['AC 411', 'AC 420']);
    expect(booking?.passengers).toEqual(['Lea Fontaine']);
  });
});

describe('names, seats, fares and totals', () => {
  const confirmation = (greeting: string) =>
    [
      greeting,
      'Booking reference: VZ8KQD',
      'Flight | BA 1432',
      'Date | 12 Jul 2027',
      'Departure | London (LHR) 08:00',
      'Arrival | Edinburgh (EDI) 09:25',
      'Seat | 27K',
      'Fare: Basic Total GBP 89.00',
    ].join('\n');

  it('reads a SURNAME/GIVEN greeting, a seat cell and a fare that runs into the total', async () => {
    const booking = (await extract('British Airways <BA@contact.ba.com>', confirmation('Dear OKAFOR/CHIDI MR,')))
      .bookings[0];
    expect(booking?.passengers).toEqual(['Chidi Okafor']);
    expect(booking?.segments[0]?.seatNumber).toBe('27K');
    expect(booking?.fareType).toBe('Basic');
  });

  it('does not take a generic greeting for a name', async () => {
    const booking = (await extract('British Airways <BA@contact.ba.com>', confirmation('Dear Valued Customer,')))
      .bookings[0];
    expect(booking?.passengers).toEqual([]);
  });

  it('reads a Bundle label as the fare brand', async () => {
    const booking = (
      await extract(
        'Frontier Airlines <noreply@emails.flyfrontier.com>',
        [
          'Trip confirmation number: KW3PZD',
          'Thursday, July 22, 2027',
          'Flight F9 1210 · Denver (DEN) 8:00 AM -> Las Vegas (LAS) 9:05 AM',
          'Bundle: The Perks · Seat 9C',
          'Passenger: Rhea Voss',
        ].join('\n'),
      )
    ).bookings[0];
    expect(booking?.fareType).toBe('The Perks');
  });

  it("takes an agency's fee off its total when the fee is one row of the breakdown", async () => {
    const text = (fee: string) =>
      [
        'Itinerary # 5528190044',
        'Delta confirmation code: JX4RWT',
        'Traveler: Mina Solberg',
        'Atlanta (ATL) to Boston (BOS) Thu, Dec 9, 2027 · Delta 1180 · 10:20am - 12:51pm',
        'Flight | $250.00',
        'Taxes & fees | $40.00',
        `${fee} | $8.00`,
        'Total | $298.00',
      ].join('\n');
    const withFee = (await extract('Agency <trips@agency.example>', text('Booking fee'))).bookings[0];
    expect(withFee?.totalPrice).toEqual({ amountCents: 29000, currency: 'USD' });
    const withBag = (await extract('Agency <trips@agency.example>', text('Checked bag'))).bookings[0];
    expect(withBag?.totalPrice).toEqual({ amountCents: 29800, currency: 'USD' });
  });
});
