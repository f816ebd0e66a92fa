// A throwaway PostgreSQL cluster with pg_cron loaded, as on Supabase. The machine's PostgreSQL on
// 5432 is shared and has no pg_cron preloaded (and must not be reconfigured), so a test that needs
// pg_cron starts one of its own: initdb into a temporary folder, shared_preload_libraries =
// 'pg_cron', on a free port, stopped and removed by stop(). Needs Debian's postgresql-<version>-cron
// (.ci/run installs it); pgCronMissing says why, where pg_cron's files are absent.
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { freePort } from '../../dev/stack.ts';

/** The newest PostgreSQL whose bin and extension folders carry initdb and pg_cron. */
function findPostgres(): { bin: string; reason: null } | { bin: null; reason: string } {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const version of versions) {
    const bin = path.join(root, version, 'bin');
    const hasCron =
      existsSync(path.join(root, version, 'lib', 'pg_cron.so')) &&
      existsSync(`/usr/share/postgresql/${version}/extension/pg_cron.control`);
    if (existsSync(path.join(bin, 'initdb')) && hasCron) return { bin, reason: null };
  }
  return {
    bin: null,
    reason: `pg_cron is not installed (no ${root}/<version>/lib/pg_cron.so): install Debian's postgresql-<version>-cron, as .ci/run does`,
  };
}

const found = findPostgres();

/** Why no pg_cron cluster can start here, or null when one can. */
export const pgCronMissing: string | null = found.reason;

/** initdb and postgres refuse to run as root: as root, run them as the postgres OS user. */
function asDbUser(command: string, args: string[]): void {
  const asRoot = process.getuid?.() === 0;
  const result = asRoot
    ? spawnSync('runuser', ['-u', 'postgres', '--', command, ...args], { encoding: 'utf8' })
    : spawnSync(command, args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr || result.stdout}`);
}

export interface PgCronCluster {
  /** The `postgres` database (pg_cron's), as the superuser postgres. */
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts a cluster with pg_cron loaded and the extension created in its `postgres` database, as
 * Supabase's platform does, with the rights on it Supabase gives its `postgres` role granted to
 * fareback_owner. Nothing is migrated yet.
 */
export async function startPgCronCluster(): Promise<PgCronCluster> {
  if (found.bin === null) throw new Error(found.reason);
  const bin = found.bin;
  const dir = mkdtempSync(path.join(tmpdir(), 'fareback-pgcron-'));
  const data = path.join(dir, 'data');
  const stop = async () => {
    try {
      if (existsSync(path.join(data, 'postmaster.pid'))) {
        asDbUser(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  try {
    if (process.getuid?.() === 0) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres']).toString()), 0);
    const port = await freePort();
    asDbUser(path.join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
    const options = [
      `-p ${port}`,
      "-c listen_addresses='127.0.0.1'",
      `-c unix_socket_directories='${dir}'`,
      "-c shared_preload_libraries='pg_cron'",
      "-c cron.database_name='postgres'",
      '-c cron.use_background_workers=on',
      '-c max_worker_processes=16',
      '-c fsync=off',
    ].join(' ');
    asDbUser(path.join(bin, 'pg_ctl'), ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', 'start']);
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    try {
      await sql`create extension pg_cron`;
      await sql.unsafe(`
        do $$ begin
          if not exists (select 1 from pg_roles where rolname = 'fareback_owner') then
            create role fareback_owner login nosuperuser;
          end if;
        end $$;
        grant usage on schema cron to fareback_owner;
        grant select, update, delete on cron.job to fareback_owner;
        grant select on cron.job_run_details to fareback_owner;`);
    } finally {
      await sql.end();
    }
    return { url, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
