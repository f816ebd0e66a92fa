-- profiles_time_zone_check calls private.is_time_zone(), and a CHECK constraint runs as whoever
-- writes the row. Migration 20261125110000 revoked the function from service_role, so every
-- update of a profile as service_role (the Supabase service key; the database tests' system
-- actor) failed with "permission denied for function is_time_zone". service_role may write every
-- profile column anyway; it gets the check back.
grant execute on function private.is_time_zone(text) to service_role;
