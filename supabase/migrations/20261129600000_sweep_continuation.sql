-- =============================================================================================
-- A sweep continues at the next run; pruning finds each kind's newest job through an index
-- =============================================================================================
-- A scheduled sweep works until its run's deadline (about 50 s), and a run comes every minute.
-- When its run ends with batches left, the price_sweep job enqueues a continuation of the same
-- kind (api/services/price-sweep.ts) that the next run picks up, keyed by the sweep and the
-- number of its batches still outstanding (`price_sweep:sweep:<id>:left:<n>`): that number only
-- falls, so each step of a sweep has one continuation however many jobs reach it, and a run that
-- made no progress answers its own key rather than queueing another. The sweep itself stays one:
-- private.start_price_sweep answers the running sweep to every start (the next period's job
-- included), so continuations never overlap a second sweep.
--
-- Intended schema differences (for the catalog comparison of the issue 22 baseline):
--   * private.finish_price_sweep(bigint) also returns batches_left (the sweep's batches queued or
--     running; 0 once it is closed): dropped and created again, same body otherwise, same grants
--     (owner only) and its comment says so.
--   * index added: jobs_kind_newest_idx on public.jobs (kind, id desc).
--   * private.prune_jobs(interval, interval) finds each kind's newest job by walking that index,
--     one probe per kind (a loose index scan), instead of reading the whole queue, and is plpgsql
--     (was sql) so that its delete is planned with the intervals and uses jobs_finished_idx; same
--     rule, same answer, comment and grants.
--   * private.job_kinds: the description of price_sweep names its continuations.

-- =============================================================================================
-- A sweep's batches left
-- =============================================================================================

drop function private.finish_price_sweep(bigint);

create function private.finish_price_sweep(p_sweep_id bigint)
returns table (
  finished boolean,
  total_flights_checked integer,
  total_price_drops_found integer,
  quotes_made integer,
  execution_time_ms integer,
  success boolean,
  error_message text,
  batches_left integer
)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_sweep public.price_check_logs%rowtype;
  v_outstanding integer := 0;
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
    v_sweep.execution_time_ms, v_sweep.success, v_sweep.error_message, v_outstanding;
end;
$$;

revoke all on function private.finish_price_sweep(bigint) from public, anon, authenticated, service_role;

comment on function private.finish_price_sweep(bigint) is
  'Writes a sweep''s totals from its jobs and closes it once no batch is outstanding; answers them with the batches left (queued or running, 0 once closed); idempotent.';

update private.job_kinds
   set description = 'Every 15 minutes: start a price sweep of the due flights (or resume the running one) and work on its price_check batches until the run''s deadline; a run that ends with batches left enqueues a continuation (key price_sweep:sweep:<id>:left:<n>) for the next run.'
 where kind = 'price_sweep';

-- =============================================================================================
-- Each kind's newest job, through an index
-- =============================================================================================
-- Pruning keeps each kind's newest job (20261129200000_one_scheduler.sql). Grouping the queue by
-- kind read every row (the planner has no skip scan); walking (kind, id desc) from one kind to
-- the next reads one index entry per kind. plpgsql rather than sql: a SQL function's statement
-- is planned with its intervals unknown, so the planner guessed a third of the queue expired and
-- read all of it; plpgsql plans with the values, and jobs_finished_idx finds the expired rows.

create index jobs_kind_newest_idx on public.jobs (kind, id desc);

create or replace function private.prune_jobs(
  p_done_after interval default interval '7 days',
  p_dead_after interval default interval '30 days'
)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_pruned integer;
begin
  with recursive newest (kind, id) as (
    (select j.kind, j.id from public.jobs j order by j.kind, j.id desc limit 1)
    union all
    select later.kind, later.id
      from newest n
     cross join lateral (
       select j.kind, j.id from public.jobs j where j.kind > n.kind order by j.kind, j.id desc limit 1
     ) later
  )
  delete from public.jobs j
   where ((j.status = 'done' and j.finished_at < now() - p_done_after)
          or (j.status = 'dead' and j.finished_at < now() - p_dead_after))
     and j.id not in (select n.id from newest n);
  get diagnostics v_pruned = row_count;
  return v_pruned;
end;
$$;
