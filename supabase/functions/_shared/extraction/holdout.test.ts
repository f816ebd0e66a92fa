// The holdout corpus (testing/holdout): synthetic emails written apart from the development
// corpus, with other airlines, labels, date and number formats, to catch overfitting. The engine
// must keep field-level F1 >= 0.95 on it and produce no false booking.
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from './testing/harness.ts';
import { addCounts, emptyCounts, f1, scoreEmail, totalCounts } from './evaluation.ts';
import { extractFlightBookings } from './index.ts';
import type { ExtractionResult } from './types.ts';

const directory = join(dirname(fileURLToPath(import.meta.url)), 'testing', 'holdout');

describe('holdout corpus', () => {
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
    expect(negatives).toBeGreaterThanOrEqual(8);
    expect(falseBookings).toBe(0);
    expect(f1(totalCounts(totals)).f1).toBeGreaterThanOrEqual(0.95);
  }, 30_000);
});
