// `npx tsx bench/auth-timing.ts [--rounds 15]`: whether the time of a failed login or a
// forgot-password request tells if the account exists (account enumeration by
// timing). A local stack on a throwaway database (TEST_DATABASE_URL, else PGlite) and one
// confirmed account; then, alternating so machine load hits both alike, a wrong password for the
// account and for a made-up username, and forgot-password for its address and a made-up one,
// each from its own client address (so no limit is reached). Prints each median and the ratio
// existing / unknown; a ratio near 1.0 means the time says nothing. Not a test: the machine's
// load moves the figures, so nothing asserts on them.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { createTestDatabase, type TestDatabase } from '../dev/db/test-db.ts';
import { anyFreePorts, startStack, type Stack } from '../dev/stack.ts';

const { values: args } = parseArgs({ options: { rounds: { type: 'string', default: '15' } } });
const rounds = Number(args.rounds);
if (!Number.isInteger(rounds) || rounds < 1) {
  process.stderr.write('--rounds must be a whole number of at least 1\n');
  process.exit(2);
}

let addressCounter = 0;
/** A fresh address of the benchmarking range for every request: no limit is ever reached. */
function nextAddress(): string {
  addressCounter += 1;
  return `198.19.${Math.floor(addressCounter / 250)}.${1 + (addressCounter % 250)}`;
}

async function timed(stack: Stack, route: string, body: unknown): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${stack.apiUrl}${route}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': nextAddress() },
    body: JSON.stringify(body),
  });
  await res.arrayBuffer();
  const ms = performance.now() - started;
  if (res.status >= 500) throw new Error(`${route} answered ${res.status}`);
  return ms;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

async function main(): Promise<void> {
  const stateDir = await mkdtemp(path.join(os.tmpdir(), 'fareback-bench-auth-'));
  let database: TestDatabase | undefined;
  if (process.env.TEST_DATABASE_URL) database = await createTestDatabase({ seed: true });
  const stack = await startStack({
    ...(database ? { databaseUrl: database.url } : {}),
    stateDir,
    ports: anyFreePorts,
    ticker: false,
    // the benchmark writes the client address itself, as the trusted proxy in front would
    apiEnv: { TRUSTED_PROXY_HOPS: '2' },
  });
  try {
    const tag = randomBytes(4).toString('hex');
    const account = { username: `bench_${tag}`, email: `bench.${tag}@example.com`, password: `Bench@${tag}A1` };
    const registered = await fetch(`${stack.apiUrl}/auth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': nextAddress() },
      body: JSON.stringify(account),
    });
    if (registered.status !== 201) throw new Error(`sign-up answered ${registered.status}`);
    const sql = postgres(stack.databaseUrl, { max: 1, prepare: !stack.singleSession, onnotice: () => {} });
    await sql`select private.confirm_email_address(${account.email})`;
    await sql.end();

    const figures = { loginKnown: [] as number[], loginUnknown: [] as number[], forgotKnown: [] as number[] };
    const forgotUnknown: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      // who goes first alternates, so the load one request leaves behind hits both alike
      const wrong = `Wrong@${round}abc`;
      const pairs: Array<[number[], () => Promise<number>]> = [
        [figures.loginKnown, () => timed(stack, '/auth/login', { username: account.username, password: wrong })],
        [
          figures.loginUnknown,
          () => timed(stack, '/auth/login', { username: `nobody_${tag}_${round}`, password: wrong }),
        ],
        [figures.forgotKnown, () => timed(stack, '/auth/forgot-password', { email: account.email })],
        [forgotUnknown, () => timed(stack, '/auth/forgot-password', { email: `nobody.${tag}.${round}@example.com` })],
      ];
      const order = round % 2 === 0 ? [0, 1, 2, 3] : [1, 0, 3, 2];
      for (const index of order) {
        const [into, run] = pairs[index]!;
        into.push(await run());
      }
    }
    const line = (name: string, known: number[], unknown: number[]) => {
      const ratio = median(known) / median(unknown);
      process.stdout.write(
        `${name}: existing ${median(known).toFixed(1)} ms, unknown ${median(unknown).toFixed(1)} ms (medians of ${rounds}), ratio ${ratio.toFixed(2)}\n`,
      );
      return ratio;
    };
    const login = line('login, wrong password', figures.loginKnown, figures.loginUnknown);
    const forgot = line('forgot-password', figures.forgotKnown, forgotUnknown);
    process.stdout.write(
      `summary: existing/unknown median time ratio: login ${login.toFixed(2)}, forgot-password ${forgot.toFixed(2)}\n`,
    );
  } finally {
    await stack.stop();
    await database?.close();
    await rm(stateDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
