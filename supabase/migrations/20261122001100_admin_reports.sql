-- =============================================================================================
-- Admin reports: the dashboard's stats, and what the flights and billing lists search and sort
-- =============================================================================================
-- GET /api/admin/stats reads private.admin_stats (one statement); GET /api/admin/flights and
-- /api/admin/billing page through flights and billing_transactions with the shared list
-- convention (api/queries/admin-reports.ts), on the indexes beside those tables (flights and
-- prices, billing and payments areas). Sized for 10,000 travellers, 100,000 flights and 50,000
-- transactions (npm run -s bench:admin; docs/architecture.md "Admin API: stats and lists").

-- ---------------------------------------------------------------------------------------------
-- Alert precision
-- ---------------------------------------------------------------------------------------------
-- How often an alert was right (issue 24, "proof of a drop"): of the drops whose alert went out
-- (private.price_drops.alerted_at) and whose fare has been tried since (held known: rebooked, a
-- rebooking refused for the fare, or a check within a day of the alert), the share whose fare
-- still held. The drops are the api's own table, so this reads them as definer for admins only.
create or replace function private.alert_precision()
returns table (alerted integer, judged integer, held integer)
language sql
stable
security definer
set search_path = ''
as $$
  select count(*)::int,
         count(*) filter (where d.held is not null)::int,
         count(*) filter (where d.held)::int
    from private.price_drops d
   where d.alerted_at is not null and (select private.is_admin())
$$;

comment on function private.alert_precision() is
  'Admin stats: alerted drops (private.price_drops.alerted_at set), those whose fare was tried since (held known), and those whose fare held. Zeros for anyone but an admin.';

revoke all on function private.alert_precision() from public, anon, authenticated, service_role;
grant execute on function private.alert_precision() to authenticated;

-- ---------------------------------------------------------------------------------------------
-- The stats
-- ---------------------------------------------------------------------------------------------
-- The automatic rule's thresholds come through private.rebooking_qualifies, which the planner
-- inlines (the plpgsql verdict cost about 90 us per call, once per watched price drop).
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
    'alertedDrops', ap.alerted,
    'alertsJudged', ap.judged,
    'alertPrecision', case when ap.judged = 0 then null else round(100.0 * ap.held / ap.judged)::int end,
    'series', s.days)
    from users u, flight_counts fc, rebookable r, series s, private.alert_precision() ap
$$;

comment on function private.admin_stats(integer) is
  'GET /api/admin/stats: spec section 3''s admin stats and the chart''s series over the last p_days UTC days '
  '(oldest first, every day present, zeros included), as one jsonb object; money in cents. Run as the admin '
  '(security invoker: row-level security shows an admin every row, anyone else only their own). '
  'Users: every profile; premium = on a plan of tier premium; new = created within the last 30 days (24 h periods, now included). '
  'Flights: monitored = private.flight_is_watched; upcoming = departure day today (server date) or later; '
  'potential rebookable = status price_drop, watched, and private.rebooking_verdict qualifies (the automatic rule''s thresholds); '
  'price drops = flights on which a fare below the price paid was ever found (flights.price_drop_found_at), '
  'in the series on the UTC day first found; rebooked = has_been_rebooked, in the series and the last 30 days by rebooking_date; '
  'savings = the rebooked flights'' airline credit (cents); average = savings / rebooked, rounded, 0 without rebookings; '
  'commissions owed and paid = the sums of profiles.commission_owed and commission_paid (cents); '
  'alert precision = the percent of alerted drops whose fare held when next tried (private.alert_precision), null before any.';

revoke all on function private.admin_stats(integer) from public, anon, authenticated, service_role;
grant execute on function private.admin_stats(integer) to authenticated;

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
  'commissions owed and paid = the sums of profiles.commission_owed and commission_paid (cents); '
  'alert precision = the percent of alerted drops whose fare held when next tried (private.alert_precision), null before any.';

-- =============================================================================================
-- Admin list searches that can use their trigram indexes
-- =============================================================================================
-- The admin lists run as the admin, under row-level security. PostgreSQL evaluates a policy's
-- condition before any condition of the query whose operator is not leakproof, and ILIKE is not:
-- so under a policy `booking_code ilike '%A3F%'` can never be an index condition, and the trigram
-- indexes on flights and profiles would go unused (every search read every flight: 0.9 s at
-- 100,000 flights on the bench machine). These two functions find the matching ids as their owner
-- (BYPASSRLS), where the indexes apply, for an admin only (anyone else gets no id), and the lists
-- then read the rows by id under the policies as before, so row-level security still decides what
-- the caller sees. Patterns come from containsPattern (api/queries/pagination.ts).
create or replace function private.admin_flight_ids_matching(p_pattern text, p_from text, p_to text)
returns setof bigint
language sql
stable
security definer
set search_path = ''
rows 100
as $$
  select f.id from public.flights f
   where private.is_admin()
     and (f.booking_code ilike p_pattern or f.airline ilike p_pattern or f.flight_number ilike p_pattern)
  union
  select f.id from public.flights f
   where private.is_admin() and p_from is not null and p_to is null
     and (f.departure_airport = p_from or f.arrival_airport = p_from)
  union
  select f.id from public.flights f
   where private.is_admin() and p_from is not null and p_to is not null
     and f.departure_airport = p_from and f.arrival_airport = p_to
$$;

comment on function private.admin_flight_ids_matching(text, text, text) is
  'The admin flights list''s search (GET /api/admin/flights?q=): ids of the flights whose booking code, airline or flight '
  'number matches the ILIKE pattern p_pattern, or whose route is p_from-p_to, or (p_to null) that leave from or arrive at '
  'p_from. Security definer so the trigram and route indexes apply (ILIKE is not leakproof, so under row-level security '
  'it cannot use an index); nothing for a caller who is not an admin. The list reads the rows under its policies.';

revoke all on function private.admin_flight_ids_matching(text, text, text) from public, anon, authenticated, service_role;
grant execute on function private.admin_flight_ids_matching(text, text, text) to authenticated;

create or replace function private.admin_profile_ids_matching(p_pattern text)
returns setof uuid
language sql
stable
security definer
set search_path = ''
rows 100
as $$
  select p.id from public.profiles p
   where private.is_admin() and (p.username ilike p_pattern or p.email ilike p_pattern)
$$;

comment on function private.admin_profile_ids_matching(text) is
  'The admin lists'' search by traveller (billing, users): ids of the profiles whose username or email matches the ILIKE '
  'pattern p_pattern. Security definer so the trigram indexes apply (ILIKE is not leakproof, so under row-level security '
  'it cannot use an index); nothing for a caller who is not an admin. The list reads the rows under its policies.';

revoke all on function private.admin_profile_ids_matching(text) from public, anon, authenticated, service_role;
grant execute on function private.admin_profile_ids_matching(text) to authenticated;
