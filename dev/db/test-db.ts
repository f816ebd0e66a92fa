// A fresh, fully migrated database for one test file or one test run.
// With TEST_DATABASE_URL (CI: the machine's PostgreSQL, as a superuser) each call creates a new
// database on that server and drops it on close; without it, an in-memory PGlite served on a free
// port.
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { migrate } from './migrate.ts';
import { startPgliteServer } from './pglite-server.ts';

export interface TestDatabase {
  /** As a superuser: platform work and test factories, which bypass every rule. */
  url: string;
  /** As fareback_owner, the non-superuser owner the migrations ran as and the api connects as. */
  ownerUrl: string;
  /** true when the database is PGlite: one session, clients must use one connection. */
  singleSession: boolean;
  close(): Promise<void>;
}

/**
 * `migrationsDir`: apply the migrations of this folder instead of supabase/migrations (a test of
 * how a later migration treats the data of an earlier schema migrates the rest itself).
 */
export async function createTestDatabase(
  options: { seed?: boolean; pglite?: boolean; migrationsDir?: string } = {},
): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl && !options.pglite) {
    const name = `fb_test_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const drop = async () => {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    };
    const migrated = await migrate(url.toString(), { seed: options.seed, dir: options.migrationsDir }).catch(
      async (error: unknown) => {
        await drop();
        throw error;
      },
    );
    return {
      url: url.toString(),
      ownerUrl: migrated.ownerUrl,
      singleSession: false,
      close: drop,
    };
  }
  const server = await startPgliteServer({ port: 0 });
  const migrated = await migrate(server.url, {
    seed: options.seed,
    dir: options.migrationsDir,
    singleSession: true,
  }).catch(async (error: unknown) => {
    await server.stop();
    throw error;
  });
  return { url: server.url, ownerUrl: migrated.ownerUrl, singleSession: true, close: () => server.stop() };
}
