// Property tests: random, hostile, huge and truncated input never throws, and whatever comes
// out is either nothing or a booking with a code, flight numbers and two valid airports.
import fc from 'fast-check';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from './testing/harness.ts';
import { lookupAirport } from './airports.ts';
import { extractFlightBookings } from './index.ts';
import { extractText } from './testing/extract.ts';
import type { ExtractionResult } from './types.ts';
import { buildEmail } from './testing/email-factory.ts';
import { emailCorpusDir } from './testing/shared-fixtures.ts';

const corpus = emailCorpusDir() ?? '';
const samples = existsSync(corpus)
  ? readdirSync(corpus)
      .filter((name) => name.endsWith('.eml'))
      .map((name) => readFileSync(join(corpus, name)))
  : [];

async function assertWellFormed(result: ExtractionResult): Promise<void> {
  expect(result.isFlightBooking).toBe(result.bookings.length > 0);
  for (const booking of result.bookings) {
    expect(booking.bookingCode).toMatch(/^[A-Z0-9]{5,8}$/);
    expect(booking.segments.length).toBeGreaterThan(0);
    for (const segment of booking.segments) {
      expect(segment.flightNumber).toMatch(/^[A-Z0-9]{2} [1-9]\d{0,3}$/);
      expect(await lookupAirport(segment.departureAirport)).not.toBeNull();
      expect(await lookupAirport(segment.arrivalAirport)).not.toBeNull();
      expect(Date.parse(segment.arrivalTime)).toBeGreaterThan(Date.parse(segment.departureTime));
    }
  }
}

const fragments = fc.constantFrom(
  'Confirmation code: ABC123',
  'Booking reference',
  'PNR',
  'DL 423',
  'Flight 801',
  'JFK',
  '(LAX)',
  '8:05am',
  '22:50',
  'SUN 14 MAR 2027',
  '03/14/27',
  '14MAR27',
  'Seat 14C',
  'Total $452.10 USD',
  'Passenger: MARISOL QUENNELL',
  '|',
  '->',
  '<table><tr><td>',
  '</td></tr></table>',
  '<br/>',
  '<script type="application/ld+json">{"@type":"FlightReservation"',
  '}</script>',
  '&amp;',
  '&#x2708;',
  '=E2=80',
  '--boundary',
  'Content-Type: text/html',
  '\r\n',
  '\n\n',
  '> ',
  '---------- Forwarded message ---------',
);

describe('hostile input', () => {
  it('never throws on random bytes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 4000 }), async (bytes) => {
        await assertWellFormed(await extractFlightBookings(bytes));
      }),
      { numRuns: 150 },
    );
  });

  it('never throws on emails built from booking-like fragments, and keeps outputs valid', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fragments, { maxLength: 60 }), fc.boolean(), async (parts, html) => {
        const body = parts.join(' ');
        const raw = buildEmail(html ? { html: body } : { text: body });
        await assertWellFormed(await extractFlightBookings(raw));
      }),
      { numRuns: 200 },
    );
  });

  it('never throws on truncated or corrupted corpus emails', async () => {
    expect(samples.length).toBeGreaterThan(0);
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: samples.length - 1 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 20 }),
        async (index, cut, flips) => {
          const sample = new Uint8Array(samples[index] ?? []);
          const truncated = sample.slice(0, Math.floor(sample.length * cut));
          for (const [at, value] of flips) if (truncated.length > 0) truncated[at % truncated.length] = value;
          await assertWellFormed(await extractFlightBookings(truncated));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('handles huge emails in bounded time', async () => {
    const row = 'SUN 14 MAR 2027 | DELTA 423 | NEW YORK (JFK) 8:05am | LOS ANGELES (LAX) 11:10am | 14C\n';
    const huge = buildEmail({ text: `Confirmation #: GZK4WQ\n${row.repeat(20_000)}` });
    // How long this takes is printed by `npm run bench:extract`; here the runner's timeout is the
    // only clock, guarding against a hang.
    const result = await extractFlightBookings(huge);
    await assertWellFormed(result);
    const deep = buildEmail({ html: '<div>'.repeat(50_000) + 'Booking code: ABC123' + '</div>'.repeat(50_000) });
    await assertWellFormed(await extractFlightBookings(deep));
  }, 60_000);

  it('never turns a corpus negative into a booking when its text is shuffled', async () => {
    const negatives = samples.filter((sample) => /Halyard|Sale:/.test(sample.toString('utf8')));
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: Math.max(0, negatives.length - 1) }),
        fc.integer(),
        async (index, seed) => {
          const lines = (negatives[index]?.toString('utf8') ?? '').split('\n');
          const body = lines.slice(lines.findIndex((line) => line === '') + 1);
          const shuffled =
            fc.sample(fc.shuffledSubarray(body, { minLength: body.length, maxLength: body.length }), {
              numRuns: 1,
              seed,
            })[0] ?? body;
          const result = await extractFlightBookings(buildEmail({ text: shuffled.join('\n') }));
          expect(result.bookings).toEqual([]);
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('cost', () => {
  // A name pattern once backtracked exponentially on this input (822 ms for one email). The test
  // runner's timeout catches a relapse; `npm run bench:extract` prints how long it takes.

  it('reads a long run of letters in a traveller list without choking', async () => {
    const result = await extractText(
      'Eurowings <noreply@booking.eurowings.com>',
      ['Buchungscode: KXR7WB', `Reisende: Herr Bernd Roth, Frau ${'abcdefghij'.repeat(8)}1`].join('\n'),
    );
    expect(result.isFlightBooking).toBe(false);
  });
});
