// `npm run -s bench:extract -- DIR`: extraction speed over every .eml in DIR. The airport data
// loads once before timing (a warm edge function); each email then runs ROUNDS times and its
// median counts. Prints the time taken by hostile inputs (a huge email, deep nesting, a long
// name-like run: the inputs that once made a pattern backtrack), the median, the slowest email,
// and on its last line emails per second.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import process from 'node:process';
import { extractFlightBookings, warmUpAirports } from '../supabase/functions/_shared/extraction/index.ts';
import { buildEmail } from '../supabase/functions/_shared/extraction/testing/email-factory.ts';

const ROUNDS = 25;
const directory = process.argv[2];
if (!directory) {
  process.stderr.write('usage: npm run -s bench:extract -- DIR\n');
  process.exit(2);
}
const names = (await readdir(directory)).filter((name) => name.endsWith('.eml')).sort();
const emails = await Promise.all(
  names.map(async (name) => ({ name, raw: new Uint8Array(await readFile(join(directory, name))) })),
);
if (emails.length === 0) {
  process.stderr.write(`no .eml files in ${directory}\n`);
  process.exit(2);
}

const coldStart = performance.now();
await warmUpAirports();
const coldMillis = performance.now() - coldStart;
for (const email of emails) await extractFlightBookings(email.raw); // JIT warm-up

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

const perEmail = new Map<string, number[]>(emails.map((email) => [email.name, []]));
const started = performance.now();
for (let round = 0; round < ROUNDS; round++) {
  for (const email of emails) {
    const t0 = performance.now();
    await extractFlightBookings(email.raw);
    perEmail.get(email.name)?.push(performance.now() - t0);
  }
}
const elapsed = performance.now() - started;
const hostile = {
  'huge (20,000 itinerary rows)': buildEmail({
    text: `Confirmation #: GZK4WQ\n${'SUN 14 MAR 2027 | DELTA 423 | NEW YORK (JFK) 8:05am | LOS ANGELES (LAX) 11:10am | 14C\n'.repeat(20_000)}`,
  }),
  'deep nesting (50,000 divs)': buildEmail({
    html: '<div>'.repeat(50_000) + 'Booking code: ABC123' + '</div>'.repeat(50_000),
  }),
  'long name-like run': buildEmail({
    text: `Buchungscode: KXR7WB\nReisende: Herr Bernd Roth, Frau ${'abcdefghij'.repeat(8)}1`,
  }),
};
const hostileTimes: string[] = [];
for (const [label, raw] of Object.entries(hostile)) {
  const t0 = performance.now();
  await extractFlightBookings(raw);
  hostileTimes.push(`${label} ${(performance.now() - t0).toFixed(0)} ms`);
}

const medians = [...perEmail.entries()].map(([name, times]) => ({ name, millis: median(times) }));
const slowest = medians.reduce((a, b) => (b.millis > a.millis ? b : a));
const overallMedian = median(medians.map((entry) => entry.millis));
const lines = [
  `emails: ${emails.length} x ${ROUNDS} rounds; airport data load (once): ${coldMillis.toFixed(0)} ms`,
  `hostile inputs: ${hostileTimes.join('; ')}`,
  `median per email: ${overallMedian.toFixed(2)} ms`,
  `slowest email: ${slowest.name} (median ${slowest.millis.toFixed(2)} ms)`,
  `emails per second: ${((emails.length * ROUNDS) / (elapsed / 1000)).toFixed(0)}`,
];
process.stdout.write(`${lines.join('\n')}\n`);
