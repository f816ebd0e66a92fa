// Stops and legs: places and times in one piece, in columns, on the line below, in receipt rows.
import { describe, expect, it } from '../testing/harness.ts';
import { extractHtml, extractText } from '../testing/extract.ts';

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

describe('tables: times in the next row, departure and arrival in one cell', () => {
  const head = '<p>Booking reference: P8XNRD</p><p>Passenger: Mr Reto Zimmerli</p>';
  const legs = async (table: string) => {
    const result = await extractHtml('SWISS <noreply@notifications.swiss.com>', `${head}${table}`, 'Your booking');
    return result.bookings[0]?.segments.map((s) => [
      s.flightNumber,
      s.departureAirport,
      s.arrivalAirport,
      s.departureTime,
      s.arrivalTime,
    ]);
  };
  const expected = [
    ['LX 1072', 'ZRH', 'BER', '2027-09-23T07:05:00+02:00', '2027-09-23T08:30:00+02:00'],
    ['LX 1073', 'BER', 'ZRH', '2027-09-26T09:15:00+02:00', '2027-09-26T10:40:00+02:00'],
  ];

  it('pairs a row of places with the row of times below it', async () => {
    expect(
      await legs(`<table><tr><th>Flight</th><th>From</th><th>To</th></tr>
<tr><td>LX 1072 · Thu 23 Sep 2027</td><td>Zurich (ZRH)</td><td>Berlin (BER)</td></tr>
<tr><td></td><td>Departure 07:05</td><td>Arrival 08:30</td></tr>
<tr><td>LX 1073 · Sun 26 Sep 2027</td><td>Berlin (BER)</td><td>Zurich (ZRH)</td></tr>
<tr><td></td><td>Departure 09:15</td><td>Arrival 10:40</td></tr></table>`),
    ).toEqual(expected);
  });

  it('pairs places named without codes with the row of times below them', async () => {
    expect(
      await legs(`<table><tr><th>Date</th><th>Flight</th><th>From</th><th>To</th></tr>
<tr><td>Thu 23 Sep 2027</td><td>LX 1072</td><td>Zurich</td><td>Berlin Brandenburg</td></tr>
<tr><td></td><td></td><td>07:05</td><td>08:30</td></tr>
<tr><td>Sun 26 Sep 2027</td><td>LX 1073</td><td>Berlin Brandenburg</td><td>Zurich</td></tr>
<tr><td></td><td></td><td>09:15</td><td>10:40</td></tr></table>`),
    ).toEqual(expected);
  });

  it("pairs a route 'ZRH → BER' with the dates and times of the row below", async () => {
    expect(
      await legs(`<table><tr><td>LX 1072</td><td>ZRH &rarr; BER</td><td>Economy</td></tr>
<tr><td>23.09.2027 07:05</td><td>23.09.2027 08:30</td><td>Duration 1h 25min</td></tr>
<tr><td>LX 1073</td><td>BER &rarr; ZRH</td><td>Economy</td></tr>
<tr><td>26.09.2027 09:15</td><td>26.09.2027 10:40</td><td>Duration 1h 25min</td></tr></table>`),
    ).toEqual(expected);
  });

  it('reads departure and arrival in two columns of one cell', async () => {
    expect(
      await legs(`<table><tr><td>LX 1072<br>Thu 23 Sep 2027</td>
<td><table><tr><td>ZRH<br>07:05</td><td>BER<br>08:30</td></tr></table></td></tr>
<tr><td>LX 1073<br>Sun 26 Sep 2027</td>
<td><table><tr><td>BER<br>09:15</td><td>ZRH<br>10:40</td></tr></table></td></tr></table>`),
    ).toEqual(expected);
    expect(
      await legs(`<table><tr><td>LX 1072</td><td>Thu 23 Sep 2027</td><td>Zurich ZRH<br>Berlin BER</td><td>07:05<br>08:30</td></tr>
<tr><td>LX 1073</td><td>Sun 26 Sep 2027</td><td>Berlin BER<br>Zurich ZRH</td><td>09:15<br>10:40</td></tr></table>`),
    ).toEqual(expected);
  });
});
