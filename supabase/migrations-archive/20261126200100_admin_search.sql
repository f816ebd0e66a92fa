-- =============================================================================================
-- Admin list searches that can use their trigram indexes
-- =============================================================================================
-- The admin lists run as the admin, under row-level security. PostgreSQL evaluates a policy's
-- condition before any condition of the query whose operator is not leakproof, and ILIKE is not:
-- so under a policy `booking_code ilike '%A3F%'` can never be an index condition, and the trigram
-- indexes of migration 20261126200000 went unused (every search read every flight: 0.9 s at
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

revoke all on function private.admin_flight_ids_matching(text, text, text) from public, anon, authenticated, service_role;
revoke all on function private.admin_profile_ids_matching(text) from public, anon, authenticated, service_role;
grant execute on function private.admin_flight_ids_matching(text, text, text) to authenticated;
grant execute on function private.admin_profile_ids_matching(text) to authenticated;
