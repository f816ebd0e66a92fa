// A database's schema as plain data, to show that two databases hold the same one (a reset
// database and a fresh one: dev/db/migrate.test.ts). dumpCatalog reads every schema except PostgreSQL's own, those
// an extension creates (cron) and supabase_migrations (the bookkeeping differs by design): the
// platform's auth and extensions schemas are read too, because migrations add triggers, grants
// and comments there. Objects that belong to an extension (pg_trgm's functions, cron.job) are
// left out; the extensions themselves and, where pg_cron is loaded, its jobs are read.
//
// The catalog maps a key naming one object ("function private.x(uuid)", "column
// public.flights.price") to its aspects (body, default, owner, comment...), each as text. Output
// is deterministic: the dump runs with an empty search_path, so every name in a definition is
// schema-qualified, and grants are spelled out (a default ACL is expanded to what it grants).
// Function bodies are compared with each line's trailing whitespace and the body's leading and
// trailing blank lines removed; anything else in a body (indentation, comments, case) counts.
// Rows: every table's rows are read (right after migrations they are reference data), keyed by
// primary key; a column whose default is the clock or a random value (created_at, a random uuid)
// shows only whether it is set, since two databases migrated a second apart differ there.
// Sequences' current values are not read: they follow the rows, which are.
import type postgres from 'postgres';

/** One object's aspects; `parent` names the object it belongs to (a column's table). */
export interface CatalogEntry {
  parent?: string;
  aspects: Record<string, string>;
}

export type Catalog = Record<string, CatalogEntry>;

export interface CatalogDifference {
  /** "<object>: only in old", "<object>: only in new" or "<object>: <aspect> differs". */
  key: string;
  old?: string;
  new?: string;
}

const EXCLUDED_SCHEMAS = ['pg_catalog', 'information_schema', 'pg_toast', 'supabase_migrations'];

/** Defaults whose value depends on when or where a row was written, not on the migration. */
const UNREPEATABLE_DEFAULT =
  /\b(now|clock_timestamp|statement_timestamp|transaction_timestamp|timeofday|gen_random_uuid|uuid_generate_v[14]|random)\s*\(|\b(current_timestamp|current_date|current_time|localtimestamp|localtime)\b/i;

const POLICY_COMMANDS: Record<string, string> = { r: 'select', a: 'insert', w: 'update', d: 'delete', '*': 'all' };
const DEFAULT_ACL_KINDS: Record<string, string> = {
  r: 'tables',
  S: 'sequences',
  f: 'functions',
  T: 'types',
  n: 'schemas',
};
const FUNCTION_KINDS: Record<string, string> = { f: 'function', p: 'procedure', a: 'aggregate', w: 'window function' };
const RELATION_KINDS: Record<string, string> = {
  r: 'table',
  p: 'table',
  v: 'view',
  m: 'materialized view',
  f: 'foreign table',
  S: 'sequence',
  c: 'type',
};

/** The SQL condition "this object is not a member of an extension". */
function notExtensionMember(catalog: string, oid: string): string {
  return `not exists (select 1 from pg_depend d where d.classid = '${catalog}'::regclass and d.objid = ${oid} and d.deptype = 'e')`;
}

/** The schemas read: `n` is a pg_namespace row. */
const OWNED_SCHEMA = `(n.nspname not in (${EXCLUDED_SCHEMAS.map((s) => `'${s}'`).join(', ')})
  and n.nspname !~ '^pg_(toast_)?temp_' and ${notExtensionMember('pg_namespace', 'n.oid')})`;

/** One ACL expanded, one row per grantee: "SELECT, UPDATE*" (* = with grant option) and grantor. */
const aclRows = (acl: string) => `
  select coalesce(g.rolname, 'PUBLIC') as grantee,
         string_agg(x.privilege_type || case when x.is_grantable then '*' else '' end, ', ' order by x.privilege_type) as privileges,
         string_agg(distinct gr.rolname, ', ') as grantor
    from aclexplode(${acl}) x
    left join pg_roles g on g.oid = x.grantee
    left join pg_roles gr on gr.oid = x.grantor
   group by 1`;

export function normalizeBody(body: string): string {
  return body
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/^\n+|\n+$/g, '');
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

type Row = Record<string, string | boolean | number | null>;

/** Reads the catalog of the database `sql` is connected to (as a superuser: it reads every table). */
export async function dumpCatalog(sql: postgres.Sql): Promise<Catalog> {
  const catalog: Catalog = {};
  const add = (key: string, aspects: Record<string, string | boolean | number | null | undefined>, parent?: string) => {
    if (catalog[key]) throw new Error(`catalog: ${key} read twice`);
    const clean: Record<string, string> = {};
    for (const [name, value] of Object.entries(aspects)) {
      if (value !== null && value !== undefined && value !== '') clean[name] = String(value);
    }
    catalog[key] = parent ? { parent, aspects: clean } : { aspects: clean };
  };

  await sql.begin('isolation level repeatable read read only', async (tx) => {
    await tx`set local search_path = ''`;
    const q = <T extends Row>(text: string) => tx.unsafe<T[]>(text);

    for (const s of await q(`
      select n.nspname as name, pg_get_userbyid(n.nspowner) as owner,
             obj_description(n.oid, 'pg_namespace') as comment
        from pg_namespace n where ${OWNED_SCHEMA}`)) {
      add(`schema ${s.name}`, { owner: s.owner, comment: s.comment });
    }
    for (const g of await q(`
      select n.nspname as schema, a.*
        from pg_namespace n, lateral (${aclRows(`coalesce(n.nspacl, acldefault('n', n.nspowner))`)}) a
       where ${OWNED_SCHEMA}`)) {
      add(
        `grant on schema ${g.schema} to ${g.grantee}`,
        { privileges: g.privileges, grantor: g.grantor },
        `schema ${g.schema}`,
      );
    }

    for (const e of await q(`
      select e.extname as name, n.nspname as schema, e.extversion as version,
             obj_description(e.oid, 'pg_extension') as comment
        from pg_extension e join pg_namespace n on n.oid = e.extnamespace`)) {
      add(`extension ${e.name}`, { schema: e.schema, version: e.version, comment: e.comment });
    }

    // tables, views, sequences, composite types
    const relations = await q<{ key: string; kind: string; relation: string } & Row>(`
      select c.oid::regclass::text as relation, c.relkind::text as kind,
             pg_get_userbyid(c.relowner) as owner, obj_description(c.oid, 'pg_class') as comment,
             c.relrowsecurity as rls, c.relforcerowsecurity as rls_forced,
             case c.relpersistence when 'u' then 'unlogged' when 't' then 'temporary' end as persistence,
             array_to_string(c.reloptions, ', ') as options,
             case c.relreplident when 'd' then null else c.relreplident::text end as replica_identity,
             case when c.relkind = 'p' then pg_get_partkeydef(c.oid) end as partition_key,
             case when c.relispartition then pg_get_expr(c.relpartbound, c.oid) end as partition_bound,
             case when c.relkind in ('v', 'm') then pg_get_viewdef(c.oid) end as definition
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where ${OWNED_SCHEMA} and c.relkind in ('r', 'p', 'v', 'm', 'f', 'S', 'c')
         and ${notExtensionMember('pg_class', 'c.oid')}`);
    const relationKey = new Map<string, string>();
    for (const r of relations) {
      const key = `${RELATION_KINDS[r.kind] ?? r.kind} ${r.relation}`;
      relationKey.set(r.relation, key);
      const { relation: _relation, kind, ...aspects } = r;
      if (kind === 'S' || kind === 'c') {
        add(key, { owner: aspects.owner, comment: aspects.comment });
      } else if (kind === 'v' || kind === 'm') {
        add(key, {
          owner: aspects.owner,
          comment: aspects.comment,
          options: aspects.options,
          definition: aspects.definition,
        });
      } else {
        add(key, { ...aspects, definition: undefined, partitioned: kind === 'p' ? 'yes' : undefined });
      }
    }

    for (const s of await q(`
      select s.seqrelid::regclass::text as relation, format_type(s.seqtypid, null) as type,
             s.seqstart::text as start, s.seqincrement::text as increment, s.seqmin::text as min,
             s.seqmax::text as max, s.seqcache::text as cache, s.seqcycle as cycle,
             (select d.refobjid::regclass::text || '.' || a.attname
                from pg_depend d join pg_attribute a on a.attrelid = d.refobjid and a.attnum = d.refobjsubid
               where d.classid = 'pg_class'::regclass and d.objid = s.seqrelid
                 and d.refclassid = 'pg_class'::regclass and d.deptype in ('a', 'i')) as owned_by
        from pg_sequence s`)) {
      const key = relationKey.get(String(s.relation));
      if (!key) continue;
      const entry = catalog[key]!;
      for (const [name, value] of Object.entries(s)) {
        if (name !== 'relation' && value !== null) entry.aspects[name] = String(value);
      }
    }

    for (const c of await q(`
      select c.oid::regclass::text as relation, a.attname as name,
             rank() over (partition by c.oid order by a.attnum)::int as position,
             format_type(a.atttypid, a.atttypmod) as type, a.attnotnull as not_null,
             case when a.attgenerated = '' then pg_get_expr(ad.adbin, ad.adrelid) end as default,
             case a.attidentity when 'a' then 'always' when 'd' then 'by default' end as identity,
             case when a.attgenerated <> '' then pg_get_expr(ad.adbin, ad.adrelid) end as generated,
             case when a.attcollation <> t.typcollation then co.collname end as collation,
             col_description(c.oid, a.attnum) as comment
        from pg_class c
        join pg_namespace n on n.oid = c.relnamespace
        join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
        join pg_type t on t.oid = a.atttypid
        left join pg_attrdef ad on ad.adrelid = c.oid and ad.adnum = a.attnum
        left join pg_collation co on co.oid = a.attcollation
       where ${OWNED_SCHEMA} and c.relkind in ('r', 'p', 'v', 'm', 'f', 'c')
         and ${notExtensionMember('pg_class', 'c.oid')}`)) {
      const { relation, name, ...aspects } = c;
      add(
        `column ${relation}.${name}`,
        { ...aspects, not_null: aspects.not_null ? 'yes' : undefined },
        relationKey.get(String(relation)),
      );
    }

    for (const g of await q(`
      select c.oid::regclass::text as relation, c.relkind::text as kind, a.*
        from pg_class c join pg_namespace n on n.oid = c.relnamespace,
             lateral (${aclRows(`coalesce(c.relacl, acldefault(case when c.relkind = 'S' then 's'::"char" else 'r'::"char" end, c.relowner))`)}) a
       where ${OWNED_SCHEMA} and c.relkind in ('r', 'p', 'v', 'm', 'f', 'S')
         and ${notExtensionMember('pg_class', 'c.oid')}`)) {
      const parent = relationKey.get(String(g.relation));
      add(
        `grant on ${RELATION_KINDS[String(g.kind)]} ${g.relation} to ${g.grantee}`,
        { privileges: g.privileges, grantor: g.grantor },
        parent,
      );
    }
    for (const g of await q(`
      select c.oid::regclass::text as relation, att.attname as column, a.*
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
        join pg_attribute att on att.attrelid = c.oid and att.attnum > 0 and not att.attisdropped and att.attacl is not null,
             lateral (${aclRows('att.attacl')}) a
       where ${OWNED_SCHEMA} and ${notExtensionMember('pg_class', 'c.oid')}`)) {
      add(
        `grant on column ${g.relation}.${g.column} to ${g.grantee}`,
        { privileges: g.privileges, grantor: g.grantor },
        `column ${g.relation}.${g.column}`,
      );
    }

    for (const c of await q(`
      select co.conname as name, coalesce(co.conrelid::regclass::text, co.contypid::regtype::text) as owner_object,
             case when co.contypid <> 0 then 'domain' end as on_domain,
             co.contype::text as type, pg_get_constraintdef(co.oid) as definition,
             obj_description(co.oid, 'pg_constraint') as comment
        from pg_constraint co join pg_namespace n on n.oid = co.connamespace
       where ${OWNED_SCHEMA} and ${notExtensionMember('pg_constraint', 'co.oid')}
         -- NOT NULL is the column's not_null aspect; PGlite also lists it here (contype 'n')
         and co.contype <> 'n'`)) {
      const on = c.on_domain ? `domain ${c.owner_object}` : String(c.owner_object);
      const parent = c.on_domain ? `domain ${c.owner_object}` : relationKey.get(String(c.owner_object));
      add(`constraint ${on}.${c.name}`, { definition: c.definition, comment: c.comment }, parent);
    }

    for (const i of await q(`
      select i.indexrelid::regclass::text as name, i.indrelid::regclass::text as relation,
             pg_get_indexdef(i.indexrelid) as definition, obj_description(i.indexrelid, 'pg_class') as comment
        from pg_index i join pg_class c on c.oid = i.indexrelid join pg_namespace n on n.oid = c.relnamespace
       where ${OWNED_SCHEMA} and ${notExtensionMember('pg_class', 'i.indrelid')}`)) {
      add(`index ${i.name}`, { definition: i.definition, comment: i.comment }, relationKey.get(String(i.relation)));
    }

    for (const p of await q(`
      select p.polrelid::regclass::text as relation, p.polname as name, p.polcmd::text as command,
             case when p.polpermissive then 'permissive' else 'restrictive' end as mode,
             (select string_agg(case when r = 0 then 'public' else pg_get_userbyid(r) end, ', ' order by 1)
                from unnest(p.polroles) r) as roles,
             pg_get_expr(p.polqual, p.polrelid) as using, pg_get_expr(p.polwithcheck, p.polrelid) as with_check,
             obj_description(p.oid, 'pg_policy') as comment
        from pg_policy p join pg_class c on c.oid = p.polrelid join pg_namespace n on n.oid = c.relnamespace
       where ${OWNED_SCHEMA}`)) {
      add(
        `policy ${p.relation}."${p.name}"`,
        {
          command: POLICY_COMMANDS[String(p.command)],
          mode: p.mode,
          roles: p.roles,
          using: p.using,
          with_check: p.with_check,
          comment: p.comment,
        },
        relationKey.get(String(p.relation)),
      );
    }

    for (const t of await q(`
      select t.tgrelid::regclass::text as relation, t.tgname as name, pg_get_triggerdef(t.oid) as definition,
             case t.tgenabled when 'O' then null when 'D' then 'disabled' when 'R' then 'replica' when 'A' then 'always' end as enabled,
             obj_description(t.oid, 'pg_trigger') as comment
        from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
       where not t.tgisinternal and ${OWNED_SCHEMA} and ${notExtensionMember('pg_class', 'c.oid')}`)) {
      add(
        `trigger ${t.relation}.${t.name}`,
        { definition: t.definition, enabled: t.enabled, comment: t.comment },
        relationKey.get(String(t.relation)),
      );
    }

    for (const r of await q(`
      select r.ev_class::regclass::text as relation, r.rulename as name, pg_get_ruledef(r.oid) as definition,
             obj_description(r.oid, 'pg_rewrite') as comment
        from pg_rewrite r join pg_class c on c.oid = r.ev_class join pg_namespace n on n.oid = c.relnamespace
       where r.rulename <> '_RETURN' and ${OWNED_SCHEMA}`)) {
      add(
        `rule ${r.relation}.${r.name}`,
        { definition: r.definition, comment: r.comment },
        relationKey.get(String(r.relation)),
      );
    }

    const functionKey = new Map<string, string>();
    for (const f of await q(`
      select p.oid::regprocedure::text as signature, p.prokind::text as kind,
             pg_get_function_arguments(p.oid) as arguments, pg_get_function_result(p.oid) as returns,
             l.lanname as language,
             case p.provolatile when 'i' then 'immutable' when 's' then 'stable' else 'volatile' end as volatility,
             case when p.proisstrict then 'yes' end as strict,
             case when p.prosecdef then 'yes' end as security_definer,
             case when p.proleakproof then 'yes' end as leakproof,
             case p.proparallel when 's' then 'safe' when 'r' then 'restricted' end as parallel,
             array_to_string(p.proconfig, ', ') as config,
             pg_get_userbyid(p.proowner) as owner,
             case when p.prosqlbody is not null then pg_get_function_sqlbody(p.oid) else p.prosrc end as body,
             obj_description(p.oid, 'pg_proc') as comment
        from pg_proc p join pg_namespace n on n.oid = p.pronamespace join pg_language l on l.oid = p.prolang
       where ${OWNED_SCHEMA} and ${notExtensionMember('pg_proc', 'p.oid')}`)) {
      const { signature, kind, body, ...aspects } = f;
      const key = `${FUNCTION_KINDS[String(kind)] ?? 'function'} ${signature}`;
      functionKey.set(String(signature), key);
      add(key, { ...aspects, body: body === null ? null : normalizeBody(String(body)) });
    }
    for (const g of await q(`
      select p.oid::regprocedure::text as signature, a.*
        from pg_proc p join pg_namespace n on n.oid = p.pronamespace,
             lateral (${aclRows(`coalesce(p.proacl, acldefault('f', p.proowner))`)}) a
       where ${OWNED_SCHEMA} and ${notExtensionMember('pg_proc', 'p.oid')}`)) {
      const parent = functionKey.get(String(g.signature));
      add(`grant on ${parent} to ${g.grantee}`, { privileges: g.privileges, grantor: g.grantor }, parent);
    }

    // enums, domains, ranges and composite types (a table's own row type and array types are not)
    for (const t of await q(`
      select t.oid::regtype::text as name, t.typtype::text as kind, pg_get_userbyid(t.typowner) as owner,
             obj_description(t.oid, 'pg_type') as comment,
             (select string_agg(quote_literal(e.enumlabel), ', ' order by e.enumsortorder) from pg_enum e where e.enumtypid = t.oid) as labels,
             case when t.typtype = 'd' then format_type(t.typbasetype, t.typtypmod) end as base_type,
             case when t.typtype = 'd' and t.typnotnull then 'yes' end as not_null,
             t.typdefault as default,
             (select format_type(r.rngsubtype, null) from pg_range r where r.rngtypid = t.oid) as subtype
        from pg_type t join pg_namespace n on n.oid = t.typnamespace
       where ${OWNED_SCHEMA} and t.typtype in ('e', 'd', 'r', 'c')
         and (t.typtype <> 'c' or (select c.relkind from pg_class c where c.oid = t.typrelid) = 'c')
         and ${notExtensionMember('pg_type', 't.oid')}`)) {
      const { name, kind, ...aspects } = t;
      const label = { e: 'enum', d: 'domain', r: 'range', c: 'type' }[String(kind)] ?? 'type';
      // a composite type is also a pg_class row: its owner and comment were read there
      if (kind === 'c') continue;
      add(`${label} ${name}`, aspects);
    }
    for (const g of await q(`
      select t.oid::regtype::text as name, t.typtype::text as kind, a.*
        from pg_type t join pg_namespace n on n.oid = t.typnamespace,
             lateral (${aclRows(`coalesce(t.typacl, acldefault('T', t.typowner))`)}) a
       where ${OWNED_SCHEMA} and t.typtype in ('e', 'd', 'r')
         and ${notExtensionMember('pg_type', 't.oid')}`)) {
      const label = { e: 'enum', d: 'domain', r: 'range' }[String(g.kind)];
      add(
        `grant on ${label} ${g.name} to ${g.grantee}`,
        { privileges: g.privileges, grantor: g.grantor },
        `${label} ${g.name}`,
      );
    }

    for (const d of await q(`
      select pg_get_userbyid(d.defaclrole) as role, n.nspname as schema, d.defaclobjtype::text as kind, a.*
        from pg_default_acl d left join pg_namespace n on n.oid = d.defaclnamespace,
             lateral (${aclRows('d.defaclacl')}) a`)) {
      const where = d.schema ? ` in schema ${d.schema}` : '';
      add(`default privileges of ${d.role}${where} on ${DEFAULT_ACL_KINDS[String(d.kind)]} to ${d.grantee}`, {
        privileges: d.privileges,
        grantor: d.grantor,
      });
    }

    for (const e of await q(`
      select e.evtname as name, e.evtevent as event, e.evtfoid::regprocedure::text as function,
             array_to_string(e.evttags, ', ') as tags, e.evtenabled::text as enabled,
             obj_description(e.oid, 'pg_event_trigger') as comment
        from pg_event_trigger e where ${notExtensionMember('pg_event_trigger', 'e.oid')}`)) {
      const { name, ...aspects } = e;
      add(`event trigger ${name}`, aspects);
    }

    const [cron] = await q<{ present: boolean }>(`select to_regclass('cron.job') is not null as present`);
    if (cron?.present) {
      for (const j of await q(`
        select coalesce(j.jobname, j.command) as name, j.schedule, j.command, j.database, j.username, j.active
          from cron.job j`)) {
        const { name, ...aspects } = j;
        add(`cron job ${name}`, aspects);
      }
    }

    for (const [relation, key] of relationKey) {
      if (!key.startsWith('table ')) continue;
      const columns = await q<{ name: string; default: string | null; primary_key: boolean }>(`
        select a.attname as name, pg_get_expr(ad.adbin, ad.adrelid) as default,
               coalesce(a.attnum = any(i.indkey), false) as primary_key
          from pg_attribute a
          left join pg_attrdef ad on ad.adrelid = a.attrelid and ad.adnum = a.attnum
          left join pg_index i on i.indrelid = a.attrelid and i.indisprimary
         where a.attrelid = '${relation.replaceAll("'", "''")}'::regclass and a.attnum > 0 and not a.attisdropped
         order by a.attnum`);
      const masked = columns.filter((c) => c.default && UNREPEATABLE_DEFAULT.test(c.default));
      const primaryKey = columns.filter((c) => c.primary_key);
      const row = masked.length
        ? `to_jsonb(t) || jsonb_build_object(${masked
            .map(
              (c) =>
                `'${c.name.replaceAll("'", "''")}', case when t.${quoteIdent(c.name)} is null then null else '(set by its default)' end`,
            )
            .join(', ')})`
        : 'to_jsonb(t)';
      const rowKey = primaryKey.length
        ? primaryKey
            .map((c) => `'${c.name.replaceAll("'", "''")}=' || coalesce(t.${quoteIdent(c.name)}::text, 'null')`)
            .join(` || ', ' || `)
        : `(${row})::text`;
      const rows = await q<{ key: string; row: string }>(
        `select ${rowKey} as key, jsonb_pretty(${row}) as row from ${relation} t`,
      );
      if (rows.length === 0) continue;
      const aspects: Record<string, string> = {};
      for (const r of rows) aspects[`row (${r.key})`] = r.row;
      add(`rows of ${relation}`, aspects, key);
    }
  });

  const sorted: Catalog = {};
  for (const key of Object.keys(catalog).sort()) {
    const entry = catalog[key]!;
    const aspects = Object.fromEntries(Object.entries(entry.aspects).sort(([a], [b]) => a.localeCompare(b)));
    sorted[key] = entry.parent ? { parent: entry.parent, aspects } : { aspects };
  }
  return sorted;
}

/**
 * What differs between catalogs `old` and `new`, in key order. An object only on one side is one
 * difference: what belongs to it (a dropped table's columns, grants and rows) is not listed again.
 */
export function diffCatalogs(old: Catalog, current: Catalog): CatalogDifference[] {
  const differences: CatalogDifference[] = [];
  const keys = [...new Set([...Object.keys(old), ...Object.keys(current)])].sort();
  const onlyIn = (catalog: Catalog, other: Catalog, key: string): boolean => {
    const parent = catalog[key]?.parent;
    return parent !== undefined && catalog[parent] !== undefined && other[parent] === undefined;
  };
  for (const key of keys) {
    const a = old[key];
    const b = current[key];
    if (!b) {
      if (!onlyIn(old, current, key)) differences.push({ key: `${key}: only in old`, old: describe(a!) });
      continue;
    }
    if (!a) {
      if (!onlyIn(current, old, key)) differences.push({ key: `${key}: only in new`, new: describe(b) });
      continue;
    }
    const aspects = [...new Set([...Object.keys(a.aspects), ...Object.keys(b.aspects)])].sort();
    for (const aspect of aspects) {
      if (a.aspects[aspect] !== b.aspects[aspect]) {
        differences.push({
          key: `${key}: ${aspect} differs`,
          old: a.aspects[aspect] ?? '(none)',
          new: b.aspects[aspect] ?? '(none)',
        });
      }
    }
  }
  return differences;
}

function describe(entry: CatalogEntry): string {
  return Object.entries(entry.aspects)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
}

/** A difference as a few lines for a test failure or a terminal; long texts from their first differing line. */
export function formatDifference(difference: CatalogDifference): string {
  const lines = [difference.key];
  let from = 0;
  const oldLines = difference.old?.split('\n') ?? [];
  const newLines = difference.new?.split('\n') ?? [];
  if (difference.old !== undefined && difference.new !== undefined && oldLines.length + newLines.length > 12) {
    while (from < oldLines.length && oldLines[from] === newLines[from]) from++;
    lines.push(`  first difference at line ${from + 1}:`);
  }
  const show = (label: string, text: string[]) => {
    if (text.length === 0) return;
    const excerpt = text.slice(Math.max(0, from - 2), Math.max(0, from - 2) + 8);
    const more = text.length > from + 6 ? ['...'] : [];
    lines.push(
      `  ${label}: ${[...excerpt, ...more].map((l) => (l.length > 300 ? `${l.slice(0, 300)}...` : l)).join('\n       ')}`,
    );
  };
  show('old', oldLines);
  show('new', newLines);
  return lines.join('\n');
}
