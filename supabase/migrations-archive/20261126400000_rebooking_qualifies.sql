-- Stats speed: the automatic rebooking rule as inlinable SQL.
-- private.rebooking_verdict (plpgsql, security definer) cost about 90 us per call; GET /api/admin/stats
-- called it once per watched price drop (~10,000 at bench:admin's scale) only to read 'qualifies'.
-- The rule now lives in two language sql functions without SET or security definer, which the
-- planner inlines into the query that calls them:
--   private.rebooking_min_net_savings(f, p)  the smallest net savings the owner's thresholds accept
--   private.rebooking_qualifies(f, p)        eligible fare, a drop, net savings >= that minimum
-- The verdict takes its minNetSavings and qualifies from them (its output is unchanged; its text
-- is presentation only), so there is one rule. private.admin_stats and the start of an automatic
-- run, which only need the boolean, call private.rebooking_qualifies.
-- private.route_crosses_border stays a security definer function (it reads airport countries,
-- which nobody else may read); it is only called when the owner uses separate international
-- thresholds (CASE evaluates it on that branch only). The admin's stats run as the admin, so
-- authenticated gets EXECUTE on it: it answers only whether two airport codes are in different
-- countries. private.flight_is_watched is already inlinable language sql (migration
-- 20261125300000) and is left as it is.

create or replace function private.rebooking_min_net_savings(f public.flights, p public.profiles)
returns integer
language sql
stable
as $$
  select greatest(1, case
    when p.use_separate_international_thresholds
         and private.route_crosses_border(f.departure_airport, f.arrival_airport) then
      case when p.threshold_condition = 'both'
           then greatest(p.international_min_savings_amount,
                         ceil(p.international_min_savings_percent::numeric * f.original_price / 100)::integer)
           else least(p.international_min_savings_amount,
                      ceil(p.international_min_savings_percent::numeric * f.original_price / 100)::integer) end
    else
      case when p.threshold_condition = 'both'
           then greatest(p.min_savings_amount, ceil(p.min_savings_percent::numeric * f.original_price / 100)::integer)
           else least(p.min_savings_amount, ceil(p.min_savings_percent::numeric * f.original_price / 100)::integer) end
    end)
$$;

create or replace function private.rebooking_qualifies(f public.flights, p public.profiles)
returns boolean
language sql
stable
as $$
  select case
    when f.current_price is null or f.current_price >= f.original_price then false
    else f.is_eligible_for_rebooking
         and f.original_price - f.current_price - coalesce(f.change_penalty, 0)
             >= private.rebooking_min_net_savings(f, p)
  end
$$;

revoke all on function private.rebooking_min_net_savings(public.flights, public.profiles) from public, anon, authenticated, service_role;
revoke all on function private.rebooking_qualifies(public.flights, public.profiles) from public, anon, authenticated, service_role;
-- as the verdict: the admin's stats run as the admin; the service role reads every flight anyway
grant execute on function private.rebooking_min_net_savings(public.flights, public.profiles) to authenticated, service_role;
grant execute on function private.rebooking_qualifies(public.flights, public.profiles) to authenticated, service_role;
grant execute on function private.route_crosses_border(text, text) to authenticated, service_role;

comment on function private.rebooking_min_net_savings(public.flights, public.profiles) is
  'The smallest net savings (cents, at least 1) the owner''s thresholds accept for this flight: amount (cents) and '
  'percent of the price paid, ''either'' (the smaller) or ''both'' (the larger); the international pair when '
  'use_separate_international_thresholds is on and private.route_crosses_border. Inlinable SQL; the verdict''s minNetSavings.';
comment on function private.rebooking_qualifies(public.flights, public.profiles) is
  'The automatic rebooking rule: true when the fare is eligible (is_eligible_for_rebooking), there is a drop '
  '(current_price below original_price) and net savings (original - current - change_penalty, cents) reach '
  'private.rebooking_min_net_savings. Inlinable SQL (no security definer, no SET) so set-wide counts cost no call per row; '
  'private.rebooking_verdict''s qualifies is this function.';

create or replace function private.rebooking_verdict(f public.flights, p public.profiles)
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  v_drop integer;
  v_penalty integer := coalesce(f.change_penalty, 0);
  v_net integer;
  v_international boolean;
  v_separate boolean;
  v_percent integer;
  v_amount integer;
  v_min integer;
  v_qualifies boolean;
  v_lead text;
  v_threshold text;
  v_reason text;
begin
  if f.current_price is null or f.current_price >= f.original_price then
    return jsonb_build_object(
      'netSavings', 0, 'changePenalty', f.change_penalty, 'refundForm', f.refund_form,
      'qualifies', false, 'international', null, 'minNetSavings', null,
      'reason', 'No price drop: the current fare is not below what you paid.');
  end if;

  v_drop := f.original_price - f.current_price;
  v_net := v_drop - v_penalty;
  v_international := private.route_crosses_border(f.departure_airport, f.arrival_airport);
  v_separate := p.use_separate_international_thresholds and v_international;
  v_percent := case when v_separate then p.international_min_savings_percent else p.min_savings_percent end;
  v_amount := case when v_separate then p.international_min_savings_amount else p.min_savings_amount end;
  v_min := private.rebooking_min_net_savings(f, p);
  v_qualifies := private.rebooking_qualifies(f, p);

  v_threshold := private.money_text(v_amount)
    || case when p.threshold_condition = 'both' then ' and ' else ' or ' end || v_percent || '%'
    || case when v_separate then ' for international trips' else '' end;
  if v_net <= 0 then
    v_reason := 'The ' || private.money_text(v_penalty) || ' change fee is at least the '
      || private.money_text(v_drop) || ' drop, so changing would not save anything.';
  else
    v_lead := 'Saves ' || private.money_text(v_net) || ' ('
      || to_char(round(v_net * 100.0 / greatest(f.original_price, 1), 1), 'FM990.0') || '%) '
      || case when f.refund_form = 'cash' then 'as a refund' else 'as airline credit' end
      || case when v_penalty > 0 then ' after a ' || private.money_text(v_penalty) || ' change fee' else '' end;
    if not f.is_eligible_for_rebooking then
      v_reason := v_lead || ' if changed, but this fare cannot be changed automatically.';
    elsif v_qualifies then
      v_reason := v_lead || ', which meets your rebooking threshold of ' || v_threshold || '.';
    else
      v_reason := v_lead || ', below your rebooking threshold of ' || v_threshold || '.';
    end if;
  end if;

  return jsonb_build_object(
    'netSavings', v_net, 'changePenalty', f.change_penalty, 'refundForm', f.refund_form,
    'qualifies', v_qualifies, 'international', v_international, 'minNetSavings', v_min,
    'reason', v_reason);
end;
$$;


create or replace function private.start_auto_rebooking_run(
  p_trigger text,
  p_initiated_by uuid,
  p_scope_user uuid,
  p_batch_size integer
)
returns table (run_id bigint, resumed boolean, flights_evaluated integer, flights_qualifying integer, batches integer)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_run public.auto_rebooking_logs%rowtype;
  v_evaluated integer;
  v_qualifying integer;
  v_batches integer;
begin
  if p_batch_size is null or p_batch_size < 1 then
    raise exception 'batch size must be at least 1' using errcode = '22023';
  end if;
  perform pg_advisory_xact_lock(hashtext('fareback.auto_rebooking.start'));

  update public.auto_rebooking_logs l
     set status = 'failed', success = false, finished_at = now(),
         error_message = coalesce(l.error_message || '; ', '')
           || 'The run did not finish within an hour; its flights are evaluated again by the next run.'
   where l.status = 'running' and l.started_at < now() - interval '1 hour';

  select * into v_run from public.auto_rebooking_logs l
   where l.status = 'running' and l.scope_user_id is not distinct from p_scope_user
   order by l.id limit 1;
  if found then
    return query select v_run.id, true, v_run.total_flights_evaluated,
      coalesce((v_run.additional_data ->> 'flightsQualifying')::integer, 0), v_run.batches;
    return;
  end if;

  insert into public.auto_rebooking_logs (status, trigger, initiated_by, scope_user_id, success)
  values ('running', p_trigger, p_initiated_by, p_scope_user, false)
  returning * into v_run;

  with watched as (
    select f.id, f.status, f as flight, p as traveller
      from public.profiles p
      join public.subscription_plans sp on sp.id = p.plan_id
      join public.flights f on f.user_id = p.id
     where sp.tier = 'premium' and p.auto_rebooking
       and (p_scope_user is null or p.id = p_scope_user)
       and private.flight_is_watched(f)
  ),
  qualifying as (
    select w.id, (row_number() over (order by w.id) - 1) / p_batch_size as batch
      from watched w
     where w.status = 'price_drop'
       and private.rebooking_qualifies(w.flight, w.traveller)
  ),
  grouped as (
    select q.batch, jsonb_agg(q.id order by q.id) as flight_ids
      from qualifying q
     group by q.batch
  ),
  enqueued as (
    select private.enqueue_job(
             case when p_scope_user is null then 'auto_rebook_batch' else 'auto_rebook_own' end,
             jsonb_build_object('runId', v_run.id, 'batch', g.batch, 'flightIds', g.flight_ids),
             null,
             'auto_rebook:run:' || v_run.id || ':batch:' || g.batch) as job_id
      from grouped g
  )
  select (select count(*) from watched)::integer,
         (select count(*) from qualifying)::integer,
         (select count(*) from enqueued)::integer
    into v_evaluated, v_qualifying, v_batches;

  update public.auto_rebooking_logs l
     set total_flights_evaluated = v_evaluated,
         batches = v_batches,
         additional_data = jsonb_build_object('flightsQualifying', v_qualifying, 'batchSize', p_batch_size)
   where l.id = v_run.id;

  if v_batches = 0 then
    perform private.finish_auto_rebooking_run(v_run.id);
  end if;

  return query select v_run.id, false, v_evaluated, v_qualifying, v_batches;
end;
$$;

create or replace function private.admin_stats(p_days integer)
returns jsonb
language sql
stable
set search_path = ''
as $$
  with bounds as (
    select (now() at time zone 'UTC')::date - (p_days - 1) as first_day,
           (now() at time zone 'UTC')::date as last_day,
           ((now() at time zone 'UTC')::date - (p_days - 1))::timestamp at time zone 'UTC' as since,
           now() - interval '30 days' as month_ago
  ),
  users as (
    select count(*)::int as total,
           count(*) filter (where sp.tier = 'premium')::int as premium,
           count(*) filter (where p.created_at >= b.month_ago)::int as new_last_30,
           coalesce(sum(p.commission_owed), 0)::bigint as owed,
           coalesce(sum(p.commission_paid), 0)::bigint as paid
      from public.profiles p
      join public.subscription_plans sp on sp.id = p.plan_id
     cross join bounds b
  ),
  flight_counts as (
    select count(*)::int as total,
           count(*) filter (where private.flight_is_watched(f))::int as monitored,
           count(*) filter (where f.departure_date >= current_date)::int as upcoming,
           count(*) filter (where f.price_drop_found_at is not null)::int as price_drops,
           count(*) filter (where f.has_been_rebooked)::int as rebooked,
           count(*) filter (where f.has_been_rebooked and f.rebooking_date >= b.month_ago)::int as rebooked_last_30,
           coalesce(sum(f.airline_credit) filter (where f.has_been_rebooked), 0)::bigint as savings
      from public.flights f
     cross join bounds b
  ),
  rebookable as (
    select count(*)::int as n
      from public.flights f
      join public.profiles p on p.id = f.user_id
     where f.status = 'price_drop'
       and private.flight_is_watched(f)
       and private.rebooking_qualifies(f, p)
  ),
  drops_by_day as (
    select (f.price_drop_found_at at time zone 'UTC')::date as day, count(*)::int as n
      from public.flights f, bounds b
     where f.price_drop_found_at >= b.since
     group by 1
  ),
  rebookings_by_day as (
    select (f.rebooking_date at time zone 'UTC')::date as day, count(*)::int as n,
           coalesce(sum(f.airline_credit), 0)::bigint as savings
      from public.flights f, bounds b
     where f.has_been_rebooked and f.rebooking_date >= b.since
     group by 1
  ),
  series as (
    select coalesce(jsonb_agg(jsonb_build_object(
             'date', to_char(d.day, 'YYYY-MM-DD'),
             'priceDrops', coalesce(dr.n, 0),
             'rebookings', coalesce(rb.n, 0),
             'savings', coalesce(rb.savings, 0)) order by d.day), '[]'::jsonb) as days
      from bounds b
     cross join lateral generate_series(b.first_day, b.last_day, interval '1 day') as g(ts)
     cross join lateral (select g.ts::date as day) d
      left join drops_by_day dr on dr.day = d.day
      left join rebookings_by_day rb on rb.day = d.day
  )
  select jsonb_build_object(
    'totalUsers', u.total,
    'premiumUsers', u.premium,
    'freeUsers', u.total - u.premium,
    'newUsersLast30Days', u.new_last_30,
    'totalFlights', fc.total,
    'currentlyMonitoredFlights', fc.monitored,
    'upcomingFlights', fc.upcoming,
    'potentialRebookableFlights', r.n,
    'totalPriceDrops', fc.price_drops,
    'totalRebookedFlights', fc.rebooked,
    'rebookingsLast30Days', fc.rebooked_last_30,
    'totalSavings', fc.savings,
    'averageSavingsPerRebooking', case when fc.rebooked = 0 then 0 else round(fc.savings::numeric / fc.rebooked)::bigint end,
    'totalCommissionsOwed', u.owed,
    'totalCommissionsPaid', u.paid,
    'series', s.days)
    from users u, flight_counts fc, rebookable r, series s
$$;

comment on function private.admin_stats(integer) is
  'GET /api/admin/stats: spec section 3''s admin stats and the chart''s series over the last p_days UTC days '
  '(oldest first, every day present, zeros included), as one jsonb object; money in cents. Run as the admin '
  '(security invoker: row-level security shows an admin every row, anyone else only their own). '
  'Users: every profile; premium = on a plan of tier premium; new = created within the last 30 days (24 h periods, now included). '
  'Flights: monitored = private.flight_is_watched; upcoming = departure day today (server date) or later; '
  'potential rebookable = status price_drop, watched, and private.rebooking_qualifies (the automatic rule''s thresholds); '
  'price drops = flights on which a fare below the price paid was ever found (flights.price_drop_found_at), '
  'in the series on the UTC day first found; rebooked = has_been_rebooked, in the series and the last 30 days by rebooking_date; '
  'savings = the rebooked flights'' airline credit (cents); average = savings / rebooked, rounded, 0 without rebookings; '
  'commissions owed and paid = the sums of profiles.commission_owed and commission_paid (cents).';
