// The scheduler endpoints' secret check with a scripted database; tests/api/price-sweep.test.ts
// drives the same endpoints against the real stack.
import assert from 'node:assert/strict';
import { ScriptedDb, testApp, testConfig } from '../testing.ts';

const SECRET = 'a-scheduler-secret-for-tests';

Deno.test('internal: without CRON_SECRET configured every call is 503 and nothing runs', async () => {
  const db = new ScriptedDb();
  const { request } = testApp({ db, config: { ...testConfig, cronSecret: null } });
  for (const path of ['/api/internal/price-sweep', '/api/internal/maintenance', '/api/internal/jobs']) {
    const res = await request(path, { method: 'POST', headers: { Authorization: `Bearer ${SECRET}` } });
    assert.equal(res.status, 503);
    assert.match(((await res.json()) as { message: string }).message, /CRON_SECRET/);
  }
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
    const res = await request('/api/internal/maintenance', {
      method: 'POST',
      headers: authorization === undefined ? {} : { Authorization: authorization },
    });
    assert.equal(res.status, 401, `Authorization: ${authorization}`);
    assert.deepEqual(await res.json(), { message: 'A valid scheduler secret is required' });
  }
  assert.equal(db.touched, false);
});

Deno.test('internal: maintenance with the secret prunes, sends queued alerts and reports the counts', async () => {
  // the prune counts, stranded notifications given a delivery job (2), the notification jobs
  // claimed (none due), then the open rebookings for the reconciler (none)
  const db = new ScriptedDb([[{ login_attempts: 3, fare_source_calls: 5, jobs: 12 }], [{ count: 2 }], [], []]);
  const { request } = testApp({ db, config: { ...testConfig, cronSecret: SECRET } });
  const res = await request('/api/internal/maintenance', {
    method: 'POST',
    headers: { Authorization: `Bearer ${SECRET}` },
  });
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), {
    loginAttemptsDeleted: 3,
    fareSourceCallsDeleted: 5,
    jobsDeleted: 12,
    alertsSent: 0,
    rebookings: { recorded: 0, released: 0, pending: 0 },
  });
  assert.match(db.queries[0] ?? '', /private\.prune_login_attempts\(\)/);
  assert.match(db.queries[0] ?? '', /private\.prune_jobs\(\)/);
  assert.match(db.queries[1] ?? '', /private\.enqueue_pending_notifications\(\)/);
  assert.match(db.queries[2] ?? '', /private\.claim_jobs/);
  assert.deepEqual(db.parameters[2]?.[0], ['notification_email']);
  assert.match(db.queries[3] ?? '', /from private\.rebookings/);
});
