// The fifth blind holdout corpus (testing/holdout-blind-5): 27 synthetic emails written from the
// README and the development corpus only, without reading the engine, weighted towards tempting
// negatives: 16 non-bookings from airlines and travel sites (a fare sale with flight numbers and a
// promo code, an upcoming-trip reminder without a code, a cancellation, an airport hotel and a car
// rental naming the guest's flights, airport parking, a lounge pass, a price-drop alert, an
// upgrade auction, a delayed-baggage report, a miles statement, a gift-card receipt, a German
// newsletter whose 'Buchungscode' is a discount code, a travel-insurance certificate, a rail + air
// bundle, a check-in invitation), and 11 positives that are siblings of dev kinds.
// Field-level F1 >= 0.97 and no false booking.
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from './testing/harness.ts';
import { addCounts, emptyCounts, f1, scoreEmail, totalCounts } from './evaluation.ts';
import { extractFlightBookings } from './index.ts';
import type { ExtractionResult } from './types.ts';

const directory = join(dirname(fileURLToPath(import.meta.url)), 'testing', 'holdout-blind-5');

describe('fifth blind holdout corpus', () => {
  it('scores field-level F1 >= 0.97 with no false booking', async () => {
    const names = (await readdir(directory)).filter((name) => name.endsWith('.eml'));
    expect(names.length).toBeGreaterThanOrEqual(27);
    const totals = emptyCounts();
    let falseBookings = 0;
    let negatives = 0;
    for (const name of names) {
      const truth = JSON.parse(
        await readFile(join(directory, name.replace(/\.eml$/, '.json')), 'utf8'),
      ) as ExtractionResult;
      if (!truth.isFlightBooking) negatives++;
      const predicted = await extractFlightBookings(new Uint8Array(await readFile(join(directory, name))));
      const score = scoreEmail(truth, predicted);
      addCounts(totals, score.counts);
      falseBookings += score.falseBookings;
    }
    expect(negatives).toBeGreaterThanOrEqual(16);
    expect(falseBookings).toBe(0);
    expect(f1(totalCounts(totals)).f1).toBeGreaterThanOrEqual(0.97);
  }, 30_000);
});
