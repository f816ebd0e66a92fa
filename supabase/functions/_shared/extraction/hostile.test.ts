// Every step of the extractor is linear: each hostile input (testing/hostile.ts) must simply
// finish. The quadratic code these shapes once hit took minutes at these sizes and linear code
// takes milliseconds, so the runner's timeout is the bound (no timing assertion: a busy machine
// never makes a linear step take minutes). Runs under vitest and deno test.
import { describe, expect, it } from './testing/harness.ts';
import { HOSTILE_EMAILS_AT_CAP, HOSTILE_INPUTS } from './testing/hostile.ts';
import { extractFlightBookings } from './index.ts';
import {
  EXTRACTION_BUDGET_MS,
  ExtractionBudget,
  ExtractionGaveUp,
  MAX_BODY_CHARS,
  MAX_RAW_EMAIL_BYTES,
} from './budget.ts';
import { buildEmail } from './testing/email-factory.ts';

const RUNNER_BOUND_MS = 60_000;

describe('hostile input: every step finishes', () => {
  for (const input of HOSTILE_INPUTS) {
    it(
      `${input.name} (${input.size.toLocaleString('en-US')} characters)`,
      async () => {
        expect(await input.run(input.size)).toBeDefined();
      },
      RUNNER_BOUND_MS,
    );
  }
});

describe('the budget per email', () => {
  for (const email of HOSTILE_EMAILS_AT_CAP) {
    it(
      `gives up, or finishes, on ${email.name} at the size cap`,
      async () => {
        const result = await extractFlightBookings(email.raw);
        expect(result.bookings.length === 0 || result.gaveUp === undefined).toBe(true);
        if (result.gaveUp) expect(result.gaveUp).toMatch(`longer than ${EXTRACTION_BUDGET_MS} ms`);
      },
      RUNNER_BOUND_MS,
    );
  }

  it('gives up with the reason past its time: a real itinerary of 20,000 rows', async () => {
    const raw = buildEmail({
      from: 'Delta <DeltaAirLines@t.delta.com>',
      subject: 'Your flight confirmation',
      text: `Confirmation #: GZK4WQ\n${'SUN 14 MAR 2027 | DELTA 423 | NEW YORK (JFK) 8:05am | LOS ANGELES (LAX) 11:10am | 14C\n'.repeat(10_000)}`,
    });
    // a budget of 1 ms: spent on any machine before the itinerary is read
    const result = await extractFlightBookings(raw, { budgetMs: 1 });
    expect(result).toMatchObject({ isFlightBooking: false, bookings: [] });
    expect(result.gaveUp).toMatch(/^Reading the email took longer than 1 ms \(stopped at: .+\)$/);
  });

  it('does not read a body over the size cap, nor a message over the byte cap', async () => {
    const html = await extractFlightBookings(buildEmail({ html: `<p>${'x'.repeat(MAX_BODY_CHARS)}</p>` }));
    expect(html.gaveUp).toBe("The email's HTML is longer than 1,000,000 characters");
    const text = await extractFlightBookings(buildEmail({ text: 'x'.repeat(MAX_BODY_CHARS + 1) }));
    expect(text.gaveUp).toBe("The email's text is longer than 1,000,000 characters");
    const raw = await extractFlightBookings(new Uint8Array(MAX_RAW_EMAIL_BYTES + 1));
    expect(raw.gaveUp).toBe('The email is larger than 10 MB');
  });

  it('counts only its own work: the clock stops while it waits', async () => {
    let now = 0;
    const budget = new ExtractionBudget(100, () => now);
    now = 60;
    await budget.pause('first');
    let release = () => {};
    const waiting = budget.wait(() => new Promise<void>((resolve) => (release = resolve)));
    now = 1_000; // others' work, or the airport data loading
    release();
    await waiting;
    expect(budget.elapsed()).toBe(60);
    now = 1_030;
    await budget.pause('second');
    now = 1_041;
    await expect(budget.pause('third')).rejects.toThrow(ExtractionGaveUp);
    await expect(budget.pause('third')).rejects.toThrow(
      'Reading the email took longer than 100 ms (stopped at: third)',
    );
    // per line: the clock is read every few calls, so a spent budget stops within a few lines
    expect(() => {
      for (let line = 0; line < 100; line++) budget.check('a line');
    }).toThrow('(stopped at: a line)');
  });
});
