// Rules added after the fifth blind holdout exposed them: a lounge, parking, insurance, baggage or
// upgrade reference is not a record locator, German and French sale subjects ('ab 49,99 €'),
// marketing mail whose only 'booking' has no traveller is an offer, and three-digit receipt
// times ('600A', '1045P').
import { describe, expect, it } from './testing/harness.ts';
import { extractFlightBookings } from './index.ts';
import { buildEmail, plainConfirmation } from './testing/email-factory.ts';
import { findTimes } from './dates.ts';

const extract = (from: string, text: string, subject = 'Your trip', date = 'Tue, 02 Mar 2027 10:00:00 -0500') =>
  extractFlightBookings(buildEmail({ from, subject, date, text, encoding: 'quoted-printable' }));

describe('services around a flight', () => {
  it('does not read a lounge, parking or insurance reference as a record locator', async () => {
    for (const label of ['Lounge booking reference', 'Parking booking reference', 'Insurance reference number']) {
      const text = plainConfirmation({ label, passenger: '', total: 'GBP 39.00' });
      expect((await extract('Bookings <bookings@services.example>', text)).isFlightBooking).toBe(false);
    }
  });

  it('rejects lounge, parking and insurance mail by its subject', async () => {
    for (const subject of [
      'Lounge booking confirmed: QX7PLM',
      'Your parking booking QX7PLM',
      'Your travel insurance policy',
    ]) {
      const text = plainConfirmation({ total: 'GBP 39.00' });
      expect((await extract('Bookings <bookings@services.example>', text, subject)).isFlightBooking).toBe(false);
    }
  });

  it('still reads an airline confirmation', async () => {
    const text = plainConfirmation({ total: 'GBP 439.00' });
    expect(
      (await extract('British Airways <BA@contact.ba.com>', text, 'Your booking confirmation')).isFlightBooking,
    ).toBe(true);
  });
});

describe('offers', () => {
  it('rejects German and French sale subjects', async () => {
    const text = plainConfirmation({ label: 'Buchungscode', passenger: '' });
    for (const subject of ['Mallorca ab 49,99 € – jetzt sparen', 'Nice dès 39 € : nos offres']) {
      expect((await extract('Eurowings <newsletter@mailing.eurowings.com>', text, subject)).isFlightBooking).toBe(
        false,
      );
    }
  });

  it('treats a travellerless booking in marketing mail as an offer', async () => {
    const text = `${plainConfirmation({ label: 'Buchungscode', code: 'SOMMER', passenger: '' })}\nAbmelden`;
    expect((await extract('Eurowings <newsletter@mailing.eurowings.com>', text)).isFlightBooking).toBe(false);
    const booked = `${plainConfirmation({ total: 'EUR 99.00' })}\nUnsubscribe from marketing mail`;
    expect((await extract('Eurowings <noreply@eurowings.com>', booked)).isFlightBooking).toBe(true);
  });
});

describe('receipt times', () => {
  it('reads three- and four-digit times with an A/P suffix', () => {
    expect(findTimes('03OCT27  DL1146  600A  928A').map((t) => [t.hour, t.minute])).toEqual([
      [6, 0],
      [9, 28],
    ]);
    expect(findTimes('1045P  631A+1').map((t) => [t.hour, t.minute])).toEqual([
      [22, 45],
      [6, 31],
    ]);
  });
});
