// Whole-engine cases written for weaknesses the development corpus does not show: other
// languages and layouts, forwards, connections, seat lists, and tempting negatives.
import { describe, expect, it } from './testing/harness.ts';
import { extractFlightBookings } from './index.ts';
import { buildEmail } from './testing/email-factory.ts';

const extract = (from: string, text: string, extra: { subject?: string; date?: string; html?: boolean } = {}) =>
  extractFlightBookings(
    buildEmail({
      from,
      subject: extra.subject ?? 'Your trip',
      date: extra.date ?? 'Tue, 02 Feb 2027 10:00:00 -0500',
      ...(extra.html ? { html: text } : { text }),
      encoding: 'quoted-printable',
    }),
  );

describe('positive layouts', () => {
  it('reads a French confirmation with 07h15 times and a comma price', async () => {
    const result = await extract(
      'Air France <confirmation@service-airfrance.com>',
      [
        'Référence de réservation : ZK4T8P',
        'Passager : M. Jean DUPONT',
        'Vol aller - jeudi 12 août 2027',
        'AF 1234  Paris-Charles de Gaulle (CDG) 07h15  →  Nice (NCE) 08h40',
        'Classe : Economy, Tarif : Economy Standard, Siège 12A',
        'Vol retour - dimanche 15 août 2027',
        'AF 7715  Nice (NCE) 19h05  →  Paris-Orly (ORY) 20h30',
        'Siège : non attribué',
        'Prix total : 245,30 €',
      ].join('\n'),
    );
    expect(result.isFlightBooking).toBe(true);
    expect(result.bookings[0]).toMatchObject({
      airline: 'Air France',
      airlineIata: 'AF',
      bookingCode: 'ZK4T8P',
      passengers: ['Jean Dupont'],
      passengerLastName: 'Dupont',
      isRoundTrip: false,
      totalPrice: { amountCents: 24530, currency: 'EUR' },
      fareType: 'Economy Standard',
    });
    expect(result.bookings[0]?.segments).toEqual([
      {
        flightNumber: 'AF 1234',
        departureAirport: 'CDG',
        arrivalAirport: 'NCE',
        departureTime: '2027-08-12T07:15:00+02:00',
        arrivalTime: '2027-08-12T08:40:00+02:00',
        cabinClass: 'Economy',
        seatNumber: '12A',
      },
      {
        flightNumber: 'AF 7715',
        departureAirport: 'NCE',
        arrivalAirport: 'ORY',
        departureTime: '2027-08-15T19:05:00+02:00',
        arrivalTime: '2027-08-15T20:30:00+02:00',
        cabinClass: 'Economy',
        seatNumber: null,
      },
    ]);
  });

  it('reads a Spanish confirmation with Salida/Llegada lines', async () => {
    const result = await extract(
      'Iberia <confirmacion@iberia.com>',
      [
        'Localizador: R7TQ2M',
        'Pasajero: Sra. María GARCÍA',
        'Vuelo IB 3166 - viernes, 10 de septiembre de 2027',
        'Salida: Madrid (MAD) 10:25',
        'Llegada: Londres Heathrow (LHR) 11:55',
        'Cabina: Turista · Asiento 23C',
        'Importe total: 156,42 EUR',
      ].join('\n'),
    );
    expect(result.bookings[0]).toMatchObject({
      bookingCode: 'R7TQ2M',
      passengers: ['María García'],
      totalPrice: { amountCents: 15642, currency: 'EUR' },
    });
    expect(result.bookings[0]?.segments[0]).toMatchObject({
      flightNumber: 'IB 3166',
      departureTime: '2027-09-10T10:25:00+02:00',
      arrivalTime: '2027-09-10T11:55:00+01:00',
      seatNumber: '23C',
    });
  });

  it('takes the carrier of a bare "Flight 1234" from the sender and reads US numeric dates', async () => {
    const result = await extract(
      'Southwest Airlines <southwestairlines@luv.southwest.com>',
      'Confirmation # 8TQZ2K\nPassenger(s): JANE DOE\nFlight 1234 | 03/14/27 | Depart BWI 6:00 AM | Arrive MCO 8:25 AM\nTotal: $210.40',
    );
    expect(result.bookings[0]?.segments[0]).toMatchObject({
      flightNumber: 'WN 1234',
      departureAirport: 'BWI',
      departureTime: '2027-03-14T06:00:00-04:00',
    });
    expect(result.bookings[0]?.totalPrice).toEqual({ amountCents: 21040, currency: 'USD' });
  });

  it("unwraps an Outlook forward and ignores the forwarder's own times and airports", async () => {
    const result = await extract(
      'John Example <john@example.com>',
      [
        'Landing around 3:30 at Seattle (SEA), can you pick me up?',
        '________________________________',
        'From: Alaska Airlines <alaskaair@ifly.alaskaair.com>',
        'Sent: Tuesday, March 2, 2027 7:01 PM',
        'To: John Example <john@example.com>',
        'Subject: Your Alaska Airlines confirmation',
        '',
        'Confirmation code: KLMZQW',
        'Fri, Apr 9 | AS 330 | Los Angeles (LAX) 11:00 AM | Seattle (SEA) 1:55 PM | Seat 12F',
        'Sun, Apr 11 | AS 1105 | Seattle (SEA) 6:40 PM | Los Angeles (LAX) 9:20 PM | Seat 10A',
        'Traveler: John Example',
      ].join('\n'),
      { subject: 'FW: Your Alaska Airlines confirmation', date: 'Wed, 03 Mar 2027 08:00:00 -0800' },
    );
    const booking = result.bookings[0];
    expect(booking).toMatchObject({ airline: 'Alaska Airlines', airlineIata: 'AS', isRoundTrip: true });
    expect(
      booking?.segments.map((segment) => [segment.flightNumber, segment.departureTime, segment.seatNumber]),
    ).toEqual([
      ['AS 330', '2027-04-09T11:00:00-07:00', '12F'],
      ['AS 1105', '2027-04-11T18:40:00-07:00', '10A'],
    ]);
  });

  it('rolls a connection printed under one date into the next day and reads a seat list per leg', async () => {
    const result = await extract(
      'United Airlines <unitedairlines@united.com>',
      [
        'Record locator: PQ7RST',
        'Wed, Jun 9, 2027',
        'UA 901 San Francisco (SFO) 9:00 PM - Frankfurt (FRA) 5:00 PM',
        'UA 8850 Frankfurt (FRA) 7:10 PM - Munich (MUC) 8:05 PM',
        'Passengers',
        'Mr John Smith    Seats: 14A, 3C',
        'Mrs Jane Smith   Seats: 14B, 3D',
        'Total price: USD 2,310.12',
      ].join('\n'),
    );
    const booking = result.bookings[0];
    expect(booking?.passengers).toEqual(['John Smith', 'Jane Smith']);
    expect(
      booking?.segments.map((segment) => [
        segment.flightNumber,
        segment.departureTime,
        segment.arrivalTime,
        segment.seatNumber,
      ]),
    ).toEqual([
      ['UA 901', '2027-06-09T21:00:00-07:00', '2027-06-10T17:00:00+02:00', '14A'],
      ['UA 8850', '2027-06-10T19:10:00+02:00', '2027-06-10T20:05:00+02:00', '3C'],
    ]);
  });

  it('resolves a date without a year and a +1 arrival', async () => {
    const result = await extract(
      'Qantas <qantas@yourbooking.qantas.com.au>',
      'Booking reference: HX4RTA\nSat 13 Mar  QF 1  Sydney (SYD) 16:00  ->  London Heathrow (LHR) 05:30 +1\nPassenger: Ms Ann Lee',
      { date: 'Mon, 20 Dec 2026 10:00:00 +1100' },
    );
    expect(result.bookings[0]?.segments[0]).toMatchObject({
      departureTime: '2027-03-13T16:00:00+11:00',
      arrivalTime: '2027-03-14T05:30:00+00:00',
    });
  });

  it('reads an HTML table layout without markup', async () => {
    const html = `<p>Booking reference: <b>MX2KQP</b></p>
      <table><tr><th>Flight</th><th>Date</th><th>From</th><th>To</th><th>Seat</th></tr>
      <tr><td>LH 400</td><td>Mon, 04 Oct 2027</td><td>13:30<br>Frankfurt (FRA)</td><td>16:05<br>New York (JFK)</td><td>41C</td></tr></table>
      <p>Passenger: Mr Paul Weber</p><p>Total price: EUR 812.40</p>`;
    const result = await extract('Lufthansa <online@booking-lufthansa.com>', html, { html: true });
    expect(result.bookings[0]?.segments[0]).toEqual({
      flightNumber: 'LH 400',
      departureAirport: 'FRA',
      arrivalAirport: 'JFK',
      departureTime: '2027-10-04T13:30:00+02:00',
      arrivalTime: '2027-10-04T16:05:00-04:00',
      // the mail names no cabin: none is invented
      cabinClass: null,
      seatNumber: '41C',
    });
  });

  it('reads a message forwarded as an attachment', async () => {
    const inner = buildEmail({
      from: 'Delta Air Lines <DeltaAirLines@t.delta.com>',
      subject: 'Your Flight Receipt',
      date: 'Fri, 19 Feb 2027 20:02:00 -0500',
      text: 'Confirmation #: GZK4WQ\nSUN 14 MAR 2027 | DELTA 423 | NEW YORK (JFK) 8:05am | LOS ANGELES (LAX) 11:10am | Seat 14C\nPassenger: MARISOL QUENNELL',
    });
    const result = await extractFlightBookings(
      buildEmail({
        from: 'Marisol <m@example.com>',
        text: 'see attached',
        attachments: [{ filename: 'receipt.eml', contentType: 'message/rfc822', content: inner }],
      }),
    );
    expect(result.bookings[0]).toMatchObject({
      airlineIata: 'DL',
      bookingCode: 'GZK4WQ',
      passengers: ['Marisol Quennell'],
    });
  });
});

describe('negatives', () => {
  it.each([
    [
      'a car rental at an airport with an arriving flight',
      'Hertz <reservations@hertz.com>',
      'Confirmation number: K1234567\nPick-up: Los Angeles (LAX) Fri, Mar 12, 2027 10:00 AM\nReturn: Los Angeles (LAX) Mon, Mar 15, 2027 9:00 AM\nArriving flight: UA 1234\nTotal: $312.55 USD',
    ],
    [
      'a check-in reminder without a booking code',
      'Delta Air Lines <DeltaAirLines@t.delta.com>',
      "It's time to check in.\nSun 14 Mar 2027  DL 423  New York (JFK) 8:05am  ->  Los Angeles (LAX) 11:10am",
    ],
    [
      'marketing with a flight, times and a promo code',
      'United <united@news.united.com>',
      'Use booking code SPRING7 at checkout.\nMon, Mar 15, 2027: UA 100 San Francisco (SFO) 8:00 AM -> Chicago (ORD) 2:10 PM from $99',
    ],
    [
      'a hotel confirmation mentioning the airport and a flight',
      'Harbor Hotel <stay@harborhotel.example>',
      'Reservation Confirmation: 7394021886\nCheck-in Friday, October 8, 2027 3:00 PM\nAirport shuttle from Seattle (SEA) 3:30 PM, send us your flight number (e.g. AS 330)\nTotal $812.44',
    ],
  ])('rejects %s', async (_name, from, text) => {
    expect(await extract(from, text, { subject: 'Your reservation' })).toEqual({
      isFlightBooking: false,
      bookings: [],
    });
  });

  it('rejects legs between codes that are not airports (unknown, or railway stations)', async () => {
    for (const [from, to] of [
      ['ZZZ', 'QXZ'],
      ['QQX', 'QQY'],
    ]) {
      const result = await extract(
        'Example Air <booking@example.com>',
        `Booking code: ABC123\nSun 14 Mar 2027 DL 423 Nowhere (${from}) 8:05am -> Elsewhere (${to}) 11:10am`,
      );
      expect(result.isFlightBooking).toBe(false);
    }
  });
});
