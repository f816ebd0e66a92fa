// What the data API's roles may touch, read from the catalog.
//
// On Supabase every privilege that anon or authenticated holds in an exposed schema is a public
// HTTP endpoint (/rest/v1/<table>, /rest/v1/rpc/<function>), reachable with the public anon key
// and a user's token whether the web app uses it or not; the local stack serves no such API, so
// these tests are the guard. They read every grant of anon and authenticated, held directly or
// through PUBLIC (which every role inherits), on the database, every schema, table, view,
// sequence, column and function, and compare the lot with ALLOWED below: a new grant fails until
// someone adds it there on purpose, in the same change as the migration that makes it.
//
// Also here: what a new object gets by default (nothing), row-level security on every table the
// data API could reach, and the role the api connects as (not a superuser).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER_ROLE } from '../../dev/db/migrate.ts';
import { createTestDatabase, type TestDatabase } from '../../dev/db/test-db.ts';
import { createDb, type Db } from '../functions/api/db.ts';

const configFile = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../config.toml');

// Every privilege anon and authenticated hold, one line each: `<kind> <object>: <grantee> <privilege>`.
// Kept sorted. `PUBLIC` is every role, anon and authenticated included.
const ALLOWED = [
  'column public.billing_transactions.status: authenticated UPDATE',
  'column public.contact_messages.status: authenticated UPDATE',
  'column public.email_connections.connected_at: authenticated SELECT',
  'column public.email_connections.created_at: authenticated SELECT',
  'column public.email_connections.id: authenticated SELECT',
  'column public.email_connections.last_synced_at: authenticated SELECT',
  'column public.email_connections.provider: authenticated SELECT',
  'column public.email_connections.provider_account_email: authenticated SELECT',
  'column public.email_connections.scopes: authenticated SELECT',
  'column public.email_connections.status: authenticated SELECT',
  'column public.email_connections.token_expires_at: authenticated SELECT',
  'column public.email_connections.updated_at: authenticated SELECT',
  'column public.email_connections.user_id: authenticated SELECT',
  'column public.notification_history.read_at: authenticated UPDATE',
  'column public.profiles.absolute_threshold: authenticated UPDATE',
  'column public.profiles.auto_rebooking: authenticated UPDATE',
  'column public.profiles.international_min_savings_amount: authenticated UPDATE',
  'column public.profiles.international_min_savings_percent: authenticated UPDATE',
  'column public.profiles.is_admin: authenticated UPDATE',
  'column public.profiles.min_price_drop: authenticated UPDATE',
  'column public.profiles.min_price_drop_percent: authenticated UPDATE',
  'column public.profiles.min_savings_amount: authenticated UPDATE',
  'column public.profiles.min_savings_percent: authenticated UPDATE',
  'column public.profiles.notification_frequency: authenticated UPDATE',
  'column public.profiles.notification_time: authenticated UPDATE',
  'column public.profiles.notify_cancellations: authenticated UPDATE',
  'column public.profiles.notify_email: authenticated UPDATE',
  'column public.profiles.notify_price_drops: authenticated UPDATE',
  'column public.profiles.notify_push: authenticated UPDATE',
  'column public.profiles.notify_rebookings: authenticated UPDATE',
  'column public.profiles.notify_sms: authenticated UPDATE',
  'column public.profiles.percent_threshold: authenticated UPDATE',
  'column public.profiles.threshold_condition: authenticated UPDATE',
  'column public.profiles.threshold_type: authenticated UPDATE',
  'column public.profiles.time_zone: authenticated UPDATE',
  'column public.profiles.unsubscribed_kinds: authenticated UPDATE',
  'column public.profiles.use_separate_international_thresholds: authenticated UPDATE',
  'column public.subscription_plans.auto_rebooking_enabled: authenticated INSERT',
  'column public.subscription_plans.auto_rebooking_enabled: authenticated UPDATE',
  'column public.subscription_plans.commission_rate: authenticated INSERT',
  'column public.subscription_plans.commission_rate: authenticated UPDATE',
  'column public.subscription_plans.description: authenticated INSERT',
  'column public.subscription_plans.description: authenticated UPDATE',
  'column public.subscription_plans.features: authenticated INSERT',
  'column public.subscription_plans.features: authenticated UPDATE',
  'column public.subscription_plans.flight_limit: authenticated INSERT',
  'column public.subscription_plans.flight_limit: authenticated UPDATE',
  'column public.subscription_plans.is_active: authenticated INSERT',
  'column public.subscription_plans.is_active: authenticated UPDATE',
  'column public.subscription_plans.name: authenticated INSERT',
  'column public.subscription_plans.name: authenticated UPDATE',
  'column public.subscription_plans.price: authenticated INSERT',
  'column public.subscription_plans.price: authenticated UPDATE',
  'column public.subscription_plans.tier: authenticated INSERT',
  'column public.subscription_plans.tier: authenticated UPDATE',
  'database: PUBLIC CONNECT',
  'database: PUBLIC TEMPORARY',
  'function auth.email(): PUBLIC EXECUTE',
  'function auth.email(): anon EXECUTE',
  'function auth.email(): authenticated EXECUTE',
  'function auth.jwt(): PUBLIC EXECUTE',
  'function auth.jwt(): anon EXECUTE',
  'function auth.jwt(): authenticated EXECUTE',
  'function auth.role(): PUBLIC EXECUTE',
  'function auth.role(): anon EXECUTE',
  'function auth.role(): authenticated EXECUTE',
  'function auth.uid(): PUBLIC EXECUTE',
  'function auth.uid(): anon EXECUTE',
  'function auth.uid(): authenticated EXECUTE',
  // pg_trgm (migration 20261122000100_platform.sql, the admin lists' contains-search indexes):
  // PostgreSQL grants a new function to PUBLIC and a trusted extension's functions belong to the
  // bootstrap superuser, so the migration's role cannot revoke them (on Supabase neither). They
  // are no endpoint: the schema extensions is not exposed (supabase/config.toml) and end users
  // hold no USAGE on it.
  'function extensions.gin_extract_query_trgm(text,internal,smallint,internal,internal,internal,internal): PUBLIC EXECUTE',
  'function extensions.gin_extract_value_trgm(text,internal): PUBLIC EXECUTE',
  'function extensions.gin_trgm_consistent(internal,smallint,text,integer,internal,internal,internal,internal): PUBLIC EXECUTE',
  'function extensions.gin_trgm_triconsistent(internal,smallint,text,integer,internal,internal,internal): PUBLIC EXECUTE',
  'function extensions.gtrgm_compress(internal): PUBLIC EXECUTE',
  'function extensions.gtrgm_consistent(internal,text,smallint,oid,internal): PUBLIC EXECUTE',
  'function extensions.gtrgm_decompress(internal): PUBLIC EXECUTE',
  'function extensions.gtrgm_distance(internal,text,smallint,oid,internal): PUBLIC EXECUTE',
  'function extensions.gtrgm_in(cstring): PUBLIC EXECUTE',
  'function extensions.gtrgm_options(internal): PUBLIC EXECUTE',
  'function extensions.gtrgm_out(extensions.gtrgm): PUBLIC EXECUTE',
  'function extensions.gtrgm_penalty(internal,internal,internal): PUBLIC EXECUTE',
  'function extensions.gtrgm_picksplit(internal,internal): PUBLIC EXECUTE',
  'function extensions.gtrgm_same(extensions.gtrgm,extensions.gtrgm,internal): PUBLIC EXECUTE',
  'function extensions.gtrgm_union(internal,internal): PUBLIC EXECUTE',
  'function extensions.set_limit(real): PUBLIC EXECUTE',
  'function extensions.show_limit(): PUBLIC EXECUTE',
  'function extensions.show_trgm(text): PUBLIC EXECUTE',
  'function extensions.similarity(text,text): PUBLIC EXECUTE',
  'function extensions.similarity_dist(text,text): PUBLIC EXECUTE',
  'function extensions.similarity_op(text,text): PUBLIC EXECUTE',
  'function extensions.strict_word_similarity(text,text): PUBLIC EXECUTE',
  'function extensions.strict_word_similarity_commutator_op(text,text): PUBLIC EXECUTE',
  'function extensions.strict_word_similarity_dist_commutator_op(text,text): PUBLIC EXECUTE',
  'function extensions.strict_word_similarity_dist_op(text,text): PUBLIC EXECUTE',
  'function extensions.strict_word_similarity_op(text,text): PUBLIC EXECUTE',
  'function extensions.word_similarity(text,text): PUBLIC EXECUTE',
  'function extensions.word_similarity_commutator_op(text,text): PUBLIC EXECUTE',
  'function extensions.word_similarity_dist_commutator_op(text,text): PUBLIC EXECUTE',
  'function extensions.word_similarity_dist_op(text,text): PUBLIC EXECUTE',
  'function extensions.word_similarity_op(text,text): PUBLIC EXECUTE',
  // the admin dashboard's stats, run as the admin (row-level security shows anyone else their own rows)
  // the admin lists' searches, as their owner so the trigram indexes apply (nothing for a non-admin)
  'function private.admin_flight_ids_matching(text,text,text): authenticated EXECUTE',
  'function private.admin_profile_ids_matching(text): authenticated EXECUTE',
  'function private.admin_stats(integer): authenticated EXECUTE',
  'function private.alert_precision(): authenticated EXECUTE',
  // the admin's flight list shows what a rebooking would be charged, with the ledger's rule
  'function private.airline_rule(text,text,date): authenticated EXECUTE',
  'function private.airline_rule_explanation(public.airline_rules,text): authenticated EXECUTE',
  'function private.commission_on(integer,integer): authenticated EXECUTE',
  'function private.flight_airline_code(public.flights): authenticated EXECUTE',
  'function private.flight_airline_rule(public.flights): authenticated EXECUTE',
  'function private.flight_change_fee(public.flights,public.airline_rules): authenticated EXECUTE',
  'function private.flight_is_watched(public.flights): authenticated EXECUTE',
  'function private.flight_rebooking_mode(public.flights,public.airline_rules): authenticated EXECUTE',
  'function private.is_admin(): authenticated EXECUTE',
  'function private.is_end_user(): authenticated EXECUTE',
  'function private.is_time_zone(text): authenticated EXECUTE',
  // the admin's stats count qualifying drops as the admin with the inlinable rule (migration
  // 20261122000600_rebooking.sql); the border lookup answers only whether two airports are in different countries
  'function private.rebooking_min_net_savings(public.flights,public.profiles): authenticated EXECUTE',
  'function private.rebooking_qualifies(public.flights,public.profiles): authenticated EXECUTE',
  // the flight list shows each card's net savings and why a drop does or does not qualify
  'function private.rebooking_verdict(public.flights,public.profiles): authenticated EXECUTE',
  // Add Flight checks room on the plan as the traveller, before the search (security invoker)
  'function private.room_on_plan(uuid): authenticated EXECUTE',
  'function private.route_crosses_border(text,text): authenticated EXECUTE',
  'schema auth: anon USAGE',
  'schema auth: authenticated USAGE',
  'schema private: authenticated USAGE',
  'schema public: PUBLIC USAGE',
  'schema public: anon USAGE',
  'schema public: authenticated USAGE',
  // admins read the audit log (its policy); nobody may write it (migration 20261122000400_admin_audit.sql)
  'table public.admin_audit_log: authenticated SELECT',
  'table public.airline_automation_pauses: authenticated SELECT',
  'table public.airline_rules: authenticated SELECT',
  'table public.auto_rebooking_logs: authenticated SELECT',
  'table public.billing_transactions: authenticated SELECT',
  'table public.contact_messages: authenticated SELECT',
  'table public.email_connections: authenticated DELETE',
  'table public.email_imports: authenticated SELECT',
  'table public.email_scans: authenticated SELECT',
  'table public.flight_prices: authenticated SELECT',
  'table public.flights: authenticated DELETE',
  'table public.flights: authenticated SELECT',
  'table public.jobs: authenticated SELECT',
  'table public.notification_history: authenticated SELECT',
  'table public.price_check_logs: authenticated SELECT',
  'table public.profiles: authenticated SELECT',
  'table public.subscription_plans: anon SELECT',
  'table public.subscription_plans: authenticated SELECT',
  // operator views (migration 20261122001200_operator_views.sql): admins read them; see OPERATOR_VIEWS below
  'view public.ops_commission_owed: authenticated SELECT',
  'view public.ops_failed_jobs: authenticated SELECT',
  'view public.ops_failed_notifications: authenticated SELECT',
  'view public.ops_stuck_rebookings: authenticated SELECT',
];

// The only views in an exposed schema that end users hold a grant on: the operators' read-only
// answers (migration 20261122001200_operator_views.sql). Each is security_invoker, so it reads its
// tables with the caller's rights and row-level security (never its owner's BYPASSRLS), reads only
// tables admins may read in full, and returns no row to an end user who is not an admin.
const OPERATOR_VIEWS = [
  'public.ops_commission_owed',
  'public.ops_failed_jobs',
  'public.ops_failed_notifications',
  'public.ops_stuck_rebookings',
];

/**
 * Reads every privilege of anon and authenticated (directly or through PUBLIC) from the catalog,
 * for objects matching `only` (a LIKE pattern on the object's name; default: all).
 *
 * Schemas left out: pg_catalog and information_schema, PostgreSQL's own, which Supabase never
 * exposes and our migrations never touch; their functions and views are PUBLIC by design. Types
 * and languages are left out too: PUBLIC may use every type and plpgsql by default, which lets a
 * role name a type or write a function body, nothing more without CREATE on a schema (which the
 * schema lines show).
 */
async function endUserPrivileges(tx: postgres.TransactionSql, only = '%'): Promise<string[]> {
  // object names print schema-qualified, whatever the connection's search_path
  await tx`set local search_path = ''`;
  const rows = await tx<{ line: string }[]>`
    with end_user(oid, name) as (
      select 0::oid, 'PUBLIC'
      union all
      select oid, rolname::text from pg_roles where rolname in ('anon', 'authenticated')
    ),
    in_scope as (
      select oid, nspname from pg_namespace where nspname not in ('pg_catalog', 'information_schema')
    ),
    granted(kind, object, grantee, privilege) as (
      select 'database', '', a.grantee, a.privilege_type
        from pg_database d, aclexplode(coalesce(d.datacl, acldefault('d', d.datdba))) a
       where d.datname = current_database()
      union all
      select 'schema', n.nspname::text, a.grantee, a.privilege_type
        from pg_namespace n join in_scope s on s.oid = n.oid,
             aclexplode(coalesce(n.nspacl, acldefault('n', n.nspowner))) a
      union all
      select case c.relkind when 'S' then 'sequence' when 'v' then 'view' when 'm' then 'materialized view'
                            when 'f' then 'foreign table' else 'table' end,
             c.oid::regclass::text, a.grantee, a.privilege_type
        from pg_class c join in_scope s on s.oid = c.relnamespace,
             aclexplode(coalesce(c.relacl, acldefault((case when c.relkind = 'S' then 's' else 'r' end)::"char", c.relowner))) a
       where c.relkind in ('r', 'p', 'v', 'm', 'f', 'S')
      union all
      select 'column', c.oid::regclass::text || '.' || quote_ident(att.attname), a.grantee, a.privilege_type
        from pg_attribute att
        join pg_class c on c.oid = att.attrelid
        join in_scope s on s.oid = c.relnamespace,
             aclexplode(att.attacl) a
       where att.attnum > 0 and not att.attisdropped
      union all
      select case p.prokind when 'p' then 'procedure' when 'a' then 'aggregate' else 'function' end,
             p.oid::regprocedure::text, a.grantee, a.privilege_type
        from pg_proc p join in_scope s on s.oid = p.pronamespace,
             aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) a
      union all
      -- owning an object is every privilege on it
      select 'schema', n.nspname::text, n.nspowner, 'OWNER' from pg_namespace n join in_scope s on s.oid = n.oid
      union all
      select 'relation', c.oid::regclass::text, c.relowner, 'OWNER' from pg_class c join in_scope s on s.oid = c.relnamespace
      union all
      select 'function', p.oid::regprocedure::text, p.proowner, 'OWNER' from pg_proc p join in_scope s on s.oid = p.pronamespace
      union all
      -- a role granted to anon or authenticated passes on all it may do
      select 'role', pg_get_userbyid(m.roleid)::text, m.member, 'MEMBER' from pg_auth_members m
      union all
      -- what objects created later will grant
      select 'default privileges',
             format('for %s %s on %s', pg_get_userbyid(d.defaclrole),
                    case when d.defaclnamespace = 0 then 'everywhere' else 'in ' || d.defaclnamespace::regnamespace::text end,
                    case d.defaclobjtype when 'r' then 'tables' when 'S' then 'sequences' when 'f' then 'functions'
                                         when 'T' then 'types' when 'n' then 'schemas' end),
             a.grantee, a.privilege_type
        from pg_default_acl d, aclexplode(d.defaclacl) a
    )
    select format('%s%s: %s %s', g.kind, case when g.object = '' then '' else ' ' || g.object end,
                  u.name, g.privilege) as line
      from granted g join end_user u on u.oid = g.grantee
     where g.object like ${only}
  `;
  return [...new Set(rows.map((r) => r.line))].sort();
}

const allEndUserPrivileges = (sql: postgres.Sql): Promise<string[]> =>
  sql.begin((tx) => endUserPrivileges(tx)) as Promise<string[]>;

/** The schemas the data API serves, from the [api] section of supabase/config.toml. */
async function exposedSchemas(): Promise<string[]> {
  const toml = await readFile(configFile, 'utf8');
  const api = /^\[api\][^\S\n]*\n([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(toml)?.[1] ?? '';
  const list = /^schemas\s*=\s*\[([^\]]*)\]/m.exec(api)?.[1];
  if (list === undefined) throw new Error(`no schemas = [...] in the [api] section of ${configFile}`);
  return [...list.matchAll(/"([^"]*)"/g)].map((m) => m[1] ?? '');
}

let database: TestDatabase;
/** A superuser: reads the catalog. */
let sql: postgres.Sql;
/** The migrations' role: creates objects as a later migration would. */
let owner: postgres.Sql;

beforeAll(async () => {
  database = await createTestDatabase();
  const options = { max: 1, prepare: !database.singleSession, onnotice: () => {} };
  sql = postgres(database.url, options);
  owner = postgres(database.ownerUrl, options);
});

afterAll(async () => {
  await owner?.end();
  await sql?.end();
  await database?.close();
});

describe('privileges of anon and authenticated', () => {
  it('are exactly the allow-list, in every schema', async () => {
    const granted = await allEndUserPrivileges(sql);
    const unexpected = granted.filter((line) => !ALLOWED.includes(line));
    const missing = ALLOWED.filter((line) => !granted.includes(line));
    expect(
      { unexpected, missing },
      'A grant to anon or authenticated is an endpoint of the data API on Supabase. If a migration ' +
        'meant to grant (or revoke) it, update ALLOWED in supabase/tests/privileges.test.ts with it.',
    ).toEqual({ unexpected: [], missing: [] });
  });

  it('keeps the allow-list sorted and without repeats', () => {
    expect(ALLOWED).toEqual([...new Set(ALLOWED)].sort());
  });

  it('are held by roles that cannot log in or bypass anything', async () => {
    const roles = await sql`
      select rolname, rolsuper, rolcreaterole, rolcreatedb, rolcanlogin, rolreplication, rolbypassrls
        from pg_roles where rolname in ('anon', 'authenticated') order by rolname`;
    expect([...roles]).toEqual(
      ['anon', 'authenticated'].map((rolname) => ({
        rolname,
        rolsuper: false,
        rolcreaterole: false,
        rolcreatedb: false,
        rolcanlogin: false,
        rolreplication: false,
        rolbypassrls: false,
      })),
    );
  });
});

describe('an object a later migration creates', () => {
  class RolledBack extends Error {}

  /** Creates objects as the migrations' role, reads what end users hold on them, rolls back. */
  async function privilegesOnNewObjects(ddl: string): Promise<{ endUser: string[]; serviceRole: string[] }> {
    let result: { endUser: string[]; serviceRole: string[] } | undefined;
    await owner
      .begin(async (tx) => {
        await tx.unsafe(ddl).simple();
        // read inside the transaction that created them
        const endUser = await endUserPrivileges(tx, '%new\\_%');
        const serviceRole = await tx<{ table: boolean; sequence: boolean }[]>`
          select has_table_privilege('service_role', 'public.new_table', 'select, insert, update, delete') as table,
                 has_sequence_privilege('service_role', 'public.new_sequence', 'usage') as sequence`;
        result = { endUser, serviceRole: Object.entries(serviceRole[0] ?? {}).flatMap(([k, v]) => (v ? [k] : [])) };
        throw new RolledBack();
      })
      .catch((error: unknown) => {
        if (!(error instanceof RolledBack)) throw error;
      });
    if (!result) throw new Error('nothing was read');
    return result;
  }

  it('grants nothing to anon and authenticated, in public or private', async () => {
    const { endUser, serviceRole } = await privilegesOnNewObjects(`
      create table public.new_table (id bigint generated by default as identity primary key, note text);
      create view public.new_view as select id from public.new_table;
      create sequence public.new_sequence;
      create function public.new_function() returns int language sql as 'select 1';
      create procedure public.new_procedure() language sql as 'select 1';
      create table private.new_private_table (id int);
      create function private.new_private_function() returns int language sql as 'select 1';
    `);
    expect(endUser).toEqual([]);
    // service_role keeps Supabase's defaults (migration 20261122000100_platform.sql)
    expect(serviceRole).toEqual(['table', 'sequence']);
  });

  it('is owned by the migrations role, which is not a superuser', async () => {
    const [row] = await owner<{ owner: string; superuser: boolean }[]>`
      select pg_get_userbyid(c.relowner) as owner, r.rolsuper as superuser
        from pg_class c join pg_roles r on r.oid = c.relowner
       where c.oid = 'public.flights'::regclass`;
    expect(row).toEqual({ owner: OWNER_ROLE, superuser: false });
  });
});

describe('row-level security', () => {
  it('guards the data API, which exposes public and never private', async () => {
    const schemas = await exposedSchemas();
    expect(schemas).toContain('public');
    expect(schemas).not.toContain('private');
  });

  it('is on for every table in the schemas the data API exposes, and in private', async () => {
    const schemas = [...(await exposedSchemas()), 'private'];
    const tables = await sql<{ table: string; rls: boolean }[]>`
      select c.oid::regclass::text as table, c.relrowsecurity as rls
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where c.relkind in ('r', 'p') and n.nspname in ${sql(schemas)}
       order by 1`;
    expect(tables.length).toBeGreaterThan(10);
    expect(tables.filter((t) => !t.rls).map((t) => t.table)).toEqual([]);
  });

  it('cannot be sidestepped by a view: none in an exposed schema is readable by end users but the operator views', async () => {
    // a view runs with its owner's rights (unless made with security_invoker), so the owner's
    // BYPASSRLS would apply through it, not the caller's policies. The operator views are the
    // deliberate exception: authenticated may SELECT them (admins read them), nothing more, and
    // they are security_invoker, so the caller's policies apply (operator-views.test.ts checks
    // that a traveller who is not an admin gets no row and a visitor is denied).
    const schemas = await exposedSchemas();
    const granted = await allEndUserPrivileges(sql);
    const onViews = granted.filter((line) =>
      schemas.some((schema) => line.startsWith(`view ${schema}.`) || line.startsWith(`materialized view ${schema}.`)),
    );
    expect(onViews).toEqual(OPERATOR_VIEWS.map((view) => `view ${view}: authenticated SELECT`));
    const options = await sql<{ view: string; invoker: boolean }[]>`
      select n.nspname || '.' || c.relname as view,
             coalesce('security_invoker=true' = any(c.reloptions), false) as invoker
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname || '.' || c.relname in ${sql(OPERATOR_VIEWS)}
       order by 1`;
    expect([...options]).toEqual(OPERATOR_VIEWS.map((view) => ({ view, invoker: true })));
  });
});

describe("the api's database role", () => {
  let db: Db;

  beforeAll(() => {
    db = createDb({ databaseUrl: database.ownerUrl, singleSession: database.singleSession });
  });

  afterAll(async () => {
    await db?.close();
  });

  it('is the migrations role, and not a superuser', async () => {
    const [role] = await db.serviceStatement(
      (s) => s<{ name: string; superuser: boolean; bypassrls: boolean }[]>`
        select current_user as name, rolsuper as superuser, rolbypassrls as bypassrls
          from pg_roles where rolname = current_user`,
    );
    expect(role).toEqual({ name: OWNER_ROLE, superuser: false, bypassrls: true });
  });

  it('cannot run what only a superuser may', async () => {
    const attempts = [
      `alter role ${OWNER_ROLE} superuser`,
      // this setting turns off triggers and foreign keys
      `set local session_replication_role = replica`,
      `copy (select 1) to program 'true'`,
    ];
    for (const statement of attempts) {
      const error = await db.asService((tx) => tx.unsafe(statement)).catch((e: unknown) => e);
      expect((error as { code?: string }).code, statement).toBe('42501');
    }
  });

  it('may act as the end-user roles, as the data API does', async () => {
    const claims = { sub: '00000000-0000-0000-0000-000000000001', role: 'authenticated', aud: 'authenticated', exp: 0 };
    const [row] = await db.asUser(claims, (tx) => tx<{ role: string }[]>`select current_user as role`);
    expect(row).toEqual({ role: 'authenticated' });
  });

  it('acts as a visitor with asAnon: role anon, no user, and the policies and grants of anon', async () => {
    const tag = Date.now().toString(36);
    await db.asService(
      (tx) => tx`
        insert into public.subscription_plans (name, price, flight_limit, is_active)
        values (${`Shown ${tag}`}, 100, 5, true), (${`Retired ${tag}`}, 200, 5, false)`,
    );

    const [who] = await db.asAnon(
      (tx) => tx<{ role: string; uid: string | null; claimRole: string }[]>`
        select current_user as role, auth.uid() as uid, auth.role() as "claimRole"`,
    );
    expect(who).toEqual({ role: 'anon', uid: null, claimRole: 'anon' });

    // row-level security: the visitors' policy shows active plans only
    const plans = await db.asAnon(
      (tx) => tx<{ name: string }[]>`select name from public.subscription_plans where name like ${`% ${tag}`}`,
    );
    expect(plans.map((plan) => plan.name)).toEqual([`Shown ${tag}`]);

    // grants: nothing beyond reading plans
    for (const statement of [
      `insert into public.subscription_plans (name, price) values ('Sneaky ${tag}', 0)`,
      `update public.subscription_plans set price = 0`,
      `select count(*) from public.profiles`,
    ]) {
      const error = await db.asAnon((tx) => tx.unsafe(statement)).catch((e: unknown) => e);
      expect((error as { code?: string }).code, statement).toBe('42501');
    }
  });
});
