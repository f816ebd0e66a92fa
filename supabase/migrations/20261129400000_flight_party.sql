-- =============================================================================================
-- A flight keeps its party: how many travel on the booking (issue 28, "every passenger")
-- =============================================================================================
-- The email extractor returns each booking's travellers and their number (the party: the count
-- the mail states or the travellers it names, whichever is more; extraction/names.ts
-- mergeTravellers deduplicates them). The scan stores that number on the flight it makes, so a
-- fare search for the flight can ask for every seat, not one. A flight added by hand, or from mail
-- that names and counts no traveller, has no party (null), never a guessed one. Nine is the most
-- one reservation holds; a group booking past it is stored without a party.
-- The cabin is never invented either: an email that states no cabin gives a flight whose
-- cabin_class is null (the column was already nullable; only its comment says so now).
--
-- Intended schema differences (for the catalog comparison of the issue 22 baseline):
--   * public.flights: new column passenger_count smallint (nullable, no default) with the check
--     flights_passenger_count_range (passenger_count between 1 and 9), and its comment.
--   * public.flights.cabin_class: comment rewritten (null when the email named no cabin).
-- No grant changes: authenticated reads public.flights whole (select on the table), and only the
-- api's service connection writes flights.

alter table public.flights add column passenger_count smallint;
alter table public.flights
  add constraint flights_passenger_count_range check (passenger_count between 1 and 9);

comment on column public.flights.passenger_count is
  'How many travel on the booking (the party), as its email counted or named them; null when not known (a flight added by hand, mail naming no traveller, a group past 9).';
comment on column public.flights.cabin_class is
  'Cabin as the fare source retrieved it or the email said; null when the email named no cabin.';
