-- =============================================================================================
-- Settings: the last open stored limit, and rebooking thresholds for premium travellers only
-- =============================================================================================
-- The settings calls validate with shared schemas built from the CHECK constraints of
-- public.profiles (supabase/functions/_shared/schemas/settings.ts; a test compares the two).
--
-- 1. min_price_drop had a floor and no ceiling. A price-alert threshold above $100,000 means
--    "never alert", which the notify switch already says; it is capped at 10,000,000 cents.
-- 2. Customisable rebooking thresholds are a premium feature. The api checks the plan, but the
--    columns are granted to authenticated (the user's own connection writes them), and on
--    Supabase each grant is also a data-API endpoint: this trigger refuses a traveller on a plan
--    of another tier changing them there too. System work (service connection, security definer
--    functions, a downgrade) passes through, and a free traveller keeps the stored values.
--    Not security definer, so private.is_end_user() sees the caller's role; a traveller reads
--    their own plan through the policy "Users can view the plan they are on".

update public.profiles set min_price_drop = 10000000 where min_price_drop > 10000000;

alter table public.profiles
  drop constraint profiles_min_price_drop_nonnegative,
  add constraint profiles_min_price_drop_range check (min_price_drop between 0 and 10000000);

create or replace function private.enforce_rebooking_thresholds_premium()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  plan_tier text;
begin
  if not private.is_end_user() then
    return new;
  end if;

  if (new.min_savings_percent, new.min_savings_amount, new.threshold_condition,
      new.use_separate_international_thresholds,
      new.international_min_savings_percent, new.international_min_savings_amount)
     is not distinct from
     (old.min_savings_percent, old.min_savings_amount, old.threshold_condition,
      old.use_separate_international_thresholds,
      old.international_min_savings_percent, old.international_min_savings_amount) then
    return new;
  end if;

  select sp.tier into plan_tier from public.subscription_plans sp where sp.id = new.plan_id;
  if plan_tier is distinct from 'premium' then
    raise exception 'Premium subscription required to customize rebooking thresholds.'
      using errcode = '42501';
  end if;

  return new;
end;
$$;

revoke all on function private.enforce_rebooking_thresholds_premium() from public, anon, authenticated;

create trigger profiles_enforce_rebooking_thresholds_premium
  before update on public.profiles
  for each row execute function private.enforce_rebooking_thresholds_premium();
