-- =============================================================================================
-- Admin reports: the dashboard's stats, and what the flights and billing lists search and sort
-- =============================================================================================
-- GET /api/admin/stats reads private.admin_stats (one statement); GET /api/admin/flights and
-- /api/admin/billing page through flights and billing_transactions with the shared list
-- convention (api/queries/admin-reports.ts). Sized for 10,000 travellers, 100,000 flights and
-- 50,000 transactions (npm run -s bench:admin; docs/architecture.md "Admin API: stats and lists").

-- ---------------------------------------------------------------------------------------------
-- When a price drop was found
-- ---------------------------------------------------------------------------------------------
-- A price drop, for the admin stats, is a flight on which a check found a fare below what the
-- traveller paid (the rule of price checks and of the flight card: eligible fare or not). It is
-- counted once per flight, on the UTC day it was first found, whatever the fare did afterwards:
-- a flight that drops, recovers and drops again is one price drop. Every rebooked flight had one
-- (a rebooking starts from a drop). The time is kept on the flight, set once by the trigger
-- below, so the stats and the chart count drops without reading the price history.

alter table public.flights add column price_drop_found_at timestamptz;

comment on column public.flights.price_drop_found_at is
  'When a price check first found a fare below original_price for this flight (the admin stats'' price drop), '
  'set once by private.note_price_drop_found; null: no drop found yet.';

-- Flights already in the database: the first recorded quote below the price paid, else (a drop
-- recorded before the price history, or a rebooking) the last check or the rebooking time.
update public.flights f
   set price_drop_found_at = coalesce(
     (select min(fp.checked_at) from public.flight_prices fp
       where fp.flight_id = f.id and fp.user_id = f.user_id and fp.price < f.original_price),
     f.rebooking_date, f.last_checked, f.updated_at)
 where f.price_drop_found_at is null
   and (f.current_price < f.original_price or f.has_been_rebooked or f.status = 'price_drop');

create or replace function private.note_price_drop_found()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.price_drop_found_at := coalesce(new.last_checked, new.rebooking_date, now());
  return new;
end;
$$;

comment on function private.note_price_drop_found() is
  'Trigger: stamps flights.price_drop_found_at the first time a flight''s current fare is below what was paid '
  '(or it is rebooked), with the check''s time (last_checked), else the rebooking''s, else now.';

revoke all on function private.note_price_drop_found() from public, anon, authenticated, service_role;

-- WHEN clauses: a check that finds no new drop calls no function.
create trigger flights_note_price_drop_found_on_insert
  before insert on public.flights
  for each row
  when (new.price_drop_found_at is null and (new.current_price < new.original_price or new.has_been_rebooked))
  execute function private.note_price_drop_found();

create trigger flights_note_price_drop_found_on_update
  before update on public.flights
  for each row
  when (old.price_drop_found_at is null and new.price_drop_found_at is null
        and (new.current_price < new.original_price or new.has_been_rebooked))
  execute function private.note_price_drop_found();

create index flights_price_drop_found_at_idx on public.flights (price_drop_found_at)
  where price_drop_found_at is not null;
comment on index public.flights_price_drop_found_at_idx is
  'Admin stats: price drops per day (the chart''s series).';

-- ---------------------------------------------------------------------------------------------
-- Contains-search: pg_trgm
-- ---------------------------------------------------------------------------------------------
-- The admin lists search with ILIKE '%text%' (api/queries/pagination.ts containsPattern); a
-- trigram GIN index answers that without reading every row. pg_trgm is a trusted extension
-- (Supabase lists it; PostgreSQL's contrib locally; PGlite loads it in dev/db/pglite-server.ts),
-- created in the extensions schema as Supabase does. Its functions are executable by PUBLIC
-- and belong to the bootstrap superuser (a trusted extension's are), so this role cannot revoke
-- them; they are no endpoint of the data API, which does not expose the extensions schema
-- (supabase/config.toml; the privilege allow-list names them).

create extension if not exists pg_trgm with schema extensions;

create index flights_booking_code_trgm_idx on public.flights using gin (booking_code extensions.gin_trgm_ops);
comment on index public.flights_booking_code_trgm_idx is 'Admin flights list: search by booking code (ILIKE).';
create index flights_airline_trgm_idx on public.flights using gin (airline extensions.gin_trgm_ops);
comment on index public.flights_airline_trgm_idx is 'Admin flights list: search by airline (ILIKE).';
create index flights_flight_number_trgm_idx on public.flights using gin (flight_number extensions.gin_trgm_ops);
comment on index public.flights_flight_number_trgm_idx is 'Admin flights list: search by flight number (ILIKE).';
create index flights_route_idx on public.flights (departure_airport, arrival_airport);
comment on index public.flights_route_idx is 'Admin flights list: search by route (JFK-LAX) or departure airport (JFK).';
create index flights_arrival_airport_idx on public.flights (arrival_airport);
comment on index public.flights_arrival_airport_idx is 'Admin flights list: search by arrival airport (JFK).';

create index profiles_username_trgm_idx on public.profiles using gin (username extensions.gin_trgm_ops);
comment on index public.profiles_username_trgm_idx is 'Admin users and billing lists: search by username (ILIKE).';
create index profiles_email_trgm_idx on public.profiles using gin (email extensions.gin_trgm_ops);
comment on index public.profiles_email_trgm_idx is 'Admin users and billing lists: search by email (ILIKE).';

-- ---------------------------------------------------------------------------------------------
-- The lists' default orders
-- ---------------------------------------------------------------------------------------------
-- Newest first, ties by id (the list convention: api/queries/pagination.ts), so the first page
-- reads 25 index entries instead of sorting every row. The lists sort "desc nulls last": the
-- index says so to match. Ascending orders read the same index backwards for the tie only; the
-- planner sorts those.

create index flights_created_at_id_idx on public.flights (created_at desc nulls last, id desc);
comment on index public.flights_created_at_id_idx is 'Admin flights list: newest first (its default order).';
create index billing_transactions_date_id_idx
  on public.billing_transactions (transaction_date desc nulls last, id desc);
comment on index public.billing_transactions_date_id_idx is 'Admin billing list: newest first (its default order).';

-- ---------------------------------------------------------------------------------------------
-- The stats
-- ---------------------------------------------------------------------------------------------

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
       and (private.rebooking_verdict(f, p) ->> 'qualifies')::boolean
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
  'potential rebookable = status price_drop, watched, and private.rebooking_verdict qualifies (the automatic rule''s thresholds); '
  'price drops = flights on which a fare below the price paid was ever found (flights.price_drop_found_at), '
  'in the series on the UTC day first found; rebooked = has_been_rebooked, in the series and the last 30 days by rebooking_date; '
  'savings = the rebooked flights'' airline credit (cents); average = savings / rebooked, rounded, 0 without rebookings; '
  'commissions owed and paid = the sums of profiles.commission_owed and commission_paid (cents).';

revoke all on function private.admin_stats(integer) from public, anon, authenticated, service_role;
grant execute on function private.admin_stats(integer) to authenticated;
