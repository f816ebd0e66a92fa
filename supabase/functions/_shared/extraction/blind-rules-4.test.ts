// Rules added after the fourth blind holdout exposed them: sales, price alerts and check-in
// reminders are not confirmations even with a code and a flight, Spanish double surnames, traveller
// tables whose header row ('Name | SQ 325 | SQ 231') sits under the heading, 'Passagère', the
// brand printed after the cabin in a flight row ('Economy – Flexitime'), and 'Seat 8F' not read as
// the brand 'Seat', seat tables with one column per leg ('Passenger | BOS-KEF | KEF-CPH') and
// untitled names in a seat list ('Seats: Harriet Pell 12A, Rupert Pell 12B').
import { describe, expect, it } from './testing/harness.ts';
import { extractFlightBookings } from './index.ts';
import { buildEmail, plainConfirmation } from './testing/email-factory.ts';
import { familyName } from './names.ts';
import { cabinFromText } from './cabin.ts';

const extract = (from: string, text: string, subject = 'Your trip', date = 'Tue, 02 Mar 2027 10:00:00 -0500') =>
  extractFlightBookings(buildEmail({ from, subject, date, text, encoding: 'quoted-printable' }));

describe('not confirmations', () => {
  const reminder = [
    'Check-in is now open',
    'Booking code: R7JTWC',
    'KL 1145  Amsterdam (AMS) 22 Oct 2027 18:35 - Oslo (OSL) 20:20',
  ].join('\n');

  it('rejects check-in reminders, sales and price alerts by their subject', async () => {
    for (const subject of [
      'Check in now for your flight to Oslo',
      'Spring sale: Europe from EUR 99',
      'Prices dropped for New York to Lisbon',
    ]) {
      expect((await extract('KLM <noreply@klm.com>', reminder, subject)).isFlightBooking).toBe(false);
    }
  });

  it('still reads a confirmation whose subject also names check-in', async () => {
    const result = await extract('KLM <noreply@klm.com>', reminder, 'Booking confirmation R7JTWC - check in now');
    expect(result.bookings[0]?.bookingCode).toBe('R7JTWC');
  });
});

describe('names', () => {
  it('keeps a Spanish first surname with the last one', () => {
    expect(familyName('Javier Ruiz Montalbán')).toBe('Ruiz Montalbán');
    expect(familyName('María José Ortega Villalobos')).toBe('Ortega Villalobos');
    expect(familyName('Lucía Ortiz de Zárate')).toBe('Ortiz de Zárate');
    expect(familyName('Mary Ann Whitfield')).toBe('Whitfield');
    expect(familyName('Ana Ruiz')).toBe('Ruiz');
    expect(familyName('Rocío Valdés Ortuño')).toBe('Valdés Ortuño');
    expect(familyName('John Martin Smith')).toBe('Smith');
  });

  it('reads travellers under a heading and a table header row', async () => {
    const result = await extract(
      'Skyways <noreply@skyways.example>',
      plainConfirmation({ passenger: '' })
        .replace('Passenger: ', '')
        .concat('\nPassengers\nName | BA 117\nMr Leopold Aurich | 14A\nMrs Henrike Aurich | 14C\n'),
    );
    expect(result.bookings[0]?.passengers).toEqual(['Leopold Aurich', 'Henrike Aurich']);
  });

  it("reads 'Passagère :'", async () => {
    const result = await extract(
      'Skyways <noreply@skyways.example>',
      plainConfirmation({ passenger: '' }).replace('Passenger: ', 'Passagère : Mme Élodie Gagnon-Bérubé'),
    );
    expect(result.bookings[0]?.passengers).toEqual(['Élodie Gagnon-Bérubé']);
  });
});

describe('fare brand after the cabin', () => {
  const row = (cabin: string) =>
    plainConfirmation({
      segments: [`Fri 9 Jul 2027 | NZ615 | Auckland (AKL) 7:00am > Queenstown (ZQN) 8:50am | ${cabin} | Seat 8F`],
    });

  it("reads 'Economy – Flexitime' and 'Economy | Red e-Deal', and not 'Seat 8F' as a brand", async () => {
    const from = 'Air New Zealand <noreply@airnz.co.nz>';
    expect((await extract(from, row('Economy – Flexitime'))).bookings[0]?.fareType).toBe('Flexitime');
    expect((await extract(from, row('Economy | Red e-Deal'))).bookings[0]?.fareType).toBe('Red e-Deal');
    expect((await extract(from, row('Economy'))).bookings[0]?.fareType).toBeNull();
    expect((await extract(from, row('Economy | Confirmed'))).bookings[0]?.fareType).toBeNull();
  });
});

describe('seats', () => {
  const legs = [
    'Tue 1 Jun 2027  FI630  Boston (BOS) 20:40 -> Reykjavik (KEF) 06:10 +1',
    'Wed 2 Jun 2027  FI204  Reykjavik (KEF) 07:40 -> Copenhagen (CPH) 12:55',
  ];

  it('reads a seat table with one column per leg', async () => {
    const html = [
      '<p>Booking reference: ICE5RM</p>',
      '<table><tr><th>Passenger</th><th>BOS-KEF</th><th>KEF-CPH</th></tr>',
      '<tr><td>Ms Tove Lindqvist</td><td>22A</td><td>18A</td></tr>',
      '<tr><td>Mr Jesper Lindqvist</td><td>22B</td><td>18B</td></tr></table>',
      ...legs.map((leg) => `<p>${leg.replace('->', '&rarr;')}</p>`),
    ].join('\n');
    const result = await extractFlightBookings(
      buildEmail({ from: 'Icelandair <noreply@icelandair.is>', subject: 'Your booking', html }),
    );
    expect(result.bookings[0]?.segments.map((segment) => segment.seatNumber)).toEqual(['22A', '18A']);
  });

  it('reads the first seat of a list of untitled names', async () => {
    const text = plainConfirmation({}).replace(
      'Passenger: Mr John Example',
      'Passengers: John Example, Jane Example\nSeats: John Example 12A, Jane Example 12B',
    );
    const result = await extract('Skyways <noreply@skyways.example>', text);
    expect(result.bookings[0]?.segments[0]?.seatNumber).toBe('12A');
  });
});

describe('more fare labels', () => {
  const withLine = (line: string, leg?: string) =>
    plainConfirmation({ segments: leg ? [leg] : undefined }).replace(
      'Passenger: Mr John Example',
      `Passenger: Mr John Example\n${line}`,
    );
  const leg = 'Tue, 14 Sep 2027  BA 117  London Heathrow (LHR) 08:25  ->  New York JFK (JFK) 11:15';

  it("reads '(Tarifa Basic)', 'Fare name:' and 'Economy (Light)' in a flight row", async () => {
    const from = 'Skyways <noreply@skyways.example>';
    expect((await extract(from, withLine('Clase: Turista (Tarifa Basic)'))).bookings[0]?.fareType).toBe('Basic');
    expect((await extract(from, withLine('Fare name: Saver'))).bookings[0]?.fareType).toBe('Saver');
    expect((await extract(from, withLine('', `${leg}  Economy (Light)`))).bookings[0]?.fareType).toBe('Light');
    expect((await extract(from, withLine('', `${leg}  Economy (K)`))).bookings[0]?.fareType).toBeNull();
  });
});

describe('check-in reminders', () => {
  it('are not bookings when nothing in them confirms or prices a trip', async () => {
    const text = [
      'Check-in is now open',
      'Booking code: R7JTWC',
      'KL 1145  Amsterdam (AMS) 22 Oct 2027 18:35 - Oslo (OSL) 20:20',
    ];
    const from = 'KLM <noreply@klm.com>';
    expect((await extract(from, text.join('\n'), 'Your flight to Oslo')).isFlightBooking).toBe(false);
    const confirmed = [...text, 'Your booking is confirmed.'].join('\n');
    expect((await extract(from, confirmed, 'Your flight to Oslo')).isFlightBooking).toBe(true);
  });
});

describe('numbered travellers', () => {
  it("reads 'Passenger 1: ...' and 'Adult 2: ...' lines", async () => {
    const from = 'Skyways <noreply@skyways.example>';
    for (const [first, second] of [
      ['Passenger 1: Mr John Example', 'Passenger 2: Mrs Jane Example'],
      ['Adult 1: John Example', 'Adult 2: Jane Example'],
    ]) {
      const text = plainConfirmation({}).replace('Passenger: Mr John Example', `${first}\n${second}`);
      expect((await extract(from, text)).bookings[0]?.passengers).toEqual(['John Example', 'Jane Example']);
    }
  });
});

describe('seat lists after the legs', () => {
  const legs = [
    'Tue 1 Jun 2027  FI630  Boston (BOS) 20:40 -> Reykjavik (KEF) 06:10 +1',
    'Wed 2 Jun 2027  FI204  Reykjavik (KEF) 07:40 -> Copenhagen (CPH) 12:55',
  ];
  it('reads seats keyed by traveller, flight or route', async () => {
    for (const list of [
      'Seats\nTove Lindqvist: 22A, 18A\nJesper Lindqvist: 22B, 18B',
      'Seats\nFI630: 22A (Tove), 22B (Jesper)\nFI204: 18A (Tove), 18B (Jesper)',
      'Seat selection\nBOS-KEF: 22A, 22B\nKEF-CPH: 18A, 18B',
      'Seats: BOS → KEF 22A / 22B; KEF → CPH 18A / 18B',
    ]) {
      const text = plainConfirmation({ segments: legs }).replace(
        'Passenger: Mr John Example',
        `Passengers: Ms Tove Lindqvist, Mr Jesper Lindqvist\n\n${list}`,
      );
      const result = await extract('Icelandair <noreply@icelandair.is>', text);
      expect(result.bookings[0]?.segments.map((segment) => segment.seatNumber)).toEqual(['22A', '18A']);
    }
  });
});

describe('mail about a booked trip', () => {
  it('is not a booking: reminders, upsells and surveys', async () => {
    const text = ['Booking reference: QX7PLM', 'LH 1166 Frankfurt (FRA) 14 Jun 2027 10:05 - Lisbon (LIS) 12:15'].join(
      '\n',
    );
    const from = 'Lufthansa <online@booking-lufthansa.com>';
    for (const subject of [
      'Your trip to Lisbon is coming up',
      'How was your flight to Lisbon?',
      'Complete your trip: add a hotel in Lisbon',
    ]) {
      expect((await extract(from, text, subject)).isFlightBooking).toBe(false);
    }
    expect((await extract(from, text, 'Your upgrade to Business is confirmed')).isFlightBooking).toBe(true);
  });
});

describe('a Class / Fare column', () => {
  it("reads the brand after the cabin in 'Economy / Light'", async () => {
    const html = [
      '<p>Booking reference: <b>QX7PLM</b></p><p>Passenger: Mr John Example</p>',
      '<table><tr><th>Flight</th><th>From</th><th>To</th><th>Departure</th><th>Arrival</th><th>Class / Fare</th></tr>',
      '<tr><td>LH 1166</td><td>Frankfurt (FRA)</td><td>Lisbon (LIS)</td><td>14 Jun 2027 10:05</td>',
      '<td>14 Jun 2027 12:15</td><td>Economy / Light</td></tr></table>',
    ].join('\n');
    const result = await extractFlightBookings(
      buildEmail({ from: 'Skyways <noreply@skyways.example>', subject: 'Your booking QX7PLM', html }),
    );
    expect(result.bookings[0]?.fareType).toBe('Light');
  });
});

describe('totals', () => {
  it("reads 'Total: 2 x EUR 156.20 = EUR 312.40' and 'Gesamt: 312,40 €'", async () => {
    for (const total of ['2 x EUR 156.20 = EUR 312.40', 'EUR 312.40']) {
      const text = plainConfirmation({ total });
      const result = await extract('Skyways <noreply@skyways.example>', text);
      expect(result.bookings[0]?.totalPrice).toEqual({ amountCents: 31240, currency: 'EUR' });
    }
    const german = plainConfirmation({}).concat('\nGesamt: 312,40 €\n');
    const result = await extract('Skyways <noreply@skyways.example>', german);
    expect(result.bookings[0]?.totalPrice).toEqual({ amountCents: 31240, currency: 'EUR' });
  });
});

describe('airline name', () => {
  it("follows the sender's spelling when only accents differ", async () => {
    for (const sender of ['Aeromexico', 'Aeroméxico']) {
      const text = plainConfirmation({
        segments: ['Sat 6 Mar 2027  AM 530  Mexico City (MEX) 07:10 -> Cancun (CUN) 09:45'],
      });
      const email = buildEmail({
        from: `=?utf-8?b?${Buffer.from(sender).toString('base64')}?= <confirmacion@aeromexico.com>`,
        subject: 'Your booking',
        text,
      });
      expect((await extractFlightBookings(email)).bookings[0]?.airline).toBe(sender);
    }
  });
});

describe('Spanish and Portuguese fare names', () => {
  const withLine = (line: string) =>
    plainConfirmation({}).replace('Passenger: Mr John Example', `Passenger: Mr John Example\n${line}`);
  it("reads 'Tarifa Básica' without a colon and the brand after 'Executiva –'", async () => {
    const from = 'Skyways <noreply@skyways.example>';
    const fare = async (line: string) => (await extract(from, withLine(line))).bookings[0]?.fareType;
    expect(await fare('Turista - Tarifa Básica | Asiento: 33H')).toBe('Básica');
    expect(await fare('Tarifa Clásica | Tasas: 321,17 €')).toBe('Clásica');
    expect(await fare('Tarifa Aérea | 498,00 €')).toBeNull();
  });
});

describe('schedule changes', () => {
  const from = 'Lufthansa <online@booking-lufthansa.com>';
  const head = ['Schedule change', 'Booking reference: QX7PLM', 'Passenger: Mr John Example'];
  const flights = async (text: string[]) =>
    (await extract(from, [...head, ...text].join('\n'), 'Schedule change QX7PLM')).bookings[0]?.segments.map(
      (segment) => segment.flightNumber,
    );

  it("keeps only the 'NOW:' flights after 'WAS:'", async () => {
    expect(
      await flights([
        'WAS:',
        'Mon 14 Jun 2027  LH 1166  Frankfurt (FRA) 10:05 -> Lisbon (LIS) 12:15',
        'NOW:',
        'Mon 14 Jun 2027  LH 1170  Frankfurt (FRA) 13:40 -> Lisbon (LIS) 15:50',
      ]),
    ).toEqual(['LH 1170']);
  });

  it("drops a row whose status cell is 'Cancelled'", async () => {
    expect(
      await flights([
        'Flight | Date | From | To | Departs | Arrives | Status',
        'LH 1166 | 14 Jun 2027 | FRA | LIS | 10:05 | 12:15 | Cancelled',
        'LH 1170 | 14 Jun 2027 | FRA | LIS | 13:40 | 15:50 | New',
      ]),
    ).toEqual(['LH 1170']);
  });
});

describe('traveller tables', () => {
  const leg = '<p>Mon 14 Jun 2027 &nbsp; LH 1166 &nbsp; Frankfurt (FRA) 10:05 &rarr; Lisbon (LIS) 12:15</p>';
  const passengers = async (table: string) => {
    const html = `<p>Booking reference: <b>QX7PLM</b></p>${leg}${table}<p>Total: EUR 312.40</p>`;
    const email = buildEmail({ from: 'Skyways <noreply@skyways.example>', subject: 'Your booking QX7PLM', html });
    return (await extractFlightBookings(email)).bookings[0]?.passengers;
  };

  it("reads 'First name | Last name' columns and 'Example, John Mr' cells", async () => {
    expect(
      await passengers(
        '<table><tr><th>Title</th><th>First name</th><th>Last name</th></tr><tr><td>Mr</td><td>John</td><td>Example</td></tr><tr><td>Mrs</td><td>Jane</td><td>Example</td></tr></table>',
      ),
    ).toEqual(['John Example', 'Jane Example']);
    expect(
      await passengers(
        '<table><tr><th>Passenger</th><th>Type</th><th>Ticket</th></tr><tr><td>Example, John Mr</td><td>Adult</td><td>220-1</td></tr><tr><td>EXAMPLE, JANE MRS</td><td>Adult</td><td>220-2</td></tr></table>',
      ),
    ).toEqual(['John Example', 'Jane Example']);
  });
});

describe('cabins', () => {
  it("maps a bare 'Première' / 'Primera' to First and 'Executiva' to Business", () => {
    expect(cabinFromText('Première', null)).toBe('First');
    expect(cabinFromText('Primera', null)).toBe('First');
    expect(cabinFromText('Classe Executiva', null)).toBe('Business');
    expect(cabinFromText('Première classe', null)).toBe('First');
  });
});
