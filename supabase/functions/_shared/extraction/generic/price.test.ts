// The booking total: its label, 'n x price = total', and an agency's own fee taken off.
import { describe, expect, it } from '../testing/harness.ts';
import { extractFlightBookings } from '../index.ts';
import { buildEmail, plainConfirmation } from '../testing/email-factory.ts';
import { extractText } from '../testing/extract.ts';

describe('agency fees', () => {
  it("takes an agency's own fee off its trip total when the flights' amount is printed", async () => {
    const result = await extractFlightBookings(
      buildEmail({
        from: 'SkyRoute Travel <itineraries@skyroutetravel.com>',
        subject: 'Booking confirmed',
        date: 'Sun, 02 May 2027 15:55:00 -0400',
        text: [
          'Airline confirmation (American Airlines): LMXVQT',
          'Travelers',
          'SMITH-JONES/ARTHUR MR',
          'SATURDAY 12 JUNE 2027',
          '  AA 1184   MIA 0655   DFW 0900   Main Cabin',
          'Flights, 1 traveler $573.40',
          'SkyRoute service fee $29.00',
          'Trip total charged $602.40',
        ].join('\n'),
      }),
    );
    expect(result.bookings[0]?.bookingCode).toBe('LMXVQT');
    expect(result.bookings[0]?.totalPrice).toEqual({ amountCents: 57340, currency: 'USD' });
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
    const withFee = (await extractText('Agency <trips@agency.example>', text('Booking fee'))).bookings[0];
    expect(withFee?.totalPrice).toEqual({ amountCents: 29000, currency: 'USD' });
    const withBag = (await extractText('Agency <trips@agency.example>', text('Checked bag'))).bookings[0];
    expect(withBag?.totalPrice).toEqual({ amountCents: 29800, currency: 'USD' });
  });
});

describe('totals', () => {
  it("reads 'Total: 2 x EUR 156.20 = EUR 312.40' and 'Gesamt: 312,40 €'", async () => {
    for (const total of ['2 x EUR 156.20 = EUR 312.40', 'EUR 312.40']) {
      const text = plainConfirmation({ total });
      const result = await extractText('Skyways <noreply@skyways.example>', text);
      expect(result.bookings[0]?.totalPrice).toEqual({ amountCents: 31240, currency: 'EUR' });
    }
    const german = plainConfirmation({}).concat('\nGesamt: 312,40 €\n');
    const result = await extractText('Skyways <noreply@skyways.example>', german);
    expect(result.bookings[0]?.totalPrice).toEqual({ amountCents: 31240, currency: 'EUR' });
  });
});
