// The third blind holdout corpus (testing/holdout-blind-3): 34 synthetic emails written from the
// README and the development corpus only, without reading the engine, each a sibling of a dev
// kind: JSON-LD in head or body with several passengers or times without offsets, microdata
// (hidden and visible), airline HTML layouts with no markup (places and times in separate
// columns, vertical label tables, the date line crossed), plain-text ticket receipts ('0805A'
// times, codes on the line below the row), German, French and Spanish confirmations, Gmail,
// Outlook, Apple Mail and '>' forwards, schedule changes with unchanged flights after the
// cancelled one, an agency booking with its own fee, and 6 tempting negatives (sale with a promo
// code, airport hotel, car rental, check-in reminder, German newsletter, price alert).
// Field-level F1 >= 0.95 and no false booking.
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from './testing/harness.ts';
import { addCounts, emptyCounts, f1, scoreEmail, totalCounts } from './evaluation.ts';
import { extractFlightBookings } from './index.ts';
import type { ExtractionResult } from './types.ts';

const directory = join(dirname(fileURLToPath(import.meta.url)), 'testing', 'holdout-blind-3');

describe('third blind holdout corpus', () => {
  it('scores field-level F1 >= 0.95 with no false booking', async () => {
    const names = (await readdir(directory)).filter((name) => name.endsWith('.eml'));
    expect(names.length).toBeGreaterThanOrEqual(30);
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
    expect(negatives).toBeGreaterThanOrEqual(6);
    expect(falseBookings).toBe(0);
    expect(f1(totalCounts(totals)).f1).toBeGreaterThanOrEqual(0.95);
  }, 30_000);
});
