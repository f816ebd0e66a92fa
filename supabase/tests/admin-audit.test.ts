// The admin audit log (migration 20261122000400_admin_audit.sql): one row per admin action with
// who, what, when and the values before and after; immutable for every role, the owner and a
// superuser included; readable by admins only. And the last-admin rule: no change or delete may
// leave the app without an admin, even when two admins revoke each other at the same moment.
import postgres from 'postgres';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  DENIED,
  actAs,
  anon,
  apiRole,
  attempt,
  createUser,
  openTestDatabase,
  serviceRole,
  user,
  type Actor,
  type TestDb,
  type TestUser,
  type Tx,
} from './factories.ts';

/** The last admin's refusal (errors map it to 409 'The last admin cannot be removed'). */
const LAST_ADMIN = 'FBADM';

interface AuditRow {
  id: number;
  at: Date;
  actor_id: string | null;
  actor_name: string;
  action: string;
  target_type: string;
  target_id: string | null;
  target_label: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

let db: TestDb;
let admin: TestUser;

beforeAll(async () => {
  db = await openTestDatabase();
  admin = await createUser(db.sql, { admin: true });
});

afterAll(async () => {
  await db?.close();
});

/** The audit rows written after `sinceId`, oldest first (read as the superuser). */
async function rowsSince(sinceId: number): Promise<AuditRow[]> {
  return db.sql<AuditRow[]>`
    select id::int, at, actor_id::text, actor_name, action, target_type, target_id, target_label, before, after
      from public.admin_audit_log where id > ${sinceId} order by id`;
}

async function lastId(): Promise<number> {
  const [row] = await db.sql<{ id: number }[]>`select coalesce(max(id), 0)::int as id from public.admin_audit_log`;
  return row?.id ?? 0;
}

async function isAdmin(id: string): Promise<boolean> {
  const [row] = await db.sql<{ is_admin: boolean }[]>`select is_admin from public.profiles where id = ${id}`;
  return row?.is_admin ?? false;
}

/** Makes exactly these users the admins (as the superuser; the rule keeps at least one throughout). */
async function onlyAdmins(...ids: string[]): Promise<void> {
  await db.sql`update public.profiles set is_admin = true where id = any(${ids}::uuid[]) and not is_admin`;
  await db.sql`update public.profiles set is_admin = false where is_admin and id <> all(${ids}::uuid[])`;
}

beforeEach(async () => {
  await onlyAdmins(admin.id);
});

describe('an audit row for every action', () => {
  it('an admin granting and revoking admin: who, what, when, before and after', async () => {
    const other = await createUser(db.sql);
    const since = await lastId();
    const started = new Date();
    await actAs(db.sql, user(admin.id), (tx) => tx`update public.profiles set is_admin = true where id = ${other.id}`, {
      commit: true,
    });
    await actAs(
      db.sql,
      user(admin.id),
      (tx) => tx`update public.profiles set is_admin = false where id = ${other.id}`,
      {
        commit: true,
      },
    );
    const rows = await rowsSince(since);
    expect(rows).toMatchObject([
      {
        actor_id: admin.id,
        actor_name: admin.username,
        action: 'admin.grant',
        target_type: 'user',
        target_id: other.id,
        target_label: other.username,
        before: { isAdmin: false },
        after: { isAdmin: true },
      },
      {
        actor_id: admin.id,
        actor_name: admin.username,
        action: 'admin.revoke',
        target_id: other.id,
        before: { isAdmin: true },
        after: { isAdmin: false },
      },
    ]);
    for (const row of rows) expect(row.at.getTime()).toBeGreaterThanOrEqual(started.getTime() - 1000);
  });

  it('an update that leaves the flag as it was writes nothing', async () => {
    const other = await createUser(db.sql);
    const since = await lastId();
    await actAs(
      db.sql,
      user(admin.id),
      (tx) => tx`update public.profiles set is_admin = false where id = ${other.id}`,
      {
        commit: true,
      },
    );
    await db.sql`update public.profiles set notify_sms = true where id = ${other.id}`;
    expect(await rowsSince(since)).toEqual([]);
  });

  it('a change outside the app names the database role and no actor', async () => {
    const other = await createUser(db.sql);
    const since = await lastId();
    await actAs(db.sql, serviceRole, (tx) => tx`select private.make_admin(${other.email})`, { commit: true });
    await db.sql`update public.profiles set is_admin = false where id = ${other.id}`;
    expect(await rowsSince(since)).toMatchObject([
      { actor_id: null, actor_name: 'service_role', action: 'admin.grant', target_id: other.id },
      { actor_id: null, actor_name: 'postgres', action: 'admin.revoke', target_id: other.id },
    ]);
  });

  it('an admin creating and changing a plan, in API names; an update changing nothing writes nothing', async () => {
    const since = await lastId();
    const [created] = await actAs(
      db.sql,
      user(admin.id),
      (tx) => tx<{ id: number }[]>`insert into public.subscription_plans
          (name, tier, price, flight_limit, auto_rebooking_enabled, commission_rate, description, is_active)
        values ('Business', 'premium', 9900, 50, true, 20, 'For frequent flyers', true) returning id::int`,
      { commit: true },
    );
    const planId = created?.id;
    await actAs(
      db.sql,
      user(admin.id),
      (tx) => tx`update public.subscription_plans set price = 12900 where id = ${planId!}`,
      {
        commit: true,
      },
    );
    await actAs(
      db.sql,
      user(admin.id),
      (tx) => tx`update public.subscription_plans set price = 12900, name = 'Business' where id = ${planId!}`,
      { commit: true },
    );
    const plan = {
      name: 'Business',
      tier: 'premium',
      price: 9900,
      flightLimit: 50,
      commissionRate: 20,
      description: 'For frequent flyers',
      autoRebookingEnabled: true,
      isActive: true,
    };
    expect(await rowsSince(since)).toEqual([
      expect.objectContaining({
        actor_id: admin.id,
        actor_name: admin.username,
        action: 'plan.create',
        target_type: 'plan',
        target_id: String(planId),
        target_label: 'Business',
        before: null,
        after: plan,
      }),
      expect.objectContaining({
        action: 'plan.update',
        target_id: String(planId),
        before: plan,
        after: { ...plan, price: 12900 },
      }),
    ]);
  });

  it('the api records what is not a row change of its own (a commission payment, a run) through the writer', async () => {
    const traveller = await createUser(db.sql);
    const since = await lastId();
    const [row] = await actAs(
      db.sql,
      apiRole,
      (tx) => tx<{ id: number }[]>`select private.record_admin_action(
          ${admin.id}, 'commission.payment', 'user', ${traveller.id}, ${traveller.username},
          ${tx.json({ commissionOwed: 5000 })}, ${tx.json({ commissionOwed: 2000, amount: 3000 })})::int as id`,
      { commit: true },
    );
    const rows = await rowsSince(since);
    expect(rows).toMatchObject([
      {
        id: row?.id,
        actor_id: admin.id,
        actor_name: admin.username,
        action: 'commission.payment',
        target_label: traveller.username,
        before: { commissionOwed: 5000 },
        after: { commissionOwed: 2000, amount: 3000 },
      },
    ]);
  });

  it('refuses an action or target type it does not know', async () => {
    const outcome = await attempt(
      db.sql,
      apiRole,
      (tx) => tx`select private.record_admin_action(null, 'user.delete', 'user', null, null, null, null)`,
    );
    expect(outcome).toMatchObject({ error: '23514' });
  });

  it('rows outlive the admin who acted and the user they name, unchanged', async () => {
    const second = await createUser(db.sql);
    const target = await createUser(db.sql);
    await onlyAdmins(admin.id, second.id);
    const since = await lastId();
    await actAs(
      db.sql,
      user(second.id),
      (tx) => tx`update public.profiles set is_admin = true where id = ${target.id}`,
      {
        commit: true,
      },
    );
    const [before] = await rowsSince(since);
    await db.sql`delete from auth.users where id = ${target.id}`;
    await db.sql`delete from auth.users where id = ${second.id}`;
    const [after] = await rowsSince(since);
    expect(after).toEqual(before);
    expect(after).toMatchObject({ actor_id: second.id, actor_name: second.username, target_label: target.username });
  });
});

describe('nobody can change the log', () => {
  const statements: Record<string, (tx: Tx) => Promise<{ count: number }>> = {
    update: (tx) => tx`update public.admin_audit_log set actor_name = 'someone else'`,
    delete: (tx) => tx`delete from public.admin_audit_log`,
    truncate: (tx) => tx`truncate public.admin_audit_log`,
    insert: (tx) => tx`insert into public.admin_audit_log (actor_name, action, target_type)
                       values ('forger', 'admin.grant', 'user')`,
    'call the writer': (tx) =>
      tx`select private.record_admin_action(null, 'admin.grant', 'user', null, 'forged', null, null)`,
  };
  const actors = (): Record<string, Actor> => ({
    anon,
    traveller: user(traveller.id),
    admin: user(admin.id),
    service_role: serviceRole,
  });
  let traveller: TestUser;
  beforeAll(async () => {
    traveller = await createUser(db.sql);
  });

  it.each(['anon', 'traveller', 'admin', 'service_role'])('as %s: every write refused', async (name) => {
    const before = await lastId();
    for (const [what, statement] of Object.entries(statements)) {
      const outcome = await attempt(db.sql, actors()[name] as Actor, statement, { commit: true });
      expect(outcome, `${name} ${what}`).toMatchObject({ error: DENIED });
    }
    expect(await lastId()).toBe(before);
  });

  it("as the api's role (the owner): update, delete, truncate and a direct insert refused; the writer works", async () => {
    const count = await lastId();
    for (const what of ['update', 'delete', 'truncate', 'insert'] as const) {
      const outcome = await attempt(db.sql, apiRole, statements[what]!, { commit: true });
      expect(outcome, `owner ${what}`).toMatchObject({ error: DENIED });
    }
    expect(await attempt(db.sql, apiRole, statements['call the writer']!)).toEqual({ rows: 1 });
    expect(await lastId()).toBe(count);
  });

  it('as a superuser: update, delete, truncate and a direct insert refused', async () => {
    for (const what of ['update', 'delete', 'truncate', 'insert'] as const) {
      const error = await db.sql
        .begin((tx) => statements[what]!(tx))
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(error, `superuser ${what}`).toBeInstanceOf(postgres.PostgresError);
      expect((error as postgres.PostgresError).code).toBe(DENIED);
    }
  });

  it('admins read every row, travellers none, visitors are refused', async () => {
    const [total] = await db.sql<{ n: number }[]>`select count(*)::int as n from public.admin_audit_log`;
    expect(total?.n).toBeGreaterThan(0);
    expect(await attempt(db.sql, user(admin.id), (tx) => tx`select id from public.admin_audit_log`)).toEqual({
      rows: total?.n,
    });
    expect(await attempt(db.sql, user(traveller.id), (tx) => tx`select id from public.admin_audit_log`)).toEqual({
      rows: 0,
    });
    expect(await attempt(db.sql, anon, (tx) => tx`select id from public.admin_audit_log`)).toMatchObject({
      error: DENIED,
    });
  });
});

describe('the last admin', () => {
  it('cannot be revoked, by anyone', async () => {
    const outcome = await attempt(db.sql, serviceRole, (tx) => tx`update public.profiles set is_admin = false`);
    expect(outcome).toMatchObject({ error: LAST_ADMIN, message: 'The last admin cannot be removed' });
    const error = await db.sql`update public.profiles set is_admin = false where id = ${admin.id}`.then(
      () => null,
      (e: unknown) => e as postgres.PostgresError,
    );
    expect(error?.code).toBe(LAST_ADMIN);
    expect(await isAdmin(admin.id)).toBe(true);
  });

  it('cannot revoke their own flag (the existing rule, checked first)', async () => {
    const second = await createUser(db.sql);
    await onlyAdmins(admin.id, second.id);
    const outcome = await attempt(
      db.sql,
      user(admin.id),
      (tx) => tx`update public.profiles set is_admin = false where id = ${admin.id}`,
    );
    expect(outcome).toMatchObject({ error: DENIED });
    expect(await isAdmin(admin.id)).toBe(true);
  });

  it("cannot be deleted (the account's deletion cascades to the profile and is refused)", async () => {
    const since = await lastId();
    const error = await db.sql`delete from auth.users where id = ${admin.id}`.then(
      () => null,
      (e: unknown) => e as postgres.PostgresError,
    );
    expect(error?.code).toBe(LAST_ADMIN);
    const [row] = await db.sql<{ n: number }[]>`select count(*)::int as n from auth.users where id = ${admin.id}`;
    expect(row?.n).toBe(1);
    expect(await rowsSince(since)).toEqual([]);
  });

  it('one of two admins can be revoked or deleted; a statement removing both is refused whole', async () => {
    const second = await createUser(db.sql);
    await onlyAdmins(admin.id, second.id);
    expect(
      await attempt(
        db.sql,
        user(admin.id),
        (tx) => tx`update public.profiles set is_admin = false where id = ${second.id}`,
      ),
    ).toEqual({ rows: 1 });
    expect(await attempt(db.sql, serviceRole, (tx) => tx`delete from public.profiles where id = ${second.id}`)).toEqual(
      {
        rows: 1,
      },
    );
    expect(await attempt(db.sql, serviceRole, (tx) => tx`update public.profiles set is_admin = false`)).toMatchObject({
      error: LAST_ADMIN,
    });
    expect(await isAdmin(admin.id)).toBe(true);
    expect(await isAdmin(second.id)).toBe(true);
  });

  it('two admins revoking each other at the same moment leave one admin', async () => {
    const second = await createUser(db.sql);
    await onlyAdmins(admin.id, second.id);

    const revoke = (by: TestUser, target: TestUser, sql: postgres.Sql, holdUntil?: Promise<void>) =>
      sql
        .begin(async (tx) => {
          await tx.unsafe('set local role authenticated');
          await tx`select set_config('request.jwt.claims', ${JSON.stringify({ sub: by.id, role: 'authenticated' })}, true)`;
          const { count } = await tx`update public.profiles set is_admin = false where id = ${target.id}`;
          if (holdUntil) await holdUntil;
          return count;
        })
        .then(
          // 0 rows: the acting admin was no longer one when the statement began (the policy hid the row)
          (count) => (count === 1 ? ('revoked' as const) : ('no longer an admin' as const)),
          (e: unknown) => (e instanceof postgres.PostgresError ? e.code : Promise.reject(e)),
        );

    if (db.singleSession) {
      // PGlite runs one transaction at a time: the second starts after the first's commit, when
      // its actor is no longer an admin
      const outcomes = await Promise.all([revoke(admin, second, db.sql), revoke(second, admin, db.sql)]);
      expect(outcomes).toEqual(['revoked', 'no longer an admin']);
    } else {
      // the first holds its transaction open until the second is seen waiting for the lock
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const advisoryLocks = async (granted: boolean) => {
        const [row] = await db.sql<{ n: number }[]>`
          select count(*)::int as n from pg_locks
           where locktype = 'advisory' and granted = ${granted}
             and database = (select oid from pg_database where datname = current_database())`;
        return row?.n ?? 0;
      };
      const first = revoke(admin, second, db.sql, held);
      const secondOutcome = (async () => {
        // start the second once the first has made its change (its row and the lock are held)
        await waitFor(async () => (await advisoryLocks(true)) > 0);
        const outcome = revoke(second, admin, db.sql);
        await waitFor(async () => (await advisoryLocks(false)) > 0);
        release();
        return outcome;
      })();
      expect(await first).toBe('revoked');
      expect(await secondOutcome).toBe(LAST_ADMIN);
    }
    const [left] = await db.sql<{ n: number }[]>`select count(*)::int as n from public.profiles where is_admin`;
    expect(left?.n).toBe(1);
  });
});

/** Polls a condition until it holds (the suite's timeout bounds the wait). */
async function waitFor(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setImmediate(resolve));
}
