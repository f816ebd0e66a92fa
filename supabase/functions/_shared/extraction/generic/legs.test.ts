// Stops and legs: places and times in one piece, in columns, on the line below, in receipt rows.
import { describe, expect, it } from '../testing/harness.ts';
import { extractText } from '../testing/extract.ts';

describe('e-ticket receipt rows', () => {
  const receipt = [
    'BOOKING REFERENCE',
    'ZT4M9P',
    'PASSENGER NAME TICKET NUMBER',
    'KHAN/AYESHA MRS 176 2412345678',
    'DATE FLIGHT FROM/TO DEP ARR CLASS SEAT',
    '27JUN EK0372 DUBAI DXB / BANGKOK BKK 0950 1925 ECO 43A/43B',
    'TOTAL AMOUNT PAID (ALL PASSENGERS) AED 8490.00',
    'FORM OF PAYMENT: CC VI XXXX1182',
  ].join('\n');

  it('reads a code below its label, HHMM times beside two codes and the first seat of a pair', async () => {
    const result = await extractText('Emirates <do-not-reply@emirates.email>', receipt);
    const booking = result.bookings[0];
    expect(booking?.bookingCode).toBe('ZT4M9P');
    expect(booking?.passengers).toEqual(['Ayesha Khan']);
    expect(booking?.segments[0]).toMatchObject({
      flightNumber: 'EK 372',
      departureTime: '2027-06-27T09:50:00+04:00',
      arrivalTime: '2027-06-27T19:25:00+07:00',
      seatNumber: '43A',
    });
    expect(booking?.totalPrice).toEqual({ amountCents: 849000, currency: 'AED' });
  });
});

describe('places and times in columns', () => {
  it('pairs two places with two times printed after them in other cells', async () => {
    const result = await extractText(
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
    const result = await extractText(
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
    const result = await extractText(
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
