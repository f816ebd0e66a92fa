-- =============================================================================================
-- Which flights are watched, and which are due for a check: each rule once
-- =============================================================================================
-- Until now the same conditions were written out in the flight-limit trigger, the sweep's
-- planning, the api's queries and the dashboard, and had drifted apart (the limit ignored a flight
-- whose departure day had passed but no job had marked departed, the web counter counted departed
-- and cancelled flights). Every one of them now calls these functions.
--
-- Watched: FareBack still has a fare to watch for the traveller. Not rebooked, not departed or
-- cancelled, and its departure day not past (a flight whose day has gone has departed, marked or
-- not). A flight being rebooked is still watched: a refused rebooking gives it back. Watched
-- flights are what the plan's flight limit counts, the dashboard's Monitored Flights and the free
-- plan's "N of 5" counter.
--
-- Checkable: watched and not being rebooked; a price check (Check Now or a sweep) may record a
-- quote on it. A late quote must not undo a rebooking or reopen a finished flight.
--
-- Due: checkable and not checked since `checked_before` (a sweep's start less the check interval).
--
-- SQL functions without SET search_path on purpose: the planner inlines them into the query that
-- calls them, so a sweep over every flight costs no function call per row. They read only their
-- argument and current_date. Run by the api as the user (the dashboard, the flight list, the
-- limit check before a search), hence EXECUTE on the watched rule for authenticated; the service
-- role, which reads and writes every flight anyway, may use all three.

create or replace function private.flight_is_watched(f public.flights)
returns boolean
language sql
stable
as $$
  select not f.has_been_rebooked
     and f.status not in ('rebooked', 'departed', 'cancelled')
     and f.departure_date >= current_date
$$;

create or replace function private.flight_is_checkable(f public.flights)
returns boolean
language sql
stable
as $$
  select private.flight_is_watched(f) and f.status <> 'rebooking'
$$;

create or replace function private.flight_is_due(f public.flights, p_checked_before timestamptz)
returns boolean
language sql
stable
as $$
  select private.flight_is_checkable(f) and (f.last_checked is null or f.last_checked < p_checked_before)
$$;

revoke all on function private.flight_is_watched(public.flights) from public, anon, authenticated;
revoke all on function private.flight_is_checkable(public.flights) from public, anon, authenticated;
revoke all on function private.flight_is_due(public.flights, timestamptz) from public, anon, authenticated;
grant execute on function private.flight_is_watched(public.flights) to authenticated, service_role;
grant execute on function private.flight_is_checkable(public.flights) to service_role;
grant execute on function private.flight_is_due(public.flights, timestamptz) to service_role;

-- =============================================================================================
-- The plan's flight limit counts watched flights
-- =============================================================================================
-- A flight added as already rebooked, departed or cancelled (an import of past trips) adds nothing
-- to the count, so it is never refused.

create or replace function private.enforce_flight_limit()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  plan_limit integer;
  watched integer;
begin
  if not private.flight_is_watched(new) then
    return new;
  end if;

  select p.flight_limit into plan_limit
    from public.profiles p
   where p.id = new.user_id
   for update;

  if plan_limit is null or plan_limit = -1 then
    return new;
  end if;

  select count(*) into watched
    from public.flights f
   where f.user_id = new.user_id
     and private.flight_is_watched(f);

  if watched >= plan_limit then
    raise exception 'Flight limit reached: your plan monitors up to % flights.', plan_limit
      using errcode = 'FB409';
  end if;

  return new;
end;
$$;

-- =============================================================================================
-- A sweep enqueues the due flights
-- =============================================================================================
-- As in 20261124000100_job_queue.sql, with the due rule above.

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

  -- explicit flight ids: a flight added during the sweep waits for the next one, and a batch
  -- means the same flights on every attempt
  with due as (
    select f.id, (row_number() over (order by f.id) - 1) / p_batch_size as batch
      from public.flights f
     where private.flight_is_due(f, v_sweep.started_at - make_interval(mins => p_interval_minutes))
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
