-- =============================================================================================
-- Recent prices on the flight row
-- =============================================================================================
-- The dashboard's flight list shows each card's last 30 price checks. Reading them from
-- flight_prices meant a sorted index scan per flight on every list request, about half of the
-- request's database time (bench/api.ts). recent_prices keeps those points on the flight row as
-- a JSON array, oldest first, in the api's shape ({price, checkedAt}); flight_prices stays the
-- full history. recordPriceChecks (api/queries/price-checks.ts), the only writer of price
-- history, appends to both in the same statement; refresh_recent_prices rebuilds the array from
-- flight_prices (the backfill below, and seeds that write flight_prices directly).

alter table public.flights
  add column recent_prices jsonb not null default '[]'::jsonb,
  add constraint flights_recent_prices_array check (jsonb_typeof(recent_prices) = 'array');

create or replace function private.refresh_recent_prices(flight_ids bigint[])
returns void
language sql
security definer
set search_path = ''
as $$
  update public.flights f
     set recent_prices = coalesce((
           select jsonb_agg(jsonb_build_object(
                    'price', p.price,
                    'checkedAt', to_char(p.checked_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
                  ) order by p.checked_at)
             from (
               select fp.price, fp.checked_at
                 from public.flight_prices fp
                where fp.flight_id = f.id and fp.user_id = f.user_id
                order by fp.checked_at desc
                limit 30
             ) p
         ), '[]'::jsonb)
   where f.id = any(flight_ids);
$$;

revoke all on function private.refresh_recent_prices(bigint[]) from public, anon, authenticated;
grant execute on function private.refresh_recent_prices(bigint[]) to service_role;

select private.refresh_recent_prices(array(select id from public.flights));
