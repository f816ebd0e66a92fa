// dumpCatalog and diffCatalogs on a migrated database changed the ways a rewritten migration
// could change it by mistake: each change is reported once, under the object it changed.
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffCatalogs, dumpCatalog, type Catalog } from './catalog.ts';
import { createTestDatabase, type TestDatabase } from './test-db.ts';

let database: TestDatabase;
let sql: postgres.Sql;
let before: Catalog;

beforeAll(async () => {
  database = await createTestDatabase();
  sql = postgres(database.url, { max: 1, prepare: !database.singleSession, onnotice: () => {} });
  before = await dumpCatalog(sql);
});

afterAll(async () => {
  await sql?.end();
  await database?.close();
});

describe('the catalog of a migrated database', () => {
  it('reads the same twice', async () => {
    expect(diffCatalogs(before, await dumpCatalog(sql))).toEqual([]);
  });

  it('reads tables, functions, policies, grants, comments and reference rows', () => {
    expect(before['table public.flights']?.aspects.rls).toBe('true');
    expect(before['function private.is_admin()']?.aspects).toMatchObject({
      security_definer: 'yes',
      config: 'search_path=""',
    });
    expect(Object.keys(before).filter((key) => key.startsWith('policy public.flights.')).length).toBeGreaterThan(0);
    expect(before['grant on table public.flights to authenticated']).toBeDefined();
    expect(before['column public.flights.created_at']?.aspects.comment).toBeTruthy();
    expect(before['rows of public.subscription_plans']?.aspects['row (id=1)']).toContain('"tier": "free"');
    // the bookkeeping of applied migrations differs between histories by design
    expect(Object.keys(before).some((key) => key.includes('supabase_migrations'))).toBe(false);
  });

  it('reports each change under its object, and what belongs to a dropped table only once', async () => {
    const [policy] = await sql<{ name: string }[]>`
      select polname as name from pg_policy where polrelid = 'public.flights'::regclass order by 1 limit 1`;
    await sql.unsafe(`
      drop policy "${policy!.name}" on public.flights;
      create or replace function private.is_admin() returns boolean language plpgsql stable security definer
        set search_path = '' as $$ begin return false; end; $$;
      grant insert on public.flights to authenticated;
      revoke execute on function private.is_admin() from authenticated;
      comment on column public.flights.created_at is 'changed';
      alter table public.flights alter column created_at drop default;
      drop trigger flights_set_updated_at on public.flights;
      update private.job_kinds set max_attempts = max_attempts + 1 where kind = 'auto_rebook_own';
      create index flights_notes_idx on public.flights (created_at);
      create table public.scratch (id int primary key, note text);
      insert into public.scratch values (1, 'a');
      create type public.mood as enum ('calm');`);
    expect(diffCatalogs(before, await dumpCatalog(sql)).map((d) => d.key)).toEqual([
      'column public.flights.created_at: comment differs',
      'column public.flights.created_at: default differs',
      'enum public.mood: only in new',
      'function private.is_admin(): body differs',
      'grant on function private.is_admin() to authenticated: only in old',
      'grant on table public.flights to authenticated: privileges differs',
      'index public.flights_notes_idx: only in new',
      `policy public.flights."${policy!.name}": only in old`,
      'rows of private.job_kinds: row (kind=auto_rebook_own) differs',
      'table public.scratch: only in new',
      'trigger public.flights.flights_set_updated_at: only in old',
    ]);
  });
});
