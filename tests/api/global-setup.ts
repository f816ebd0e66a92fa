// One full local stack for every HTTP API test: gateway, auth server, the `api` function under
// Deno, the mail catcher and a throwaway database. With TEST_DATABASE_URL (CI) the database is a
// fresh one on that server (createTestDatabase); without it, the stack's own PGlite in a
// temporary directory, so the function and auth server run in single-session mode as `npm start`
// does. The state directory also holds the stack's signing key, which the token tests read to
// mint expired tokens.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { createTestDatabase, type TestDatabase } from '../../dev/db/test-db.ts';
import { anyFreePorts, startStack } from '../../dev/stack.ts';

export interface StackInfo {
  url: string;
  apiUrl: string;
  authUrl: string;
  mailUrl: string;
  /** As a superuser: what tests use to arrange and check rows. */
  databaseUrl: string;
  /** As fareback_owner, the non-superuser the api function connects as. */
  apiDatabaseUrl: string;
  singleSession: boolean;
  anonKey: string;
  /** Private JWK the auth server signs access tokens with. */
  signingKeyPath: string;
  logDir: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    stack: StackInfo;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const stateDir = await mkdtemp(path.join(os.tmpdir(), 'fareback-api-tests-'));
  let database: TestDatabase | undefined;
  if (process.env.TEST_DATABASE_URL) database = await createTestDatabase({ seed: true });
  const stack = await startStack({
    ...(database ? { databaseUrl: database.url } : {}),
    stateDir,
    ports: anyFreePorts,
    seed: true,
    // a scheduled sweep would re-price other test files' flights mid-test
    ticker: false,
    apiEnv: {
      // tests check one flight several times in a row; the per-flight interval has its own suite
      // (flights-security.test.ts, on a stack with the defaults)
      PRICE_CHECK_MIN_INTERVAL_SECONDS: '0',
      // the tests play a trusted proxy in front of the gateway: the X-Forwarded-For entry they
      // write (RequestOptions.ip) is the client's address, and the gateway appends its peer's
      TRUSTED_PROXY_HOPS: '2',
    },
  }).catch(async (error: unknown) => {
    await database?.close();
    throw error;
  });

  project.provide('stack', {
    url: stack.url,
    apiUrl: stack.apiUrl,
    authUrl: stack.authUrl,
    mailUrl: stack.mailUrl,
    databaseUrl: stack.databaseUrl,
    apiDatabaseUrl: stack.apiDatabaseUrl,
    singleSession: stack.singleSession,
    anonKey: stack.anonKey,
    signingKeyPath: path.join(stateDir, 'auth-key.json'),
    logDir: stack.logDir,
  });

  return async () => {
    await stack.stop();
    await database?.close();
    await rm(stateDir, { recursive: true, force: true });
  };
}
