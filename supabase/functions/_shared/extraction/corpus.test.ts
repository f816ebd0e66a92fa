// The development corpus (shared/fixtures/emails beside the repository): the engine must keep
// field-level F1 >= 0.97 and produce no false booking.
import { describe, expect, it } from './testing/harness.ts';
import { scoreCorpus } from './testing/score-corpus.ts';
import { emailCorpusDir } from './testing/shared-fixtures.ts';

const corpus = emailCorpusDir();

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
