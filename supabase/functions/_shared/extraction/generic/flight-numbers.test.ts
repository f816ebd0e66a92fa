// Flight numbers: known carriers, prefixes, and carriers the engine does not know.
import { describe, expect, it } from '../testing/harness.ts';
import { extractText } from '../testing/extract.ts';

describe('carriers the engine does not know', () => {
  it('keeps a carrier it does not know when its number is glued to a leg', async () => {
    const result = await extractText(
      'Corsair <reservation@corsair.fr>',
      [
        'Référence de réservation : CX8RZL',
        'VOL ALLER – vendredi 5 février 2027',
        'SS960  Paris-Orly (ORY) 11h25  ->  Pointe-à-Pitre (PTP) 14h10',
        'Mme Hélène LEFÈVRE-MARTIN',
      ].join('\n'),
    );
    expect(result.bookings[0]?.segments[0]?.flightNumber).toBe('SS 960');
    expect(result.bookings[0]?.airlineIata).toBe('SS');
  });
});
