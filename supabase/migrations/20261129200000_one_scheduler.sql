-- =============================================================================================
-- One scheduler: pg_cron calls only POST /api/internal/jobs
-- =============================================================================================
-- Recurring work used to be scheduled in four places: pg_cron jobs calling the price-sweep and
-- maintenance endpoints (20261122001200_price_sweep.sql), a pg_cron job running the notification
-- passes in SQL and one calling the jobs endpoint (20261125110100_notification_schedule.sql), the
-- job runner's recurring work, and the dev stack's ticker. Now pg_cron (or the stack's ticker)
-- only asks the api to run its jobs, every minute, and every recurring piece of work is a
-- recurring job kind of the one runner: its period is its handler's `recurring` in
-- api/jobs/handlers.ts, and each run enqueues the current period's job under the dedupe key
-- `<kind>:<period>` (so one job per period, however many runs race).
--   price_sweep           every 15 minutes  (was the pg_cron job fareback-price-sweep)
--   maintenance           every 15 minutes  (was fareback-maintenance, hourly, and the sweep's reconciling)
--   notification_passes   every 5 minutes   (was also the pg_cron job fareback-notification-passes)
--   email_scan_due        every hour;  subscription_expiry  every day;  commission_statements  every month
--
-- Intended schema differences:
--   * cron jobs removed: fareback-price-sweep ('*/15 * * * *', pg_net POST .../internal/price-sweep),
--     fareback-maintenance ('7 * * * *', pg_net POST .../internal/maintenance),
--     fareback-notification-passes ('*/5 * * * *', select private.run_notification_passes()).
--   * cron job changed: fareback-jobs ('* * * * *') runs `select private.request_job_run()`
--     instead of its own pg_net block (and is scheduled wherever pg_cron is, pg_net or not).
--   * function added: private.request_job_run(), the one pg_net call (Vault secrets, the URL).
--   * function changed: private.prune_jobs(interval, interval) never deletes a kind's newest job,
--     so a monthly kind's period key outlives the week a done job is kept.
--   * job kinds added (rows of private.job_kinds): price_sweep, maintenance.
--   * comments changed: public.jobs (table; columns kind, dedupe_key, finished_at),
--     private.prune_jobs, public.ops_stuck_rebookings; comment added: private.request_job_run.
-- The api endpoints /api/internal/price-sweep and /api/internal/maintenance are gone with their
-- cron jobs; private.run_notification_passes stays (the notification_passes job runs it).

-- =============================================================================================
-- The recurring kinds that had a cron job of their own
-- =============================================================================================

insert into private.job_kinds (kind, description, max_attempts, backoff_base_seconds, backoff_max_seconds)
values
  ('price_sweep',
   'Every 15 minutes: start a price sweep of the due flights (or resume the running one) and work on its price_check batches until the run''s deadline.',
   3, 60, 600),
  ('maintenance',
   'Every 15 minutes: settle rebookings a request left open, prune expired rows, give stranded instant notifications a delivery job.',
   3, 60, 600);

-- =============================================================================================
-- Pruning keeps each kind's newest job
-- =============================================================================================
-- A recurring kind's job holds its period's dedupe key; pruned after a week, the key would be
-- free again and a monthly kind would get a second job in the same month. A kind's newest job is
-- its current period's (or younger), so keeping it keeps the key. The newest ids are read in one
-- pass over the queue (no index orders jobs by kind and id; pruning runs every 15 minutes).

create or replace function private.prune_jobs(
  p_done_after interval default interval '7 days',
  p_dead_after interval default interval '30 days'
)
returns integer
language sql
security definer
set search_path = ''
as $$
  with newest as (
    select max(j.id) as id from public.jobs j group by j.kind
  ),
  pruned as (
    delete from public.jobs j
     where ((j.status = 'done' and j.finished_at < now() - p_done_after)
            or (j.status = 'dead' and j.finished_at < now() - p_dead_after))
       and j.id not in (select n.id from newest n)
    returning 1
  )
  select count(*)::integer from pruned
$$;

comment on function private.prune_jobs(interval, interval) is
  'Deletes done jobs older than the first interval (7 days) and dead letters older than the second (30 days), never a kind''s newest job (it holds a recurring kind''s period key); answers how many.';

-- =============================================================================================
-- The one call pg_cron makes
-- =============================================================================================
-- POST <project URL>/functions/v1/api/internal/jobs with `Authorization: Bearer <CRON_SECRET>`,
-- both read from Vault when it runs, so no secret sits in a migration:
--   select vault.create_secret('https://<ref>.supabase.co', 'fareback_project_url');
--   select vault.create_secret('<the function''s CRON_SECRET>', 'fareback_cron_secret');
-- pg_net sends it from its background worker and this returns at once with the request id (the
-- answer lands in net._http_response). A missing secret fails the cron run with a message saying
-- which, rather than posting to a null URL. plpgsql, so the function exists (and the catalog is the
-- same) where pg_net and Vault do not; there, calling it fails.

create or replace function private.request_job_run()
returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_url text;
  v_secret text;
begin
  select s.decrypted_secret into v_url from vault.decrypted_secrets s where s.name = 'fareback_project_url';
  select s.decrypted_secret into v_secret from vault.decrypted_secrets s where s.name = 'fareback_cron_secret';
  if v_url is null or v_secret is null then
    raise exception 'FareBack''s job run was not requested: the Vault secret % is missing',
      case when v_url is null then 'fareback_project_url' else 'fareback_cron_secret' end
      using hint = 'select vault.create_secret(''https://<ref>.supabase.co'', ''fareback_project_url''); '
        || 'select vault.create_secret(''<the function''''s CRON_SECRET>'', ''fareback_cron_secret'');';
  end if;
  return net.http_post(
    url := rtrim(v_url, '/') || '/functions/v1/api/internal/jobs',
    body := '{}'::jsonb,
    headers := jsonb_build_object('Content-Type', 'application/json', 'Authorization', 'Bearer ' || v_secret),
    -- a run stops claiming after 50 s; the job in hand (a sweep's last batches) may take longer
    timeout_milliseconds := 120000
  );
end;
$$;

revoke all on function private.request_job_run() from public, anon, authenticated, service_role;

comment on function private.request_job_run() is
  'The scheduler''s one call (pg_cron, every minute): POST <fareback_project_url>/functions/v1/api/internal/jobs with the fareback_cron_secret, both from Vault, through pg_net; answers the request id.';

-- =============================================================================================
-- Schedule (pg_cron where it exists)
-- =============================================================================================
-- With pg_cron (Supabase; CI's throwaway cluster in supabase/tests/pg-cron.test.ts) the schedule
-- is one job, fareback-jobs, every minute: select private.request_job_run(). The cron jobs earlier
-- migrations made are removed. What the job needs and lacks (pg_net, the Vault secrets) is
-- reported here with a WARNING rather than by a job failing quietly every minute. Without pg_cron
-- (PGlite in the dev stack, a plain PostgreSQL) nothing is scheduled here and the stack's ticker
-- (dev/ticker.ts) calls /api/internal/jobs every minute.

do $schedule$
declare
  v_missing text[] := array[]::text[];
begin
  if not exists (select 1 from pg_available_extensions where name = 'pg_cron') then
    raise notice 'pg_cron is not available here: nothing scheduled in the database; the stack''s ticker calls /api/internal/jobs';
    return;
  end if;
  begin
    create extension if not exists pg_cron;
  exception when others then
    raise warning using message = 'pg_cron is installed but could not be enabled here (' || sqlerrm
      || '): FareBack''s job runs are NOT scheduled by the database.',
      hint = 'Load it (shared_preload_libraries = ''pg_cron'', cron.database_name = this database), '
        || 'run "create extension pg_cron" as a superuser, then apply this migration''s schedule block again; '
        || 'until then run the ticker (dev/ticker.ts) or call /api/internal/jobs every minute.';
    return;
  end;

  perform cron.unschedule(j.jobid)
     from cron.job j
    where j.jobname in ('fareback-price-sweep', 'fareback-maintenance', 'fareback-notification-passes');

  if exists (select 1 from pg_available_extensions where name = 'pg_net') then
    if exists (select 1 from pg_namespace where nspname = 'extensions') then
      create extension if not exists pg_net with schema extensions;
    else
      create extension if not exists pg_net;
    end if;
  end if;

  perform cron.schedule('fareback-jobs', '* * * * *', 'select private.request_job_run()');

  if to_regprocedure('net.http_post(text, jsonb, jsonb, jsonb, integer)') is null then
    raise warning using message = 'pg_net is not available: the scheduled job (fareback-jobs) cannot call '
      || '/api/internal/jobs and fails every minute; no background work runs from the database''s schedule.',
      hint = 'Install pg_net and apply this migration''s schedule block again, or call /api/internal/jobs every minute '
        || 'from another scheduler (dev/ticker.ts does locally).';
  end if;
  if to_regclass('vault.decrypted_secrets') is null then
    v_missing := array['fareback_project_url', 'fareback_cron_secret'];
  else
    execute $q$select coalesce(array_agg(w.secret), array[]::text[])
                 from unnest(array['fareback_project_url', 'fareback_cron_secret']) as w (secret)
                where not exists (select 1 from vault.decrypted_secrets s where s.name = w.secret)$q$
       into v_missing;
  end if;
  if cardinality(v_missing) > 0 then
    raise warning using message = 'FareBack''s scheduled job run (every minute) will FAIL: '
      || 'the Vault secret(s) ' || array_to_string(v_missing, ', ') || ' are missing.',
      hint = 'Run: select vault.create_secret(''https://<ref>.supabase.co'', ''fareback_project_url''); '
        || 'select vault.create_secret(''<the function''''s CRON_SECRET>'', ''fareback_cron_secret'');';
  end if;
end
$schedule$;

-- =============================================================================================
-- Comments that named the old schedule
-- =============================================================================================

comment on table public.jobs is
  'The job queue: every piece of background work (scheduled sweeps and maintenance, price-check batches, auto-rebooking batches, notification emails and digests, inbox scans, statements). Enqueued by private.enqueue_job (recurring kinds by the api''s job runner, once per period), claimed and finished by the api''s workers with a lease. Admins read; see public.ops_failed_jobs.';
comment on column public.jobs.kind is
  'What it does: a kind declared in private.job_kinds (its description says what a job of it does).';
comment on column public.jobs.dedupe_key is
  'Names one piece of work (e.g. notification_email:<id>; a recurring kind''s <kind>:<period>, commission_statements:2026-11): enqueueing it again answers this job.';
comment on column public.jobs.finished_at is
  'When it became done or dead (maintenance prunes done jobs after 7 days, dead after 30, but never a kind''s newest job); null otherwise.';
comment on view public.ops_stuck_rebookings is
  'Operators: flights still in status rebooking 30 minutes after their claim (the reconciler settles claims older than 5 minutes at every maintenance job, every 15 minutes), oldest first. See private.rebookings for the attempt. Read-only; admins and service_role only.';
