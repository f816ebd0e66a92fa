// The schedule (migration 20261129200000_one_scheduler.sql) on a PostgreSQL that has pg_cron
// loaded, as on Supabase: the only cron job is fareback-jobs, every minute, and when it runs it
// calls POST <project>/functions/v1/api/internal/jobs through private.request_job_run(), with the
// project URL and the CRON_SECRET from Vault. pg_net and Vault are Supabase's, not Debian's: here
// a stand-in net.http_post records each request it is given, and vault.decrypted_secrets is a
// table, both made before the migrations run (as on Supabase, where they exist beforehand).
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
      grant select on cron.job_run_details to fareback_owner;

      create schema net;
      create table net.requests (
        id bigint generated always as identity primary key,
        url text, body jsonb, params jsonb, headers jsonb, timeout_milliseconds integer);
      -- pg_net's signature: queues the request and answers its id (security definer, as Supabase makes it)
      create function net.http_post(url text, body jsonb default '{}'::jsonb, params jsonb default '{}'::jsonb,
                                    headers jsonb default '{}'::jsonb, timeout_milliseconds integer default 5000)
      returns bigint language sql security definer set search_path = '' as $f$
        insert into net.requests (url, body, params, headers, timeout_milliseconds)
        values (url, body, params, headers, timeout_milliseconds) returning id
      $f$;
      grant usage on schema net to fareback_owner;
      grant execute on function net.http_post(text, jsonb, jsonb, jsonb, integer) to fareback_owner;

      create schema vault;
      create table vault.decrypted_secrets (name text primary key, decrypted_secret text not null);
      insert into vault.decrypted_secrets values
        ('fareback_project_url', 'https://project-ref.supabase.test/'),
        ('fareback_cron_secret', 'the-cron-secret');
      grant usage on schema vault to fareback_owner;
      grant select on vault.decrypted_secrets to fareback_owner;`);
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

  it('the only cron job asks the api to run its jobs, every minute, through the one helper', async () => {
    const jobs = await sql<{ jobid: number; jobname: string; schedule: string; command: string; username: string }[]>`
      select jobid::int, jobname, schedule, command, username from cron.job order by jobname`;
    expect(jobs).toEqual([
      {
        jobid: expect.any(Number),
        jobname: 'fareback-jobs',
        schedule: '* * * * *',
        command: 'select private.request_job_run()',
        username: 'fareback_owner',
      },
    ]);

    // wait for pg_cron to run it (its finest schedule is a minute)
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
    const [request] = await sql<Record<string, unknown>[]>`
      select url, body, headers, timeout_milliseconds from net.requests order by id limit 1`;
    expect(request).toEqual({
      url: 'https://project-ref.supabase.test/functions/v1/api/internal/jobs',
      body: {},
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer the-cron-secret' },
      timeout_milliseconds: 120_000,
    });
  }, 150_000);

  it('without a Vault secret the helper fails, naming the secret', async () => {
    await sql`delete from vault.decrypted_secrets where name = 'fareback_cron_secret'`;
    try {
      await expect(
        sql.begin((tx) => tx.unsafe('set local role fareback_owner; select private.request_job_run()')),
      ).rejects.toThrow(/the Vault secret fareback_cron_secret is missing/);
    } finally {
      await sql`insert into vault.decrypted_secrets values ('fareback_cron_secret', 'the-cron-secret')`;
    }
  });

  it('only the owner may call the helper', async () => {
    for (const role of ['anon', 'authenticated', 'service_role']) {
      await expect(
        sql.begin((tx) => tx.unsafe(`set local role ${role}; select private.request_job_run()`)),
        role,
      ).rejects.toThrow(/permission denied/);
    }
  });
});
