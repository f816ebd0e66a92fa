// Seats: labels, seat columns, per-leg and per-flight lists, seat tables, seat lists after the legs.
import { describe, expect, it } from '../testing/harness.ts';
import { extractFlightBookings } from '../index.ts';
import { buildEmail, plainConfirmation } from '../testing/email-factory.ts';
import { extractHtml, extractText } from '../testing/extract.ts';

describe('seat tables', () => {
  const legs = [
    'Tue 1 Jun 2027  FI630  Boston (BOS) 20:40 -> Reykjavik (KEF) 06:10 +1',
    'Wed 2 Jun 2027  FI204  Reykjavik (KEF) 07:40 -> Copenhagen (CPH) 12:55',
  ];

  it('reads the first passenger of a seat table with one column per flight', async () => {
    const result = await extractHtml(
      'Singapore Airlines <noreply@singaporeair.com.sg>',
      `<p>Booking reference <b>6KPRZW</b></p>
<table><tr><td>SQ638</td><td>Thu, 11 Mar 2027</td><td>Singapore SIN 07:55</td><td>Tokyo (Narita) NRT 15:55</td></tr></table>
<table><tr><th>Passenger</th><th>SQ638</th></tr><tr><td>MR WENG HUI LIM</td><td>11A</td></tr><tr><td>MS JIA MIN KOH</td><td>11C</td></tr></table>`,
    );
    expect(result.bookings[0]?.segments[0]?.seatNumber).toBe('11A');
  });

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
    const result = await extractText('Skyways <noreply@skyways.example>', text);
    expect(result.bookings[0]?.segments[0]?.seatNumber).toBe('12A');
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
      const result = await extractText('Icelandair <noreply@icelandair.is>', text);
      expect(result.bookings[0]?.segments.map((segment) => segment.seatNumber)).toEqual(['22A', '18A']);
    }
  });
});

describe('cabins: stated, never invented', () => {
  const legs = [
    'Tue, 9 Mar 2027  LH 2057  Hamburg (HAM) 06:45 -> Munich (MUC) 07:55',
    'Tue, 9 Mar 2027  LH 1790  Munich (MUC) 09:30 -> Lisbon (LIS) 11:40',
  ];
  const cabins = async (text: string, from = 'Lufthansa <online@booking-lufthansa.com>') =>
    (await extractText(from, text)).bookings[0]?.segments.map((segment) => segment.cabinClass);

  it('leaves the cabin empty where the mail names none', async () => {
    expect(await cabins(plainConfirmation({ segments: legs }))).toEqual([null, null]);
    // a booking-class letter and a fare brand alone name no cabin
    const lettered = plainConfirmation({ segments: legs.map((leg) => `${leg}  Class: V`), fare: 'Saver' });
    expect(await cabins(lettered)).toEqual([null, null]);
  });

  it('takes a cabin line under the legs it closes, or below the itinerary', async () => {
    const closing = plainConfirmation({ segments: [...legs, 'Klasse: Economy  Tarif: Economy Light'] });
    expect(await cabins(closing)).toEqual(['Economy', 'Economy']);
    const below = plainConfirmation({ segments: legs }).replace(
      'Passenger:',
      'Cabine : Business – Tarif : Flex\nPassenger:',
    );
    expect(await cabins(below)).toEqual(['Business', 'Business']);
  });

  it('reads a fare brand that names the cabin, and a cabin alone in its cell', async () => {
    const brand = plainConfirmation({ segments: legs }).replace(
      'Passenger:',
      'FARE FAMILY: ECONOMY CLASSIC\nPassenger:',
    );
    expect(await cabins(brand)).toEqual(['Economy', 'Economy']);
    const cell = plainConfirmation({ segments: legs }).replace(
      'Passenger: Mr John Example',
      'Traveler: John Example · Premium Economy',
    );
    expect(await cabins(cell)).toEqual(['Premium Economy', 'Premium Economy']);
  });

  it('gives each leg the statement below it when the legs differ', async () => {
    const text = plainConfirmation({
      segments: [
        legs[0] ?? '',
        'Class: Business',
        'Sun, 14 Mar 2027  LH 2064  Munich (MUC) 17:45 -> Hamburg (HAM) 18:55',
        'Class: Economy',
      ],
    });
    expect(await cabins(text)).toEqual(['Business', 'Economy']);
  });
});
