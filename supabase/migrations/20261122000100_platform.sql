-- =============================================================================================
-- Platform: the private schema, default privileges, shared helpers
-- =============================================================================================
-- The first of the area migrations; each later one builds on this and the ones before it:
--   platform, jobs and scheduling, profiles and plans, admin audit, flights and prices,
--   rebooking, notifications, billing and payments, email import, contact, admin reports,
--   operator views (docs/architecture.md "Migrations" says what goes where).
--
-- The `private` schema holds what policies and triggers need but the data API must never
-- expose: helper functions (security definer, fixed search_path) and server-only tables such as
-- login_attempts. It is not listed in the API's exposed schemas, and nothing in it is granted
-- by default. The one exception is `authenticated`, which needs USAGE on the schema and EXECUTE
-- on private.is_admin() because row-level security policies run with the caller's privileges.
--
-- Error codes raised by FareBack's triggers, for the api to map to HTTP statuses:
--   42501 insufficient_privilege  -> 403 (admin flag, premium required)
--   23505 unique_violation        -> 409 (duplicate flight, username, email)
--   23514 check_violation         -> 400 (a stored bound)
--   FB409 (custom)                -> 409 (flight limit reached)
create schema if not exists private;

revoke all on schema private from public;
revoke all on schema private from anon, authenticated;
grant usage on schema private to authenticated, service_role;

-- =============================================================================================
-- Default privileges
-- =============================================================================================
-- A Supabase project grants anon, authenticated and service_role every right on whatever
-- `postgres` later creates in schema public: tables, views, sequences and functions. On Supabase
-- each of those rights is a public HTTP endpoint (/rest/v1/<table>, /rest/v1/rpc/<function>),
-- so without the defaults below only each migration's own `revoke all` would keep a new object
-- closed, and every identity column's sequence would be usable by anon. PostgreSQL adds its own default on top:
-- EXECUTE for PUBLIC on every new function, in any schema, which anon and authenticated inherit.
--
-- So a new object is closed to the two end-user roles until a migration grants what the
-- product needs, and supabase/tests/privileges.test.ts holds every grant they have against
-- an allow-list.
--
-- This runs as the role that runs every migration (`postgres` on Supabase, fareback_owner
-- locally, dev/platform.sql), so ALTER DEFAULT PRIVILEGES without FOR ROLE changes the defaults
-- of the role that creates every later object. Defaults that Supabase set for its own roles
-- (supabase_admin) cannot be changed by postgres and apply only to what those roles create.
--
-- service_role keeps its defaults: its key is a server secret that bypasses row-level security
-- by design, nothing public reaches it, and the api does not use it (it connects as the owner).
-- Revoking them would only make every migration repeat grants to a role that may do all anyway.

-- New tables, views, sequences and functions in public: nothing for anon and authenticated.
alter default privileges in schema public revoke all on tables from anon, authenticated;

alter default privileges in schema public revoke all on sequences from anon, authenticated;

alter default privileges in schema public revoke all on functions from anon, authenticated;

-- New functions in any schema: no EXECUTE for PUBLIC. (Only the role-wide default can remove
-- it; a schema's defaults can only add to that.)
alter default privileges revoke execute on functions from public;

-- Whatever else this role's defaults grant to anon, authenticated or PUBLIC, in private or any
-- other schema, goes too; PUBLIC keeps only PostgreSQL's own role-wide USAGE on types.
do $$
declare
  entry record;
begin
  for entry in
    select distinct d.defaclnamespace::regnamespace::text as schema_name,
           d.defaclnamespace = 0 as role_wide,
           case d.defaclobjtype when 'r' then 'tables' when 'S' then 'sequences' when 'f' then 'functions'
                                when 'T' then 'types' when 'n' then 'schemas' end as objects,
           case a.grantee when 0 then 'public' else quote_ident(pg_get_userbyid(a.grantee)) end as grantee
      from pg_default_acl d
      cross join lateral aclexplode(d.defaclacl) a
     where d.defaclrole = current_user::regrole
       and (a.grantee in ('anon'::regrole, 'authenticated'::regrole)
            or (a.grantee = 0 and not (d.defaclnamespace = 0 and d.defaclobjtype = 'T')))
  loop
    if entry.role_wide then
      execute format('alter default privileges revoke all on %s from %s', entry.objects, entry.grantee);
    else
      execute format('alter default privileges in schema %s revoke all on %s from %s',
                     entry.schema_name, entry.objects, entry.grantee);
    end if;
  end loop;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- Contains-search: pg_trgm
-- ---------------------------------------------------------------------------------------------
-- The admin lists search with ILIKE '%text%' (api/queries/pagination.ts containsPattern); a
-- trigram GIN index answers that without reading every row. pg_trgm is a trusted extension
-- (Supabase lists it; PostgreSQL's contrib locally; PGlite loads it in dev/db/pglite-server.ts),
-- created in the extensions schema as Supabase does. Its functions are executable by PUBLIC
-- and belong to the bootstrap superuser (a trusted extension's are), so this role cannot revoke
-- them; they are no endpoint of the data API, which does not expose the extensions schema
-- (supabase/config.toml; the privilege allow-list names them).
create extension if not exists pg_trgm with schema extensions;

-- =============================================================================================
-- updated_at
-- =============================================================================================
-- One trigger function for every table with an updated_at column.
create or replace function private.set_updated_at()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end;
$$;

revoke all on function private.set_updated_at() from public, anon, authenticated;

-- =============================================================================================
-- Admin check
-- =============================================================================================
-- Security definer so policies on profiles can call it without recursing into profiles' own
-- policies. plpgsql (not sql) because public.profiles is created by a later migration and an sql
-- function body is checked at creation time.
create or replace function private.is_admin()
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return coalesce(
    (select p.is_admin from public.profiles p where p.id = (select auth.uid())),
    false
  );
end;
$$;

revoke all on function private.is_admin() from public, anon, authenticated;
grant execute on function private.is_admin() to authenticated, service_role;

comment on function private.is_admin() is
  'Whether the signed-in caller (auth.uid()) is an administrator; false for anyone else. Used by policies.';

-- True when the statement runs as an end user through the data API (roles authenticated or
-- anon), false for service_role, postgres and security definer functions owned by postgres.
-- Triggers use it to let system work through while holding users to the rules.
create or replace function private.is_end_user()
returns boolean
language sql
stable
set search_path = ''
as $$
  select current_user in ('authenticated', 'anon')
$$;

revoke all on function private.is_end_user() from public, anon, authenticated;
grant execute on function private.is_end_user() to authenticated, service_role;

comment on function private.is_end_user() is
  'True when the statement runs as anon or authenticated (the data API''s roles), false for service_role, the owner and security definer code.';

-- =============================================================================================
-- Login attempts
-- =============================================================================================
-- Written and read only by the api's system connection to slow repeated failed logins from one
-- address or for one account. Never visible to users.
create table private.login_attempts (
  id bigint generated by default as identity primary key,
  ip text,
  account text,
  succeeded boolean not null default false,
  attempted_at timestamptz not null default now()
);

alter table private.login_attempts enable row level security;

comment on table private.login_attempts is
  'Each sign-in attempt, by client address and account, to slow repeated failures (a 15-minute lockout window). Written and read by the api; pruned after a day.';

comment on column private.login_attempts.id is 'Row id.';
comment on column private.login_attempts.ip is 'The client address the attempt came from.';
comment on column private.login_attempts.account is 'The account the attempt named (as the api resolved the username or email entered).';
comment on column private.login_attempts.succeeded is 'Whether the password was right.';
comment on column private.login_attempts.attempted_at is 'When it was tried.';

create index login_attempts_account_attempted_at_idx on private.login_attempts (account, attempted_at);
create index login_attempts_ip_attempted_at_idx on private.login_attempts (ip, attempted_at);

revoke all on table private.login_attempts from public, anon, authenticated;
grant select, insert, delete on table private.login_attempts to service_role;

-- =============================================================================================
-- Maintenance
-- =============================================================================================
-- Login attempts matter for the 15-minute lockout window only; a day keeps enough to look into
-- an attack.
create or replace function private.prune_login_attempts()
returns integer
language sql
security definer
set search_path = ''
as $$
  with pruned as (
    delete from private.login_attempts a where a.attempted_at < now() - interval '1 day' returning 1
  )
  select count(*)::integer from pruned
$$;

revoke all on function private.prune_login_attempts() from public, anon, authenticated, service_role;

comment on function private.prune_login_attempts() is 'Deletes login attempts older than a day; answers how many.';

-- =============================================================================================
-- The traveller's time zone (for the digest's time of day)
-- =============================================================================================
-- An IANA name ('Europe/Paris'); the browser reports it and the preferences call stores it.
-- Abbreviations and POSIX offsets ('EST', 'UTC+5') are refused: their meaning is not a place's.
create or replace function private.is_time_zone(p_name text)
returns boolean
language plpgsql
immutable
set search_path = ''
as $$
begin
  if p_name is null or p_name !~ '^(UTC|[A-Z][A-Za-z_]+(/[A-Za-z0-9_+-]+){1,2})$' then
    return false;
  end if;
  perform now() at time zone p_name;
  return true;
exception
  when invalid_parameter_value then
    return false;
end;
$$;

-- is_time_zone is in profiles' check constraint, which runs as whoever updates the row: end
-- users through the data API, and service_role (the Supabase service key; the database tests'
-- system actor), which may write every profile column anyway.
revoke all on function private.is_time_zone(text) from public, anon;
grant execute on function private.is_time_zone(text) to authenticated, service_role;
