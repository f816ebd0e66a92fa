import assert from 'node:assert/strict';
import type { AppDeps, LogEntry } from '../context.ts';
import { cpuNowMs } from '../lib/resource-usage.ts';
import { recordingMailer, ScriptedDb, testConfig } from '../testing.ts';
import { type JobHandler, PermanentJobError, periodOf, recurringJob, RetryJobError, runDueJobs } from './job-runner.ts';

function depsWith(db: ScriptedDb): AppDeps & { logs: LogEntry[] } {
  const logs: LogEntry[] = [];
  return {
    config: testConfig,
    db,
    authApi: undefined as never,
    verifyAccessToken: undefined as never,
    fareSource: undefined as never,
    payments: undefined as never,
    mailer: recordingMailer(),
    log: (entry) => logs.push(entry),
    logs,
  };
}

const job = (id: number, payload: Record<string, unknown> = {}) => ({
  id: String(id),
  kind: 'test_kind',
  payload,
  attempt: 1,
  claim_token: `00000000-0000-4000-8000-00000000000${id}`,
});

Deno.test('job runner: effects and completion commit together, errors give the job back', async () => {
  const db = new ScriptedDb([
    [job(1, { n: 1 }), job(2, { n: 2 }), job(3, { n: 3 }), job(4, { n: 4 })], // first claim
    [], // job 1's write
    [{ completed: true }],
    [{ status: 'queued' }], // job 2: retry at a chosen time
    [{ status: 'dead' }], // job 3: permanent
    [{ status: 'queued' }], // job 4: any other error
    [], // second claim: nothing due
  ]);
  const deps = depsWith(db);
  const retryAt = new Date('2026-12-01T00:00:00Z');
  const seen: number[] = [];
  const handler: JobHandler<{ n: number }> = {
    kind: 'test_kind',
    leaseSeconds: 30,
    async run(claimed, ctx) {
      seen.push(claimed.payload.n);
      if (claimed.payload.n === 1) {
        await ctx.finish(async (tx) => {
          await tx`insert into effects values (${claimed.payload.n})`;
          return { wrote: 1 };
        });
      } else if (claimed.payload.n === 2) throw new RetryJobError('rate limited', retryAt);
      else if (claimed.payload.n === 3) throw new PermanentJobError('the flight is gone');
      else throw new Error('boom');
    },
  };
  const result = await runDueJobs(deps, [handler], { worker: 'w1' });
  assert.deepEqual(seen, [1, 2, 3, 4]);
  assert.deepEqual(result, { completed: 1, failed: 3, byKind: { test_kind: { completed: 1, failed: 3 } } });
  // the claim names the kind, the worker and the handler's lease
  assert.deepEqual(db.parameters[0], [['test_kind'], 'w1', 10, 30]);
  // job 1: its write and its completion in one transaction, with the write's result
  assert.match(db.queries[1] ?? '', /insert into effects/);
  assert.match(db.queries[2] ?? '', /private\.complete_job/);
  assert.deepEqual(db.parameters[2]?.[2], { wrote: 1 });
  assert.equal(db.parameters[1]?.[0], 1);
  // failures: retry time, permanent flag, plain backoff
  assert.equal(db.parameters[3]?.[3], retryAt);
  assert.equal(db.parameters[3]?.[4], false);
  assert.equal(db.parameters[4]?.[4], true);
  assert.equal(db.parameters[5]?.[3], null);
  assert.equal(db.parameters[5]?.[2], 'boom');
  assert.ok(deps.logs.some((entry) => entry.msg === 'job failed for good' && entry.jobId === 3));
  // one line per job run: its kind, outcome, CPU time and peak memory (issue 27 item 5)
  const runs = deps.logs.filter((entry) => entry.msg === 'job');
  assert.deepEqual(
    runs.map((entry) => [entry.jobId, entry.kind, entry.outcome]),
    [
      [1, 'test_kind', 'completed'],
      [2, 'test_kind', 'failed'],
      [3, 'test_kind', 'failed'],
      [4, 'test_kind', 'failed'],
    ],
  );
  for (const entry of runs) {
    for (const figure of ['ms', 'cpuMs', 'rssMb', 'heapMb']) assert.equal(typeof entry[figure], 'number', figure);
  }
});

Deno.test('job runner: stops claiming once the run has used its CPU budget, and finishes what it claimed', async () => {
  const db = new ScriptedDb([
    [job(1), job(2)], // first claim
    [{ completed: true }],
    [{ completed: true }],
    // no second claim: the budget is spent
  ]);
  const deps = depsWith(db);
  const handler: JobHandler = {
    kind: 'test_kind',
    leaseSeconds: 30,
    run() {
      // burn CPU time (not wall time: a busy machine may hold the process off a core)
      const until = cpuNowMs() + 30;
      while (cpuNowMs() < until) Math.sqrt(Math.random());
      return Promise.resolve();
    },
  };
  const result = await runDueJobs(deps, [handler], { cpuBudgetMs: 20 });
  assert.deepEqual(result, { completed: 2, failed: 0, byKind: { test_kind: { completed: 2, failed: 0 } } });
  assert.equal(db.queries.filter((query) => /claim_jobs/.test(query)).length, 1);
});

Deno.test('job runner: a lost claim rolls the effects back and counts nothing; no handler means no claim', async () => {
  const db = new ScriptedDb([[job(7)], [{ completed: false }], []]);
  const deps = depsWith(db);
  const handler: JobHandler = { kind: 'test_kind', leaseSeconds: 5, run: () => Promise.resolve() };
  const result = await runDueJobs(deps, [handler]);
  assert.deepEqual(result, { completed: 0, failed: 0, byKind: {} });
  assert.ok(deps.logs.some((entry) => entry.msg === 'job taken over by another worker'));
  // only kinds asked for are claimed
  const idle = new ScriptedDb();
  assert.deepEqual(await runDueJobs(depsWith(idle), [handler], { kinds: ['other'] }), {
    completed: 0,
    failed: 0,
    byKind: {},
  });
  assert.equal(idle.queries.length, 0);
});

Deno.test('job runner: stops at maxJobs', async () => {
  const db = new ScriptedDb([[job(1), job(2)], [{ completed: true }], [{ completed: true }]]);
  const handler: JobHandler = { kind: 'test_kind', leaseSeconds: 5, run: () => Promise.resolve() };
  const result = await runDueJobs(depsWith(db), [handler], { maxJobs: 2 });
  assert.equal(result.completed, 2);
  assert.deepEqual(db.parameters[0]?.[2], 2);
  assert.equal(db.queries.length, 3);
});

Deno.test('job runner: recurring work is enqueued first, once per period by its dedupe key', async () => {
  const db = new ScriptedDb([[{ id: '41' }], []]);
  const handler: JobHandler = {
    kind: 'test_kind',
    leaseSeconds: 5,
    run: () => Promise.resolve(),
    recurring: { every: 'month', payload: (month) => ({ month: month.key }) },
  };
  await runDueJobs(depsWith(db), [handler], { now: new Date('2026-11-28T10:07:00Z') });
  assert.match(db.queries[0] ?? '', /private\.enqueue_job/);
  assert.deepEqual(db.parameters[0]?.slice(0, 4), ['test_kind', { month: '2026-11' }, null, 'test_kind:2026-11']);
  assert.match(db.queries[1] ?? '', /private\.claim_jobs/);
});

Deno.test('job runner: a recurring period and its key, in UTC', () => {
  const at = new Date('2026-12-31T23:59:59.999Z');
  const seen = Object.fromEntries(
    (['5 minutes', '15 minutes', 'hour', 'day', 'month'] as const).map((every) => {
      const period = periodOf(every, at);
      return [every, [period.key, period.start.toISOString(), period.next.toISOString()]];
    }),
  );
  assert.deepEqual(seen, {
    '5 minutes': ['2026-12-31T23:55', '2026-12-31T23:55:00.000Z', '2027-01-01T00:00:00.000Z'],
    '15 minutes': ['2026-12-31T23:45', '2026-12-31T23:45:00.000Z', '2027-01-01T00:00:00.000Z'],
    hour: ['2026-12-31T23', '2026-12-31T23:00:00.000Z', '2027-01-01T00:00:00.000Z'],
    day: ['2026-12-31', '2026-12-31T00:00:00.000Z', '2027-01-01T00:00:00.000Z'],
    month: ['2026-12', '2026-12-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z'],
  });
  // a period's first moment is in it; the moment before is in the previous one
  assert.equal(periodOf('15 minutes', new Date('2026-11-28T10:15:00Z')).key, '2026-11-28T10:15');
  assert.equal(periodOf('15 minutes', new Date('2026-11-28T10:14:59.999Z')).key, '2026-11-28T10:00');
  assert.equal(periodOf('month', new Date('2027-02-28T12:00:00Z')).next.toISOString(), '2027-03-01T00:00:00.000Z');
  assert.deepEqual(recurringJob('email_scan_due', { every: 'hour' }, new Date('2026-11-28T10:59:00Z')), {
    kind: 'email_scan_due',
    dedupeKey: 'email_scan_due:2026-11-28T10',
  });
});

Deno.test("job runner: a job is told the run's deadline", async () => {
  const db = new ScriptedDb([[job(1)], [{ completed: true }], []]);
  let deadline = 0;
  const handler: JobHandler = {
    kind: 'test_kind',
    leaseSeconds: 5,
    run: (_job, ctx) => {
      deadline = ctx.deadline;
      return Promise.resolve();
    },
  };
  const before = Date.now();
  await runDueJobs(depsWith(db), [handler], { budgetMs: 30_000 });
  assert.ok(deadline >= before + 30_000 && deadline <= Date.now() + 30_000, String(deadline - before));
});

Deno.test("job runner: the periods, the budget and the deadline are read on the run's clock", async () => {
  const db = new ScriptedDb([[{ id: '1' }], [job(1)], [{ completed: true }]]);
  let clock = Date.parse('2026-11-28T10:14:50Z');
  const seen: { deadline: number; now: number }[] = [];
  const handler: JobHandler = {
    kind: 'test_kind',
    leaseSeconds: 5,
    recurring: { every: '15 minutes' },
    run: (_job, ctx) => {
      seen.push({ deadline: ctx.deadline, now: ctx.now() });
      // the job's work takes the whole budget: the run claims nothing more
      clock = ctx.deadline;
      return Promise.resolve();
    },
  };
  const started = clock;
  await runDueJobs(depsWith(db), [handler], { budgetMs: 30_000, clock: () => clock });
  assert.deepEqual(seen, [{ deadline: started + 30_000, now: started }]);
  assert.ok(db.parameters[0]?.includes('test_kind:2026-11-28T10:00'), JSON.stringify(db.parameters[0]));
  // the period's job enqueued, claimed and completed; no second claim past the deadline
  assert.equal(db.queries.length, 3);
});
