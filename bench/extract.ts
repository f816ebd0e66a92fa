// `npm run -s bench:extract -- DIR`: extraction speed over every .eml in DIR. The airport data
// loads once before timing (a warm edge function); each email then runs ROUNDS times and its
// median counts. Prints the time taken by hostile inputs (testing/hostile.ts: the shapes that once
// made a step quadratic, at their size and half of it, and whole emails at the size cap with the
// time budget on), the median, the slowest email, and on its last line emails per second.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import process from 'node:process';
import { extractFlightBookings, warmUpAirports } from '../supabase/functions/_shared/extraction/index.ts';
import { HOSTILE_EMAILS_AT_CAP, HOSTILE_INPUTS } from '../supabase/functions/_shared/extraction/testing/hostile.ts';

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
// Hostile inputs (testing/hostile.ts): each step's worst shape, median of HOSTILE_ROUNDS runs at
// its size and at half of it; linear steps show a ratio near 2, quadratic ones near 4.
const HOSTILE_ROUNDS = Number(process.env.HOSTILE_ROUNDS ?? 5);
const timeOf = async (run: () => unknown): Promise<number> => {
  const t0 = performance.now();
  await run();
  return performance.now() - t0;
};
const hostileTimes: string[] = [];
for (const input of HOSTILE_INPUTS) {
  const full: number[] = [];
  const half: number[] = [];
  for (let round = 0; round < HOSTILE_ROUNDS; round++) {
    half.push(await timeOf(() => input.run(input.size / 2)));
    full.push(await timeOf(() => input.run(input.size)));
  }
  const [atCap, atHalf] = [median(full), median(half)];
  hostileTimes.push(
    `  ${input.name}: ${atCap.toFixed(0)} ms at ${input.size.toLocaleString('en-US')} chars, ${atHalf.toFixed(0)} ms at half (ratio ${(atCap / Math.max(atHalf, 0.01)).toFixed(1)})`,
  );
}
for (const email of HOSTILE_EMAILS_AT_CAP) {
  const times: number[] = [];
  let reason = '';
  for (let round = 0; round < HOSTILE_ROUNDS; round++) {
    const t0 = performance.now();
    reason = (await extractFlightBookings(email.raw)).gaveUp ?? 'read to the end';
    times.push(performance.now() - t0);
  }
  hostileTimes.push(
    `  whole email at the size cap, budget on (${email.name}): ${median(times).toFixed(0)} ms; ${reason}`,
  );
}

const medians = [...perEmail.entries()].map(([name, times]) => ({ name, millis: median(times) }));
const slowest = medians.reduce((a, b) => (b.millis > a.millis ? b : a));
const overallMedian = median(medians.map((entry) => entry.millis));
const lines = [
  `emails: ${emails.length} x ${ROUNDS} rounds; airport data load (once): ${coldMillis.toFixed(0)} ms`,
  `hostile inputs (median of ${HOSTILE_ROUNDS}):`,
  ...hostileTimes,
  `median per email: ${overallMedian.toFixed(2)} ms`,
  `slowest email: ${slowest.name} (median ${slowest.millis.toFixed(2)} ms)`,
  `emails per second: ${((emails.length * ROUNDS) / (elapsed / 1000)).toFixed(0)}`,
];
process.stdout.write(`${lines.join('\n')}\n`);
