// The schedule in migration 20261125110100_notification_schedule.sql on a PostgreSQL that has
// pg_cron loaded, as on Supabase: the migration schedules its jobs, and a scheduled SQL job runs.
// The machine's PostgreSQL on 5432 is shared and has no pg_cron preloaded (and must not be
// reconfigured), so this test starts a throwaway cluster of its own: initdb into a temporary
// folder, shared_preload_libraries = 'pg_cron', on a free port, stopped and removed afterwards.
// Needs Debian's postgresql-15-cron (.ci/run installs it); skipped, saying so, only where
// pg_cron's files are absent.
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../dev/db/migrate.ts';
import { createFlight, createUser } from './factories.ts';

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
if (found.reason) console.warn(`SKIPPED pg_cron schedule test: ${found.reason}`);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** initdb and postgres refuse to run as root: as root, run them as the postgres OS user. */
function asDbUser(command: string, args: string[]): void {
  const asRoot = process.getuid?.() === 0;
  const result = asRoot
    ? spawnSync('runuser', ['-u', 'postgres', '--', command, ...args], { encoding: 'utf8' })
    : spawnSync(command, args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr || result.stdout}`);
}

describe.skipIf(found.bin === null)('pg_cron schedule (a throwaway cluster with pg_cron loaded)', () => {
  const bin = found.bin ?? '';
  let dir = '';
  let url = '';
  let sql: postgres.Sql;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'fareback-pgcron-'));
    if (process.getuid?.() === 0) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres']).toString()), 0);
    const data = path.join(dir, 'data');
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
    url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    sql = postgres(url, { max: 1, onnotice: () => {} });
    // as on Supabase: the extension is enabled by the platform, and the project's owner role may
    // use it (Supabase grants its `postgres` role the same)
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
    await migrate(url);
  });

  afterAll(async () => {
    await sql?.end();
    if (dir) {
      try {
        asDbUser(path.join(bin, 'pg_ctl'), ['-D', path.join(dir, 'data'), '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });

  it('the migration scheduled the notification passes, and the scheduled SQL job runs', async () => {
    const jobs = await sql<{ jobid: number; jobname: string; schedule: string; command: string; username: string }[]>`
      select jobid::int, jobname, schedule, command, username from cron.job order by jobname`;
    expect(jobs).toEqual([
      {
        jobid: expect.any(Number),
        jobname: 'fareback-notification-passes',
        schedule: '*/5 * * * *',
        command: 'select private.run_notification_passes()',
        username: 'fareback_owner',
      },
    ]);
    // no pg_net here: the HTTP jobs are not scheduled (the migration warned so)

    // something for the passes to do: a credit expiring in 20 days
    const traveller = await createUser(sql);
    await sql`update public.profiles set email_confirmed_at = now() where id = ${traveller.id}`;
    const flightId = await createFlight(sql, traveller.id);
    await sql`update public.flights
                 set airline_credit = 9000, credit_expiry_date = current_date + 20, has_been_rebooked = true
               where id = ${flightId}`;

    // run it every minute (pg_cron 1.4's finest schedule) and wait for a run to be recorded
    await sql`select cron.alter_job(${jobs[0]!.jobid}, schedule := '* * * * *')`;
    const deadline = Date.now() + 130_000;
    let runs: { status: string; return_message: string }[] = [];
    while (Date.now() < deadline) {
      runs = await sql<{ status: string; return_message: string }[]>`
        select status, return_message from cron.job_run_details
         where jobid = ${jobs[0]!.jobid} and status in ('succeeded', 'failed')`;
      if (runs.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    expect(runs[0]).toEqual({ status: 'succeeded', return_message: 'SELECT 1' });
    const reminders = await sql<{ type: string; status: string }[]>`
      select n.type, n.status from public.notification_history n where n.user_id = ${traveller.id}`;
    expect(reminders).toEqual([{ type: 'credit_expiring', status: 'pending' }]);
    const [delivery] = await sql<{ kind: string }[]>`
      select j.kind from public.jobs j
       where j.payload ->> 'notificationId' = (select n.id::text from public.notification_history n where n.user_id = ${traveller.id})`;
    expect(delivery).toEqual({ kind: 'notification_email' });
  }, 150_000);
});
