// `npm run bench:api`: how fast the api function answers a traveller's dashboard, next to a bare
// Deno.serve hello-world on the same machine in the same run.
//
// A local stack (dev/stack.ts) on a throwaway database from TEST_DATABASE_URL (PGlite without
// it), a traveller with 50 flights and 12 price checks each; then autocannon, --seconds each
// (default 20) with --connections (default 10), straight at the api function's own port (the
// gateway in front of it is the dev stack's, not Supabase's) with the traveller's bearer token:
//   GET /api/flights, GET /api/dashboard/stats, and GET / of `deno eval 'Deno.serve(...)'`.
// Prints requests/s and p50/p99 latency of each and our throughput as a ratio of the bare
// server's; the last line is the summary. Target: p99 under 25 ms.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import postgres from 'postgres';
import { createTestDatabase, type TestDatabase } from '../dev/db/test-db.ts';
import { anyFreePorts, freePort, repoRoot, startStack, type Stack } from '../dev/stack.ts';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '20' },
    connections: { type: 'string', default: '10' },
  },
});
const duration = Number(args.seconds);
const connections = Number(args.connections);
if (!Number.isInteger(duration) || duration < 1 || !Number.isInteger(connections) || connections < 1) {
  process.stderr.write('--seconds and --connections must be whole numbers of at least 1\n');
  process.exit(2);
}

interface Figures {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

async function measure(name: string, url: string, headers: Record<string, string> = {}): Promise<Figures> {
  // a few requests first, so connection pools and the JIT are warm before the clock starts
  for (let i = 0; i < 20; i++) {
    const res = await fetch(url, { headers });
    if (!res.ok) throw new Error(`${name}: ${url} answered ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  }
  const result = await autocannon({ url, headers, connections, duration });
  const figures: Figures = {
    name,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
  process.stdout.write(
    `${name}: ${figures.requestsPerSecond.toFixed(0)} req/s, p50 ${figures.p50} ms, p99 ${figures.p99} ms` +
      `${figures.non2xx || figures.errors ? `, ${figures.non2xx} non-2xx, ${figures.errors} errors` : ''}\n`,
  );
  return figures;
}

/** A bare Deno.serve hello-world, the same deno binary the stack runs the function with. */
async function startBareDeno(port: number): Promise<() => Promise<void>> {
  const child = spawn(
    path.join(repoRoot, 'node_modules/.bin/deno'),
    ['eval', `Deno.serve({ hostname: '127.0.0.1', port: ${port}, onListen() {} }, () => new Response('hello world'));`],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/`)).ok) break;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || Date.now() > deadline) throw new Error('the bare Deno server did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
}

/** p50 and p99 of the time the function itself logged for a path (its request log's `ms`). */
async function serverTimes(logDir: string, requestPath: string): Promise<string> {
  const text = await readFile(path.join(logDir, 'api.log'), 'utf8').catch(() => '');
  const times: number[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const entry = JSON.parse(line) as { msg?: string; path?: string; ms?: number };
      if (entry.msg === 'request' && entry.path === requestPath && typeof entry.ms === 'number') times.push(entry.ms);
    } catch {
      // not a log line of ours
    }
  }
  if (times.length === 0) return 'no log lines';
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
  return `inside the function p50 ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms`;
}

let database: TestDatabase | undefined;
let stack: Stack | undefined;
let stopBare: (() => Promise<void>) | undefined;
const stateDir = await mkdtemp(path.join(os.tmpdir(), 'fareback-bench-api-'));

try {
  if (process.env.TEST_DATABASE_URL) database = await createTestDatabase({ seed: true });
  const apiPort = await freePort();
  stack = await startStack({
    ...(database ? { databaseUrl: database.url } : {}),
    stateDir,
    ports: { ...anyFreePorts, api: apiPort },
    seed: true,
    ticker: false,
  });
  const functionUrl = `http://127.0.0.1:${apiPort}/api`;

  // ---- the traveller: an account through the api, 50 flights with price history by SQL ----
  const credentials = { username: 'bench_traveller', email: 'bench.traveller@example.com', password: 'Bench@2026!x' };
  const registered = await fetch(`${functionUrl}/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(credentials),
  });
  const body = (await registered.json()) as { user?: { id: string }; session?: { access_token: string } };
  if (!registered.ok || !body.user || !body.session) {
    throw new Error(`could not register the traveller: ${registered.status} ${JSON.stringify(body)}`);
  }
  const userId = body.user.id;
  const headers = { Authorization: `Bearer ${body.session.access_token}` };
  const sql = postgres(stack.databaseUrl, { max: 1, prepare: !stack.singleSession, onnotice: () => {} });
  try {
    await sql`update public.profiles set subscription_tier = 'premium', flight_limit = -1 where id = ${userId}`;
    await sql`
      insert into public.flights (user_id, airline, flight_number, booking_code, passenger_last_name,
                                  departure_airport, arrival_airport, departure_date, original_price,
                                  current_price, lowest_price, highest_price, last_checked, fare_type,
                                  is_eligible_for_rebooking, status, rebooking_method)
      select ${userId}, 'United Airlines', 'UA' || (1000 + g), 'BENCH' || g, 'Traveller', 'ORD', 'SFO',
             current_date + 10 + g, 45000, 41000 + g * 100, 40000, 47000, now() - interval '1 hour',
             case when g % 5 = 0 then 'Basic Economy' else 'Flexible Economy' end, g % 5 <> 0,
             case when g % 3 = 0 then 'price_drop' else 'monitoring' end, 'source'
        from generate_series(1, 50) g`;
    await sql`
      insert into public.flight_prices (flight_id, user_id, price, currency, checked_at, source)
      select f.id, f.user_id, 40000 + ((f.id * 37 + h * 101) % 7000), 'USD',
             now() - make_interval(hours => 6 * h), 'simulated'
        from public.flights f cross join generate_series(1, 12) h
       where f.user_id = ${userId}`;
    // the list reads each card's recent checks from the flight row, which price checks keep
    await sql`select private.refresh_recent_prices(array(select id from public.flights where user_id = ${userId}))`;
  } finally {
    await sql.end();
  }

  process.stdout.write(
    `autocannon: ${connections} connections, ${duration} s each; api function on ${stack.singleSession ? 'PGlite' : 'PostgreSQL'}; ` +
      `traveller with 50 flights x 12 price checks\n`,
  );
  const flights = await measure('GET /api/flights', `${functionUrl}/flights`, headers);
  const stats = await measure('GET /api/dashboard/stats', `${functionUrl}/dashboard/stats`, headers);
  const barePort = await freePort();
  stopBare = await startBareDeno(barePort);
  const bare = await measure('bare Deno.serve hello-world', `http://127.0.0.1:${barePort}/`);

  process.stdout.write(
    `function's own request log: /api/flights ${await serverTimes(stack.logDir, '/api/flights')}; ` +
      `/api/dashboard/stats ${await serverTimes(stack.logDir, '/api/dashboard/stats')}\n`,
  );
  const ratio = (ours: Figures) => (ours.requestsPerSecond / bare.requestsPerSecond).toFixed(3);
  process.stdout.write(
    `ratio to bare Deno: /api/flights ${ratio(flights)}, /api/dashboard/stats ${ratio(stats)}\n` +
      `summary: /api/flights ${flights.requestsPerSecond.toFixed(0)} req/s p50 ${flights.p50} ms p99 ${flights.p99} ms; ` +
      `/api/dashboard/stats ${stats.requestsPerSecond.toFixed(0)} req/s p50 ${stats.p50} ms p99 ${stats.p99} ms; ` +
      `bare Deno ${bare.requestsPerSecond.toFixed(0)} req/s; ratios ${ratio(flights)} / ${ratio(stats)} ` +
      `(p99 target < 25 ms: ${Math.max(flights.p99, stats.p99) < 25 ? 'met' : 'not met'})\n`,
  );
} finally {
  await stopBare?.();
  await stack?.stop();
  await database?.close();
  await rm(stateDir, { recursive: true, force: true });
}
