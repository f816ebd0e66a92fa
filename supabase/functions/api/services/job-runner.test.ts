import assert from 'node:assert/strict';
import type { AppDeps, LogEntry } from '../context.ts';
import { recordingMailer, ScriptedDb, testConfig } from '../testing.ts';
import { type JobHandler, PermanentJobError, RetryJobError, runDueJobs } from './job-runner.ts';

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
    recurring: (now) => [{ kind: 'test_kind', dedupeKey: `monthly:${now.toISOString().slice(0, 7)}` }],
  };
  await runDueJobs(depsWith(db), [handler]);
  assert.match(db.queries[0] ?? '', /private\.enqueue_job/);
  assert.match(String(db.parameters[0]?.[3]), /^monthly:\d{4}-\d{2}$/);
  assert.match(db.queries[1] ?? '', /private\.claim_jobs/);
});
