// The development corpus (shared/fixtures/emails beside the repository): the engine must keep
// field-level F1 >= 0.97 and produce no false booking.
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from './testing/harness.ts';
import { scoreCorpus } from './testing/score-corpus.ts';

const here = dirname(fileURLToPath(import.meta.url));
const corpus = [resolve(here, '../../../../../shared/fixtures/emails'), '/work/shared/fixtures/emails'].find((path) =>
  existsSync(path),
);

describe('development corpus', () => {
  it('is present beside the repository', () => {
    expect(corpus).toBeDefined();
  });

  it('scores field-level F1 >= 0.97 with no false booking', async () => {
    const score = await scoreCorpus(corpus ?? '');
    expect(score.emails).toBeGreaterThan(0);
    expect(score.falseBookings).toBe(0);
    expect(score.f1).toBeGreaterThanOrEqual(0.97);
  }, 30_000);
});
