// The development corpus (shared/fixtures/emails beside the repository): the engine must keep
// field-level F1 >= 0.97 and produce no false booking.
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from './testing/harness.ts';
import { addCounts, emptyCounts, f1, scoreEmail, totalCounts } from './evaluation.ts';
import { extractFlightBookings } from './index.ts';
import type { ExtractionResult } from './types.ts';

const here = dirname(fileURLToPath(import.meta.url));
const corpus = [resolve(here, '../../../../../shared/fixtures/emails'), '/work/shared/fixtures/emails'].find((path) =>
  existsSync(path),
);

describe('development corpus', () => {
  it('is present beside the repository', () => {
    expect(corpus).toBeDefined();
  });

  it('scores field-level F1 >= 0.97 with no false booking', async () => {
    const directory = corpus ?? '';
    const names = (await readdir(directory)).filter((name) => name.endsWith('.eml'));
    expect(names.length).toBeGreaterThan(0);
    const totals = emptyCounts();
    let falseBookings = 0;
    for (const name of names) {
      const truth = JSON.parse(
        await readFile(join(directory, name.replace(/\.eml$/, '.json')), 'utf8'),
      ) as ExtractionResult;
      const predicted = await extractFlightBookings(new Uint8Array(await readFile(join(directory, name))));
      const score = scoreEmail(truth, predicted);
      addCounts(totals, score.counts);
      falseBookings += score.falseBookings;
    }
    expect(falseBookings).toBe(0);
    expect(f1(totalCounts(totals)).f1).toBeGreaterThanOrEqual(0.97);
  }, 30_000);
});
