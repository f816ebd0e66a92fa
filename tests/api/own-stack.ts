// A stack of a test file's own, for suites that cannot share the common one: a sweep re-prices
// every due flight in its database, and some suites need other api settings (the default traveller
// limits, another fare source). Its database is a fresh one on TEST_DATABASE_URL's server when set
// (as global-setup.ts does), else the stack's own PGlite; `sql` is a superuser connection to it for
// arranging and asserting.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { inject } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../dev/db/test-db.ts';
import { anyFreePorts, startStack, type Stack } from '../../dev/stack.ts';
import { apiClient, type ApiClient } from './client.ts';

export interface OwnStack {
  stack: Stack;
  api: ApiClient;
  sql: postgres.Sql;
  stop(): Promise<void>;
}

export async function startOwnStack(
  name: string,
  options: { apiEnv?: Record<string, string>; connections?: number } = {},
): Promise<OwnStack> {
  const stateDir = await mkdtemp(path.join(os.tmpdir(), `fareback-${name}-tests-`));
  let database: TestDatabase | undefined;
  let stack: Stack | undefined;
  try {
    if (process.env.TEST_DATABASE_URL) database = await createTestDatabase({ seed: true });
    stack = await startStack({
      ...(database ? { databaseUrl: database.url } : {}),
      stateDir,
      ports: anyFreePorts,
      seed: true,
      // a scheduled sweep would re-price the flights a test is asserting on
      ticker: false,
      ...(options.apiEnv ? { apiEnv: options.apiEnv } : {}),
    });
  } catch (error) {
    await database?.close();
    await rm(stateDir, { recursive: true, force: true });
    throw error;
  }
  const started = stack;
  const sql = postgres(started.databaseUrl, {
    max: started.singleSession ? 1 : (options.connections ?? 1),
    prepare: !started.singleSession,
    onnotice: () => {},
  });
  return {
    stack: started,
    api: apiClient({ ...inject('stack'), apiUrl: started.apiUrl, databaseUrl: started.databaseUrl }),
    sql,
    async stop() {
      await sql.end({ timeout: 5 });
      await started.stop();
      await database?.close();
      await rm(stateDir, { recursive: true, force: true });
    },
  };
}
