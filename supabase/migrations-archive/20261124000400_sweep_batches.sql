-- =============================================================================================
-- A sweep's batches: ranges of flight ids, and totals summed from their results
-- =============================================================================================
-- Two changes that let the batches of a sweep run side by side at the speed of their writes:
--
-- * A batch is a range of flight ids (fromId..toId, the batch_size due flights between them when
--   the sweep started) and the cut-off its flights must not have been checked since
--   (checkedBefore: the sweep's start less the check interval), instead of a list of 500 ids.
--   Planning no longer aggregates every due id into JSON, and claiming a batch no longer unpacks
--   one. It still means the same flights on every attempt: identities only grow, so a flight
--   added during the sweep lies beyond every range and waits for the next sweep, and a flight
--   checked since the sweep began (by hand, or by an earlier attempt of its batch that did commit)
--   is past the cut-off.
-- * Each batch's counts are the result of its price_check job (complete_job), committed with its
--   prices: no batch is counted twice or half. Adding them to the sweep's log row in every
--   batch's transaction (20261124000100_job_queue.sql) made that row a lock every batch held until
--   its commit, so the batches of several workers committed one after another. The log row is
--   written by finish_price_sweep instead, at the end of every run: the totals so far while
--   batches are left, the final ones once none is. Done jobs are pruned after a week, by which
--   time any sweep has long finished and its totals sit on its log row.

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
  v_checked_before timestamptz;
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
  v_checked_before := v_sweep.started_at - make_interval(mins => p_interval_minutes);

  with due as (
    select f.id, (row_number() over (order by f.id) - 1) / p_batch_size as batch
      from public.flights f
     where private.flight_is_due(f, v_checked_before)
  ),
  batches as (
    select d.batch, min(d.id) as from_id, max(d.id) as to_id, count(*)::integer as flights
      from due d
     group by d.batch
  ),
  enqueued as (
    select b.flights,
           private.enqueue_job(
             'price_check',
             jsonb_build_object('sweepId', v_sweep.id, 'startedAt', v_sweep.started_at,
                                'checkedBefore', v_checked_before, 'batch', b.batch,
                                'fromId', b.from_id, 'toId', b.to_id),
             null,
             'price_check:sweep:' || v_sweep.id || ':batch:' || b.batch) as job_id
      from batches b
  )
  select coalesce(sum(e.flights), 0)::integer, count(e.job_id)::integer into v_due, v_batches from enqueued e;

  update public.price_check_logs l
     set additional_data = jsonb_build_object(
           'flightsDue', v_due, 'batches', v_batches,
           'checkIntervalMinutes', p_interval_minutes, 'batchSize', p_batch_size)
   where l.id = v_sweep.id;

  return query select v_sweep.id, v_sweep.started_at, false, v_due, v_batches;
end;
$$;

-- Batches queued or held when this migration runs become ranges over the same flights, with the
-- cut-off their loading used (the sweep's start).
update public.jobs j
   set payload = (j.payload - 'flightIds') || jsonb_build_object(
         'fromId', (select min(x::bigint) from jsonb_array_elements_text(j.payload -> 'flightIds') x),
         'toId', (select max(x::bigint) from jsonb_array_elements_text(j.payload -> 'flightIds') x),
         'checkedBefore', coalesce(j.payload -> 'startedAt', (
           select to_jsonb(l.started_at) from public.price_check_logs l
            where l.id = (j.payload ->> 'sweepId')::bigint)))
 where j.kind = 'price_check'
   and j.payload ? 'flightIds'
   and j.status in ('queued', 'running');

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
  v_dead integer;
  v_errors text;
  v_error text;
begin
  select * into v_sweep from public.price_check_logs l where l.id = p_sweep_id for update;
  if not found then
    raise exception 'no price sweep %', p_sweep_id using errcode = 'P0002';
  end if;

  if v_sweep.status = 'running' then
    select count(*) filter (where j.status in ('queued', 'running'))::integer,
           coalesce(sum((j.result ->> 'checked')::integer) filter (where j.status = 'done'), 0)::integer,
           coalesce(sum((j.result ->> 'drops')::integer) filter (where j.status = 'done'), 0)::integer,
           coalesce(sum((j.result ->> 'quotes')::integer) filter (where j.status = 'done'), 0)::integer,
           coalesce(sum((j.result ->> 'quoteErrors')::integer) filter (where j.status = 'done'), 0)::integer,
           count(*) filter (where j.status = 'dead')::integer,
           string_agg(distinct coalesce(j.result ->> 'quoteError', j.last_error), '; ')
             filter (where (j.status = 'done' and j.result ->> 'quoteError' is not null) or j.status = 'dead')
      into v_outstanding, v_checked, v_drops, v_quotes, v_quote_errors, v_dead, v_errors
      from public.jobs j
     where j.kind = 'price_check'
       and (j.payload ->> 'sweepId')::bigint = p_sweep_id;

    if v_outstanding = 0 then
      v_error := nullif(left(concat_ws(': ',
        nullif(concat_ws(', ',
          case when v_quote_errors > 0 then v_quote_errors || ' flight(s) could not be quoted' end,
          case when v_dead > 0 then v_dead || ' batch(es) failed' end), ''),
        v_errors), 1000), '');
    end if;

    update public.price_check_logs l
       set total_flights_checked = v_checked,
           total_price_drops_found = v_drops,
           additional_data = coalesce(l.additional_data, '{}'::jsonb) || jsonb_build_object(
             'quotesMade', v_quotes, 'quoteErrors', v_quote_errors, 'failedBatches', v_dead),
           status = case when v_outstanding > 0 then 'running' when v_error is null then 'completed' else 'failed' end,
           success = v_outstanding = 0 and v_error is null,
           error_message = v_error,
           finished_at = case when v_outstanding > 0 then null else clock_timestamp() end,
           execution_time_ms = case when v_outstanding > 0 then l.execution_time_ms else least(2147483647,
             floor(extract(epoch from clock_timestamp() - l.started_at) * 1000))::integer end
     where l.id = p_sweep_id
    returning * into v_sweep;
  end if;

  return query select v_sweep.status <> 'running', v_sweep.total_flights_checked, v_sweep.total_price_drops_found,
    coalesce((v_sweep.additional_data ->> 'quotesMade')::integer, 0),
    v_sweep.execution_time_ms, v_sweep.success, v_sweep.error_message;
end;
$$;
