// The fourth blind holdout corpus (testing/holdout-blind-4): 28 synthetic emails written from the
// README and the development corpus only, without reading the engine, each a sibling of a dev
// kind: JSON-LD with several passengers or times without offsets, hidden microdata, airline HTML
// with 'Fare type' / 'Tarif' / 'Tarifa' columns and per-passenger seat tables, plain-text
// receipts with FAMILY/GIVEN names, German, French, Spanish and French-Canadian confirmations,
// Gmail, Outlook and Apple Mail forwards, a schedule change, Spanish double surnames, totals in
// nine currencies beside per-person amounts, dates in section headers and +1 day arrivals, and 5
// tempting negatives (sale, hotel, car rental, check-in reminder, price alert).
// Field-level F1 >= 0.95 and no false booking.
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from './testing/harness.ts';
import { addCounts, emptyCounts, f1, scoreEmail, totalCounts } from './evaluation.ts';
import { extractFlightBookings } from './index.ts';
import type { ExtractionResult } from './types.ts';

const directory = join(dirname(fileURLToPath(import.meta.url)), 'testing', 'holdout-blind-4');

describe('fourth blind holdout corpus', () => {
  it('scores field-level F1 >= 0.95 with no false booking', async () => {
    const names = (await readdir(directory)).filter((name) => name.endsWith('.eml'));
    expect(names.length).toBeGreaterThanOrEqual(24);
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
    expect(negatives).toBeGreaterThanOrEqual(5);
    expect(falseBookings).toBe(0);
    expect(f1(totalCounts(totals)).f1).toBeGreaterThanOrEqual(0.95);
  }, 30_000);
});
