-- =============================================================================================
-- Default privileges
-- =============================================================================================
-- A Supabase project grants anon, authenticated and service_role every right on whatever
-- `postgres` later creates in schema public: tables, views, sequences and functions. On Supabase
-- each of those rights is a public HTTP endpoint (/rest/v1/<table>, /rest/v1/rpc/<function>),
-- so until now only each migration's own `revoke all` kept a new object closed, and every
-- identity column's sequence was left usable by anon. PostgreSQL adds its own default on top:
-- EXECUTE for PUBLIC on every new function, in any schema, which anon and authenticated inherit.
--
-- From here on a new object is closed to the two end-user roles until a migration grants what
-- the product needs, and supabase/tests/privileges.test.ts holds every grant they have against
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

-- Existing sequences, in every schema: no end-user role needs one (identity columns draw their
-- values without a sequence privilege). Only the owner can revoke what the platform's defaults
-- granted, so sequences of other roles (Supabase's own schemas) are left to them.
do $$
declare
  sequence_name text;
begin
  for sequence_name in
    select distinct c.oid::regclass::text
      from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      cross join lateral aclexplode(c.relacl) a
     where c.relkind = 'S'
       and n.nspname not in ('pg_catalog', 'information_schema')
       and a.grantee in (0, 'anon'::regrole, 'authenticated'::regrole)
       and pg_has_role(current_user, c.relowner, 'MEMBER')
  loop
    execute format('revoke all on sequence %s from public, anon, authenticated', sequence_name);
  end loop;
end
$$;
