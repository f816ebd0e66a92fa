// The migrator on a database built from a copy of the migrations, the copy then edited as a
// change before the first deploy edits an area's file: it notices a changed, a removed and an
// inserted file and applies nothing; asked to reset, it builds the database anew, the same as a
// fresh one; unchanged files apply nothing.
import { appendFile, cp, mkdtemp, readdir, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffCatalogs, dumpCatalog } from './catalog.ts';
import { migrate, migrationsDir, OutdatedDatabaseError } from './migrate.ts';
import { createTestDatabase, type TestDatabase } from './test-db.ts';

let dir = '';
let files: string[] = [];
let database: TestDatabase;
let sql: postgres.Sql;

const migrateCopy = (options: { reset?: boolean } = {}) =>
  migrate(database.url, { dir, singleSession: database.singleSession, ...options });

async function outdated(): Promise<OutdatedDatabaseError> {
  const error = await migrateCopy().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(OutdatedDatabaseError);
  return error as OutdatedDatabaseError;
}

const appliedCount = async () =>
  (await sql<[{ n: number }]>`select count(*)::int as n from supabase_migrations.schema_migrations`)[0].n;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'fareback-migrations-'));
  await cp(migrationsDir, dir, { recursive: true });
  files = (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
  database = await createTestDatabase({ migrationsDir: dir });
  sql = postgres(database.url, { max: 1, prepare: !database.singleSession, onnotice: () => {} });
});

afterAll(async () => {
  await sql?.end();
  await database?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the migrator and the files a database was built from', () => {
  it('records a checksum per applied file, and applies nothing when no file changed', async () => {
    const recorded = await sql<{ file: string; checksum: string }[]>`
      select file, checksum from supabase_migrations.local_file_checksums order by version`;
    expect(recorded.map((r) => r.file)).toEqual(files);
    expect(recorded.every((r) => /^[0-9a-f]{64}$/.test(r.checksum))).toBe(true);
    expect((await migrateCopy()).applied).toEqual([]);
  });

  it('notices an edited file and applies nothing', async () => {
    const edited = files[1]!;
    const before = await appliedCount();
    await appendFile(path.join(dir, edited), '\n-- edited, not appended to\n');
    const error = await outdated();
    expect(error.changed).toEqual([edited]);
    expect(error.message).toBe(`the database was built from older migration files (${edited} changed)`);
    expect(await appliedCount()).toBe(before);
  });

  it('notices a removed file and a file inserted before applied ones', async () => {
    const last = files.at(-1)!;
    await rename(path.join(dir, last), path.join(os.tmpdir(), `${path.basename(dir)}-${last}`));
    const inserted = `${BigInt(files[0]!.slice(0, 14)) + 1n}_inserted.sql`;
    await writeFile(path.join(dir, inserted), 'select 1;\n');
    const error = await outdated();
    expect(error.removed).toEqual([last]);
    expect(error.inserted).toEqual([inserted]);
    await rm(path.join(dir, inserted));
    await rename(path.join(os.tmpdir(), `${path.basename(dir)}-${last}`), path.join(dir, last));
  });

  it('applies a file appended after the applied ones', async () => {
    // the edited file of the test above is still edited: put it back first
    await cp(path.join(migrationsDir, files[1]!), path.join(dir, files[1]!));
    const appended = '29991231000000_appended.sql';
    await writeFile(path.join(dir, appended), 'create table private.appended (id int primary key);\n');
    expect((await migrateCopy()).applied).toEqual([appended]);
    await rm(path.join(dir, appended));
  });

  it('rebuilds on reset: every account gone, the schema the same as a fresh database, and then nothing to apply', async () => {
    // the appended file is gone, so the database is outdated again
    expect((await outdated()).removed).toEqual(['29991231000000_appended.sql']);
    await sql`insert into auth.users (id, email) values (gen_random_uuid(), 'kept@example.com')`;

    const rebuilt = await migrateCopy({ reset: true });
    expect(rebuilt.applied).toEqual(files);
    expect(await sql`select email from auth.users`).toEqual([]);
    expect(await sql`select to_regclass('private.appended') as t`).toEqual([{ t: null }]);

    const fresh = await createTestDatabase({ migrationsDir: dir });
    const freshSql = postgres(fresh.url, { max: 1, prepare: !fresh.singleSession, onnotice: () => {} });
    try {
      expect(diffCatalogs(await dumpCatalog(freshSql), await dumpCatalog(sql))).toEqual([]);
    } finally {
      await freshSql.end();
      await fresh.close();
    }
    expect((await migrateCopy()).applied).toEqual([]);
  });

  it('takes a database migrated before checksums were recorded as built from the files it stored', async () => {
    await sql`delete from supabase_migrations.local_file_checksums`;
    expect((await migrateCopy()).applied).toEqual([]);
    expect((await sql`select count(*)::int as n from supabase_migrations.local_file_checksums`)[0]!.n).toBe(
      files.length,
    );

    await sql`delete from supabase_migrations.local_file_checksums`;
    await appendFile(path.join(dir, files[0]!), '\n-- edited\n');
    expect((await outdated()).changed).toEqual([files[0]]);
    await cp(path.join(migrationsDir, files[0]!), path.join(dir, files[0]!));
  });
});
