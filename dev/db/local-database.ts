// The local stack's database, migrated and seeded: PGlite served on a port (persisted in a state
// folder, or in memory), or the external PostgreSQL DATABASE_URL names.
//
// A database built from migration files that have changed since (migrate.ts,
// OutdatedDatabaseError) is rebuilt from the migrations and the seed, as `supabase db reset`
// would, and the reason is returned for the stack to say in one line:
//   * PGlite's state folder is the stack's own: its pgdata is deleted and created anew.
//   * An external database may hold what nobody wants lost, so it is never dropped unasked: the
//     error goes back to the caller (npm start says how to rebuild it) unless `reset` is given,
//     and then reset-database.ts empties it first.
// `reset` rebuilds either on demand (`npm start -- --reset`). A rebuilt database has no accounts
// but what the seed and the stack's demo accounts add.
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { migrate, OutdatedDatabaseError, type MigrateResult } from './migrate.ts';
import { startPgliteServer, type PgliteServer } from './pglite-server.ts';

const ON_REQUEST = 'on request (--reset)';

export interface LocalDatabaseOptions {
  /** An external PostgreSQL, as a superuser; without it, PGlite. */
  databaseUrl?: string;
  /** PGlite's data folder; without it, an in-memory PGlite. */
  dataDir?: string;
  /** PGlite's port; 0 = any free port. */
  port: number;
  seed: boolean;
  /** Rebuild from the migrations and the seed whether or not the files changed. */
  reset?: boolean;
  /** The migrations folder; supabase/migrations by default. */
  migrationsDir?: string;
}

export interface LocalDatabase {
  /** As a superuser. */
  url: string;
  /** As the role the migrations ran as (fareback_owner). */
  ownerUrl: string;
  singleSession: boolean;
  /** Why the database was rebuilt, as "on request (--reset)" or "because ... changed", or null. */
  rebuilt: string | null;
  stop(): Promise<void>;
}

export async function openLocalDatabase(options: LocalDatabaseOptions): Promise<LocalDatabase> {
  const migrateOptions = { seed: options.seed, ...(options.migrationsDir ? { dir: options.migrationsDir } : {}) };
  if (options.databaseUrl) {
    // OutdatedDatabaseError goes to the caller: an external database is rebuilt only on request
    const migrated = await migrate(options.databaseUrl, { ...migrateOptions, reset: options.reset ?? false });
    return opened(options.databaseUrl, migrated, false, options.reset ? ON_REQUEST : null, async () => {});
  }

  const { dataDir } = options;
  let rebuilt: string | null = null;
  if (options.reset && dataDir && existsSync(dataDir)) {
    await rm(dataDir, { recursive: true, force: true });
    rebuilt = ON_REQUEST;
  }
  const start = () => startPgliteServer({ port: options.port, ...(dataDir ? { dataDir } : {}) });
  let server: PgliteServer | null = await start();
  try {
    let migrated: MigrateResult;
    try {
      migrated = await migrate(server.url, { ...migrateOptions, singleSession: true });
    } catch (error) {
      if (!(error instanceof OutdatedDatabaseError) || !dataDir) throw error;
      rebuilt = `because its migration files changed (${error.summary})`;
      const outdated = server;
      server = null;
      await outdated.stop();
      await rm(dataDir, { recursive: true, force: true });
      server = await start();
      migrated = await migrate(server.url, { ...migrateOptions, singleSession: true });
    }
    const running = server;
    return opened(running.url, migrated, true, rebuilt, () => running.stop());
  } catch (error) {
    await server?.stop();
    throw error;
  }
}

function opened(
  url: string,
  migrated: MigrateResult,
  singleSession: boolean,
  rebuilt: string | null,
  stop: () => Promise<void>,
): LocalDatabase {
  return { url, ownerUrl: migrated.ownerUrl, singleSession, rebuilt, stop };
}
