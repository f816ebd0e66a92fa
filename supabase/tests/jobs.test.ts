// Jobs, run logs and login attempts: system tables that no traveller can read or write.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DENIED,
  actAs,
  anon,
  attempt,
  createAutoRebookingLog,
  createJob,
  createPriceCheckLog,
  createUser,
  openTestDatabase,
  serviceRole,
  user,
  type TestDb,
  type TestUser,
} from './factories.ts';

let db: TestDb;
let traveller: TestUser;
let admin: TestUser;

beforeAll(async () => {
  db = await openTestDatabase();
  traveller = await createUser(db.sql);
  admin = await createUser(db.sql, { admin: true });
});

afterAll(async () => {
  await db?.close();
});

describe('jobs', () => {
  it('enqueues a piece of work once per dedupe key', async () => {
    await createJob(db.sql, 'price_check', 'price_check:flight:1:2026-11-22');
    const again = await actAs(
      db.sql,
      serviceRole,
      (tx) =>
        tx`insert into public.jobs (kind, dedupe_key) values ('price_check', 'price_check:flight:1:2026-11-22')
         on conflict (dedupe_key) do nothing`,
    );
    expect(again.count).toBe(0);
    const withoutKey = await actAs(
      db.sql,
      serviceRole,
      (tx) =>
        tx`insert into public.jobs (kind) values ('price_check'), ('price_check') on conflict (dedupe_key) do nothing`,
    );
    expect(withoutKey.count).toBe(2);
  });

  it('a worker claims due jobs with a lease, skipping future ones', async () => {
    await db.sql`delete from public.jobs`;
    await db.sql`insert into public.jobs (kind, run_at) values
      ('auto_rebooking', now() - interval '2 minutes'),
      ('auto_rebooking', now() - interval '1 minute'),
      ('auto_rebooking', now() + interval '1 hour')`;
    const claimed = await actAs(
      db.sql,
      serviceRole,
      async (tx) =>
        tx<{ id: number; attempts: number }[]>`
          update public.jobs
             set status = 'running', locked_by = 'worker-1', attempts = attempts + 1,
                 lease_expires_at = now() + interval '5 minutes'
           where id in (select id from public.jobs
                         where status = 'queued' and run_at <= now()
                         order by run_at
                         limit 10
                         for update skip locked)
          returning id::int, attempts`,
      { commit: true },
    );
    expect(claimed.map((job) => job.attempts)).toEqual([1, 1]);
    const [queued] = await db.sql<{ n: number }[]>`select count(*)::int as n from public.jobs where status = 'queued'`;
    expect(queued?.n).toBe(1);
  });

  it.each([
    ['status', 'paused'],
    ['attempts', -1],
    ['max_attempts', 0],
    ['kind', ''],
  ])('rejects %s = %j', async (column, value) => {
    const id = await createJob(db.sql);
    const outcome = await attempt(db.sql, serviceRole, (tx) =>
      tx.unsafe(`update public.jobs set ${column} = $1 where id = $2`, [value as string, id]),
    );
    expect(outcome).toMatchObject({ error: '23514' });
  });

  it('a traveller can neither enqueue nor see jobs; an admin can look but not touch', async () => {
    await createJob(db.sql);
    expect(
      await attempt(db.sql, user(traveller.id), (tx) => tx`insert into public.jobs (kind) values ('auto_rebooking')`),
    ).toMatchObject({ error: DENIED });
    expect(await attempt(db.sql, user(traveller.id), (tx) => tx`select id from public.jobs`)).toEqual({ rows: 0 });
    const seen = await attempt(db.sql, user(admin.id), (tx) => tx`select id from public.jobs`);
    expect(seen).toMatchObject({ rows: expect.any(Number) });
    expect((seen as { rows: number }).rows).toBeGreaterThan(0);
    expect(await attempt(db.sql, user(admin.id), (tx) => tx`update public.jobs set status = 'done'`)).toMatchObject({
      error: DENIED,
    });
  });
});

describe('run logs', () => {
  it.each([['price_check_logs'], ['auto_rebooking_logs']])('%s: admins read, travellers see nothing', async (table) => {
    await createPriceCheckLog(db.sql, admin.id);
    await createAutoRebookingLog(db.sql, null);
    expect(await attempt(db.sql, user(traveller.id), (tx) => tx.unsafe(`select id from public.${table}`))).toEqual({
      rows: 0,
    });
    const seen = await attempt(db.sql, user(admin.id), (tx) => tx.unsafe(`select id from public.${table}`));
    expect((seen as { rows: number }).rows).toBeGreaterThan(0);
    expect(await attempt(db.sql, anon, (tx) => tx.unsafe(`select id from public.${table}`))).toMatchObject({
      error: DENIED,
    });
  });

  it('keeps the log when the admin who started the run leaves', async () => {
    const leaving = await createUser(db.sql, { admin: true });
    const id = await createPriceCheckLog(db.sql, leaving.id);
    await db.sql`delete from auth.users where id = ${leaving.id}`;
    const [row] = await db.sql`select initiated_by from public.price_check_logs where id = ${id}`;
    expect(row).toEqual({ initiated_by: null });
  });

  it('rejects negative counts', async () => {
    const outcome = await attempt(
      db.sql,
      serviceRole,
      (tx) => tx`insert into public.auto_rebooking_logs (total_savings) values (-100)`,
    );
    expect(outcome).toMatchObject({ error: '23514' });
  });
});

describe('login attempts', () => {
  it('the system records and counts recent failures', async () => {
    await actAs(
      db.sql,
      serviceRole,
      (tx) => tx`insert into private.login_attempts (ip, account, succeeded)
                 values ('203.0.113.9', 'pat', false), ('203.0.113.9', 'pat', false), ('203.0.113.9', 'sam', true)`,
      { commit: true },
    );
    const [recent] = await actAs(
      db.sql,
      serviceRole,
      (tx) => tx<{ n: number }[]>`select count(*)::int as n from private.login_attempts
                                   where account = 'pat' and not succeeded and attempted_at > now() - interval '15 minutes'`,
    );
    expect(recent?.n).toBe(2);
  });

  it('travellers and visitors cannot reach them', async () => {
    expect(await attempt(db.sql, user(traveller.id), (tx) => tx`select id from private.login_attempts`)).toMatchObject({
      error: DENIED,
    });
    expect(await attempt(db.sql, user(traveller.id), (tx) => tx`delete from private.login_attempts`)).toMatchObject({
      error: DENIED,
    });
    expect(await attempt(db.sql, anon, (tx) => tx`select id from private.login_attempts`)).toMatchObject({
      error: DENIED,
    });
  });
});
