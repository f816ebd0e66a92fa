// Validation: what the output booking takes from its sender.
import { describe, expect, it } from './testing/harness.ts';
import { extractFlightBookings } from './index.ts';
import { buildEmail, plainConfirmation } from './testing/email-factory.ts';

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
