-- =============================================================================================
-- Rules of plans and of unsubscribed email kinds, in the database
-- =============================================================================================
-- Every privilege `authenticated` holds is an endpoint of the data API. Admins may insert and
-- update plans there (column grants of migration 20261126110000), and travellers may update
-- their own profiles.unsubscribed_kinds (migration 20261125110000). The api held both to rules
-- the database did not know, so the data API could write a free plan with a price, a premium
-- plan with neither a price nor automatic rebooking, or any list of any strings as unsubscribed
-- kinds. This migration puts those rules in CHECK constraints; supabase/tests/data-rules.test.ts
-- writes each refused value as the roles would and compares the constraints with the api's
-- schema (_shared/schemas/admin.ts) and tier rule (planTier in api/services/admin-plans.ts).

-- =============================================================================================
-- subscription_plans
-- =============================================================================================
-- The tier is derived, never chosen (docs/architecture.md "Admin API: plans"): a plan with a
-- price or with automatic rebooking is premium (checkout sells it; automatic rebooking needs that
-- tier), any other is free. The bounds are the admin schema's: a price of at most $1,000,000 (a
-- typo guard) and a flight limit of at most 100,000 (the lower bounds and the commission rate's
-- 0 to 100 percent are older constraints).
--
-- A write that names a tier against that rule is refused (23514). An insert that names none
-- gets the derived one (the column has no default any more: a default of 'free' made every
-- insert of a paid plan that left it out a refused write); an update keeps naming it, so
-- changing a paid plan to free says so and meets the guard on tier changes
-- (private.guard_plan_tier_change: not while travellers are on it).
--
-- NOT VALID, then validated where every row complies: a database whose operator wrote a plan
-- that breaks a rule (only possible by hand until now) still deploys, and the rule holds for
-- every write from here on; the warning names the constraint to fix by hand.
alter table public.subscription_plans
  add constraint subscription_plans_tier_derived
    check (tier = case when price > 0 or auto_rebooking_enabled then 'premium' else 'free' end) not valid,
  add constraint subscription_plans_price_max check (price <= 100000000) not valid,
  add constraint subscription_plans_flight_limit_max check (flight_limit <= 100000) not valid;

create function private.derive_plan_tier()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.tier := coalesce(new.tier,
                       case when new.price > 0 or new.auto_rebooking_enabled then 'premium' else 'free' end);
  return new;
end;
$$;

comment on function private.derive_plan_tier() is
  'Trigger: a plan inserted without a tier gets the one its price and automatic rebooking give (premium if either, else free).';

alter table public.subscription_plans alter column tier drop default;

create trigger subscription_plans_derive_tier
  before insert on public.subscription_plans
  for each row execute function private.derive_plan_tier();

do $$
declare
  c text;
begin
  foreach c in array array['subscription_plans_tier_derived', 'subscription_plans_price_max',
                           'subscription_plans_flight_limit_max'] loop
    begin
      execute format('alter table public.subscription_plans validate constraint %I', c);
    exception when check_violation then
      raise warning 'public.subscription_plans: a plan breaks % (fix it, then VALIDATE CONSTRAINT)', c;
    end;
  end loop;
end;
$$;

-- =============================================================================================
-- profiles.unsubscribed_kinds
-- =============================================================================================
-- The email kinds without a notify_* switch of their own that an unsubscribe link turns off
-- (private.unsubscribe_notification_kind appends them; UNSUBSCRIBE_KIND_DESCRIPTIONS in
-- _shared/types/unsubscribe.ts says what each stops): only those kinds, each at most once, in a
-- one-dimensional list. That bounds the list to the number of kinds. Built-in functions only: a
-- CHECK runs with the writer's privileges, and private functions are not granted to them.
-- A new kind without a switch joins the list here (data-rules.test.ts fails until it does).
update public.profiles p
   set unsubscribed_kinds = array(
         select distinct k from unnest(p.unsubscribed_kinds) k
          where k in ('credit_expiring', 'import_over_limit') order by k)
 where not (
   coalesce(array_ndims(p.unsubscribed_kinds), 1) = 1
   and p.unsubscribed_kinds <@ array['credit_expiring', 'import_over_limit']
   and cardinality(array_positions(p.unsubscribed_kinds, 'credit_expiring')) <= 1
   and cardinality(array_positions(p.unsubscribed_kinds, 'import_over_limit')) <= 1
 );

alter table public.profiles
  add constraint profiles_unsubscribed_kinds_known check (
    coalesce(array_ndims(unsubscribed_kinds), 1) = 1
    and unsubscribed_kinds <@ array['credit_expiring', 'import_over_limit']
    and cardinality(array_positions(unsubscribed_kinds, 'credit_expiring')) <= 1
    and cardinality(array_positions(unsubscribed_kinds, 'import_over_limit')) <= 1
  );

comment on column public.subscription_plans.tier is
  'What the plan gives: ''free'' or ''premium'' (premium allows automatic rebooking and custom rebooking thresholds), whatever it is called. Derived, never chosen: premium when the plan has a price or automatic rebooking, else free (CHECK subscription_plans_tier_derived; an insert without a tier gets that one).';
