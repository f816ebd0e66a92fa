-- =============================================================================================
-- Flight rebooking
-- =============================================================================================
-- What the fare source can do for a flight, and the claim that makes a rebooking happen once.
--
-- rebooking_method: 'source' when the fare source changes the booking itself (the simulated
-- source, Duffel orders); 'assisted' when the traveller changes it with the airline and then
-- confirms the new price and credit. source_reference is the source's id for the booking (a
-- Duffel order id). commission_amount is what this flight's rebooking added to the owner's
-- commission balance (premium plans), kept for the Rebooking Details dialog.
--
-- status 'rebooking' is a short claim: the api moves price_drop -> rebooking in one conditional
-- update before calling the source, so of two concurrent rebook calls exactly one proceeds.
-- rebooking_claimed_at lets a claim left by a crashed request be taken again after a while.

alter table public.flights
  add column rebooking_method text not null default 'assisted',
  add column source_reference text,
  add column commission_amount integer,
  add column rebooking_claimed_at timestamptz,
  add constraint flights_rebooking_method_check check (rebooking_method in ('source', 'assisted')),
  add constraint flights_source_reference_length
    check (source_reference is null or char_length(source_reference) <= 100),
  add constraint flights_commission_amount_nonnegative check (commission_amount is null or commission_amount >= 0);

alter table public.flights drop constraint flights_status_check;
alter table public.flights add constraint flights_status_check
  check (status in ('monitoring', 'price_drop', 'limited', 'rebooking', 'rebooked', 'departed', 'cancelled'));

-- The user adds flights with what the fare source retrieved for them, including how it can be
-- rebooked; everything after that is the system's.
grant insert (rebooking_method, source_reference) on table public.flights to authenticated;

-- A flight a user adds gets its status from its fare alone: eligible fares are monitored, the
-- rest are 'limited'. Set here rather than granted, so nobody can insert a flight as already
-- rebooked or as a price drop. System inserts (service role, seeds, imports) set what they mean.
create or replace function private.set_initial_flight_status()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if current_user not in ('authenticated', 'anon') then
    return new;
  end if;
  new.status := case when new.is_eligible_for_rebooking then 'monitoring' else 'limited' end;
  new.rebooking_claimed_at := null;
  return new;
end;
$$;

revoke all on function private.set_initial_flight_status() from public, anon, authenticated;

create trigger flights_set_initial_status
  before insert on public.flights
  for each row execute function private.set_initial_flight_status();
