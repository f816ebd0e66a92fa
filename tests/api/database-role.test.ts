// The api function connects to the database as Supabase's `postgres` would: the owner of the
// schema, not a superuser (fareback_owner, dev/platform.sql), so a statement that only a
// superuser may run fails in these tests, not on deploy.
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiClient } from './client.ts';

const stack = inject('stack');
const options = { max: 1, prepare: !stack.singleSession, onnotice: () => {} };
let asApi: postgres.Sql;
let asSuperuser: postgres.Sql;

beforeAll(() => {
  asApi = postgres(stack.apiDatabaseUrl, options);
  asSuperuser = postgres(stack.databaseUrl, options);
});

afterAll(async () => {
  await asApi?.end();
  await asSuperuser?.end();
});

describe("the api function's database role", () => {
  it('is fareback_owner, which is not a superuser', async () => {
    expect(new URL(stack.apiDatabaseUrl).username).toBe('fareback_owner');
    const [role] = await asApi<{ name: string; superuser: boolean }[]>`
      select current_user as name, rolsuper as superuser from pg_roles where rolname = current_user`;
    expect(role).toEqual({ name: 'fareback_owner', superuser: false });
  });

  it('may not make itself a superuser', async () => {
    const error = await asApi`alter role fareback_owner superuser`.catch((e: unknown) => e);
    expect((error as { code?: string }).code).toBe('42501');
  });

  // PGlite has one session for every connection, so only a real server shows who is connected
  it.skipIf(stack.singleSession)('is what the running function is connected as', async () => {
    const res = await apiClient().get('/health');
    expect(res.body).toEqual({ status: 'ok', database: 'ok' });
    const sessions = await asSuperuser<{ user: string }[]>`
      select distinct usename as user from pg_stat_activity
       where datname = current_database() and application_name = 'fareback-api'`;
    expect(sessions.map((s) => s.user)).toEqual(['fareback_owner']);
  });
});
