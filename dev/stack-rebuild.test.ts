// Before the first deploy a migration file is edited, not appended to: the local stack notices
// that its database was built from an older version of a file and rebuilds it from the migrations
// and the seed, as `supabase db reset` would, saying so in one line; `npm start -- --reset` does
// the same on demand. The stack runs here on a copy of the migrations, which the test edits.
// PGlite in a state folder is what `npm start` runs, so that is the path tested end to end; an
// external DATABASE_URL database is never dropped unasked.
import { appendFile, cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openLocalDatabase } from './db/local-database.ts';
import { migrationsDir } from './db/migrate.ts';
import { createTestDatabase } from './db/test-db.ts';
import { anyFreePorts, demoAccounts, StackStartError, startStack, type Stack } from './stack.ts';

const REBUILT =
  /^Rebuilt the local database from the migrations and the seed (.+): accounts and data other than the seed's and the demo accounts are gone\.$/;

let dir = '';
let edited = '';
let stateDir = '';
let stack: Stack | null = null;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'fareback-migrations-'));
  await cp(migrationsDir, dir, { recursive: true });
  edited = (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort()[2]!;
  stateDir = await mkdtemp(path.join(os.tmpdir(), 'fareback-rebuild-'));
});

afterAll(async () => {
  await stack?.stop();
  vi.restoreAllMocks();
  for (const folder of [dir, stateDir]) if (folder) await rm(folder, { recursive: true, force: true });
}, 60_000);

/** Starts the stack on the state folder and the migrations copy; returns what it said about a rebuild. */
async function start(options: { reset?: boolean } = {}): Promise<string[]> {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  try {
    stack = await startStack({
      stateDir,
      ports: anyFreePorts,
      seed: true,
      demoAccounts: true,
      ticker: false,
      migrationsDir: dir,
      ...options,
    });
    return warn.mock.calls.map((call) => String(call[0])).filter((line) => line.startsWith('Rebuilt'));
  } finally {
    warn.mockRestore();
  }
}

async function stop(): Promise<void> {
  await stack!.stop();
  stack = null;
}

async function register(username: string): Promise<{ username: string; password: string }> {
  const account = { username, email: `${username}@example.com`, password: 'Rebuild@2027me' };
  const res = await fetch(`${stack!.apiUrl}/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(account),
  });
  expect(res.status).toBe(201);
  return account;
}

async function login(account: { username: string; password: string }): Promise<number> {
  const res = await fetch(`${stack!.apiUrl}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: account.username, password: account.password }),
  });
  await res.body?.cancel();
  return res.status;
}

const admin = demoAccounts.find((a) => a.isAdmin)!;

describe('the local database follows the migration files', () => {
  it('is rebuilt when a file it was built from changed, kept when none did, and rebuilt on --reset', async () => {
    expect(await start()).toEqual([]);
    const before = await register('beforeedit');
    await stop();

    await appendFile(path.join(dir, edited), '\n-- edited, not appended to\n');
    const said = await start();
    expect(said).toHaveLength(1);
    expect(REBUILT.exec(said[0]!)?.[1]).toBe(`because its migration files changed (${edited} changed)`);
    expect(await login(before)).toBe(401);
    expect(await login(admin)).toBe(200);
    const after = await register('afteredit');
    await stop();

    // unchanged files: the database and its accounts stay
    expect(await start()).toEqual([]);
    expect(await login(after)).toBe(200);
    await stop();

    const reset = await start({ reset: true });
    expect(reset).toHaveLength(1);
    expect(REBUILT.exec(reset[0]!)?.[1]).toBe('on request (--reset)');
    expect(await login(after)).toBe(401);
    expect(await login(admin)).toBe(200);
    await stop();
  }, 600_000);

  it.skipIf(process.env.TEST_DATABASE_URL === undefined)(
    'refuses an outdated DATABASE_URL database, saying how to rebuild it, and rebuilds it on --reset',
    async () => {
      // built from the migrations as they are; then a copy of them, one file edited
      const external = await createTestDatabase();
      const copy = await mkdtemp(path.join(os.tmpdir(), 'fareback-migrations-'));
      await cp(migrationsDir, copy, { recursive: true });
      await appendFile(path.join(copy, edited), '\n-- edited, not appended to\n');
      try {
        await expect(
          startStack({ databaseUrl: external.url, ports: anyFreePorts, ticker: false, migrationsDir: copy }),
        ).rejects.toThrow(
          new StackStartError(
            `DATABASE_URL: the database was built from older migration files (${edited} changed). ` +
              'npm start does not drop an external database unasked: `npm start -- --reset` rebuilds it ' +
              '(dropping its schemas public, auth, extensions and supabase_migrations and those fareback_owner owns, with every row in them), or point DATABASE_URL at an empty database.',
          ),
        );
        const rebuilt = await openLocalDatabase({
          databaseUrl: external.url,
          port: 0,
          seed: true,
          reset: true,
          migrationsDir: copy,
        });
        expect(rebuilt.rebuilt).toBe('on request (--reset)');
        await rebuilt.stop();
        // now built from the edited file: nothing to rebuild
        const again = await openLocalDatabase({ databaseUrl: external.url, port: 0, seed: true, migrationsDir: copy });
        expect(again.rebuilt).toBeNull();
        await again.stop();
      } finally {
        await external.close();
        await rm(copy, { recursive: true, force: true });
      }
    },
    120_000,
  );
});
