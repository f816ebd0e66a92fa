// Applies dev/platform.sql, then every supabase/migrations/*.sql not yet recorded, in file-name
// order, each in its own transaction, recording it in supabase_migrations.schema_migrations the way
// the Supabase CLI does (version = the timestamp prefix). Then, optionally, supabase/seed.sql.
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
}

export async function migrate(
  sql: postgres.Sql,
  options: { seed?: boolean; dir?: string } = {},
): Promise<MigrateResult> {
  await sql.unsafe(await readFile(platformFile, 'utf8')).simple();
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
    console.error('DATABASE_URL is not set. `npm start` migrates the local database by itself.');
    process.exit(1);
  }
  const sql = connect(url);
  migrate(sql, { seed: process.argv.includes('--seed') })
    .then((r) => console.log(`applied ${r.applied.length} migration(s)${r.seeded ? ', seeded' : ''}`))
    .catch((e: Error) => {
      console.error(e.message);
      process.exitCode = 1;
    })
    .finally(() => sql.end());
}
