// `npm run bench:api`: how fast the api function answers a traveller's dashboard, next to a floor
// that does the same work with nothing around it.
//
// A local stack (dev/stack.ts) on a throwaway database from TEST_DATABASE_URL (PGlite without
// it), a traveller with 50 flights and 12 price checks each; then autocannon with --connections
// (default 10) for --seconds (default 10) at a time, straight at the api function's own port (the
// gateway in front of it is the dev stack's, not Supabase's) with the traveller's bearer token:
// GET /api/flights and GET /api/dashboard/stats.
//
// The floor is a bare `Deno.serve` on the same deno binary answering the same two paths with the
// api's own query functions (the same SQL), for the same user, through the same driver
// (postgres.js with the api's connection options and pool size, as the api's role): no framework,
// no token or session check, no per-request transaction or role switch. What separates the two is
// what the api does around the SQL, so our throughput as a share of the floor's is the figure to
// improve. --rounds (default 3) alternates each path and its floor; the figures printed last are
// the medians over the rounds. Then --probe (default 50) requests of each path one at a time: their
// CPU time and peak memory from the function's request log, against a hosted Edge Function's 2 s /
// 256 MB. The summary is the last line. Target: p99 under 25 ms.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import process from 'node:process';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import postgres from 'postgres';
import { createTestDatabase, type TestDatabase } from '../dev/db/test-db.ts';
import { anyFreePorts, freePort, repoRoot, startStack, type Stack } from '../dev/stack.ts';
import { EDGE_CPU_BUDGET_MS, EDGE_MEMORY_BUDGET_MB } from '../supabase/functions/api/lib/resource-usage.ts';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '3' },
    probe: { type: 'string', default: '50' },
  },
});
const probe = Number(args.probe);
const duration = Number(args.seconds);
const connections = Number(args.connections);
const rounds = Number(args.rounds);
if ([duration, connections, rounds].some((n) => !Number.isInteger(n) || n < 1)) {
  process.stderr.write('--seconds, --connections and --rounds must be whole numbers of at least 1\n');
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

async function measureOnce(name: string, url: string, headers: Record<string, string>): Promise<Figures> {
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
  process.stdout.write(`  ${describe(figures)}\n`);
  return figures;
}

function describe(figures: Figures): string {
  return (
    `${figures.name}: ${figures.requestsPerSecond.toFixed(0)} req/s, p50 ${figures.p50} ms, p99 ${figures.p99} ms` +
    `${figures.non2xx || figures.errors ? `, ${figures.non2xx} non-2xx, ${figures.errors} errors` : ''}`
  );
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

interface Target {
  name: string;
  url: string;
  headers?: Record<string, string>;
}

/**
 * Each target once per round, in turn, so the api and its floor see the same load from whatever
 * else the machine runs; the figures are the medians over the rounds, and so are the ratios
 * (each round's api throughput over the floor's in the same round).
 */
async function measureRounds(pairs: Array<{ ours: Target; floor: Target }>) {
  const runs = new Map<string, Figures[]>();
  const ratios = new Map<string, number[]>();
  for (let round = 1; round <= rounds; round++) {
    process.stdout.write(`round ${round} of ${rounds}\n`);
    for (const { ours, floor } of pairs) {
      const a = await measureOnce(ours.name, ours.url, ours.headers ?? {});
      const b = await measureOnce(floor.name, floor.url, floor.headers ?? {});
      for (const figures of [a, b]) runs.set(figures.name, [...(runs.get(figures.name) ?? []), figures]);
      ratios.set(ours.name, [...(ratios.get(ours.name) ?? []), a.requestsPerSecond / b.requestsPerSecond]);
    }
  }
  const medianOf = (name: string): Figures => {
    const all = runs.get(name) ?? [];
    return {
      name,
      requestsPerSecond: median(all.map((f) => f.requestsPerSecond)),
      p50: median(all.map((f) => f.p50)),
      p99: median(all.map((f) => f.p99)),
      non2xx: all.reduce((sum, f) => sum + f.non2xx, 0),
      errors: all.reduce((sum, f) => sum + f.errors, 0),
    };
  };
  return pairs.map(({ ours, floor }) => ({
    ours: medianOf(ours.name),
    floor: medianOf(floor.name),
    ratio: median(ratios.get(ours.name) ?? []),
  }));
}

/**
 * The floor: a bare Deno.serve running the api's own query functions as the api's role, on the
 * pool the api would open (connectionOptions, 5 connections or 1 on PGlite), for one user.
 */
function floorSource(): string {
  const module = (file: string) => pathToFileURL(path.join(repoRoot, 'supabase/functions/api', file)).href;
  return `
import postgres from 'postgres';
import { connectionOptions, type Tx } from '${module('db.ts')}';
import { dashboardStats, flightsJson } from '${module('queries/flights.ts')}';

const singleSession = Deno.env.get('FLOOR_SINGLE_SESSION') === 'true';
const userId = Deno.env.get('FLOOR_USER_ID') ?? '';
const { url, prepare } = connectionOptions(Deno.env.get('FLOOR_DATABASE_URL') ?? '', singleSession);
// the pool takes tagged-template statements as a transaction does
const sql = postgres(url, { max: singleSession ? 1 : 5, prepare, onnotice: () => {} }) as unknown as Tx;

Deno.serve({ hostname: '127.0.0.1', port: Number(Deno.env.get('FLOOR_PORT')), onListen() {} }, async (req) => {
  const { pathname } = new URL(req.url);
  if (pathname === '/api/flights') {
    return new Response('{"flights":' + (await flightsJson(sql, userId)) + '}', {
      headers: { 'Content-Type': 'application/json; charset=UTF-8' },
    });
  }
  if (pathname === '/api/dashboard/stats') return Response.json(await dashboardStats(sql, userId));
  return new Response('not found', { status: 404 });
});
`;
}

async function startFloor(options: {
  port: number;
  databaseUrl: string;
  singleSession: boolean;
  userId: string;
}): Promise<() => Promise<void>> {
  const file = path.join(stateDir, 'api-floor.ts');
  await writeFile(file, floorSource());
  const child = spawn(
    path.join(repoRoot, 'node_modules/.bin/deno'),
    ['run', '--allow-net', '--allow-env', '--allow-read', '--config', 'supabase/functions/deno.json', file],
    {
      cwd: repoRoot,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...process.env,
        FLOOR_PORT: String(options.port),
        FLOOR_DATABASE_URL: options.databaseUrl,
        FLOOR_SINGLE_SESSION: String(options.singleSession),
        FLOOR_USER_ID: options.userId,
      },
    },
  );
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${options.port}/api/dashboard/stats`)).ok) break;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || Date.now() > deadline) throw new Error('the floor server did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
}

/**
 * Each route's CPU time and peak memory per request (issue 27 item 5), against what a hosted Edge
 * Function may use (2 s CPU, 256 MB): --probe requests one at a time after the rounds, read back
 * from the function's request log (`cpuMs`, `rssMb`, `heapMb`), only the lines of requests that ran
 * alone, so no other request's CPU is counted in.
 */
async function budgetLine(logDir: string, requestPath: string): Promise<string> {
  const text = await readFile(path.join(logDir, 'api.log'), 'utf8').catch(() => '');
  const cpu: number[] = [];
  let rss = 0;
  let heap = 0;
  let growth = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const entry = JSON.parse(line) as Record<string, unknown>;
      if (entry.msg !== 'request' || entry.path !== requestPath || entry.concurrent !== 0) continue;
      cpu.push(Number(entry.cpuMs));
      rss = Math.max(rss, Number(entry.rssMb));
      heap = Math.max(heap, Number(entry.heapMb));
      growth = Math.max(growth, Number(entry.heapGrowthMb));
    } catch {
      // not a log line of ours
    }
  }
  if (cpu.length === 0) return `${requestPath}: no request ran alone`;
  cpu.sort((a, b) => a - b);
  const at = (q: number) => cpu[Math.min(cpu.length - 1, Math.floor(q * cpu.length))] ?? 0;
  const share = (used: number, budget: number) => `${((100 * used) / budget).toFixed(1)}%`;
  return (
    `${requestPath} (${cpu.length} alone): CPU p50 ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms ` +
    `(${share(at(0.99), EDGE_CPU_BUDGET_MS)} of ${EDGE_CPU_BUDGET_MS} ms), peak RSS ${rss.toFixed(0)} MB ` +
    `(${share(rss, EDGE_MEMORY_BUDGET_MB)} of ${EDGE_MEMORY_BUDGET_MB} MB), peak heap ${heap.toFixed(1)} MB (the process's, after the rounds), the request's own heap growth at most ${growth.toFixed(1)} MB`
  );
}

async function probeOneAtATime(url: string, headers: Record<string, string>, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
  }
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
let stopFloor: (() => Promise<void>) | undefined;
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
    await sql`update public.profiles
                 set plan_id = (select id from public.subscription_plans where tier = 'premium' order by id limit 1)
               where id = ${userId}`;
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
  const floorPort = await freePort();
  stopFloor = await startFloor({
    port: floorPort,
    databaseUrl: stack.apiDatabaseUrl,
    singleSession: stack.singleSession,
    userId,
  });
  const floorUrl = `http://127.0.0.1:${floorPort}/api`;
  const results = await measureRounds(
    ['/flights', '/dashboard/stats'].map((route) => ({
      ours: { name: `GET /api${route}`, url: `${functionUrl}${route}`, headers },
      floor: { name: `floor /api${route}`, url: `${floorUrl}${route}` },
    })),
  );

  process.stdout.write(`medians of ${rounds} rounds:\n`);
  for (const { ours, floor, ratio } of results) {
    process.stdout.write(`  ${describe(ours)}\n  ${describe(floor)}\n  ratio to the floor ${ratio.toFixed(2)}\n`);
  }
  process.stdout.write(
    `function's own request log: /api/flights ${await serverTimes(stack.logDir, '/api/flights')}; ` +
      `/api/dashboard/stats ${await serverTimes(stack.logDir, '/api/dashboard/stats')}\n`,
  );
  for (const route of ['/flights', '/dashboard/stats']) {
    await probeOneAtATime(`${functionUrl}${route}`, headers, probe);
  }
  process.stdout.write(
    `CPU and memory per request, one at a time, against a hosted Edge Function's budget:\n` +
      `  ${await budgetLine(stack.logDir, '/api/flights')}\n  ${await budgetLine(stack.logDir, '/api/dashboard/stats')}\n`,
  );
  const line = ({ ours, floor, ratio }: (typeof results)[number]) =>
    `${ours.name.replace('GET ', '')} ${ours.requestsPerSecond.toFixed(0)} req/s (floor ` +
    `${floor.requestsPerSecond.toFixed(0)}, ratio ${ratio.toFixed(2)}) p50 ${ours.p50} ms p99 ${ours.p99} ms`;
  const worstP99 = Math.max(...results.map((r) => r.ours.p99));
  process.stdout.write(
    `summary: ${results.map(line).join('; ')} (p99 target < 25 ms: ${worstP99 < 25 ? 'met' : 'not met'}; load average ${os.loadavg()[0]?.toFixed(2)})\n`,
  );
} finally {
  await stopFloor?.();
  await stack?.stop();
  await database?.close();
  await rm(stateDir, { recursive: true, force: true });
}
