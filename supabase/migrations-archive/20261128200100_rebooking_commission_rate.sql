-- =============================================================================================
-- A rebooking keeps its commission rate, and a guided rebooking's declared credit its review flag
-- =============================================================================================
-- Issue 21, finding 7.
--   * flights.commission_rate: the rate of the plan the traveller was on when the rebooking was
--     recorded (queries/flights.ts recordRebooking writes it with commission_amount). A later
--     change of the plan's rate changes neither: the admin list shows what was charged.
--   * flights.credit_review: why the airline credit a traveller declared on a guided
--     (airline-direct) rebooking needs an admin's look (it is low for the fare drop FareBack
--     found; _shared/flights/rules.ts creditPlausibility), or null. Credits outside the plausible
--     range are refused by the api (400), so this flags the ones inside it but off the expected.

alter table public.flights
  add column commission_rate integer,
  add column credit_review text,
  add constraint flights_commission_rate_range check (commission_rate is null or commission_rate between 0 and 100),
  add constraint flights_credit_review_length check (credit_review is null or char_length(credit_review) <= 500);

comment on column public.flights.commission_rate is
  'Commission rate (integer percent) of the plan the traveller was on when the rebooking was recorded; null before a rebooking. commission_amount = round(airline_credit x commission_rate / 100).';
comment on column public.flights.credit_review is
  'Why the airline credit declared on a guided rebooking needs an admin''s review (below what the fare drop makes expected), or null.';

-- Backfill: rebookings recorded before this migration. Their rate was the owner's plan's at the
-- time; where the owner's plan's rate now still gives the commission recorded, it is that one;
-- otherwise the rate the recorded commission implies (exact for credits of $1 or more, where
-- rounding to the cent cannot hide a whole percent); otherwise the plan's.
update public.flights f
   set commission_rate = case
         when round(coalesce(f.airline_credit, 0) * coalesce(sp.commission_rate, 0) / 100.0)
              = coalesce(f.commission_amount, 0)
           then coalesce(sp.commission_rate, 0)
         when coalesce(f.airline_credit, 0) >= 100
           then least(100, greatest(0, round(coalesce(f.commission_amount, 0) * 100.0 / f.airline_credit)))::integer
         else coalesce(sp.commission_rate, 0)
       end
  from public.profiles p
  join public.subscription_plans sp on sp.id = p.plan_id
 where p.id = f.user_id and f.has_been_rebooked and f.commission_rate is null;
