// Booking codes: labels in every language the engine reads, values with a carrier prefix, and the
// airline's own locator preferred over an agency's reference.
import { describe, expect, it } from '../testing/harness.ts';
import { plainConfirmation } from '../testing/email-factory.ts';
import { extractText } from '../testing/extract.ts';

const AGENCY = 'Trips <trips@agency.example>';

describe("the airline's locator in an agency's mail", () => {
  it.each([
    ['Airline Ref: LH/QZP4TW'],
    ['Airline Ref: LH - QZP4TW'],
    ['Airline booking reference: QZP4TW'],
    ['FLIGHT BOOKING REF: LH/QZP4TW'],
    ['Vendor locator: QZP4TW'],
  ])("prefers '%s' over the agency's record locator", async (line) => {
    const text = plainConfirmation({ label: 'Record locator', code: 'AGT7XB' }).replace(
      'Passenger:',
      `${line}\nPassenger:`,
    );
    const result = await extractText(AGENCY, text);
    expect(result.bookings.map((booking) => booking.bookingCode)).toEqual(['QZP4TW']);
  });

  it('keeps the only reference when no line names the airline', async () => {
    const result = await extractText(AGENCY, plainConfirmation({ label: 'Record locator', code: 'AGT7XB' }));
    expect(result.bookings[0]?.bookingCode).toBe('AGT7XB');
  });
});

describe('labels in Swedish, Dutch and Italian', () => {
  it.each([['Bokningsnummer'], ['Boekingscode'], ['Reserveringsnummer'], ['Codice di prenotazione']])(
    "reads '%s'",
    async (label) => {
      const result = await extractText('Skyways <noreply@skyways.example>', plainConfirmation({ label }));
      expect(result.bookings[0]?.bookingCode).toBe('QX7PLM');
    },
  );
});
