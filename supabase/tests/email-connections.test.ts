// Email connections: the encrypted tokens never reach a user, connections are made by the system,
// and disconnecting clears profiles.email_connected.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DENIED,
  actAs,
  attempt,
  createEmailConnection,
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
  await createEmailConnection(db.sql, traveller.id);
});

afterAll(async () => {
  await db?.close();
});

async function emailConnected(userId: string): Promise<boolean | undefined> {
  const [row] = await db.sql<
    { email_connected: boolean }[]
  >`select email_connected from public.profiles where id = ${userId}`;
  return row?.email_connected;
}

describe('what a traveller sees of their connection', () => {
  it('the account, status and dates', async () => {
    const rows = await actAs(db.sql, user(traveller.id), async (tx) => [
      ...(await tx`select id, user_id, provider, provider_account_email, token_expires_at, scopes, status,
                          connected_at, last_synced_at, created_at, updated_at
                     from public.email_connections`),
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      user_id: traveller.id,
      provider: 'gmail',
      provider_account_email: 'inbox@gmail.com',
      status: 'connected',
      scopes: ['https://www.googleapis.com/auth/gmail.readonly'],
    });
  });

  it.each([
    ['select access_token_encrypted from public.email_connections'],
    ['select refresh_token_encrypted from public.email_connections'],
    ['select * from public.email_connections'],
    ["select id from public.email_connections where access_token_encrypted like 'enc:%'"],
  ])('never the tokens: %s', async (query) => {
    expect(await attempt(db.sql, user(traveller.id), (tx) => tx.unsafe(query))).toMatchObject({ error: DENIED });
  });

  it('not even an admin reads the tokens or other users’ connections', async () => {
    expect(
      await attempt(db.sql, user(admin.id), (tx) => tx`select access_token_encrypted from public.email_connections`),
    ).toMatchObject({ error: DENIED });
    expect(
      await attempt(
        db.sql,
        user(admin.id),
        (tx) => tx`select id from public.email_connections where user_id = ${traveller.id}`,
      ),
    ).toEqual({ rows: 0 });
  });
});

describe('connecting and disconnecting', () => {
  it('a traveller cannot store or alter a connection', async () => {
    const fresh = await createUser(db.sql);
    expect(
      await attempt(
        db.sql,
        user(fresh.id),
        (tx) =>
          tx`insert into public.email_connections (user_id, access_token_encrypted) values (${fresh.id}, 'enc:v1:x')`,
      ),
    ).toMatchObject({ error: DENIED });
    for (const change of [
      "status = 'connected'",
      "refresh_token_encrypted = 'enc:v1:mine'",
      'last_synced_at = now()',
    ]) {
      expect(
        await attempt(db.sql, user(traveller.id), (tx) => tx.unsafe(`update public.email_connections set ${change}`)),
        change,
      ).toMatchObject({ error: DENIED });
    }
  });

  it('the system connects a mailbox, which marks the profile connected', async () => {
    const fresh = await createUser(db.sql);
    expect(await emailConnected(fresh.id)).toBe(false);
    await actAs(
      db.sql,
      serviceRole,
      (tx) => tx`insert into public.email_connections (user_id, access_token_encrypted, scopes)
      values (${fresh.id}, 'enc:v1:token', ${['https://www.googleapis.com/auth/gmail.readonly']})`,
      { commit: true },
    );
    expect(await emailConnected(fresh.id)).toBe(true);
  });

  it('a revoked or expired connection marks the profile not connected', async () => {
    const fresh = await createUser(db.sql);
    await createEmailConnection(db.sql, fresh.id);
    await db.sql`update public.email_connections set status = 'revoked' where user_id = ${fresh.id}`;
    expect(await emailConnected(fresh.id)).toBe(false);
    await db.sql`update public.email_connections set status = 'connected' where user_id = ${fresh.id}`;
    expect(await emailConnected(fresh.id)).toBe(true);
  });

  it('a traveller disconnects, which clears email_connected', async () => {
    const fresh = await createUser(db.sql);
    await createEmailConnection(db.sql, fresh.id);
    expect(await emailConnected(fresh.id)).toBe(true);
    const deleted = await actAs(db.sql, user(fresh.id), (tx) => tx`delete from public.email_connections`, {
      commit: true,
    });
    expect(deleted.count).toBe(1);
    expect(await emailConnected(fresh.id)).toBe(false);
    // the traveller's own delete touched only their row
    const [left] = await db.sql<
      { n: number }[]
    >`select count(*)::int as n from public.email_connections where user_id = ${traveller.id}`;
    expect(left?.n).toBe(1);
  });

  it('one connection per user', async () => {
    const outcome = await attempt(
      db.sql,
      serviceRole,
      (tx) => tx`insert into public.email_connections (user_id) values (${traveller.id})`,
    );
    expect(outcome).toMatchObject({ error: '23505' });
  });

  it.each([
    ['provider', 'outlook'],
    ['status', 'paused'],
  ])('rejects the %s %s', async (column, value) => {
    const outcome = await attempt(db.sql, serviceRole, (tx) =>
      tx.unsafe(`update public.email_connections set ${column} = $1 where user_id = $2`, [value, traveller.id]),
    );
    expect(outcome).toMatchObject({ error: '23514' });
  });
});
