// The fare brand as printed: labels in several languages, the brand after the cabin, columns.
import { describe, expect, it } from '../testing/harness.ts';
import { extractFlightBookings } from '../index.ts';
import { buildEmail, plainConfirmation } from '../testing/email-factory.ts';
import { extractText } from '../testing/extract.ts';

describe('fare labels', () => {
  const withLine = (line: string, leg?: string) =>
    plainConfirmation({ segments: leg ? [leg] : undefined }).replace(
      'Passenger: Mr John Example',
      `Passenger: Mr John Example\n${line}`,
    );
  const leg = 'Tue, 14 Sep 2027  BA 117  London Heathrow (LHR) 08:25  ->  New York JFK (JFK) 11:15';

  it('reads a Bundle label as the fare brand', async () => {
    const booking = (
      await extractText(
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

  it("reads '(Tarifa Basic)', 'Fare name:' and 'Economy (Light)' in a flight row", async () => {
    const from = 'Skyways <noreply@skyways.example>';
    expect((await extractText(from, withLine('Clase: Turista (Tarifa Basic)'))).bookings[0]?.fareType).toBe('Basic');
    expect((await extractText(from, withLine('Fare name: Saver'))).bookings[0]?.fareType).toBe('Saver');
    expect((await extractText(from, withLine('', `${leg}  Economy (Light)`))).bookings[0]?.fareType).toBe('Light');
    expect((await extractText(from, withLine('', `${leg}  Economy (K)`))).bookings[0]?.fareType).toBeNull();
  });

  it("reads 'Tarifa Básica' without a colon and the brand after 'Executiva –'", async () => {
    const from = 'Skyways <noreply@skyways.example>';
    const fare = async (line: string) => (await extractText(from, withLine(line))).bookings[0]?.fareType;
    expect(await fare('Turista - Tarifa Básica | Asiento: 33H')).toBe('Básica');
    expect(await fare('Tarifa Clásica | Tasas: 321,17 €')).toBe('Clásica');
    expect(await fare('Tarifa Aérea | 498,00 €')).toBeNull();
  });
});

describe('the brand after the cabin', () => {
  const row = (cabin: string) =>
    plainConfirmation({
      segments: [`Fri 9 Jul 2027 | NZ615 | Auckland (AKL) 7:00am > Queenstown (ZQN) 8:50am | ${cabin} | Seat 8F`],
    });

  it("reads 'Economy – Flexitime' and 'Economy | Red e-Deal', and not 'Seat 8F' as a brand", async () => {
    const from = 'Air New Zealand <noreply@airnz.co.nz>';
    expect((await extractText(from, row('Economy – Flexitime'))).bookings[0]?.fareType).toBe('Flexitime');
    expect((await extractText(from, row('Economy | Red e-Deal'))).bookings[0]?.fareType).toBe('Red e-Deal');
    expect((await extractText(from, row('Economy'))).bookings[0]?.fareType).toBeNull();
    expect((await extractText(from, row('Economy | Confirmed'))).bookings[0]?.fareType).toBeNull();
  });

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

describe('a fare brand beside the fare', () => {
  const withFare = (line: string) =>
    plainConfirmation({}).replace('Passenger: Mr John Example', `Passenger: Mr John Example\n${line}`);

  it.each([
    ['Fare: Economy Light   EUR 240.00', 'Economy Light'],
    ['Tarif: Basic   49,99 €', 'Basic'],
    ['Tarif Basic: 49,99 EUR', 'Basic'],
    ['Flight fare - Smart: 59.99 EUR', 'Smart'],
    ['Fare (Smart): 120.00 EUR', 'Smart'],
    ['Fare Basic  1 x 49.99 EUR', 'Basic'],
    ['Smart fare: 49.99 EUR', 'Smart'],
  ])("reads '%s'", async (line, brand) => {
    const booking = (await extractText('Skyways <noreply@skyways.example>', withFare(line))).bookings[0];
    expect(booking?.fareType).toBe(brand);
  });

  it.each([
    ['Base fare: 49.99 EUR'],
    ['Adult fare: 49.99 EUR'],
    ['Fare per passenger: EUR 49.99'],
    ['Air Fare: EUR 20.00'],
    ['Total fare: USD 49.99'],
    ['Tarif Erwachsener: 49,99 EUR'],
    ['Fare EUR 49.99'],
  ])("reads no brand in '%s'", async (line) => {
    const booking = (await extractText('Skyways <noreply@skyways.example>', withFare(line))).bookings[0];
    expect(booking?.fareType).toBeNull();
  });
});
