// The attachments' budget: its clock runs only while attachments are read, across the messages
// of one email.
import { describe, expect, it } from './testing/harness.ts';
import { ExtractionBudget, ExtractionGaveUp } from './budget.ts';

describe('ExtractionBudget.forPart', () => {
  it('counts only the time spent inside run(), over every run', async () => {
    let now = 0;
    const budget = ExtractionBudget.forPart(100, () => now);
    now = 1_000; // the body's work: not this budget's
    expect(budget.elapsed()).toBe(0);
    await budget.run(async () => {
      now += 60;
    });
    now += 5_000;
    expect(budget.elapsed()).toBe(60);
    await expect(
      budget.run(async () => {
        now += 50;
        await budget.pause('reading a PDF page');
      }),
    ).rejects.toBeInstanceOf(ExtractionGaveUp);
    expect(budget.elapsed()).toBe(110);
  });
});
