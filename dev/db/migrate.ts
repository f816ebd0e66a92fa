// Applies dev/platform.sql, then every supabase/migrations/*.sql not yet recorded, in file-name
// order, each in its own transaction, recording it in supabase_migrations.schema_migrations the way
// the Supabase CLI does (version = the timestamp prefix). Then, optionally, supabase/seed.sql.
// platform.sql needs a superuser (it creates roles); the migrations and the seed then run as
// fareback_owner, as they run as the non-superuser `postgres` on Supabase, so they own what they
// create and a statement only a superuser may run fails here rather than on deploy.
//
// Until the first deploy a migration file is edited, not appended to (README, "Changing the schema
// before the first deploy"). So the migrator also records each applied file's sha256 (its own table,
// supabase_migrations.local_file_checksums) and refuses, with OutdatedDatabaseError, a database
// built from files that have changed since: one whose applied file now reads differently, whose
// applied file is gone, or that lacks a file sorting before ones it has. Such a database is
// rebuilt, not patched: `reset` drops what the platform file and the migrations made first
// (reset-database.ts), as `supabase db reset` does; dev/db/local-database.ts decides when.
// Run directly (`npm run db:migrate [-- --seed] [-- --reset]`) it migrates DATABASE_URL.
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { resetDatabase, resetScope } from './reset-database.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const migrationsDir = path.join(root, 'supabase/migrations');
export const platformFile = path.join(root, 'dev/platform.sql');
export const seedFile = path.join(root, 'supabase/seed.sql');

export interface MigrateOptions {
  seed?: boolean;
  /** The migrations folder; supabase/migrations by default. */
  dir?: string;
  /** The server is PGlite (see connect()). */
  singleSession?: boolean;
  /** Drop what the platform file and the migrations made first, and build the database anew. */
  reset?: boolean;
}

/**
 * The database was built from migration files that have changed since; the message says which,
 * in one line. Nothing was applied.
 */
export class OutdatedDatabaseError extends Error {
  constructor(
    readonly changed: string[],
    readonly removed: string[],
    readonly inserted: string[],
  ) {
    const parts = [
      ...changed.map((f) => `${f} changed`),
      ...removed.map((f) => `${f} removed`),
      ...inserted.map((f) => `${f} added before migrations already applied`),
    ];
    const shown = parts.length > 4 ? [...parts.slice(0, 3), `${parts.length - 3} more`] : parts;
    super(`the database was built from older migration files (${shown.join(', ')})`);
    this.name = 'OutdatedDatabaseError';
    this.summary = shown.join(', ');
  }

  /** What changed, for a message of one's own: "20261122000200_profiles.sql changed, ...". */
  readonly summary: string;
}

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
 * Throws OutdatedDatabaseError, having applied nothing, when the database was built from files
 * that have changed since (unless `reset`).
 */
export async function migrate(url: string, options: MigrateOptions = {}): Promise<MigrateResult> {
  const admin = connect(url, options.singleSession);
  let ownerExists: boolean;
  try {
    if (options.reset) await resetDatabase(admin);
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

interface MigrationFile {
  file: string;
  version: string;
  name: string;
  text: string;
  checksum: string;
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

async function readMigrations(dir: string): Promise<MigrationFile[]> {
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => /^\d{14}_.+\.sql$/.test(f)).sort();
  return Promise.all(
    files.map(async (file) => {
      const text = await readFile(path.join(dir, file), 'utf8');
      return { file, version: file.slice(0, 14), name: file.slice(15, -4), text, checksum: sha256(text) };
    }),
  );
}

async function applyMigrations(
  sql: postgres.Sql,
  options: { seed?: boolean; dir?: string },
): Promise<Omit<MigrateResult, 'ownerUrl'>> {
  const files = await readMigrations(options.dir ?? migrationsDir);
  const recorded = await sql<
    { version: string; name: string | null; statements: string[] | null; checksum: string | null }[]
  >`
    select m.version, m.name, m.statements, c.checksum
      from supabase_migrations.schema_migrations m
      left join supabase_migrations.local_file_checksums c on c.version = m.version
     order by m.version`;
  const byVersion = new Map(files.map((f) => [f.version, f]));
  const changed: string[] = [];
  const removed: string[] = [];
  /** Applied before checksums were recorded, with the text of the file as it is now. */
  const unrecorded: MigrationFile[] = [];
  for (const row of recorded) {
    const file = byVersion.get(row.version);
    if (!file) {
      removed.push(`${row.version}_${row.name ?? ''}.sql`);
      continue;
    }
    // this migrator stored each file's text as its one statement
    const checksum = row.checksum ?? (row.statements?.length === 1 ? sha256(row.statements[0]!) : null);
    if (checksum !== file.checksum) changed.push(file.file);
    else if (row.checksum === null) unrecorded.push(file);
  }
  const done = new Set(recorded.map((r) => r.version));
  const newest = recorded.at(-1)?.version ?? '';
  const pending = files.filter((f) => !done.has(f.version));
  const inserted = pending.filter((f) => f.version < newest).map((f) => f.file);
  if (changed.length + removed.length + inserted.length > 0) {
    throw new OutdatedDatabaseError(changed, removed, inserted);
  }
  for (const file of unrecorded) {
    await sql`insert into supabase_migrations.local_file_checksums (version, file, checksum)
              values (${file.version}, ${file.file}, ${file.checksum})`;
  }

  const applied: string[] = [];
  for (const file of pending) {
    await sql.begin(async (tx) => {
      try {
        await tx.unsafe(file.text).simple();
      } catch (error) {
        throw new Error(`migration ${file.file} failed: ${(error as Error).message}`, { cause: error });
      }
      await tx`insert into supabase_migrations.schema_migrations (version, name, statements)
               values (${file.version}, ${file.name}, ${[file.text]})`;
      await tx`insert into supabase_migrations.local_file_checksums (version, file, checksum)
               values (${file.version}, ${file.file}, ${file.checksum})`;
    });
    applied.push(file.file);
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
  const reset = process.argv.includes('--reset');
  migrate(url, { seed: process.argv.includes('--seed'), reset })
    .then((r) =>
      console.log(`${reset ? 'rebuilt: ' : ''}applied ${r.applied.length} migration(s)${r.seeded ? ', seeded' : ''}`),
    )
    .catch((e: Error) => {
      console.error(
        e instanceof OutdatedDatabaseError
          ? `DATABASE_URL: ${e.message}. Rebuild it with \`npm run db:migrate -- --reset\` (it drops ${resetScope}).`
          : e.message,
      );
      process.exitCode = 1;
    });
}
