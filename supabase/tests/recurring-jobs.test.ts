// The one scheduler on a real database: every recurring kind of the job runner
// (api/jobs/handlers.ts; its period is its handler's `recurring`) driven through runDueJobs, the
// code POST /api/internal/jobs runs every minute, on the api's role. For each kind: two runs in
// one period make one job, a run in the next period makes another, and each job runs to `done`
// having done its work. Also: two runs racing make one job per kind, pruning never frees a
// period's key while the period lasts, and a sweep longer than a run goes on at the next runs.
// The runner's clock (`now`, `clock`) is moved; the database's is not.
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../dev/db/test-db.ts';
import { createSimulatedFareSource } from '../functions/_shared/fare-source/simulated.ts';
import { createPayments } from '../functions/_shared/payments/index.ts';
import type { Config } from '../functions/api/config.ts';
import type { AppDeps } from '../functions/api/context.ts';
import { createDb, type Db } from '../functions/api/db.ts';
import { enqueueJob } from '../functions/api/queries/jobs.ts';
import { type JobHandler, periodOf, runDueJobs, type RunDueJobsResult } from '../functions/api/services/job-runner.ts';
import { sweepContinuation } from '../functions/api/services/price-sweep.ts';
import { createEmailConnection, createFlight, createUser, type Sql } from './factories.ts';

let database: TestDatabase;
let sql: Sql;
/** Two workers of the api, each with its own connections, as the api's role. */
let workerA: Db;
let workerB: Db;

const config = {
  siteUrl: 'http://site.test',
  supportEmail: 'support@fareback.app',
  supabasePublicUrl: 'http://supabase.test',
  serviceRoleKey: 'service-key',
  unsubscribeSecret: 'unsubscribe-test-secret',
  sweep: { checkIntervalMinutes: 360, concurrency: 4, batchSize: 500, leaseSeconds: 120 },
} as Config;

const depsOf = (db: Db): AppDeps => ({
  config,
  db,
  fareSource: createSimulatedFareSource(),
  // no payment provider: a statement stays owed
  payments: createPayments(
    { stripeSecretKey: null, testMode: false, stripeWebhookSecret: null, stripeApiUrl: null },
    undefined as never,
  ),
  mailer: { send: () => Promise.resolve() },
  log: () => {},
  authApi: undefined as never,
  verifyAccessToken: undefined as never,
});

// jobs/handlers.ts reaches the sample mailbox (_shared/mailbox/sample.ts), which uses Deno's file
// API only when called: the list runs here, but tsc for the Node side cannot type that file, so
// it is imported by a path tsc does not follow.
const HANDLERS_MODULE = '../functions/api/jobs/handlers.ts';
const { JOB_HANDLERS } = (await import(HANDLERS_MODULE)) as { JOB_HANDLERS: readonly JobHandler<never>[] };
const RECURRING = JOB_HANDLERS.filter((handler) => handler.recurring);

beforeAll(async () => {
  database = await createTestDatabase();
  sql = postgres(database.url, {
    max: database.singleSession ? 1 : 4,
    prepare: !database.singleSession,
    onnotice: () => {},
  });
  workerA = createDb({ databaseUrl: database.ownerUrl, singleSession: database.singleSession });
  workerB = createDb({ databaseUrl: database.ownerUrl, singleSession: database.singleSession });
});

afterAll(async () => {
  await workerA?.close();
  await workerB?.close();
  await sql?.end();
  await database?.close();
});

const jobsOf = (kind: string) =>
  sql<{ dedupe_key: string; status: string; result: Record<string, unknown> | null }[]>`
    select dedupe_key, status, result from public.jobs where kind = ${kind} order by id`;

/** Something for each kind to do, and how to see it was done. */
const WORK: Record<string, { arrange(): Promise<void>; check(): Promise<void> }> = (() => {
  const state: Record<string, string | number> = {};
  return {
    price_sweep: {
      async arrange() {
        const traveller = await createUser(sql);
        state.sweptFlight = await createFlight(sql, traveller.id, { current_price: null });
      },
      async check() {
        const [flight] = await sql<{ checked: boolean }[]>`
          select last_checked is not null as checked from public.flights where id = ${state.sweptFlight!}`;
        expect(flight).toEqual({ checked: true });
        const [job] = await jobsOf('price_sweep');
        expect(job?.result).toMatchObject({ finished: true, checkedCount: 1, success: true });
      },
    },
    maintenance: {
      async arrange() {
        await sql`insert into private.login_attempts (ip, account, succeeded, attempted_at)
                  values ('198.18.0.7', 'old-attempt@example.com', false, now() - interval '2 days')`;
      },
      async check() {
        const left = await sql`select 1 from private.login_attempts where account = 'old-attempt@example.com'`;
        expect(left).toHaveLength(0);
        const [job] = await jobsOf('maintenance');
        expect(job?.result).toMatchObject({ loginAttemptsDeleted: 1, rebookings: { recorded: 0, released: 0 } });
      },
    },
    notification_passes: {
      async arrange() {
        const traveller = await createUser(sql);
        state.creditHolder = traveller.id;
        await sql`update public.profiles set email_confirmed_at = now() where id = ${traveller.id}`;
        const flightId = await createFlight(sql, traveller.id);
        await sql`update public.flights
                     set airline_credit = 9000, credit_expiry_date = current_date + 20, has_been_rebooked = true
                   where id = ${flightId}`;
      },
      async check() {
        const reminders = await sql`
          select type from public.notification_history where user_id = ${state.creditHolder!}`;
        expect(reminders).toEqual([{ type: 'credit_expiring' }]);
      },
    },
    commission_statements: {
      async arrange() {
        const traveller = await createUser(sql);
        state.owing = traveller.id;
        await sql`update public.profiles set commission_owed = 1200 where id = ${traveller.id}`;
      },
      async check() {
        const statements = await sql<{ amount: number; start: string }[]>`
          select amount, to_char(billing_period_start, 'YYYY-MM-DD') as start from public.billing_transactions
           where user_id = ${state.owing!} and billing_period_start is not null`;
        // the job of a month closes the month before it
        const month = periodOf('month', new Date()).start;
        const previous = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() - 1, 1));
        expect(statements).toEqual([{ amount: 1200, start: previous.toISOString().slice(0, 10) }]);
      },
    },
    subscription_expiry: {
      async arrange() {
        const traveller = await createUser(sql, { premium: true });
        state.lapsed = traveller.id;
        await sql`update public.profiles set subscription_start_date = now() - interval '367 days',
                    subscription_end_date = now() - interval '2 days' where id = ${traveller.id}`;
      },
      async check() {
        const [plan] = await sql`
          select sp.tier from public.profiles p join public.subscription_plans sp on sp.id = p.plan_id
           where p.id = ${state.lapsed!}`;
        expect(plan).toEqual({ tier: 'free' });
      },
    },
    email_scan_due: {
      async arrange() {
        const traveller = await createUser(sql);
        state.mailbox = traveller.id;
        const connection = await createEmailConnection(sql, traveller.id);
        await sql`update public.email_connections set connected_at = now() - interval '2 hours' where id = ${connection}`;
      },
      async check() {
        const scans = await sql`
          select status from public.jobs where kind = 'email_scan' and payload ->> 'userId' = ${state.mailbox!}`;
        expect(scans).toEqual([{ status: 'queued' }]);
      },
    },
  };
})();

describe('recurring job kinds', () => {
  it('are the ones this test knows how to give work', () => {
    expect(RECURRING.map((handler) => handler.kind).sort()).toEqual(Object.keys(WORK).sort());
  });

  it.each(RECURRING.map((handler) => [handler.kind, handler] as const))(
    '%s: one job per period, and it runs',
    async (kind, handler: JobHandler<never>) => {
      const run = (now: Date) => runDueJobs(depsOf(workerA), [handler], { now, worker: `test-${kind}` });
      const work = WORK[kind]!;
      await work.arrange();
      const now = new Date();
      const period = periodOf(handler.recurring!.every, now);
      const following = periodOf(handler.recurring!.every, period.next);

      const first = await run(now);
      expect(first.byKind[kind]).toEqual({ completed: 1, failed: 0 });
      await work.check();
      // the last moment of the same period: the period's job is there (done), nothing new
      const again = await run(new Date(period.next.getTime() - 1));
      expect(again.byKind[kind]).toBeUndefined();
      expect((await jobsOf(kind)).map((job) => [job.dedupe_key, job.status])).toEqual([
        [`${kind}:${period.key}`, 'done'],
      ]);

      const next = await run(period.next);
      expect(next.byKind[kind]).toEqual({ completed: 1, failed: 0 });
      expect((await jobsOf(kind)).map((job) => [job.dedupe_key, job.status])).toEqual([
        [`${kind}:${period.key}`, 'done'],
        [`${kind}:${following.key}`, 'done'],
      ]);
    },
  );

  it('two runs racing in one period make one job of each kind', async () => {
    const now = new Date('2040-01-01T00:00:00Z');
    const before = await sql<{ n: number }[]>`select count(*)::int as n from public.jobs`;
    // maxJobs 0: the runs only enqueue (the kinds' work is shown above)
    await Promise.all([
      runDueJobs(depsOf(workerA), RECURRING, { now, maxJobs: 0, worker: 'racer-a' }),
      runDueJobs(depsOf(workerB), RECURRING, { now, maxJobs: 0, worker: 'racer-b' }),
    ]);
    const made = await sql<{ kind: string; dedupe_key: string }[]>`
      select kind, dedupe_key from public.jobs where dedupe_key like '%:2040-01%' order by kind`;
    expect(made).toEqual(
      RECURRING.map((handler) => ({
        kind: handler.kind,
        dedupe_key: `${handler.kind}:${periodOf(handler.recurring!.every, now).key}`,
      })).sort((a, b) => a.kind.localeCompare(b.kind)),
    );
    const [after] = await sql<{ n: number }[]>`select count(*)::int as n from public.jobs`;
    expect(after?.n).toBe((before[0]?.n ?? 0) + RECURRING.length);
    await sql`delete from public.jobs where dedupe_key like '%:2040-01%'`;
  });

  it("pruning keeps a period's key while its job is the kind's newest, so a month still gets one job", async () => {
    const statements = RECURRING.find((handler) => handler.kind === 'commission_statements')!;
    const run = (now: Date) => runDueJobs(depsOf(workerA), [statements], { now, worker: 'test-prune' });
    const march = new Date('2041-03-02T00:00:00Z');
    await run(march);
    const marchJobs = () => sql<{ id: string; status: string }[]>`
      select id, status from public.jobs where kind = 'commission_statements' and dedupe_key = 'commission_statements:2041-03'`;
    const [first] = await marchJobs();
    // done a week and a day ago: past the retention of done jobs
    await sql`update public.jobs set finished_at = now() - interval '8 days' where id = ${first!.id}`;
    await workerA.asService((tx) => tx`select private.prune_jobs()`);
    const later = await run(new Date('2041-03-20T00:00:00Z'));
    // still March's one job: nothing enqueued, nothing ran
    expect(await marchJobs()).toEqual([{ id: first!.id, status: 'done' }]);
    expect(later.completed).toBe(0);

    // once April's job exists, March's is pruned like any other
    await run(new Date('2041-04-01T00:00:00Z'));
    await workerA.asService((tx) => tx`select private.prune_jobs()`);
    expect(await sql`select 1 from public.jobs where dedupe_key = 'commission_statements:2041-03'`).toHaveLength(0);
  });
});

describe('a sweep longer than a run', () => {
  it('goes on at each next run until done: every flight checked once, one sweep across periods', async () => {
    // The runner's clock is a counter that each quote moves 10 s (the simulated source's latency,
    // waited for on it): a run's 50 s budget quotes a few batches of 3 flights and stops.
    let clock = Date.parse('2042-03-01T10:05:00Z');
    const deps: AppDeps = {
      ...depsOf(workerA),
      config: { ...config, sweep: { ...config.sweep, batchSize: 3, concurrency: 1 } },
      fareSource: createSimulatedFareSource({
        latencyMs: 10_000,
        sleep: (ms) => {
          clock += ms;
          return Promise.resolve();
        },
      }),
    };
    const sweepHandler = RECURRING.find((handler) => handler.kind === 'price_sweep')!;
    // the flights the tests above made are not this sweep's
    await sql`update public.flights set last_checked = now() where last_checked is null`;
    const flights: number[] = [];
    for (let t = 0; t < 6; t++) {
      const traveller = await createUser(sql);
      for (let i = 0; i < 5; i++) flights.push(await createFlight(sql, traveller.id, { current_price: null }));
    }
    const [{ last } = { last: 0 }] = await sql<{ last: number }[]>`
      select coalesce(max(id), 0)::int as last from public.price_check_logs`;
    const sweepRunning = async () =>
      (await sql`select 1 from public.price_check_logs where id > ${last} and status = 'running'`).length > 0;

    const runs: RunDueJobsResult[] = [];
    do {
      // the second run is the next period's: its job finds the sweep still running
      if (runs.length === 1) clock = Date.parse('2042-03-01T10:15:00Z');
      runs.push(await runDueJobs(deps, [sweepHandler], { clock: () => clock, worker: 'test-long-sweep' }));
    } while ((await sweepRunning()) && runs.length < 20);

    expect(runs.length).toBeGreaterThanOrEqual(3);
    expect(await sweepRunning()).toBe(false);
    const sweeps = await sql<{ id: number; status: string; total_flights_checked: number }[]>`
      select id::int, status, total_flights_checked from public.price_check_logs where id > ${last}`;
    expect(sweeps).toEqual([{ id: expect.any(Number), status: 'completed', total_flights_checked: 30 }]);
    const sweepId = sweeps[0]!.id;
    const checks = await sql<{ n: number }[]>`
      select count(p.id)::int as n from public.flights f left join public.flight_prices p on p.flight_id = f.id
       where f.id = any(${flights}) group by f.id`;
    expect(checks).toEqual(flights.map(() => ({ n: 1 })));

    const jobs = await sql<
      { dedupe_key: string; status: string; result: { sweepId: number; resumed: boolean; finished: boolean } }[]
    >`
      select dedupe_key, status, result from public.jobs
       where kind = 'price_sweep' and (dedupe_key like 'price_sweep:2042-03-01T%' or dedupe_key like ${`price_sweep:sweep:${sweepId}:%`})
       order by id`;
    // every run picked up the job the one before left, and the second also ran its period's job
    expect(runs.map((run) => run.byKind.price_sweep)).toEqual(
      runs.map((_, i) => ({ completed: i === 1 ? 2 : 1, failed: 0 })),
    );
    expect(jobs.every((job) => job.status === 'done' && job.result.sweepId === sweepId)).toBe(true);
    const [first, continued, nextPeriod, ...rest] = jobs;
    expect(first).toMatchObject({
      dedupe_key: 'price_sweep:2042-03-01T10:00',
      result: { resumed: false, finished: false },
    });
    expect(continued?.dedupe_key).toMatch(new RegExp(`^price_sweep:sweep:${sweepId}:left:\\d+$`));
    // the next period's job worked on the same sweep, and queued no second continuation
    expect(nextPeriod).toMatchObject({
      dedupe_key: 'price_sweep:2042-03-01T10:15',
      result: { resumed: true, finished: false },
    });
    const continuations = [continued!, ...rest];
    expect(continuations).toHaveLength(runs.length - 1);
    const left = continuations.map((job) => Number(job.dedupe_key.split(':left:')[1]));
    expect(left).toEqual([...left].sort((a, b) => b - a));
    expect(new Set(left).size).toBe(left.length);
    expect(continuations.at(-1)?.result.finished).toBe(true);
    expect(await sql`select 1 from public.jobs where kind = 'price_sweep' and status <> 'done'`).toHaveLength(0);

    // a continuation of a sweep another run finished does nothing, and starts no sweep
    await workerA.asService((tx) => enqueueJob(tx, sweepContinuation({ sweepId, batchesLeft: 99 })));
    const late = await runDueJobs(deps, [sweepHandler], { clock: () => clock, worker: 'test-long-sweep' });
    expect(late.byKind.price_sweep).toEqual({ completed: 1, failed: 0 });
    const [lateJob] =
      await sql`select status, result from public.jobs where dedupe_key = ${`price_sweep:sweep:${sweepId}:left:99`}`;
    expect(lateJob).toEqual({ status: 'done', result: { sweepId, alreadyFinished: true } });
    expect(await sql`select 1 from public.price_check_logs where id > ${sweepId}`).toHaveLength(0);
  });
});
