// The second blind holdout corpus (testing/holdout-blind-2): 35 synthetic emails written from the
// README and the development corpus only, without reading the engine: labels and values in
// separate rows, values before labels, two-column cards, dates in shared section headers, times
// like '7:05a', '19.05', '0950', '11h25', windows-1252 and base64-only HTML, FAMILY/GIVEN names,
// infants, agency fees, currencies by context ('$' as CAD/AUD/MXN/CLP, 'kr') and 11 tempting
// negatives (fare sale, airport hotel and car, reminder, loyalty statement, upgrade offer, delay
// notice, insurance, ESTA, rail, survey). Field-level F1 >= 0.95 and no false booking.
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from './testing/harness.ts';
import { addCounts, emptyCounts, f1, scoreEmail, totalCounts } from './evaluation.ts';
import { extractFlightBookings } from './index.ts';
import type { ExtractionResult } from './types.ts';

const directory = join(dirname(fileURLToPath(import.meta.url)), 'testing', 'holdout-blind-2');

describe('second blind holdout corpus', () => {
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
    expect(negatives).toBeGreaterThanOrEqual(10);
    expect(falseBookings).toBe(0);
    expect(f1(totalCounts(totals)).f1).toBeGreaterThanOrEqual(0.95);
  }, 30_000);
});
