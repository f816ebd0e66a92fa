// The job queue (migration 20261122000200_jobs_and_scheduling.sql) against a real database, driven through
// the api's own client (api/queries/jobs.ts) on the api's role, as workers in the api drive it.
// Time is moved by shifting a job's timestamps back as the superuser, never by waiting: an
// expired lease is a lease_expires_at in the past, a backoff that ran out a run_at in the past.
//
// Also here: run logs and login attempts, system tables no traveller can read or write.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../dev/db/test-db.ts';
import { createDb, type Db } from '../functions/api/db.ts';
import {
  type ClaimedJob,
  claimJobs,
  completeJob,
  enqueueJob,
  extendJobLease,
  failJob,
} from '../functions/api/queries/jobs.ts';
import {
  DENIED,
  actAs,
  anon,
  attempt,
  createAutoRebookingLog,
  createPriceCheckLog,
  createUser,
  serviceRole,
  user,
  type Sql,
  type TestUser,
} from './factories.ts';
import postgres from 'postgres';

let database: TestDatabase;
/** The superuser: test setup and moving the clock. */
let sql: Sql;
/** Two workers of the api, each with its own connections, as the api's role. */
let workerA: Db;
let workerB: Db;
let traveller: TestUser;
let admin: TestUser;

/** Kinds only these tests enqueue, with retry policies small enough to run out. */
const KIND = 'test_work';
const OTHER_KIND = 'test_other';

beforeAll(async () => {
  database = await createTestDatabase();
  sql = postgres(database.url, {
    max: database.singleSession ? 1 : 4,
    prepare: !database.singleSession,
    onnotice: () => {},
  });
  workerA = createDb({ databaseUrl: database.ownerUrl, singleSession: database.singleSession });
  workerB = createDb({ databaseUrl: database.ownerUrl, singleSession: database.singleSession });
  await sql`insert into private.job_kinds (kind, description, max_attempts, backoff_base_seconds, backoff_max_seconds)
            values (${KIND}, 'test work', 4, 10, 25), (${OTHER_KIND}, 'other test work', 5, 10, 3600)`;
  traveller = await createUser(sql);
  admin = await createUser(sql, { admin: true });
});

afterAll(async () => {
  await workerA?.close();
  await workerB?.close();
  await sql?.end();
  await database?.close();
});

beforeEach(async () => {
  await sql`delete from public.jobs`;
});

const enqueue = (db: Db, payload: Record<string, unknown> = {}, dedupeKey?: string, kind = KIND) =>
  db.asService((tx) => enqueueJob(tx, { kind, payload, dedupeKey }));

const claim = (db: Db, worker: string, limit = 1, kinds = [KIND], leaseSeconds = 60) =>
  db.asService((tx) => claimJobs<{ n?: number }>(tx, { kinds, worker, limit, leaseSeconds }));

async function jobRow(id: number) {
  const [row] = await sql<
    {
      status: string;
      attempts: number;
      locked_by: string | null;
      result: Record<string, unknown> | null;
      last_error: string | null;
      due_in_seconds: number;
      finished: boolean;
    }[]
  >`select status, attempts, locked_by, result, last_error, finished_at is not null as finished,
           round(extract(epoch from run_at - clock_timestamp()))::int as due_in_seconds
      from public.jobs where id = ${id}`;
  if (!row) throw new Error(`no job ${id}`);
  return row;
}

/** The job's lease runs out: as if its worker had stalled past it. */
const leaseRunsOut = (id: number) =>
  sql`update public.jobs set lease_expires_at = clock_timestamp() - interval '1 second' where id = ${id}`;

/** The job's backoff is over: it is due now. */
const backoffRunsOut = (id: number) =>
  sql`update public.jobs set run_at = clock_timestamp() - interval '1 second' where id = ${id}`;

describe('enqueue', () => {
  it('a duplicate dedupe key is one job, whoever enqueues it', async () => {
    const first = await enqueue(workerA, { n: 1 }, 'digest:pat:2026-11-24');
    const again = await enqueue(workerB, { n: 2 }, 'digest:pat:2026-11-24');
    const [atOnce1, atOnce2] = await Promise.all([
      enqueue(workerA, { n: 3 }, 'digest:sam:2026-11-24'),
      enqueue(workerB, { n: 4 }, 'digest:sam:2026-11-24'),
    ]);
    expect(again).toBe(first);
    expect(atOnce2).toBe(atOnce1);
    const rows = await sql<{ dedupe_key: string; n: number }[]>`
      select dedupe_key, count(*)::int as n from public.jobs group by dedupe_key order by dedupe_key`;
    expect(rows).toEqual([
      { dedupe_key: 'digest:pat:2026-11-24', n: 1 },
      { dedupe_key: 'digest:sam:2026-11-24', n: 1 },
    ]);
    // the first enqueue's payload stands
    const [kept] = await sql<{ payload: { n: number } }[]>`select payload from public.jobs where id = ${first}`;
    expect(kept?.payload).toEqual({ n: 1 });
  });

  it('claims a higher priority first, then the oldest', async () => {
    const old = await enqueue(workerA, { n: 1 });
    const urgent = await workerA.asService((tx) => enqueueJob(tx, { kind: KIND, payload: { n: 2 }, priority: 10 }));
    const newer = await enqueue(workerA, { n: 3 });
    const claimed = await claim(workerA, 'w', 3);
    expect(claimed.map((job) => job.id)).toEqual([urgent, old, newer]);
  });

  it('still answers the job once it is done, so finished work is not enqueued again', async () => {
    const id = await enqueue(workerA, {}, 'once');
    const [job] = await claim(workerA, 'w');
    await workerA.asService((tx) => completeJob(tx, job as ClaimedJob));
    expect(await enqueue(workerB, {}, 'once')).toBe(id);
    expect(await claim(workerB, 'w')).toEqual([]);
  });

  it('jobs without a key are each their own', async () => {
    const a = await enqueue(workerA);
    const b = await enqueue(workerA);
    expect(a).not.toBe(b);
  });

  it('refuses a kind nobody declared', async () => {
    const error = await enqueue(workerA, {}, undefined, 'no_such_kind').catch((e: { code?: string }) => e.code);
    expect(error).toBe('22023');
    const [count] = await sql<{ n: number }[]>`select count(*)::int as n from public.jobs`;
    expect(count?.n).toBe(0);
  });
});

describe('claim', () => {
  it('takes due jobs of the asked kinds, oldest first, and leaves the rest', async () => {
    const later = await workerA.asService((tx) =>
      enqueueJob(tx, { kind: KIND, runAfter: new Date(Date.now() + 3_600_000) }),
    );
    const first = await enqueue(workerA, { n: 1 });
    const second = await enqueue(workerA, { n: 2 });
    const other = await enqueue(workerA, { n: 3 }, undefined, OTHER_KIND);

    const claimed = await claim(workerA, 'worker-1', 10);
    expect(claimed.map((job) => [job.id, job.kind, job.payload, job.attempt])).toEqual([
      [first, KIND, { n: 1 }, 1],
      [second, KIND, { n: 2 }, 1],
    ]);
    expect(new Set(claimed.map((job) => job.claimToken)).size).toBe(2);
    expect((await jobRow(first)).locked_by).toBe('worker-1');
    expect((await jobRow(later)).status).toBe('queued');
    expect((await jobRow(other)).status).toBe('queued');
    expect((await claim(workerA, 'worker-1', 10, [KIND, OTHER_KIND])).map((job) => job.id)).toEqual([other]);
  });

  it('two workers claiming side by side never take the same job', async () => {
    const ids: number[] = [];
    for (let n = 0; n < 60; n++) ids.push(await enqueue(workerA, { n }));
    const taken = new Map<string, number[]>([
      ['a', []],
      ['b', []],
    ]);
    const work = async (db: Db, name: 'a' | 'b') => {
      for (;;) {
        const jobs = await claim(db, name, 3);
        if (jobs.length === 0) return;
        taken.get(name)?.push(...jobs.map((job) => job.id));
      }
    };
    await Promise.all([work(workerA, 'a'), work(workerB, 'b')]);

    const all = [...(taken.get('a') ?? []), ...(taken.get('b') ?? [])];
    expect(all.sort((x, y) => x - y)).toEqual(ids);
    const attempts = await sql<{ attempts: number }[]>`select distinct attempts from public.jobs`;
    expect(attempts).toEqual([{ attempts: 1 }]);
  });

  // One database session (PGlite) cannot hold a lock open against another.
  it.skipIf(process.env.TEST_DATABASE_URL === undefined)(
    'skips jobs another worker holds in an open transaction rather than waiting for them',
    async () => {
      const first = await enqueue(workerA, { n: 1 });
      const second = await enqueue(workerA, { n: 2 });
      let releaseA: () => void = () => {};
      const aHolds = new Promise<void>((resolve) => {
        releaseA = resolve;
      });
      let aClaimed: (ids: number[]) => void = () => {};
      const aHasClaimed = new Promise<number[]>((resolve) => {
        aClaimed = resolve;
      });
      const a = workerA.asService(async (tx) => {
        const jobs = await claimJobs(tx, { kinds: [KIND], worker: 'a', limit: 1, leaseSeconds: 60 });
        aClaimed(jobs.map((job) => job.id));
        await aHolds; // the claim is not committed yet: its row stays locked
      });
      expect(await aHasClaimed).toEqual([first]);
      const b = await claim(workerB, 'b', 2);
      releaseA();
      await a;
      expect(b.map((job) => job.id)).toEqual([second]);
    },
  );

  it('takes a job again once its lease runs out, counting the attempt', async () => {
    const id = await enqueue(workerA);
    const [held] = await claim(workerA, 'stalled');
    expect(await claim(workerB, 'other')).toEqual([]);
    await leaseRunsOut(id);

    const [again] = await claim(workerB, 'other');
    expect(again).toMatchObject({ id, attempt: 2 });
    expect(again?.claimToken).not.toBe(held?.claimToken);
    expect(await jobRow(id)).toMatchObject({ status: 'running', locked_by: 'other', attempts: 2 });
    expect((await jobRow(id)).last_error).toContain('lease of attempt 1 ran out');
  });

  it('a worker may extend its lease while it holds the claim, not after losing it', async () => {
    const id = await enqueue(workerA);
    const [held] = await claim(workerA, 'slow', 1, [KIND], 1);
    const job = held as ClaimedJob;
    expect(await workerA.asService((tx) => extendJobLease(tx, job, 600))).toBe(true);
    const [lease] = await sql<{ left: number }[]>`
      select extract(epoch from lease_expires_at - clock_timestamp())::int as left from public.jobs where id = ${id}`;
    expect(lease?.left).toBeGreaterThan(500);
    await leaseRunsOut(id);
    await claim(workerB, 'other');
    expect(await workerA.asService((tx) => extendJobLease(tx, job, 600))).toBe(false);
  });
});

describe('complete and fail', () => {
  it("a crashed worker's job completes once: the old holder's late answer is refused", async () => {
    const id = await enqueue(workerA);
    const [crashed] = await claim(workerA, 'crashed');
    await leaseRunsOut(id);
    const [rescuer] = await claim(workerB, 'rescuer');

    // the old holder wakes up and tries to finish: nothing happens, and its effects roll back
    const log = await createPriceCheckLog(sql);
    const late = await workerA
      .asService(async (tx) => {
        await tx`update public.price_check_logs set total_flights_checked = total_flights_checked + 1 where id = ${log}`;
        if (!(await completeJob(tx, crashed as ClaimedJob, { by: 'crashed' }))) throw new Error('claim lost');
      })
      .catch((error: Error) => error.message);
    expect(late).toBe('claim lost');
    const [counted] = await sql`select total_flights_checked from public.price_check_logs where id = ${log}`;
    expect(counted).toEqual({ total_flights_checked: 12 });
    expect(await workerA.asService((tx) => failJob(tx, crashed as ClaimedJob, 'late failure'))).toBeNull();
    expect(await jobRow(id)).toMatchObject({ status: 'running', locked_by: 'rescuer' });

    expect(await workerB.asService((tx) => completeJob(tx, rescuer as ClaimedJob, { by: 'rescuer' }))).toBe(true);
    expect(await workerB.asService((tx) => completeJob(tx, rescuer as ClaimedJob, { by: 'twice' }))).toBe(false);
    expect(await jobRow(id)).toMatchObject({
      status: 'done',
      result: { by: 'rescuer' },
      locked_by: null,
      finished: true,
    });
  });

  it('retries back off exponentially up to the cap, then the job is a dead letter', async () => {
    // test_work: 4 attempts, backoff 10 s doubled per attempt, at most 25 s
    const id = await enqueue(workerA);
    const waits: number[] = [];
    for (let n = 1; n <= 3; n++) {
      const [job] = await claim(workerA, 'w');
      expect(job?.attempt).toBe(n);
      expect(await workerA.asService((tx) => failJob(tx, job as ClaimedJob, `failure ${n}`))).toBe('queued');
      const row = await jobRow(id);
      expect(row).toMatchObject({ status: 'queued', attempts: n, last_error: `failure ${n}`, locked_by: null });
      waits.push(row.due_in_seconds);
      // not claimable while backing off
      expect(await claim(workerB, 'w')).toEqual([]);
      await backoffRunsOut(id);
    }
    expect(waits).toEqual([10, 20, 25]);

    const [last] = await claim(workerA, 'w');
    expect(last?.attempt).toBe(4);
    expect(await workerA.asService((tx) => failJob(tx, last as ClaimedJob, 'failure 4'))).toBe('dead');
    expect(await jobRow(id)).toMatchObject({ status: 'dead', attempts: 4, last_error: 'failure 4', finished: true });
  });

  it('a worker may name the retry time, or give up at once', async () => {
    const retried = await enqueue(workerA, { n: 1 });
    const given = await enqueue(workerA, { n: 2 });
    const [first, second] = await claim(workerA, 'w', 2);
    const retryAt = new Date(Date.now() + 90_000);
    expect(await workerA.asService((tx) => failJob(tx, first as ClaimedJob, 'rate limited', { retryAt }))).toBe(
      'queued',
    );
    expect((await jobRow(retried)).due_in_seconds).toBeGreaterThan(80);
    expect(await workerA.asService((tx) => failJob(tx, second as ClaimedJob, 'bad payload', { permanent: true }))).toBe(
      'dead',
    );
    expect(await jobRow(given)).toMatchObject({ status: 'dead', attempts: 1 });
  });

  it('dead letters are never claimed again, however their lease or run time reads', async () => {
    // a worker that dies on every attempt: the lease running out the last time makes it dead
    const id = await enqueue(workerA);
    for (let n = 1; n <= 4; n++) {
      const [job] = await claim(workerA, `dying-${n}`);
      expect(job?.attempt).toBe(n);
      await leaseRunsOut(id);
    }
    expect(await claim(workerB, 'w')).toEqual([]);
    expect(await jobRow(id)).toMatchObject({ status: 'dead', attempts: 4, finished: true });
    expect((await jobRow(id)).last_error).toContain('lease of attempt 4 ran out');

    await backoffRunsOut(id);
    expect(await claim(workerB, 'w', 10)).toEqual([]);
    expect((await jobRow(id)).status).toBe('dead');
  });
});

describe('maintenance', () => {
  it('prunes finished jobs after a week and dead letters after a month, nothing else', async () => {
    const ages = [
      ['done', '8 days'],
      ['done', '6 days'],
      ['dead', '31 days'],
      ['dead', '8 days'],
    ] as const;
    const finished: number[] = [];
    for (const [status, age] of ages) {
      const id = await enqueue(workerA);
      const [job] = await claim(workerA, 'w');
      if (status === 'done') await workerA.asService((tx) => completeJob(tx, job as ClaimedJob));
      else await workerA.asService((tx) => failJob(tx, job as ClaimedJob, 'broken', { permanent: true }));
      await sql`update public.jobs set finished_at = now() - ${age}::interval where id = ${id}`;
      finished.push(id);
    }
    // unfinished work is never pruned, however old
    const queued = await enqueue(workerA);
    const running = await enqueue(workerA);
    await sql`update public.jobs set created_at = now() - interval '1 year', run_at = now() + interval '1 hour'
               where id = ${queued}`;
    await backoffRunsOut(running);
    await claim(workerA, 'w');
    await sql`update public.jobs set created_at = now() - interval '1 year' where id = ${running}`;

    const [pruned] = await workerA.asService((tx) => tx<{ n: number }[]>`select private.prune_jobs() as n`);
    expect(pruned?.n).toBe(2);
    const left = await sql<{ id: string }[]>`select id from public.jobs order by id`;
    expect(left.map((row) => Number(row.id))).toEqual([finished[1], finished[3], queued, running]);
  });
});

describe('who may use the queue', () => {
  const calls = [
    `select private.enqueue_job('test_work')`,
    `select * from private.claim_jobs(array['test_work'], 'w', 1, 60)`,
    `select private.complete_job(1, gen_random_uuid())`,
    `select private.fail_job(1, gen_random_uuid(), 'x')`,
    `select private.extend_job_lease(1, gen_random_uuid(), 60)`,
    `select private.prune_jobs()`,
  ];

  it.each(calls)('only the api role may run %s', async (statement) => {
    for (const actor of [anon, user(traveller.id), user(admin.id), serviceRole]) {
      const outcome = await attempt(sql, actor, (tx) => tx.unsafe(statement));
      expect(outcome, `${actor.role}: ${statement}`).toMatchObject({ error: DENIED });
    }
    await workerA.asService((tx) => tx.unsafe(statement));
  });

  it('travellers cannot see or write jobs; admins may look but not touch', async () => {
    await enqueue(workerA);
    expect(await attempt(sql, user(traveller.id), (tx) => tx`select id from public.jobs`)).toEqual({ rows: 0 });
    expect(
      await attempt(sql, user(traveller.id), (tx) => tx`insert into public.jobs (kind) values ('test_work')`),
    ).toMatchObject({ error: DENIED });
    expect(await attempt(sql, user(admin.id), (tx) => tx`select id from public.jobs`)).toEqual({ rows: 1 });
    expect(await attempt(sql, user(admin.id), (tx) => tx`update public.jobs set status = 'done'`)).toMatchObject({
      error: DENIED,
    });
    expect(await attempt(sql, user(admin.id), (tx) => tx`select kind from private.job_kinds`)).toMatchObject({
      error: DENIED,
    });
  });

  it.each([
    ['status', 'paused'],
    ['attempts', -1],
    ['max_attempts', 0],
    ['kind', 'undeclared'],
  ])('the table refuses %s = %j', async (column, value) => {
    const id = await enqueue(workerA);
    const outcome = await attempt(sql, serviceRole, (tx) =>
      tx.unsafe(`update public.jobs set ${column} = $1 where id = $2`, [value as string, id]),
    );
    expect(outcome).toMatchObject({ error: expect.stringMatching(/^23(514|503)$/) });
  });
});

describe('run logs', () => {
  it.each([['price_check_logs'], ['auto_rebooking_logs']])('%s: admins read, travellers see nothing', async (table) => {
    await createPriceCheckLog(sql, admin.id);
    await createAutoRebookingLog(sql, null);
    expect(await attempt(sql, user(traveller.id), (tx) => tx.unsafe(`select id from public.${table}`))).toEqual({
      rows: 0,
    });
    const seen = await attempt(sql, user(admin.id), (tx) => tx.unsafe(`select id from public.${table}`));
    expect((seen as { rows: number }).rows).toBeGreaterThan(0);
    expect(await attempt(sql, anon, (tx) => tx.unsafe(`select id from public.${table}`))).toMatchObject({
      error: DENIED,
    });
  });

  it('keeps the log when the admin who started the run leaves', async () => {
    const leaving = await createUser(sql, { admin: true });
    const id = await createPriceCheckLog(sql, leaving.id);
    await sql`delete from auth.users where id = ${leaving.id}`;
    const [row] = await sql`select initiated_by from public.price_check_logs where id = ${id}`;
    expect(row).toEqual({ initiated_by: null });
  });

  it('rejects negative counts', async () => {
    const outcome = await attempt(
      sql,
      serviceRole,
      (tx) => tx`insert into public.auto_rebooking_logs (total_savings) values (-100)`,
    );
    expect(outcome).toMatchObject({ error: '23514' });
  });
});

describe('login attempts', () => {
  it('the system records and counts recent failures', async () => {
    await actAs(
      sql,
      serviceRole,
      (tx) => tx`insert into private.login_attempts (ip, account, succeeded)
                 values ('203.0.113.9', 'pat', false), ('203.0.113.9', 'pat', false), ('203.0.113.9', 'sam', true)`,
      { commit: true },
    );
    const [recent] = await actAs(
      sql,
      serviceRole,
      (tx) => tx<{ n: number }[]>`select count(*)::int as n from private.login_attempts
                                   where account = 'pat' and not succeeded and attempted_at > now() - interval '15 minutes'`,
    );
    expect(recent?.n).toBe(2);
  });

  it('travellers and visitors cannot reach them', async () => {
    expect(await attempt(sql, user(traveller.id), (tx) => tx`select id from private.login_attempts`)).toMatchObject({
      error: DENIED,
    });
    expect(await attempt(sql, user(traveller.id), (tx) => tx`delete from private.login_attempts`)).toMatchObject({
      error: DENIED,
    });
    expect(await attempt(sql, anon, (tx) => tx`select id from private.login_attempts`)).toMatchObject({
      error: DENIED,
    });
  });
});
