-- =============================================================================================
-- One job queue for every kind of background work
-- =============================================================================================
-- Price-check batches today; auto-rebooking runs, inbox scans, digests, notification retries and
-- payment follow-ups next. SQL decides what is due and enqueues it; workers in the api claim jobs
-- of the kinds they know with a lease and finish each one. The rules every kind gets:
--   * enqueue: a kind, a payload, a time before which the job must not run, and an optional
--     dedupe key. A key names one piece of work: enqueueing it again, in any state, answers the
--     job already there (until maintenance prunes it), so recurring work puts its period in the
--     key ('digest:<user>:2026-11-24').
--   * claim: due queued jobs of the given kinds, oldest run_at first, FOR UPDATE SKIP LOCKED, so
--     workers side by side never take the same job and never wait on each other. Each claim
--     counts an attempt, holds a lease, and gets a new claim token.
--   * complete / fail: only with the claim token of the current claim. A worker that stalled past
--     its lease, and whose job another worker has claimed since, completes or fails nothing: the
--     new holder's answer is the one that counts, so the work is recorded once. Call complete in
--     the transaction that writes the job's effects and roll back when it answers false.
--   * a failed job runs again after an exponential backoff (the kind's base, doubled per attempt,
--     up to its cap); a lease that runs out counts as a failed attempt. After the kind's
--     max_attempts the job is a dead letter ('dead'): never claimed again, kept for a look.
--   * maintenance prunes finished jobs after a week and dead letters after a month.
-- The functions are the api's (security definer, empty search_path, executable by the role that
-- owns them and that the api connects as, by nobody else).

-- =============================================================================================
-- Kinds
-- =============================================================================================
-- Every kind is declared here by the migration of the area that adds it, with its retry policy,
-- so a typo in a kind fails at enqueue time instead of queueing work nobody claims.

create table private.job_kinds (
  kind text primary key,
  description text not null,
  max_attempts integer not null default 5,
  backoff_base_seconds integer not null default 10,
  backoff_max_seconds integer not null default 3600,

  constraint job_kinds_kind_format check (kind ~ '^[a-z][a-z0-9_]{0,62}$'),
  constraint job_kinds_max_attempts_positive check (max_attempts > 0),
  constraint job_kinds_backoff_positive check (backoff_base_seconds > 0 and backoff_max_seconds >= backoff_base_seconds)
);

alter table private.job_kinds enable row level security;
revoke all on table private.job_kinds from public, anon, authenticated, service_role;

insert into private.job_kinds (kind, description, max_attempts, backoff_base_seconds, backoff_max_seconds)
values ('price_check', 'One batch of a price sweep: re-quote its flights and record the prices.', 5, 5, 300);

-- =============================================================================================
-- The queue table
-- =============================================================================================
-- public.jobs stays where admins can read it (its select policy); nobody else can. 'failed'
-- becomes 'dead', the dead-letter state. running <=> a claim: token, holder and lease.

alter table public.jobs
  drop constraint jobs_status_check,
  drop constraint jobs_kind_length,
  add column claim_token uuid,
  add column result jsonb,
  add column finished_at timestamptz;

update public.jobs set status = 'dead' where status = 'failed';
update public.jobs set finished_at = updated_at where status in ('done', 'dead');
update public.jobs set claim_token = gen_random_uuid() where status = 'running';
update public.jobs set lease_expires_at = now() where status = 'running' and lease_expires_at is null;
update public.jobs set status = 'dead', last_error = 'kind unknown to the queue', finished_at = now()
 where kind not in (select kind from private.job_kinds) and status in ('queued', 'running');
update public.jobs set claim_token = null, locked_by = null, lease_expires_at = null where status <> 'running';
insert into private.job_kinds (kind, description)
select distinct j.kind, 'Registered by the queue migration for jobs enqueued before kinds were declared.'
  from public.jobs j
 where j.kind not in (select kind from private.job_kinds);

alter table public.jobs
  add constraint jobs_status_check check (status in ('queued', 'running', 'done', 'dead')),
  add constraint jobs_kind_fkey foreign key (kind) references private.job_kinds (kind),
  add constraint jobs_claim_when_running check (
    (status = 'running') = (claim_token is not null and lease_expires_at is not null)),
  add constraint jobs_finished_when_done check ((status in ('done', 'dead')) = (finished_at is not null));

drop index public.jobs_due_idx;
drop index public.jobs_lease_expired_idx;
drop index public.jobs_kind_status_idx;

-- claiming: due queued jobs of a kind in run_at order; expired leases of a kind; pruning
create index jobs_queued_idx on public.jobs (kind, run_at, id) where status = 'queued';
create index jobs_lease_idx on public.jobs (kind, lease_expires_at) where status = 'running';
create index jobs_finished_idx on public.jobs (finished_at) where status in ('done', 'dead');

-- =============================================================================================
-- Enqueue
-- =============================================================================================
-- Answers the job's id: the new one, or the one already holding the dedupe key.

create or replace function private.enqueue_job(
  p_kind text,
  p_payload jsonb default '{}'::jsonb,
  p_run_after timestamptz default null,
  p_dedupe_key text default null
)
returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_id bigint;
begin
  insert into public.jobs (kind, payload, run_at, dedupe_key, max_attempts)
  select k.kind, coalesce(p_payload, '{}'::jsonb), coalesce(p_run_after, clock_timestamp()), p_dedupe_key, k.max_attempts
    from private.job_kinds k
   where k.kind = p_kind
  on conflict (dedupe_key) do nothing
  returning id into v_id;
  if v_id is not null then
    return v_id;
  end if;

  if not exists (select 1 from private.job_kinds k where k.kind = p_kind) then
    raise exception 'unknown job kind: %', p_kind using errcode = '22023';
  end if;
  -- the key is taken: by a job committed before this statement began, or by one whose insert we
  -- waited on (this statement saw its commit); a fresh snapshot sees either
  select j.id into v_id from public.jobs j where j.dedupe_key = p_dedupe_key;
  return v_id;
end;
$$;

-- =============================================================================================
-- Claim
-- =============================================================================================
-- First, running jobs of these kinds whose lease ran out (their worker died or stalled) count
-- that attempt as failed: back to the queue at once, or dead after max_attempts. Then up to
-- p_limit due queued jobs are claimed. Both steps skip rows another transaction holds.

create or replace function private.claim_jobs(
  p_kinds text[],
  p_worker text,
  p_limit integer,
  p_lease_seconds integer
)
returns table (id bigint, kind text, payload jsonb, attempt integer, claim_token uuid)
language plpgsql
security definer
set search_path = ''
as $$
#variable_conflict use_column
begin
  if p_limit is null or p_limit < 1 then
    raise exception 'claim at least one job' using errcode = '22023';
  end if;
  if p_lease_seconds is null or p_lease_seconds < 1 then
    raise exception 'a lease lasts at least one second' using errcode = '22023';
  end if;

  with expired as (
    select j.id
      from public.jobs j
     where j.kind = any(p_kinds)
       and j.status = 'running'
       and j.lease_expires_at < clock_timestamp()
     for update skip locked
  )
  update public.jobs j
     set status = case when j.attempts >= j.max_attempts then 'dead' else 'queued' end,
         finished_at = case when j.attempts >= j.max_attempts then clock_timestamp() end,
         claim_token = null,
         locked_by = null,
         lease_expires_at = null,
         last_error = 'the lease of attempt ' || j.attempts || ' ran out (held by ' || coalesce(j.locked_by, '?') || ')'
    from expired e
   where j.id = e.id;

  return query
  with next_jobs as (
    select j.id
      from public.jobs j
     where j.kind = any(p_kinds)
       and j.status = 'queued'
       and j.run_at <= clock_timestamp()
     order by j.run_at, j.id
     limit p_limit
     for update skip locked
  )
  update public.jobs j
     set status = 'running',
         attempts = j.attempts + 1,
         claim_token = gen_random_uuid(),
         locked_by = left(p_worker, 200),
         lease_expires_at = clock_timestamp() + make_interval(secs => p_lease_seconds)
    from next_jobs n
   where j.id = n.id
  returning j.id, j.kind, j.payload, j.attempts, j.claim_token;
end;
$$;

-- A long job keeps its claim by extending the lease before it runs out; false once the claim is
-- lost (the lease ran out and another worker took the job, or it was finished).
create or replace function private.extend_job_lease(p_job_id bigint, p_claim_token uuid, p_lease_seconds integer)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.jobs j
     set lease_expires_at = clock_timestamp() + make_interval(secs => p_lease_seconds)
   where j.id = p_job_id
     and j.status = 'running'
     and j.claim_token = p_claim_token;
  return found;
end;
$$;

-- =============================================================================================
-- Complete or fail
-- =============================================================================================

create or replace function private.complete_job(p_job_id bigint, p_claim_token uuid, p_result jsonb default null)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.jobs j
     set status = 'done',
         result = p_result,
         finished_at = clock_timestamp(),
         claim_token = null,
         locked_by = null,
         lease_expires_at = null
   where j.id = p_job_id
     and j.status = 'running'
     and j.claim_token = p_claim_token;
  return found;
end;
$$;

-- Answers what became of the job: 'queued' (it runs again at p_retry_at, by default after the
-- kind's backoff), 'dead' (max_attempts reached, or p_permanent: retrying cannot help), or null
-- when the caller no longer holds the claim (nothing changed).
create or replace function private.fail_job(
  p_job_id bigint,
  p_claim_token uuid,
  p_error text,
  p_retry_at timestamptz default null,
  p_permanent boolean default false
)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_status text;
begin
  update public.jobs j
     set status = case when p_permanent or j.attempts >= j.max_attempts then 'dead' else 'queued' end,
         run_at = case
           when p_permanent or j.attempts >= j.max_attempts then j.run_at
           else coalesce(p_retry_at, clock_timestamp() + make_interval(secs =>
                  least(k.backoff_max_seconds, k.backoff_base_seconds * power(2, j.attempts - 1))))
         end,
         finished_at = case when p_permanent or j.attempts >= j.max_attempts then clock_timestamp() end,
         last_error = left(coalesce(p_error, 'failed without a message'), 1000),
         claim_token = null,
         locked_by = null,
         lease_expires_at = null
    from private.job_kinds k
   where j.id = p_job_id
     and k.kind = j.kind
     and j.status = 'running'
     and j.claim_token = p_claim_token
  returning j.status into v_status;
  return v_status;
end;
$$;

-- =============================================================================================
-- Maintenance
-- =============================================================================================
-- Finished jobs are kept a week (to look into recent runs; a sweep's totals stay on its log row
-- forever), dead letters a month (to find and fix what killed them).

create or replace function private.prune_jobs(
  p_done_after interval default interval '7 days',
  p_dead_after interval default interval '30 days'
)
returns integer
language sql
security definer
set search_path = ''
as $$
  with pruned as (
    delete from public.jobs j
     where (j.status = 'done' and j.finished_at < now() - p_done_after)
        or (j.status = 'dead' and j.finished_at < now() - p_dead_after)
    returning 1
  )
  select count(*)::integer from pruned
$$;

-- =============================================================================================
-- The price sweep on the queue
-- =============================================================================================
-- A sweep's batches are jobs of kind price_check whose payload names the sweep, its start and
-- the batch's flight ids. The worker (api/services/price-sweep.ts) adds each batch's counts to
-- the sweep's log row in the transaction that completes the job, so the totals never count a
-- batch twice and outlive the pruned jobs.

drop function private.claim_price_check_job(bigint, text, integer);
drop function private.complete_price_check_job(bigint, text, integer, integer, integer, integer, integer, text);
drop function private.fail_price_check_job(bigint, text, integer, text);
drop function private.prune_price_check_jobs();

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
  batches as (
    select d.batch, jsonb_agg(d.id order by d.id) as flight_ids, count(*)::integer as flights
      from due d
     group by d.batch
  ),
  enqueued as (
    select b.flights,
           private.enqueue_job(
             'price_check',
             jsonb_build_object('sweepId', v_sweep.id, 'startedAt', v_sweep.started_at,
                                'batch', b.batch, 'flightIds', b.flight_ids),
             null,
             'price_check:sweep:' || v_sweep.id || ':batch:' || b.batch) as job_id
      from batches b
  )
  select coalesce(sum(e.flights), 0)::integer, count(e.job_id)::integer into v_due, v_batches from enqueued e;

  update public.price_check_logs l
     set additional_data = jsonb_build_object(
           'flightsDue', v_due, 'batches', v_batches,
           'checkIntervalMinutes', p_interval_minutes, 'batchSize', p_batch_size,
           'quotesMade', 0, 'quoteErrors', 0)
   where l.id = v_sweep.id;

  return query select v_sweep.id, v_sweep.started_at, false, v_due, v_batches;
end;
$$;

-- While a batch of the sweep is queued or held, the sweep stays running and `finished` is false;
-- the worker that completes the last batch finishes it. success is false when a batch died or an
-- itinerary could not be quoted (those flights stay due for the next sweep). Finishing twice
-- answers the same.
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
  v_dead integer;
  v_dead_errors text;
  v_quote_errors integer;
  v_error text;
begin
  select * into v_sweep from public.price_check_logs l where l.id = p_sweep_id for update;
  if not found then
    raise exception 'no price sweep %', p_sweep_id using errcode = 'P0002';
  end if;

  if v_sweep.status = 'running' then
    select count(*) filter (where j.status in ('queued', 'running'))::integer,
           count(*) filter (where j.status = 'dead')::integer,
           string_agg(distinct j.last_error, '; ') filter (where j.status = 'dead')
      into v_outstanding, v_dead, v_dead_errors
      from public.jobs j
     where j.kind = 'price_check'
       and (j.payload ->> 'sweepId')::bigint = p_sweep_id;

    if v_outstanding = 0 then
      v_quote_errors := coalesce((v_sweep.additional_data ->> 'quoteErrors')::integer, 0);
      v_error := nullif(left(concat_ws(': ',
        nullif(concat_ws(', ',
          case when v_quote_errors > 0 then v_quote_errors || ' flight(s) could not be quoted' end,
          case when v_dead > 0 then v_dead || ' batch(es) failed' end), ''),
        nullif(concat_ws('; ', v_sweep.additional_data ->> 'quoteError', v_dead_errors), '')), 1000), '');

      update public.price_check_logs l
         set status = case when v_error is null then 'completed' else 'failed' end,
             success = v_error is null,
             error_message = v_error,
             finished_at = clock_timestamp(),
             execution_time_ms = least(2147483647,
               floor(extract(epoch from clock_timestamp() - l.started_at) * 1000))::integer,
             additional_data = coalesce(l.additional_data, '{}'::jsonb) || jsonb_build_object('failedBatches', v_dead)
       where l.id = p_sweep_id
      returning * into v_sweep;
    end if;
  end if;

  return query select v_sweep.status <> 'running', v_sweep.total_flights_checked, v_sweep.total_price_drops_found,
    coalesce((v_sweep.additional_data ->> 'quotesMade')::integer, 0),
    v_sweep.execution_time_ms, v_sweep.success, v_sweep.error_message;
end;
$$;

-- =============================================================================================
-- Privileges
-- =============================================================================================

revoke all on function private.enqueue_job(text, jsonb, timestamptz, text) from public, anon, authenticated, service_role;
revoke all on function private.claim_jobs(text[], text, integer, integer) from public, anon, authenticated, service_role;
revoke all on function private.extend_job_lease(bigint, uuid, integer) from public, anon, authenticated, service_role;
revoke all on function private.complete_job(bigint, uuid, jsonb) from public, anon, authenticated, service_role;
revoke all on function private.fail_job(bigint, uuid, text, timestamptz, boolean)
  from public, anon, authenticated, service_role;
revoke all on function private.prune_jobs(interval, interval) from public, anon, authenticated, service_role;
revoke all on function private.start_price_sweep(uuid, integer, integer) from public, anon, authenticated, service_role;
revoke all on function private.finish_price_sweep(bigint) from public, anon, authenticated, service_role;
revoke all on function private.prune_login_attempts() from public, anon, authenticated, service_role;
