// Travellers: labels, headings with one name per line, numbered travellers, traveller tables, greetings.
import { describe, expect, it } from '../testing/harness.ts';
import { extractFlightBookings } from '../index.ts';
import { buildEmail, plainConfirmation } from '../testing/email-factory.ts';
import { extractText } from '../testing/extract.ts';

describe('travellers under a heading', () => {
  it('reads a numbered traveller list under a heading', async () => {
    const result = await extractText(
      'Eurowings <noreply@booking.eurowings.com>',
      [
        'Buchungscode: KXR7WB',
        'Samstag, 13. März 2027',
        'EW 9582   Düsseldorf (DUS) ab 19.05 Uhr   Palma de Mallorca (PMI) an 21.30 Uhr',
        'Reisende',
        '1. Frau Dr. Hannelore Müller-Lüdenscheidt',
        '2. Herr Bernd Müller-Lüdenscheidt',
      ].join('\n'),
    );
    expect(result.bookings[0]?.passengers).toEqual(['Hannelore Müller-Lüdenscheidt', 'Bernd Müller-Lüdenscheidt']);
  });

  it('reads travellers under a heading and a table header row', async () => {
    const result = await extractText(
      'Skyways <noreply@skyways.example>',
      plainConfirmation({ passenger: '' })
        .replace('Passenger: ', '')
        .concat('\nPassengers\nName | BA 117\nMr Leopold Aurich | 14A\nMrs Henrike Aurich | 14C\n'),
    );
    expect(result.bookings[0]?.passengers).toEqual(['Leopold Aurich', 'Henrike Aurich']);
  });

  it("reads 'Passagère :'", async () => {
    const result = await extractText(
      'Skyways <noreply@skyways.example>',
      plainConfirmation({ passenger: '' }).replace('Passenger: ', 'Passagère : Mme Élodie Gagnon-Bérubé'),
    );
    expect(result.bookings[0]?.passengers).toEqual(['Élodie Gagnon-Bérubé']);
  });
});

describe('greetings', () => {
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
    const booking = (await extractText('British Airways <BA@contact.ba.com>', confirmation('Dear OKAFOR/CHIDI MR,')))
      .bookings[0];
    expect(booking?.passengers).toEqual(['Chidi Okafor']);
    expect(booking?.segments[0]?.seatNumber).toBe('27K');
    expect(booking?.fareType).toBe('Basic');
  });

  it('does not take a generic greeting for a name', async () => {
    const booking = (await extractText('British Airways <BA@contact.ba.com>', confirmation('Dear Valued Customer,')))
      .bookings[0];
    expect(booking?.passengers).toEqual([]);
  });
});

describe('numbered travellers and traveller tables', () => {
  const leg = '<p>Mon 14 Jun 2027 &nbsp; LH 1166 &nbsp; Frankfurt (FRA) 10:05 &rarr; Lisbon (LIS) 12:15</p>';
  const passengers = async (table: string) => {
    const html = `<p>Booking reference: <b>QX7PLM</b></p>${leg}${table}<p>Total: EUR 312.40</p>`;
    const email = buildEmail({ from: 'Skyways <noreply@skyways.example>', subject: 'Your booking QX7PLM', html });
    return (await extractFlightBookings(email)).bookings[0]?.passengers;
  };

  it("reads 'Passenger 1: ...' and 'Adult 2: ...' lines", async () => {
    const from = 'Skyways <noreply@skyways.example>';
    for (const [first, second] of [
      ['Passenger 1: Mr John Example', 'Passenger 2: Mrs Jane Example'],
      ['Adult 1: John Example', 'Adult 2: Jane Example'],
    ]) {
      const text = plainConfirmation({}).replace('Passenger: Mr John Example', `${first}\n${second}`);
      expect((await extractText(from, text)).bookings[0]?.passengers).toEqual(['John Example', 'Jane Example']);
    }
  });

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

describe('reservation names', () => {
  it("reads 'NAME: SURNAME/GIVEN TITLE' in an agency's itinerary", async () => {
    const text = plainConfirmation({}).replace('Passenger: Mr John Example', 'NAME: NIEMINEN/AINO MS');
    const result = await extractText('Trips <trips@agency.example>', text);
    expect(result.bookings[0]?.passengers).toEqual(['Aino Nieminen']);
  });
});

describe('the party', () => {
  const withLines = (...lines: string[]) =>
    plainConfirmation({}).replace('Passenger: Mr John Example', lines.join('\n'));

  it('counts the travellers the mail counts, more than it names', async () => {
    const booking = (
      await extractText(
        'Skyways <noreply@skyways.example>',
        withLines('Passenger: Mr John Example', 'Travellers: 2 Adults, 1 Infant'),
      )
    ).bookings[0];
    expect(booking).toMatchObject({ passengers: ['John Example'], passengerCount: 3 });
  });

  it.each([
    ['Reisende: 2 Erwachsene, 1 Kind', 3],
    ['Adults (2): EUR 400.00', 2],
    ['Passengers: 4', 4],
    ['Base fare (2 travelers) | $658.60', 2],
    ['Baggage: 1 x 23kg bag', 1],
    ['Terminal 2 passengers please use gate B', 1],
  ])("reads '%s' as a party of %i", async (line, count) => {
    const booking = (
      await extractText('Skyways <noreply@skyways.example>', withLines('Passenger: Mr John Example', line))
    ).bookings[0];
    expect(booking?.passengerCount).toBe(count);
  });

  it('counts one person named twice, in the reservation form and in full, once', async () => {
    const booking = (
      await extractText(
        'Skyways <noreply@skyways.example>',
        withLines('Passengers: SMITH/JOHN MR', '            SMITH/JANE MRS', 'Dear John Smith,'),
      )
    ).bookings[0];
    expect(booking).toMatchObject({ passengers: ['John Smith', 'Jane Smith'], passengerCount: 2 });
  });

  it('has no party where the mail names and counts no traveller', async () => {
    const text = plainConfirmation({}).replace('Passenger: Mr John Example', '');
    expect((await extractText('Skyways <noreply@skyways.example>', text)).bookings[0]?.passengerCount).toBeNull();
  });
});
