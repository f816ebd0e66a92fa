-- =============================================================================================
-- Flights per traveller, kept on the profile
-- =============================================================================================
-- The admin users list shows and sorts by each traveller's number of flights. Counting them per
-- row of a 10,000-traveller list took most of its time (a count over 100,000 flights for every
-- page, and for a sort by that count every traveller's), so the count is kept on the profile by a
-- trigger on flights, in the transaction that adds or removes the flight. Adding a flight already
-- locks its owner's profile row (the flight-limit trigger), so keeping the count adds no waiting.

alter table public.profiles
  add column flight_count integer not null default 0,
  add constraint profiles_flight_count_nonnegative check (flight_count >= 0);

comment on column public.profiles.flight_count is
  'How many flights the traveller has, watched or not (rows of public.flights), kept by the trigger '
  'flights_count_per_traveller; the admin users list shows and sorts by it.';

update public.profiles p
   set flight_count = (select count(*) from public.flights f where f.user_id = p.id)
 where exists (select 1 from public.flights f where f.user_id = p.id);

create or replace function private.count_traveller_flights()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op in ('DELETE', 'UPDATE') then
    update public.profiles set flight_count = flight_count - 1 where id = old.user_id;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    update public.profiles set flight_count = flight_count + 1 where id = new.user_id;
  end if;
  return null;
end;
$$;

revoke all on function private.count_traveller_flights() from public, anon, authenticated, service_role;
comment on function private.count_traveller_flights() is
  'Trigger: keeps profiles.flight_count equal to the traveller''s number of flights (insert, delete, '
  'and a flight moved to another traveller).';

create trigger flights_count_per_traveller
  after insert or delete on public.flights
  for each row execute function private.count_traveller_flights();

create trigger flights_count_per_traveller_moved
  after update of user_id on public.flights
  for each row
  when (old.user_id is distinct from new.user_id)
  execute function private.count_traveller_flights();
