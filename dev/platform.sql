-- What a Supabase project provides and plain PostgreSQL (or PGlite) lacks, created only where
-- missing so this file is harmless against a real Supabase database. It mirrors the parts of
-- Supabase's platform that FareBack's migrations, the api and the local auth server rely on:
--   * roles anon, authenticated (NOLOGIN, switched to with SET ROLE) and service_role (BYPASSRLS)
--   * role fareback_owner, the local stand-in for Supabase's own `postgres` role (below)
--   * Supabase's default privileges on schema public (everything granted to the three API roles,
--     so our migrations must revoke and grant explicitly, exactly as they must on Supabase)
--   * schema auth with the auth.users columns GoTrue uses, refresh tokens, sessions, identities
--   * auth.uid(), auth.role(), auth.jwt(), auth.email() reading request.jwt.claims
-- Nothing here is deployed; `supabase db push` runs against a project that already has all this.
-- It runs as a superuser (dev/db/migrate.ts) before every migration run, so each statement must
-- be safe to repeat.

do $$
begin
  if not exists (select 1 from pg_roles where rolname = 'anon') then
    create role anon nologin noinherit;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'authenticated') then
    create role authenticated nologin noinherit;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'service_role') then
    create role service_role nologin noinherit bypassrls;
  end if;
end
$$;

-- The connecting user (postgres locally) must be able to SET ROLE to each of them.
do $$
begin
  execute format('grant anon, authenticated, service_role to %I', current_user);
exception when others then
  null; -- already a member, or a superuser who needs no grant
end
$$;

-- ---------------------------------------------------------------------------------------------
-- fareback_owner: what Supabase's `postgres` role is
-- ---------------------------------------------------------------------------------------------
-- On Supabase, migrations (`supabase db push`) and the api function (SUPABASE_DB_URL) connect as
-- `postgres`, which is NOT a superuser: NOSUPERUSER CREATEDB CREATEROLE REPLICATION BYPASSRLS,
-- a member of anon, authenticated and service_role (WITH ADMIN OPTION since PostgreSQL 16), the
-- owner of everything the migrations create, with USAGE on schema auth and all rights on its
-- tables, sequences and routines (it may add triggers and foreign keys there, not tables).
-- Locally the same rights belong to fareback_owner, a LOGIN role without a password: migrations,
-- the seed and the api connect as it (dev/db/migrate.ts, dev/stack.ts), so a statement only a
-- superuser may run fails here as it would on deploy. Where Supabase's own roles exist
-- (supabase_admin: a real or CLI-run Supabase database) `postgres` already plays the part and
-- nothing is created.
-- The role belongs to the server, not to one database: test runs migrate several databases at
-- once, so losing the race to create it or to grant it a membership is not an error.
do $$
declare
  api_role text;
begin
  if exists (select 1 from pg_roles where rolname = 'supabase_admin') then
    return;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'fareback_owner') then
    begin
      create role fareback_owner login nosuperuser inherit createdb createrole replication bypassrls;
    exception when duplicate_object or unique_violation then
      null;
    end;
  end if;
  foreach api_role in array array['anon', 'authenticated', 'service_role'] loop
    if not exists (
      select 1 from pg_auth_members m
       where m.roleid = api_role::regrole and m.member = 'fareback_owner'::regrole and m.admin_option
    ) then
      begin
        execute format('grant %I to fareback_owner with admin option', api_role);
      exception when unique_violation or object_not_in_prerequisite_state then
        null;
      end;
    end if;
  end loop;
end
$$;

grant usage on schema public to anon, authenticated, service_role;

create schema if not exists extensions;
create schema if not exists auth;
grant usage on schema auth to anon, authenticated, service_role;

create table if not exists auth.users (
  instance_id uuid,
  id uuid primary key,
  aud varchar(255) default 'authenticated',
  role varchar(255) default 'authenticated',
  email varchar(255),
  encrypted_password varchar(255),
  email_confirmed_at timestamptz,
  invited_at timestamptz,
  confirmation_token varchar(255),
  confirmation_sent_at timestamptz,
  recovery_token varchar(255),
  recovery_sent_at timestamptz,
  email_change_token_new varchar(255),
  email_change varchar(255),
  email_change_sent_at timestamptz,
  last_sign_in_at timestamptz,
  raw_app_meta_data jsonb default '{}'::jsonb,
  raw_user_meta_data jsonb default '{}'::jsonb,
  is_super_admin boolean,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  phone text,
  phone_confirmed_at timestamptz,
  banned_until timestamptz,
  deleted_at timestamptz,
  is_sso_user boolean not null default false,
  is_anonymous boolean not null default false
);
create unique index if not exists users_email_partial_key on auth.users (lower(email)) where is_sso_user = false;

create table if not exists auth.identities (
  id uuid primary key default gen_random_uuid(),
  provider_id text not null,
  user_id uuid not null references auth.users (id) on delete cascade,
  identity_data jsonb not null,
  provider text not null,
  last_sign_in_at timestamptz,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  email text generated always as (lower(identity_data ->> 'email')) stored,
  unique (provider_id, provider)
);
create index if not exists identities_user_id_idx on auth.identities (user_id);

create table if not exists auth.sessions (
  id uuid primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  not_after timestamptz,
  aal text default 'aal1',
  user_agent text,
  ip text
);
create index if not exists sessions_user_id_idx on auth.sessions (user_id);

create table if not exists auth.refresh_tokens (
  id bigserial primary key,
  token varchar(255) unique,
  user_id varchar(255),
  revoked boolean,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  parent varchar(255),
  session_id uuid references auth.sessions (id) on delete cascade
);
create index if not exists refresh_tokens_session_id_idx on auth.refresh_tokens (session_id);

create or replace function auth.uid() returns uuid
language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.sub', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub')
  )::uuid
$$;

create or replace function auth.role() returns text
language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.role', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role')
  )::text
$$;

create or replace function auth.email() returns text
language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.email', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'email')
  )::text
$$;

create or replace function auth.jwt() returns jsonb
language sql stable
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim', true), ''),
    nullif(current_setting('request.jwt.claims', true), '')
  )::jsonb
$$;

grant execute on function auth.uid(), auth.role(), auth.email(), auth.jwt() to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- What fareback_owner may do in this database (the rest of the role is above)
-- ---------------------------------------------------------------------------------------------
do $$
begin
  if not exists (select 1 from pg_roles where rolname = 'fareback_owner') then
    return; -- Supabase: postgres has all of this already
  end if;

  execute format('grant all on database %I to fareback_owner', current_database());
  grant usage, create on schema public to fareback_owner;
  grant usage, create on schema extensions to fareback_owner;
  -- auth belongs to Supabase Auth: postgres may use its tables, add triggers and foreign keys to
  -- them, but no longer create anything in the schema.
  grant usage on schema auth to fareback_owner;
  grant all on all tables in schema auth to fareback_owner;
  grant all on all sequences in schema auth to fareback_owner;
  grant all on all routines in schema auth to fareback_owner;

  -- A new project's defaults: everything postgres creates in public is granted to the three API
  -- roles (migration 20261122000100_platform.sql revokes this for anon and authenticated). Set
  -- once, when this database is new, so that a later run of this file does not grant again what
  -- a migration revoked.
  if to_regclass('supabase_migrations.schema_migrations') is null then
    alter default privileges for role fareback_owner in schema public
      grant all on tables to anon, authenticated, service_role;
    alter default privileges for role fareback_owner in schema public
      grant all on functions to anon, authenticated, service_role;
    alter default privileges for role fareback_owner in schema public
      grant all on sequences to anon, authenticated, service_role;
  end if;
end
$$;

-- Databases migrated before fareback_owner existed hold FareBack's objects as the superuser that
-- ran the migrations; they pass to fareback_owner, the owner the migrations now run as, so later
-- migrations may alter them. (An owned sequence moves with its table.) Nothing to do on a new
-- database.
do $$
declare
  statement text;
begin
  if not exists (select 1 from pg_roles where rolname = 'fareback_owner') then
    return;
  end if;
  for statement in
    select format('alter schema %I owner to fareback_owner', n.nspname)
      from pg_namespace n join pg_roles r on r.oid = n.nspowner
     where n.nspname = 'private' and r.rolsuper
    union all
    select format('alter %s %s owner to fareback_owner',
                  case c.relkind when 'v' then 'view' when 'm' then 'materialized view'
                                 when 'S' then 'sequence' when 'f' then 'foreign table' else 'table' end,
                  c.oid::regclass)
      from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      join pg_roles r on r.oid = c.relowner
     where n.nspname in ('public', 'private') and r.rolsuper
       and c.relkind in ('r', 'p', 'v', 'm', 'f', 'S')
       and not exists (select 1 from pg_depend d
                        where d.classid = 'pg_class'::regclass and d.objid = c.oid
                          and d.refclassid = 'pg_class'::regclass and d.deptype in ('a', 'i'))
    union all
    select format('alter routine %s owner to fareback_owner', p.oid::regprocedure)
      from pg_proc p
      join pg_namespace n on n.oid = p.pronamespace
      join pg_roles r on r.oid = p.proowner
     where n.nspname in ('public', 'private') and r.rolsuper
       and not exists (select 1 from pg_depend d
                        where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')
    union all
    select format('alter %s %s owner to fareback_owner',
                  case t.typtype when 'd' then 'domain' else 'type' end, t.oid::regtype)
      from pg_type t
      join pg_namespace n on n.oid = t.typnamespace
      join pg_roles r on r.oid = t.typowner
     where n.nspname in ('public', 'private') and r.rolsuper
       and t.typtype in ('e', 'd', 'r')
       and not exists (select 1 from pg_depend d
                        where d.classid = 'pg_type'::regclass and d.objid = t.oid and d.deptype = 'e')
    union all
    select format('alter type %s owner to fareback_owner', t.oid::regtype)
      from pg_type t
      join pg_class c on c.oid = t.typrelid and c.relkind = 'c'
      join pg_namespace n on n.oid = t.typnamespace
      join pg_roles r on r.oid = t.typowner
     where n.nspname in ('public', 'private') and r.rolsuper
  loop
    execute statement;
  end loop;
end
$$;

create schema if not exists supabase_migrations;
create table if not exists supabase_migrations.schema_migrations (
  version text primary key,
  statements text[],
  name text
);

-- The local migrator's own bookkeeping (dev/db/migrate.ts), beside the CLI's table and not in it:
-- the text of each file it applied, as a sha256, so that a database built from an older version
-- of a migration file (edited before the first deploy, not appended to) is noticed and rebuilt.
create table if not exists supabase_migrations.local_file_checksums (
  version text primary key,
  file text not null,
  checksum text not null,
  applied_at timestamptz not null default now()
);

-- The Supabase CLI records each migration as postgres, in the migration's own transaction.
do $$
begin
  if exists (select 1 from pg_roles where rolname = 'fareback_owner') then
    grant usage on schema supabase_migrations to fareback_owner;
    grant select, insert on table supabase_migrations.schema_migrations to fareback_owner;
    grant select, insert on table supabase_migrations.local_file_checksums to fareback_owner;
  end if;
end
$$;
