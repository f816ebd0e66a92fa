-- =============================================================================================
-- Profiles point at their plan by id
-- =============================================================================================
-- Until now a profile named its plan by text (subscription_tier = 'premium') and kept its own copy
-- of the plan's flight limit, and the commission was found by matching that text against plan
-- names: renaming the Premium plan would have dropped every premium traveller's commission to
-- nothing. Now:
--   * subscription_plans.tier says which tier a plan gives ('free' or 'premium'; premium is what
--     automatic rebooking needs), whatever the plan is called;
--   * profiles.plan_id is a foreign key to the plan; the flight limit, the commission rate and the
--     tier are read from that row wherever they matter (the flight-limit trigger, the auto-rebooking
--     rule, the api's queries and the commission of a rebooking). A plan anyone is on cannot be
--     deleted (plans are deactivated, never deleted); a traveller on a retired plan keeps its terms.
--   * a new account is on the free plan: the active plan of tier free with the lowest id.
-- The Free and Premium plans of the spec are created here when no plan of their tier exists yet
-- (on a database the seed already filled, its plans are kept and given their tier), since every
-- account needs one.

alter table public.subscription_plans
  add column tier text not null default 'free',
  add constraint subscription_plans_tier_check check (tier in ('free', 'premium'));

update public.subscription_plans
   set tier = case
     when lower(name) = 'free' then 'free'
     when lower(name) = 'premium' or auto_rebooking_enabled then 'premium'
     else 'free'
   end;

insert into public.subscription_plans
  (name, tier, price, flight_limit, auto_rebooking_enabled, commission_rate, description, is_active, features)
select 'Free', 'free', 0, 5, false, 0,
       'Monitor up to 5 flights with email price-drop alerts and manual rebooking.',
       true,
       '["Up to 5 monitored flights", "Email price-drop alerts", "Manual rebooking"]'::jsonb
 where not exists (select 1 from public.subscription_plans where tier = 'free');

insert into public.subscription_plans
  (name, tier, price, flight_limit, auto_rebooking_enabled, commission_rate, description, is_active, features)
select 'Premium', 'premium', 2499, -1, true, 25,
       'Unlimited monitoring and automatic rebooking when savings pass your threshold. Billed annually; 25% commission on airline credits, charged only on success.',
       true,
       '["Unlimited flight monitoring", "Automatic price drop detection", "Auto-rebooking when savings exceed your threshold", "Customizable rebooking thresholds", "Priority email notifications"]'::jsonb
 where not exists (select 1 from public.subscription_plans where tier = 'premium');

create index subscription_plans_tier_idx on public.subscription_plans (tier, is_active, id);

-- admins choose a plan's tier with its other fields (the policies allow admins only)
grant insert (tier), update (tier) on table public.subscription_plans to authenticated;

-- =============================================================================================
-- The default plan
-- =============================================================================================

create or replace function private.default_plan_id()
returns bigint
language sql
stable
security definer
set search_path = ''
as $$
  select sp.id from public.subscription_plans sp
   where sp.tier = 'free'
   order by sp.is_active desc, sp.id
   limit 1
$$;

revoke all on function private.default_plan_id() from public, anon, authenticated, service_role;

-- =============================================================================================
-- profiles.plan_id
-- =============================================================================================
-- Existing profiles: the plan their tier named, found as the commission used to find it (the
-- active plan of that name), else the first plan of that tier.

alter table public.profiles add column plan_id bigint;

update public.profiles p
   set plan_id = coalesce(
     (select sp.id from public.subscription_plans sp
       where lower(sp.name) = lower(p.subscription_tier) and sp.is_active
       order by sp.id limit 1),
     (select sp.id from public.subscription_plans sp
       where sp.tier = lower(p.subscription_tier)
       order by sp.is_active desc, sp.id limit 1));

drop trigger profiles_enforce_auto_rebooking_premium on public.profiles;
drop index public.profiles_subscription_tier_idx;
alter table public.profiles
  drop constraint profiles_subscription_tier_check,
  drop constraint profiles_flight_limit_check,
  drop column subscription_tier,
  drop column flight_limit,
  alter column plan_id set not null,
  add constraint profiles_plan_id_fkey foreign key (plan_id) references public.subscription_plans (id);

create index profiles_plan_id_idx on public.profiles (plan_id);

-- A profile without a plan (the sign-up trigger names none) starts on the default plan. Named to
-- fire before profiles_enforce_auto_rebooking_premium, which reads the plan.
create or replace function private.assign_default_plan()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.plan_id is null then
    new.plan_id := private.default_plan_id();
    if new.plan_id is null then
      raise exception 'No free plan exists for a new account to start on.' using errcode = '23502';
    end if;
  end if;
  return new;
end;
$$;

revoke all on function private.assign_default_plan() from public, anon, authenticated, service_role;

create trigger profiles_assign_plan
  before insert on public.profiles
  for each row execute function private.assign_default_plan();

-- A traveller reads their own plan whatever its state (a retired plan is hidden from the list of
-- plans on offer, not from the people still on it).
create policy "Users can view the plan they are on"
  on public.subscription_plans for select
  to authenticated
  using (id = (select p.plan_id from public.profiles p where p.id = (select auth.uid())));

-- =============================================================================================
-- Rules that read the plan
-- =============================================================================================

-- Automatic rebooking is a premium feature, for everyone (users and system alike). Leaving a
-- premium plan turns it off, as the spec's downgrade does. Security definer: it reads the plans,
-- whose policies hide retired ones from the traveller making the change.
create or replace function private.enforce_auto_rebooking_premium()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  new_tier text;
  old_tier text;
begin
  select sp.tier into new_tier from public.subscription_plans sp where sp.id = new.plan_id;
  if tg_op = 'UPDATE' and new.plan_id is distinct from old.plan_id then
    select sp.tier into old_tier from public.subscription_plans sp where sp.id = old.plan_id;
    if old_tier = 'premium' and new_tier is distinct from 'premium' then
      new.auto_rebooking := false;
    end if;
  end if;

  if new.auto_rebooking and new_tier is distinct from 'premium' then
    raise exception 'Premium subscription required for automatic rebooking.'
      using errcode = '42501';
  end if;

  return new;
end;
$$;

create trigger profiles_enforce_auto_rebooking_premium
  before insert or update on public.profiles
  for each row execute function private.enforce_auto_rebooking_premium();

-- The flight limit is the plan's; -1 is unlimited.
create or replace function private.enforce_flight_limit()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  plan_limit integer;
  watched integer;
begin
  if not private.flight_is_watched(new) then
    return new;
  end if;

  -- the owner's row is locked so two concurrent adds cannot both take the last slot
  select sp.flight_limit into plan_limit
    from public.profiles p
    join public.subscription_plans sp on sp.id = p.plan_id
   where p.id = new.user_id
   for update of p;

  if plan_limit is null or plan_limit = -1 then
    return new;
  end if;

  select count(*) into watched
    from public.flights f
   where f.user_id = new.user_id
     and private.flight_is_watched(f);

  if watched >= plan_limit then
    raise exception 'Flight limit reached: your plan monitors up to % flights.', plan_limit
      using errcode = 'FB409';
  end if;

  return new;
end;
$$;
