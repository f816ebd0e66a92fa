// The blind holdout corpus (testing/holdout-blind): synthetic emails written from the README and
// the development corpus only, by someone who had not read the engine, modelled on how airline
// and agency mail looks today (nested-table HTML, base64 and quoted-printable, Latin-1 and
// windows-1252, Outlook/Gmail/Apple Mail forwards, partial markup, per-passenger seat tables)
// plus tempting negatives (abandoned carts, cancellations, seat and bag receipts, rail, bus).
// The engine must keep field-level F1 >= 0.95 on it and produce no false booking.
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from './testing/harness.ts';
import { addCounts, emptyCounts, f1, scoreEmail, totalCounts } from './evaluation.ts';
import { extractFlightBookings } from './index.ts';
import type { ExtractionResult } from './types.ts';

const directory = join(dirname(fileURLToPath(import.meta.url)), 'testing', 'holdout-blind');

describe('blind holdout corpus', () => {
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
    expect(negatives).toBeGreaterThanOrEqual(8);
    expect(falseBookings).toBe(0);
    expect(f1(totalCounts(totals)).f1).toBeGreaterThanOrEqual(0.95);
  }, 30_000);
});
