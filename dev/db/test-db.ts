// A fresh, fully migrated database for one test file or one test run.
// With TEST_DATABASE_URL (CI: the machine's PostgreSQL) each call creates a new database on that
// server and drops it on close; without it, an in-memory PGlite served on a free port.
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { connect, migrate } from './migrate.ts';
import { startPgliteServer } from './pglite-server.ts';

export interface TestDatabase {
  url: string;
  /** true when the database is PGlite: one session, clients must use one connection. */
  singleSession: boolean;
  close(): Promise<void>;
}

export async function createTestDatabase(options: { seed?: boolean; pglite?: boolean } = {}): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl && !options.pglite) {
    const name = `fb_test_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const sql = connect(url.toString());
    try {
      await migrate(sql, { seed: options.seed });
    } finally {
      await sql.end();
    }
    return {
      url: url.toString(),
      singleSession: false,
      async close() {
        await admin.unsafe(`drop database if exists ${name} with (force)`);
        await admin.end();
      },
    };
  }
  const server = await startPgliteServer({ port: 0 });
  const sql = connect(server.url, true);
  try {
    await migrate(sql, { seed: options.seed });
  } finally {
    await sql.end();
  }
  return { url: server.url, singleSession: true, close: () => server.stop() };
}
