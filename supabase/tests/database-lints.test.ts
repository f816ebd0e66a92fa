// Supabase's database linter (the Security and Performance Advisors) over the whole migrated
// schema: each query below is a lint of supabase/splinter (github.com/supabase/splinter, folder
// lints/, the file named beside it), reduced to the rows it reports. A lint that must find
// nothing fails CI as soon as a migration gives it something to find: a second permissive policy
// for one role and action, a policy calling auth.uid() per row, a foreign key without an index.
// Each lint is also shown to find what it looks for on a table made for it (rolled back), so an
// empty answer means a clean schema, not a broken query.
//
// Lints not asserted here, and why (their findings on this schema, docs/architecture.md
// "Database roles and privileges"): 0011 function_search_path_mutable names the inlinable SQL
// rules (private.flight_is_due, rebooking_qualifies, ...; a SET clause stops PostgreSQL from
// inlining them); 0029 authenticated_security_definer_function_executable names private helpers
// the policies and the data API's rules call (private is not an exposed schema: no RPC endpoint);
// 0008 rls_enabled_no_policy names the private tables nobody but the api reads (deny by design).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type Sql, type TestDb } from './factories.ts';

let db: TestDb;

beforeAll(async () => {
  db = await openTestDatabase();
});

afterAll(async () => {
  await db?.close();
});

/** Schemas splinter leaves out: Supabase's own and extensions'. */
const SYSTEM_SCHEMAS = [
  '_timescaledb_internal',
  'auth',
  'cron',
  'extensions',
  'graphql',
  'graphql_public',
  'information_schema',
  'net',
  'pgbouncer',
  'pgsodium',
  'pgsodium_masks',
  'pgtle',
  'pg_catalog',
  'pg_toast',
  'realtime',
  'storage',
  'supabase_functions',
  'supabase_migrations',
  'vault',
];

/** lints/0006_multiple_permissive_policies.sql: one row per table, role and action with two or more. */
async function multiplePermissivePolicies(sql: Sql): Promise<string[]> {
  const rows = await sql<{ finding: string }[]>`
    select format('%s.%s: %s %s: %s', n.nspname, c.relname, r.rolname, act.cmd,
                  array_agg(p.polname order by p.polname)) as finding
      from pg_catalog.pg_policy p
      join pg_catalog.pg_class c on p.polrelid = c.oid
      join pg_catalog.pg_namespace n on c.relnamespace = n.oid
      join pg_catalog.pg_roles r on p.polroles @> array[r.oid] or p.polroles = array[0::oid],
      lateral (
        select x.cmd
          from unnest(case p.polcmd
                        when 'r' then array['SELECT']
                        when 'a' then array['INSERT']
                        when 'w' then array['UPDATE']
                        when 'd' then array['DELETE']
                        when '*' then array['SELECT', 'INSERT', 'UPDATE', 'DELETE']
                        else array['ERROR']
                      end) x(cmd)
      ) act(cmd)
     where c.relkind = 'r'
       and n.nspname <> all (${SYSTEM_SCHEMAS})
       and r.rolname not like 'pg_%'
       and r.rolname not like 'supabase%admin'
       and not r.rolbypassrls
       -- splinter counts restrictive policies too; none of ours is, and a restrictive one is
       -- ANDed (not one more OR branch per row), so it is left out here
       and p.polpermissive
     group by n.nspname, c.relname, r.rolname, act.cmd
    having count(1) > 1
     order by 1`;
  return rows.map((row) => row.finding);
}

/** lints/0003_auth_rls_initplan.sql: policies calling auth.<fn>() other than as `(select auth.<fn>())`. */
async function authRlsInitplan(sql: Sql): Promise<string[]> {
  const rows = await sql<{ finding: string }[]>`
    select format('%s.%s: %s', pb.schemaname, pb.tablename, pb.policyname) as finding
      from pg_catalog.pg_policies pb
      join pg_catalog.pg_namespace n on n.nspname = pb.schemaname
      join pg_catalog.pg_class c on c.relnamespace = n.oid and c.relname = pb.tablename
     where c.relrowsecurity
       and pb.schemaname <> all (${SYSTEM_SCHEMAS})
       and (
         (pb.qual ~ '(auth)\\.(uid|jwt|role|email)\\(\\)'
          and lower(pb.qual) !~ 'select\\s+(auth)\\.(uid|jwt|role|email)\\(\\)')
         or (pb.with_check ~ '(auth)\\.(uid|jwt|role|email)\\(\\)'
             and lower(pb.with_check) !~ 'select\\s+(auth)\\.(uid|jwt|role|email)\\(\\)')
       )
     order by 1`;
  return rows.map((row) => row.finding);
}

/**
 * lints/0001_unindexed_foreign_keys.sql: foreign keys without a covering index. Splinter wants an
 * index on exactly the key's columns in the key's order; here any index that starts with one of
 * the key's columns covers it (PostgreSQL uses it for the lookups a delete of the referenced row
 * makes: (flight_id, user_id) keys are found through the index on flight_id, a flight's id alone
 * naming at most a handful of rows), so no index is added twice.
 */
async function unindexedForeignKeys(sql: Sql): Promise<string[]> {
  const rows = await sql<{ finding: string }[]>`
    select format('%s.%s: %s', n.nspname, cl.relname, ct.conname) as finding
      from pg_catalog.pg_constraint ct
      join pg_catalog.pg_class cl on ct.conrelid = cl.oid
      join pg_catalog.pg_namespace n on cl.relnamespace = n.oid
      left join pg_catalog.pg_depend d on d.objid = cl.oid and d.deptype = 'e'
     where ct.contype = 'f'
       and d.objid is null
       and n.nspname <> all (${SYSTEM_SCHEMAS})
       and not exists (
         select 1
           from pg_catalog.pg_index i
          where i.indrelid = cl.oid
            and i.indisvalid
            and (string_to_array(i.indkey::text, ' ')::smallint[])[1] = any (ct.conkey)
       )
     order by 1`;
  return rows.map((row) => row.finding);
}

/** lints/0004_no_primary_key.sql: tables without a primary key. */
async function noPrimaryKey(sql: Sql): Promise<string[]> {
  const rows = await sql<{ finding: string }[]>`
    select format('%s.%s', n.nspname, c.relname) as finding
      from pg_catalog.pg_class c
      join pg_catalog.pg_namespace n on c.relnamespace = n.oid
      left join pg_catalog.pg_depend d on d.objid = c.oid and d.deptype = 'e'
     where c.relkind = 'r'
       and d.objid is null
       and n.nspname <> all (${SYSTEM_SCHEMAS})
       and not exists (select 1 from pg_catalog.pg_index i where i.indrelid = c.oid and i.indisprimary)
     order by 1`;
  return rows.map((row) => row.finding);
}

/** lints/0009_duplicate_index.sql: identical indexes on one table. */
async function duplicateIndexes(sql: Sql): Promise<string[]> {
  const rows = await sql<{ finding: string }[]>`
    select format('%s.%s: %s', pi.schemaname, pi.tablename, array_agg(pi.indexname order by pi.indexname)) as finding
      from pg_catalog.pg_indexes pi
     where pi.schemaname <> all (${SYSTEM_SCHEMAS})
     group by pi.schemaname, pi.tablename, replace(pi.indexdef, pi.indexname, '')
    having count(*) > 1
     order by 1`;
  return rows.map((row) => row.finding);
}

/**
 * lints/0024_rls_policy_always_true.sql: a permissive policy for anon or authenticated that lets
 * every row be updated, deleted or inserted (an always-true USING or WITH CHECK).
 */
async function rlsPolicyAlwaysTrue(sql: Sql): Promise<string[]> {
  const rows = await sql<{ finding: string }[]>`
    with policies as (
      select pb.schemaname, pb.tablename, pb.policyname, pb.cmd, pb.qual, pb.with_check,
             replace(replace(replace(lower(coalesce(pb.qual, '')), ' ', ''), E'\\n', ''), E'\\t', '') as q,
             replace(replace(replace(lower(coalesce(pb.with_check, '')), ' ', ''), E'\\n', ''), E'\\t', '') as w
        from pg_catalog.pg_policies pb
       where pb.permissive = 'PERMISSIVE'
         and pb.schemaname <> all (${SYSTEM_SCHEMAS})
         and (pb.roles && array['anon', 'authenticated', 'public']::name[])
    )
    select format('%s.%s: %s (%s)', schemaname, tablename, policyname, cmd) as finding
      from policies
     where (cmd in ('UPDATE', 'DELETE', 'ALL') and (q in ('true', '(true)', '1=1', '(1=1)') or qual is null))
        or w in ('true', '(true)', '1=1', '(1=1)')
        or (with_check is null and cmd = 'INSERT')
        or (with_check is null and cmd in ('UPDATE', 'ALL') and q in ('true', '(true)', '1=1', '(1=1)'))
     order by 1`;
  return rows.map((row) => row.finding);
}

const LINTS = {
  multiple_permissive_policies: multiplePermissivePolicies,
  auth_rls_initplan: authRlsInitplan,
  unindexed_foreign_keys: unindexedForeignKeys,
  no_primary_key: noPrimaryKey,
  duplicate_index: duplicateIndexes,
  rls_policy_always_true: rlsPolicyAlwaysTrue,
};

/** A table in the shape each lint looks for, made and linted in a transaction that is rolled back. */
const OFFENDERS: Record<keyof typeof LINTS, string> = {
  multiple_permissive_policies: `
    create table public.lint_probe (id bigint primary key, user_id uuid);
    alter table public.lint_probe enable row level security;
    create policy "Users can view their own" on public.lint_probe for select to authenticated
      using (user_id = (select auth.uid()));
    create policy "Admins can view every one" on public.lint_probe for select to authenticated
      using ((select private.is_admin()));`,
  auth_rls_initplan: `
    create table public.lint_probe (id bigint primary key, user_id uuid);
    alter table public.lint_probe enable row level security;
    create policy "Users can view their own" on public.lint_probe for select to authenticated
      using (user_id = auth.uid());`,
  unindexed_foreign_keys: `
    create table public.lint_probe (id bigint primary key, plan_id bigint references public.subscription_plans);`,
  no_primary_key: `create table public.lint_probe (id bigint);`,
  duplicate_index: `
    create table public.lint_probe (id bigint primary key, n int);
    create index lint_probe_n_a on public.lint_probe (n);
    create index lint_probe_n_b on public.lint_probe (n);`,
  rls_policy_always_true: `
    create table public.lint_probe (id bigint primary key);
    alter table public.lint_probe enable row level security;
    create policy "Anyone can change every row" on public.lint_probe for update to authenticated using (true);`,
};

class Rollback extends Error {}

describe("Supabase's database linter (splinter) over the migrated schema", () => {
  it.each(Object.keys(LINTS) as (keyof typeof LINTS)[])('%s finds nothing', async (name) => {
    expect(await LINTS[name](db.sql)).toEqual([]);
  });

  it.each(Object.keys(LINTS) as (keyof typeof LINTS)[])('%s finds a table made to break it', async (name) => {
    let found: string[] = [];
    await db.sql
      .begin(async (tx) => {
        await tx.unsafe(OFFENDERS[name]);
        found = await LINTS[name](tx as unknown as Sql);
        throw new Rollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof Rollback)) throw error;
      });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^public\.lint_probe/);
  });
});
