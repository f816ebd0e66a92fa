// The development corpus (shared/fixtures/emails beside the repository): the engine must keep
// field-level F1 >= 0.97 and produce no false booking. The attachment corpus (testing/attachments,
// written by cli/attachment-samples.ts: PDF e-tickets and Wallet passes alone, together, joining
// a body's booking, forwarded, and a negative) must be read whole: F1 1.0, no false booking.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
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

describe('attachment corpus', () => {
  it('scores field-level F1 1.0 with no false booking', async () => {
    const score = await scoreCorpus(join(dirname(fileURLToPath(import.meta.url)), 'testing/attachments'));
    expect(score.emails).toBeGreaterThanOrEqual(7);
    expect(score.negatives).toBeGreaterThanOrEqual(1);
    expect(score.falseBookings).toBe(0);
    expect(score.f1).toBe(1);
  }, 30_000);
});
