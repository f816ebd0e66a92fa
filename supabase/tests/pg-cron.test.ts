// The schedule (migration 20261122000200_jobs_and_scheduling.sql) on a PostgreSQL that has
// pg_cron loaded, as on Supabase: the only cron job is fareback-jobs, every minute, and when it
// runs it calls POST <project>/functions/v1/api/internal/jobs through private.request_job_run(), with the
// project URL and the CRON_SECRET from Vault. pg_net and Vault are Supabase's, not Debian's: here
// a stand-in net.http_post records each request it is given, and vault.decrypted_secrets is a
// table, both made before the migrations run (as on Supabase, where they exist beforehand).
// It needs a server with pg_cron loaded: see pg-cron-cluster.ts, skipped, saying so, only where
// pg_cron's files are absent.
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../dev/db/migrate.ts';
import { pgCronMissing, startPgCronCluster, type PgCronCluster } from './pg-cron-cluster.ts';

if (pgCronMissing) console.warn(`SKIPPED pg_cron schedule test: ${pgCronMissing}`);

describe.skipIf(pgCronMissing !== null)('pg_cron schedule (a throwaway cluster with pg_cron loaded)', () => {
  let cluster: PgCronCluster | undefined;
  let sql: postgres.Sql;

  beforeAll(async () => {
    cluster = await startPgCronCluster();
    sql = postgres(cluster.url, { max: 1, onnotice: () => {} });
    // pg_net's and Vault's stand-ins, made before the migrations run
    await sql.unsafe(`
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
    await migrate(cluster.url);
  });

  afterAll(async () => {
    await sql?.end();
    await cluster?.stop();
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
