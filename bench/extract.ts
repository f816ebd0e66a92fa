// `npm run -s bench:extract -- DIR`: extraction speed over every .eml in DIR and in the attachment
// corpus (testing/attachments: PDF e-tickets and Wallet passes). The airport data and the PDF
// reader load once before timing (a warm edge function); each email then runs ROUNDS times and its
// median counts. Prints the time taken by hostile inputs (testing/hostile.ts: the shapes that once
// made a step quadratic, at their size and half of it, and whole emails at the size cap with the
// time budget on; testing/hostile-attachments.ts: bombs, broken and oversized attachments), the
// median time and memory per email for body-only and for attachment mail, the slowest email, and
// on its last line emails per second. Memory is the peak resident memory an email adds to a warm
// process (the process's maxRSS after reading it, less its resident memory before): each email is
// read in a process of its own for that. Times are wall clock, with the process's CPU time beside
// them (on a shared machine the wall clock also counts waiting for a core).
import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { extractFlightBookings, warmUpAirports } from '../supabase/functions/_shared/extraction/index.ts';
import { parseEmail } from '../supabase/functions/_shared/extraction/mime.ts';
import { HOSTILE_EMAILS_AT_CAP, HOSTILE_INPUTS } from '../supabase/functions/_shared/extraction/testing/hostile.ts';
import { hostileAttachmentEmails } from '../supabase/functions/_shared/extraction/testing/hostile-attachments.ts';
import { EDGE_CPU_BUDGET_MS, EDGE_MEMORY_BUDGET_MB } from '../supabase/functions/api/lib/resource-usage.ts';

const ROUNDS = 25;
const attachmentCorpus = join(
  dirname(fileURLToPath(import.meta.url)),
  '../supabase/functions/_shared/extraction/testing/attachments',
);
/** Read before each memory probe, to load the PDF reader (another one when it is the probe). */
const warmUpEmail = (probe: string) =>
  join(attachmentCorpus, probe.endsWith(join('attachments', '01.eml')) ? '04.eml' : '01.eml');

/**
 * Child mode: read one email in a warm process and print the peak resident memory it added
 * (bytes). On Linux the process's peak is reset first (/proc/self/clear_refs), so the peak is this
 * email's; elsewhere the process's lifetime peak stands in.
 */
const memoryProbe = process.env.BENCH_EXTRACT_MEMORY_OF;
if (memoryProbe) {
  await warmUpAirports();
  // loads the PDF reader, as a warm worker has it
  await extractFlightBookings(new Uint8Array(await readFile(warmUpEmail(memoryProbe))));
  const raw = new Uint8Array(await readFile(memoryProbe));
  (globalThis as { gc?: () => void }).gc?.();
  const peakResident = async (): Promise<number> => {
    try {
      const status = await readFile('/proc/self/status', 'utf8');
      return Number(/VmHWM:\s*(\d+)\s*kB/.exec(status)?.[1]) * 1024;
    } catch {
      return process.resourceUsage().maxRSS * 1024;
    }
  };
  await writeFile('/proc/self/clear_refs', '5').catch(() => undefined);
  const before = process.memoryUsage().rss;
  await extractFlightBookings(raw);
  process.stdout.write(`${Math.max(0, (await peakResident()) - before)}\n`);
  process.exit(0);
}

const directory = process.argv[2];
if (!directory) {
  process.stderr.write('usage: npm run -s bench:extract -- DIR\n');
  process.exit(2);
}
const readEmails = async (dir: string) =>
  await Promise.all(
    (await readdir(dir))
      .filter((name) => name.endsWith('.eml'))
      .sort()
      .map(async (name) => ({ name: join(dir, name), raw: new Uint8Array(await readFile(join(dir, name))) })),
  );
const emails = [...(await readEmails(directory)), ...(await readEmails(attachmentCorpus))];
if (emails.length === 0) {
  process.stderr.write(`no .eml files in ${directory}\n`);
  process.exit(2);
}
const withAttachments = new Set<string>();
for (const email of emails) {
  const parsed = await parseEmail(email.raw);
  if ([parsed, ...parsed.attachedMessages].some((message) => message.documents.length > 0))
    withAttachments.add(email.name);
}

const coldStart = performance.now();
await warmUpAirports();
const coldMillis = performance.now() - coldStart;
for (const email of emails) await extractFlightBookings(email.raw); // JIT warm-up, the PDF reader loaded

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

const perEmail = new Map<string, number[]>(emails.map((email) => [email.name, []]));
// CPU time as well as the wall clock: on a shared machine the wall clock also counts waiting
const cpuPerEmail = new Map<string, number[]>(emails.map((email) => [email.name, []]));
const cpuMillis = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};
const started = performance.now();
for (let round = 0; round < ROUNDS; round++) {
  for (const email of emails) {
    const t0 = performance.now();
    const c0 = cpuMillis();
    await extractFlightBookings(email.raw);
    cpuPerEmail.get(email.name)?.push(cpuMillis() - c0);
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
/** The heaviest emails' CPU time and memory, against a hosted Edge Function's 2 s / 256 MB (issue 27 item 5). */
const budget = { cpu: 0, cpuOf: '', memory: 0, memoryOf: '' };
const noteBudget = (name: string, cpu: number, memory: number) => {
  if (cpu > budget.cpu) Object.assign(budget, { cpu, cpuOf: name });
  if (memory > budget.memory) Object.assign(budget, { memory, memoryOf: name });
};
for (const email of HOSTILE_EMAILS_AT_CAP) {
  const times: number[] = [];
  const cpu: number[] = [];
  let reason = '';
  for (let round = 0; round < HOSTILE_ROUNDS; round++) {
    const t0 = performance.now();
    const c0 = cpuMillis();
    reason = (await extractFlightBookings(email.raw)).gaveUp ?? 'read to the end';
    cpu.push(cpuMillis() - c0);
    times.push(performance.now() - t0);
  }
  noteBudget(email.name, median(cpu), 0);
  hostileTimes.push(
    `  whole email at the size cap, budget on (${email.name}): ${median(times).toFixed(0)} ms; ${reason}`,
  );
}

// Each email's peak memory, read alone in a warm process (see memoryProbe above).
const scratch = await mkdtemp(join(tmpdir(), 'bench-extract-'));
const memoryOf = async (raw: Uint8Array | string): Promise<number> => {
  const file = join(scratch, 'email.eml');
  await writeFile(file, raw);
  // small young-generation spaces: the peak then shows what is live, not how much garbage waits
  const flags = ['--expose-gc', '--max-semi-space-size=1'];
  const child = spawnSync(process.execPath, [...flags, ...process.execArgv, fileURLToPath(import.meta.url)], {
    env: { ...process.env, BENCH_EXTRACT_MEMORY_OF: file },
    encoding: 'utf8',
  });
  return Number(child.stdout.trim()) || 0;
};
const megabytes = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

const hostileAttachments: string[] = [];
for (const email of await hostileAttachmentEmails()) {
  const times: number[] = [];
  const cpu: number[] = [];
  let result = await extractFlightBookings(email.raw);
  for (let round = 0; round < HOSTILE_ROUNDS; round++) {
    const t0 = performance.now();
    const c0 = cpuMillis();
    result = await extractFlightBookings(email.raw);
    cpu.push(cpuMillis() - c0);
    times.push(performance.now() - t0);
  }
  const reasons = [...new Set((result.skippedAttachments ?? []).map((skip) => skip.reason))].join('; ') || 'all read';
  const added = await memoryOf(email.raw);
  noteBudget(email.name, median(cpu), added);
  hostileAttachments.push(
    `  ${email.name}: ${median(times).toFixed(0)} ms (CPU ${median(cpu).toFixed(0)} ms), ${megabytes(added)}; ${result.bookings.length} booking(s); ${reasons}`,
  );
}

const medians = [...perEmail.entries()].map(([name, times]) => ({ name, millis: median(times) }));
const memory = new Map<string, number>();
for (const email of emails) memory.set(email.name, await memoryOf(email.raw));
await rm(scratch, { recursive: true, force: true });
const group = (attachments: boolean) => {
  const members = medians.filter((entry) => withAttachments.has(entry.name) === attachments);
  const cpu = members.map((entry) => median(cpuPerEmail.get(entry.name) ?? []));
  return `${members.length} emails, median ${median(members.map((entry) => entry.millis)).toFixed(2)} ms (CPU ${median(cpu).toFixed(2)} ms), median peak memory ${megabytes(median(members.map((entry) => memory.get(entry.name) ?? 0)))}`;
};
const slowest = medians.reduce((a, b) => (b.millis > a.millis ? b : a));
const overallMedian = median(medians.map((entry) => entry.millis));
const lines = [
  `emails: ${emails.length} x ${ROUNDS} rounds; airport data load (once): ${coldMillis.toFixed(0)} ms`,
  `hostile inputs (median of ${HOSTILE_ROUNDS}):`,
  ...hostileTimes,
  `hostile attachments (median of ${HOSTILE_ROUNDS}, wall and CPU; peak memory added):`,
  ...hostileAttachments,
  `body only: ${group(false)}`,
  `with attachments: ${group(true)}`,
  `against a hosted Edge Function (${EDGE_CPU_BUDGET_MS} ms CPU, ${EDGE_MEMORY_BUDGET_MB} MB): heaviest CPU ` +
    `${budget.cpu.toFixed(0)} ms (${budget.cpuOf}, ${((100 * budget.cpu) / EDGE_CPU_BUDGET_MS).toFixed(1)}%), most memory added ` +
    `${megabytes(budget.memory)} (${budget.memoryOf}, ${((100 * budget.memory) / (EDGE_MEMORY_BUDGET_MB * 1024 * 1024)).toFixed(1)}%)`,
  `median per email: ${overallMedian.toFixed(2)} ms`,
  `slowest email: ${slowest.name} (median ${slowest.millis.toFixed(2)} ms)`,
  `emails per second: ${((emails.length * ROUNDS) / (elapsed / 1000)).toFixed(0)}`,
];
process.stdout.write(`${lines.join('\n')}\n`);
