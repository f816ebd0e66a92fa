// Applies dev/platform.sql, then every supabase/migrations/*.sql not yet recorded, in file-name
// order, each in its own transaction, recording it in supabase_migrations.schema_migrations the way
// the Supabase CLI does (version = the timestamp prefix). Then, optionally, supabase/seed.sql.
// platform.sql needs a superuser (it creates roles); the migrations and the seed then run as
// fareback_owner, as they run as the non-superuser `postgres` on Supabase, so they own what they
// create and a statement only a superuser may run fails here rather than on deploy.
// Run directly (`npm run db:migrate`) it migrates DATABASE_URL.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const migrationsDir = path.join(root, 'supabase/migrations');
export const platformFile = path.join(root, 'dev/platform.sql');
export const seedFile = path.join(root, 'supabase/seed.sql');

export interface MigrateResult {
  applied: string[];
  seeded: boolean;
  /** What the migrations ran as: fareback_owner, or on a Supabase database `url` itself. */
  ownerUrl: string;
}

/** The role that stands in for Supabase's `postgres` (dev/platform.sql creates it). */
export const OWNER_ROLE = 'fareback_owner';

/**
 * The same server and database as `url`, as fareback_owner. The role has no password: the
 * server must let it in without one (trust on 127.0.0.1, as CI does; PGlite asks for none), or
 * be given one with `alter role fareback_owner password ...` equal to the one in `url`, which is
 * kept.
 */
export function ownerUrl(url: string): string {
  const owner = new URL(url);
  owner.username = OWNER_ROLE;
  return owner.toString();
}

/**
 * Migrates the database at `url`, which must name a superuser (platform.sql creates roles).
 * `singleSession`: the server is PGlite (see connect()).
 */
export async function migrate(
  url: string,
  options: { seed?: boolean; dir?: string; singleSession?: boolean } = {},
): Promise<MigrateResult> {
  const admin = connect(url, options.singleSession);
  let ownerExists: boolean;
  try {
    await admin.unsafe(await readFile(platformFile, 'utf8')).simple();
    [{ ownerExists }] = await admin<[{ ownerExists: boolean }]>`
      select exists (select 1 from pg_roles where rolname = ${OWNER_ROLE}) as "ownerExists"`;
  } finally {
    await admin.end();
  }
  // Without fareback_owner the database is Supabase's, where `url` names postgres itself.
  const migrationsUrl = ownerExists ? ownerUrl(url) : url;
  const sql = connect(migrationsUrl, options.singleSession);
  try {
    return { ...(await applyMigrations(sql, options)), ownerUrl: migrationsUrl };
  } finally {
    await sql.end();
  }
}

async function applyMigrations(
  sql: postgres.Sql,
  options: { seed?: boolean; dir?: string },
): Promise<Omit<MigrateResult, 'ownerUrl'>> {
  const dir = options.dir ?? migrationsDir;
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => /^\d{14}_.+\.sql$/.test(f)).sort();
  const done = new Set(
    (await sql<{ version: string }[]>`select version from supabase_migrations.schema_migrations`).map((r) => r.version),
  );
  const applied: string[] = [];
  for (const file of files) {
    const version = file.slice(0, 14);
    if (done.has(version)) continue;
    const text = await readFile(path.join(dir, file), 'utf8');
    const name = file.slice(15, -4);
    await sql.begin(async (tx) => {
      try {
        await tx.unsafe(text).simple();
      } catch (error) {
        throw new Error(`migration ${file} failed: ${(error as Error).message}`, { cause: error });
      }
      await tx`insert into supabase_migrations.schema_migrations (version, name, statements)
               values (${version}, ${name}, ${[text]})`;
    });
    applied.push(file);
  }
  let seeded = false;
  if (options.seed) {
    const seed = await readFile(seedFile, 'utf8').catch(() => null);
    if (seed) {
      await sql.unsafe(seed).simple();
      seeded = true;
    }
  }
  return { applied, seeded };
}

/** postgres.js options for a URL: PGlite behind a socket is a single session, see pglite-server.ts. */
export function connect(url: string, singleSession = false): postgres.Sql {
  return postgres(url, {
    max: singleSession ? 1 : 5,
    prepare: !singleSession,
    onnotice: () => {},
    connection: { application_name: 'fareback-dev' },
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error('DATABASE_URL (a superuser) is not set. `npm start` migrates the local database by itself.');
    process.exit(1);
  }
  migrate(url, { seed: process.argv.includes('--seed') })
    .then((r) => console.log(`applied ${r.applied.length} migration(s)${r.seeded ? ', seeded' : ''}`))
    .catch((e: Error) => {
      console.error(e.message);
      process.exitCode = 1;
    });
}
