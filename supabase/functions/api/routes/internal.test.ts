// The scheduler's one endpoint with a scripted database: its secret check, the kinds a call may
// name, and a run. tests/api/price-sweep.test.ts drives it against the real stack.
import assert from 'node:assert/strict';
import { HttpError, NOT_AUTHENTICATED } from '../errors.ts';
import { ScriptedDb, testApp, testConfig } from '../testing.ts';

const SECRET = 'a-scheduler-secret-for-tests';
const withSecret = { Authorization: `Bearer ${SECRET}` };

Deno.test('internal: without CRON_SECRET configured every call is 503 and nothing runs', async () => {
  const db = new ScriptedDb();
  const { request } = testApp({ db, config: { ...testConfig, cronSecret: null } });
  const res = await request('/api/internal/jobs', { method: 'POST', headers: withSecret });
  assert.equal(res.status, 503);
  assert.match(((await res.json()) as { message: string }).message, /CRON_SECRET/);
  assert.equal(db.touched, false);
});

Deno.test('internal: a missing, malformed or wrong secret is 401 and nothing runs', async () => {
  const db = new ScriptedDb();
  const { request } = testApp({ db, config: { ...testConfig, cronSecret: SECRET } });
  for (const authorization of [
    undefined,
    SECRET,
    `Basic ${SECRET}`,
    `Bearer ${SECRET}x`,
    `Bearer ${SECRET.slice(1)}`,
  ]) {
    const res = await request('/api/internal/jobs', {
      method: 'POST',
      headers: authorization === undefined ? {} : { Authorization: authorization },
    });
    assert.equal(res.status, 401, `Authorization: ${authorization}`);
    assert.deepEqual(await res.json(), { message: 'A valid scheduler secret is required' });
  }
  assert.equal(db.touched, false);
});

Deno.test('internal: the jobs endpoint is the only one; the old sweep and maintenance paths run nothing', async () => {
  const db = new ScriptedDb();
  // as in production: the scheduler's secret is no user's token
  const refuseToken = () => Promise.reject(new HttpError(401, NOT_AUTHENTICATED));
  const { request } = testApp({ db, config: { ...testConfig, cronSecret: SECRET }, verifyAccessToken: refuseToken });
  for (const path of ['/api/internal/price-sweep', '/api/internal/maintenance']) {
    const res = await request(path, { method: 'POST', headers: withSecret });
    assert.equal(res.status, 401, path);
  }
  assert.equal(db.touched, false);
});

Deno.test('internal: kinds that are not job kinds, or not a list, are 400 and nothing runs', async () => {
  const db = new ScriptedDb();
  const { request } = testApp({ db, config: { ...testConfig, cronSecret: SECRET } });
  for (const body of ['{"kinds":["price_check"]}', '{"kinds":[]}', '{"kinds":"maintenance"}', 'not json']) {
    const res = await request('/api/internal/jobs', {
      method: 'POST',
      headers: { ...withSecret, 'Content-Type': 'application/json' },
      body,
    });
    assert.equal(res.status, 400, body);
  }
  assert.equal(db.touched, false);
});

Deno.test(
  'internal: a run of the maintenance kind settles rebookings, prunes, queues stranded mail, and reports',
  async () => {
    const db = new ScriptedDb([
      [{ id: '7' }], // this period's maintenance job
      [{ id: '7', kind: 'maintenance', payload: {}, attempt: 1, claim_token: '00000000-0000-4000-8000-000000000007' }],
      [], // open rebookings for the reconciler: none
      [{ login_attempts: 3, fare_source_calls: 5, jobs: 12 }],
      [{ count: 2 }], // stranded notifications given a delivery job
      [{ completed: true }],
      [], // nothing else due
    ]);
    const { request } = testApp({ db, config: { ...testConfig, cronSecret: SECRET } });
    const res = await request('/api/internal/jobs', {
      method: 'POST',
      headers: { ...withSecret, 'Content-Type': 'application/json' },
      body: JSON.stringify({ kinds: ['maintenance'] }),
    });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), {
      completed: 1,
      failed: 0,
      byKind: { maintenance: { completed: 1, failed: 0 } },
    });
    assert.match(db.queries[0] ?? '', /private\.enqueue_job/);
    assert.equal(db.parameters[0]?.[0], 'maintenance');
    assert.match(String(db.parameters[0]?.[3]), /^maintenance:\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    assert.match(db.queries[1] ?? '', /private\.claim_jobs/);
    assert.deepEqual(db.parameters[1]?.[0], ['maintenance']);
    assert.match(db.queries[2] ?? '', /from private\.rebookings/);
    assert.match(db.queries[3] ?? '', /private\.prune_login_attempts\(\)/);
    assert.match(db.queries[3] ?? '', /private\.prune_jobs\(\)/);
    assert.match(db.queries[4] ?? '', /private\.enqueue_pending_notifications\(\)/);
    assert.match(db.queries[5] ?? '', /private\.complete_job/);
    assert.deepEqual(db.parameters[5]?.[2], {
      loginAttemptsDeleted: 3,
      fareSourceCallsDeleted: 5,
      jobsDeleted: 12,
      notificationsQueued: 2,
      rebookings: { recorded: 0, released: 0, pending: 0 },
    });
  },
);
