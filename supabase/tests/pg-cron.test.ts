// The schedule in migration 20261122000200_jobs_and_scheduling.sql on a PostgreSQL that has
// pg_cron loaded, as on Supabase: the migration schedules its jobs, and a scheduled SQL job runs.
// It needs a server with pg_cron loaded: see pg-cron-cluster.ts, skipped, saying so, only where
// pg_cron's files are absent.
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../dev/db/migrate.ts';
import { createFlight, createUser } from './factories.ts';
import { pgCronMissing, startPgCronCluster, type PgCronCluster } from './pg-cron-cluster.ts';

if (pgCronMissing) console.warn(`SKIPPED pg_cron schedule test: ${pgCronMissing}`);

describe.skipIf(pgCronMissing !== null)('pg_cron schedule (a throwaway cluster with pg_cron loaded)', () => {
  let cluster: PgCronCluster | undefined;
  let sql: postgres.Sql;

  beforeAll(async () => {
    cluster = await startPgCronCluster();
    sql = postgres(cluster.url, { max: 1, onnotice: () => {} });
    await migrate(cluster.url);
  });

  afterAll(async () => {
    await sql?.end();
    await cluster?.stop();
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
