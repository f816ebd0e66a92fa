-- =============================================================================================
-- Price sweep
-- =============================================================================================
-- A sweep re-checks the price of every monitored flight that is due. The database decides what
-- is due and splits it into jobs of `batch_size` flights; workers in the api claim one job at a
-- time with FOR UPDATE SKIP LOCKED and a lease, quote the batch, and write its results and the
-- job's completion in one transaction. So:
--   * a worker that dies mid-batch leaves its job 'running' with a lease that runs out; the next
--     claim takes it again (and gives up after max_attempts);
--   * a batch is recorded exactly once: completion is conditional on still holding the lease
--     (locked_by and attempts as claimed), and it commits together with the batch's price rows,
--     so a worker whose lease was taken over rolls its writes back;
--   * the sweep's totals are the sum of its completed jobs' counts, never a running tally that a
--     crash could leave half-added.
-- One sweep runs at a time: starting while one is running resumes it.
--
-- price_check_logs is the sweep: a row is inserted 'running' at the start and filled in when the
-- last job is done. execution_time_ms runs from the start to the finish, including any time a
-- crashed sweep waited to be resumed.
--
-- Every function here is system work: security definer with an empty search_path, executable by
-- service_role only (and the owner the api connects as).

alter table public.price_check_logs
  add column status text not null default 'completed',
  add column finished_at timestamptz,
  add constraint price_check_logs_status_check check (status in ('running', 'completed', 'failed'));

-- at most one running sweep; start_price_sweep resumes it rather than starting another
create unique index price_check_logs_one_running_idx on public.price_check_logs ((true)) where status = 'running';

-- a sweep's jobs, found by the sweep id in their payload
create index jobs_price_check_sweep_idx on public.jobs (((payload ->> 'sweepId')::bigint), status)
  where kind = 'price_check';

-- =============================================================================================
-- Start (or resume) a sweep
-- =============================================================================================
-- Due: not rebooked, not being rebooked, not departed or cancelled, departing today or later,
-- and not checked within the interval. The jobs carry explicit flight ids, so a flight added
-- during the sweep waits for the next one and a batch means the same flights on every attempt.

create or replace function private.start_price_sweep(
  p_initiated_by uuid,
  p_interval_minutes integer,
  p_batch_size integer
)
returns table (sweep_id bigint, started_at timestamptz, resumed boolean, flights_due integer, batches integer)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_sweep public.price_check_logs%rowtype;
  v_due integer;
  v_batches integer;
begin
  if p_interval_minutes is null or p_interval_minutes < 0 then
    raise exception 'interval must be zero or more minutes' using errcode = '22023';
  end if;
  if p_batch_size is null or p_batch_size < 1 then
    raise exception 'batch size must be at least 1' using errcode = '22023';
  end if;

  -- two starts at once must not both create a sweep (the unique index would refuse the second)
  perform pg_advisory_xact_lock(hashtext('fareback.price_sweep.start'));

  select * into v_sweep from public.price_check_logs l where l.status = 'running' order by l.id limit 1;
  if found then
    return query select v_sweep.id, v_sweep.started_at, true,
      coalesce((v_sweep.additional_data ->> 'flightsDue')::integer, 0),
      coalesce((v_sweep.additional_data ->> 'batches')::integer, 0);
    return;
  end if;

  insert into public.price_check_logs (initiated_by, status, success)
  values (p_initiated_by, 'running', false)
  returning * into v_sweep;

  with due as (
    select f.id, (row_number() over (order by f.id) - 1) / p_batch_size as batch
      from public.flights f
     where not f.has_been_rebooked
       and f.status not in ('rebooking', 'rebooked', 'departed', 'cancelled')
       and f.departure_date >= current_date
       and (f.last_checked is null
            or f.last_checked < v_sweep.started_at - make_interval(mins => p_interval_minutes))
  ),
  enqueued as (
    insert into public.jobs (kind, payload, dedupe_key)
    select 'price_check',
           jsonb_build_object('sweepId', v_sweep.id, 'batch', d.batch, 'flightIds', jsonb_agg(d.id order by d.id)),
           'price_check:sweep:' || v_sweep.id || ':batch:' || d.batch
      from due d
     group by d.batch
    on conflict (dedupe_key) do nothing
    returning jsonb_array_length(payload -> 'flightIds') as flights
  )
  select coalesce(sum(e.flights), 0)::integer, count(*)::integer into v_due, v_batches from enqueued e;

  update public.price_check_logs l
     set additional_data = jsonb_build_object(
           'flightsDue', v_due, 'batches', v_batches,
           'checkIntervalMinutes', p_interval_minutes, 'batchSize', p_batch_size)
   where l.id = v_sweep.id;

  return query select v_sweep.id, v_sweep.started_at, false, v_due, v_batches;
end;
$$;

-- =============================================================================================
-- Claim a batch
-- =============================================================================================
-- The next queued job of the sweep, or a running one whose lease expired (its worker died or
-- stalled). SKIP LOCKED lets several workers claim side by side without waiting on each other.
-- A job whose lease ran out max_attempts times is given up as failed rather than retried forever.

create or replace function private.claim_price_check_job(
  p_sweep_id bigint,
  p_worker text,
  p_lease_seconds integer
)
returns table (job_id bigint, attempt integer, flight_ids bigint[])
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.jobs j
     set status = 'failed',
         locked_by = null,
         lease_expires_at = null,
         last_error = coalesce(j.last_error, 'The batch was abandoned ' || j.attempts || ' times')
   where j.kind = 'price_check'
     and (j.payload ->> 'sweepId')::bigint = p_sweep_id
     and j.status = 'running'
     and j.lease_expires_at < clock_timestamp()
     and j.attempts >= j.max_attempts;

  return query
  with next_job as (
    select j.id
      from public.jobs j
     where j.kind = 'price_check'
       and (j.payload ->> 'sweepId')::bigint = p_sweep_id
       and ((j.status = 'queued' and j.run_at <= clock_timestamp())
            or (j.status = 'running' and j.lease_expires_at < clock_timestamp()))
     order by j.id
     limit 1
     for update skip locked
  )
  update public.jobs j
     set status = 'running',
         locked_by = p_worker,
         lease_expires_at = clock_timestamp() + make_interval(secs => p_lease_seconds),
         attempts = j.attempts + 1
    from next_job n
   where j.id = n.id
  returning j.id,
            j.attempts,
            array(select jsonb_array_elements_text(j.payload -> 'flightIds')::bigint);
end;
$$;

-- =============================================================================================
-- Complete or fail a batch
-- =============================================================================================
-- Completion is conditional on still holding the claim (same worker, same attempt): call it in
-- the transaction that writes the batch's prices and roll back when it answers false, so a batch
-- whose lease was taken over is written by its new holder only.

create or replace function private.complete_price_check_job(
  p_job_id bigint,
  p_worker text,
  p_attempt integer,
  p_checked integer,
  p_drops integer,
  p_quotes integer,
  p_quote_errors integer,
  p_error text default null
)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.jobs j
     set status = 'done',
         locked_by = null,
         lease_expires_at = null,
         last_error = p_error,
         payload = j.payload || jsonb_build_object(
           'checked', p_checked, 'drops', p_drops, 'quotes', p_quotes, 'quoteErrors', p_quote_errors)
   where j.id = p_job_id
     and j.kind = 'price_check'
     and j.status = 'running'
     and j.locked_by = p_worker
     and j.attempts = p_attempt;
  return found;
end;
$$;

-- A batch that could not be written (the database refused, the worker hit a bug) goes back to
-- the queue with a growing delay, or fails for good after max_attempts.
create or replace function private.fail_price_check_job(
  p_job_id bigint,
  p_worker text,
  p_attempt integer,
  p_error text
)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.jobs j
     set status = case when j.attempts >= j.max_attempts then 'failed' else 'queued' end,
         run_at = clock_timestamp() + make_interval(secs => least(300, 5 * j.attempts * j.attempts)),
         locked_by = null,
         lease_expires_at = null,
         last_error = left(p_error, 1000)
   where j.id = p_job_id
     and j.kind = 'price_check'
     and j.status = 'running'
     and j.locked_by = p_worker
     and j.attempts = p_attempt;
  return found;
end;
$$;

-- =============================================================================================
-- Finish a sweep
-- =============================================================================================
-- Totals are summed from the sweep's completed jobs, so finishing twice, or finishing after a
-- crash, gives the same numbers. While jobs are still queued or held by a worker the sweep stays
-- running (the totals so far are stored, for the admin to watch) and `finished` is false; the
-- worker that completes the last job finishes it. success is false when a batch failed for good
-- or an itinerary could not be quoted (those flights stay due for the next sweep).

create or replace function private.finish_price_sweep(p_sweep_id bigint)
returns table (
  finished boolean,
  total_flights_checked integer,
  total_price_drops_found integer,
  quotes_made integer,
  execution_time_ms integer,
  success boolean,
  error_message text
)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_sweep public.price_check_logs%rowtype;
  v_outstanding integer;
  v_checked integer;
  v_drops integer;
  v_quotes integer;
  v_quote_errors integer;
  v_failed integer;
  v_error text;
begin
  select * into v_sweep from public.price_check_logs l where l.id = p_sweep_id for update;
  if not found then
    raise exception 'no price sweep %', p_sweep_id using errcode = 'P0002';
  end if;

  if v_sweep.status <> 'running' then
    return query select true, v_sweep.total_flights_checked, v_sweep.total_price_drops_found,
      coalesce((v_sweep.additional_data ->> 'quotesMade')::integer, 0),
      v_sweep.execution_time_ms, v_sweep.success, v_sweep.error_message;
    return;
  end if;

  select count(*) filter (where j.status in ('queued', 'running'))::integer,
         coalesce(sum((j.payload ->> 'checked')::integer) filter (where j.status = 'done'), 0)::integer,
         coalesce(sum((j.payload ->> 'drops')::integer) filter (where j.status = 'done'), 0)::integer,
         coalesce(sum((j.payload ->> 'quotes')::integer) filter (where j.status = 'done'), 0)::integer,
         coalesce(sum((j.payload ->> 'quoteErrors')::integer) filter (where j.status = 'done'), 0)::integer,
         count(*) filter (where j.status = 'failed')::integer,
         string_agg(distinct j.last_error, '; ') filter (where j.last_error is not null)
    into v_outstanding, v_checked, v_drops, v_quotes, v_quote_errors, v_failed, v_error
    from public.jobs j
   where j.kind = 'price_check'
     and (j.payload ->> 'sweepId')::bigint = p_sweep_id;

  if v_failed > 0 or v_quote_errors > 0 then
    v_error := left(concat_ws(': ',
      concat_ws(', ',
        case when v_quote_errors > 0 then v_quote_errors || ' flight(s) could not be quoted' end,
        case when v_failed > 0 then v_failed || ' batch(es) failed' end),
      v_error), 1000);
  else
    v_error := null;
  end if;

  update public.price_check_logs l
     set total_flights_checked = v_checked,
         total_price_drops_found = v_drops,
         execution_time_ms = least(2147483647, floor(extract(epoch from clock_timestamp() - l.started_at) * 1000))::integer,
         additional_data = coalesce(l.additional_data, '{}'::jsonb) || jsonb_build_object(
           'quotesMade', v_quotes, 'quoteErrors', v_quote_errors, 'failedBatches', v_failed),
         status = case when v_outstanding > 0 then 'running' when v_error is null then 'completed' else 'failed' end,
         success = v_outstanding = 0 and v_error is null,
         error_message = case when v_outstanding > 0 then null else v_error end,
         finished_at = case when v_outstanding > 0 then null else clock_timestamp() end
   where l.id = p_sweep_id
  returning * into v_sweep;

  return query select v_outstanding = 0, v_checked, v_drops, v_quotes, v_sweep.execution_time_ms,
    v_sweep.success, v_sweep.error_message;
end;
$$;

-- =============================================================================================
-- Maintenance
-- =============================================================================================
-- Login attempts matter for the 15-minute lockout window only; a day keeps enough to look into
-- an attack. A finished sweep's jobs are kept a week (its totals stay on its log row forever).

create or replace function private.prune_login_attempts()
returns integer
language sql
security definer
set search_path = ''
as $$
  with pruned as (
    delete from private.login_attempts a where a.attempted_at < now() - interval '1 day' returning 1
  )
  select count(*)::integer from pruned
$$;

create or replace function private.prune_price_check_jobs()
returns integer
language sql
security definer
set search_path = ''
as $$
  with pruned as (
    delete from public.jobs j
     where j.kind = 'price_check'
       and j.status in ('done', 'failed')
       and exists (
         select 1 from public.price_check_logs l
          where l.id = (j.payload ->> 'sweepId')::bigint
            and l.status <> 'running'
            and l.finished_at < now() - interval '7 days')
    returning 1
  )
  select count(*)::integer from pruned
$$;

revoke all on function private.start_price_sweep(uuid, integer, integer) from public, anon, authenticated;
revoke all on function private.claim_price_check_job(bigint, text, integer) from public, anon, authenticated;
revoke all on function private.complete_price_check_job(bigint, text, integer, integer, integer, integer, integer, text)
  from public, anon, authenticated;
revoke all on function private.fail_price_check_job(bigint, text, integer, text) from public, anon, authenticated;
revoke all on function private.finish_price_sweep(bigint) from public, anon, authenticated;
revoke all on function private.prune_login_attempts() from public, anon, authenticated;
revoke all on function private.prune_price_check_jobs() from public, anon, authenticated;

grant execute on function private.start_price_sweep(uuid, integer, integer) to service_role;
grant execute on function private.claim_price_check_job(bigint, text, integer) to service_role;
grant execute on function private.complete_price_check_job(bigint, text, integer, integer, integer, integer, integer, text)
  to service_role;
grant execute on function private.fail_price_check_job(bigint, text, integer, text) to service_role;
grant execute on function private.finish_price_sweep(bigint) to service_role;
grant execute on function private.prune_login_attempts() to service_role;
grant execute on function private.prune_price_check_jobs() to service_role;

-- =============================================================================================
-- Schedule (Supabase)
-- =============================================================================================
-- On Supabase, pg_cron calls the api function's internal endpoints through pg_net every 15
-- minutes (price sweep; each run checks only what is due) and hourly (maintenance). The project
-- URL and the CRON_SECRET the function checks are read from Vault when the job runs, so no
-- secret sits in a migration:
--   select vault.create_secret('https://<ref>.supabase.co', 'fareback_project_url');
--   select vault.create_secret('<the function''s CRON_SECRET>', 'fareback_cron_secret');
-- PostgreSQL without the two extensions (the local stack, CI) skips this block; there the dev
-- stack's ticker (dev/ticker.ts) calls the same endpoints.

do $schedule$
begin
  if (select count(*) from pg_available_extensions where name in ('pg_cron', 'pg_net')) < 2 then
    raise notice 'pg_cron or pg_net is not available: the price sweep is not scheduled in the database';
    return;
  end if;

  create extension if not exists pg_cron;
  if exists (select 1 from pg_namespace where nspname = 'extensions') then
    create extension if not exists pg_net with schema extensions;
  else
    create extension if not exists pg_net;
  end if;

  perform cron.schedule('fareback-price-sweep', '*/15 * * * *', $cmd$
    select net.http_post(
      url := (select decrypted_secret from vault.decrypted_secrets where name = 'fareback_project_url')
             || '/functions/v1/api/internal/price-sweep',
      headers := jsonb_build_object(
        'Content-Type', 'application/json',
        'Authorization', 'Bearer ' || (select decrypted_secret from vault.decrypted_secrets
                                        where name = 'fareback_cron_secret')),
      body := '{}'::jsonb,
      timeout_milliseconds := 150000
    )
  $cmd$);

  perform cron.schedule('fareback-maintenance', '7 * * * *', $cmd$
    select net.http_post(
      url := (select decrypted_secret from vault.decrypted_secrets where name = 'fareback_project_url')
             || '/functions/v1/api/internal/maintenance',
      headers := jsonb_build_object(
        'Content-Type', 'application/json',
        'Authorization', 'Bearer ' || (select decrypted_secret from vault.decrypted_secrets
                                        where name = 'fareback_cron_secret')),
      body := '{}'::jsonb,
      timeout_milliseconds := 30000
    )
  $cmd$);
end
$schedule$;
