// Empties a local PostgreSQL database of what dev/platform.sql and the migrations made, so that
// the migrator builds it again from the first migration, as `supabase db reset` does (which
// recreates the whole database). Here the database itself stays: DATABASE_URL may name the
// server's `postgres` database, which cannot be dropped while connected to, and may hold schemas
// of other projects, which are kept. What goes:
//   * the schemas public (recreated empty, as a new database has it), auth (the local auth
//     server's users and sessions), extensions, supabase_migrations, and every schema the
//     migrations' owner (fareback_owner) owns, each with everything in it;
//   * the pg_cron jobs of this database, where pg_cron is loaded;
//   * the owner's default privileges outside any schema (they outlive the schemas), back to
//     PostgreSQL's defaults.
// Roles stay: they belong to the server, and other databases on it use them.
// A Supabase database (its supabase_admin role exists) is refused: `supabase db reset` is its way.
import type postgres from 'postgres';

/** What a reset drops, for messages. */
export const resetScope =
  'its schemas public, auth, extensions and supabase_migrations and those fareback_owner owns, with every row in them';

/** Runs as a superuser on the database to empty. */
export async function resetDatabase(admin: postgres.Sql): Promise<void> {
  const [{ supabase }] = await admin<[{ supabase: boolean }]>`
    select exists (select 1 from pg_roles where rolname = 'supabase_admin') as supabase`;
  if (supabase) {
    throw new Error('this is a Supabase database (it has the supabase_admin role): reset it with `supabase db reset`');
  }
  await admin.unsafe(`
    do $$
    declare
      schema_name text;
      owner oid := to_regrole('fareback_owner');
      defaults record;
      grantee record;
      objects text;
    begin
      if to_regclass('cron.job') is not null then
        delete from cron.job where database = current_database();
      end if;

      for schema_name in
        select n.nspname from pg_namespace n
         where (n.nspname in ('public', 'auth', 'extensions', 'supabase_migrations') or n.nspowner = owner)
           and not exists (select 1 from pg_depend d
                            where d.classid = 'pg_namespace'::regclass and d.objid = n.oid and d.deptype = 'e')
      loop
        execute format('drop schema %I cascade', schema_name);
      end loop;
      -- as a new database (PostgreSQL 15 and later) has it
      create schema public authorization pg_database_owner;
      grant usage on schema public to public;
      comment on schema public is 'standard public schema';

      if owner is null then
        return;
      end if;
      for defaults in
        select d.defaclobjtype as kind, d.defaclacl as acl from pg_default_acl d
         where d.defaclrole = owner and d.defaclnamespace = 0
      loop
        objects := case defaults.kind when 'r' then 'tables' when 'S' then 'sequences' when 'f' then 'functions'
                                      when 'T' then 'types' when 'n' then 'schemas' end;
        for grantee in select distinct x.grantee from aclexplode(defaults.acl) x loop
          execute format('alter default privileges for role fareback_owner revoke all on %s from %s', objects,
                         case when grantee.grantee = 0 then 'public' else quote_ident(pg_get_userbyid(grantee.grantee)) end);
        end loop;
        for grantee in
          select x.grantee, x.privilege_type
            from aclexplode(acldefault(case when defaults.kind = 'S' then 's'::"char" else defaults.kind end, owner)) x
        loop
          execute format('alter default privileges for role fareback_owner grant %s on %s to %s', grantee.privilege_type, objects,
                         case when grantee.grantee = 0 then 'public' else quote_ident(pg_get_userbyid(grantee.grantee)) end);
        end loop;
      end loop;
    end
    $$;`);
}
