-- =============================================================================================
-- Profiles
-- =============================================================================================
-- One row per account, keyed by auth.users.id and created by a trigger when Supabase Auth inserts
-- the user. Supabase Auth holds the password; there is no password column here.
--
-- Money is integer cents everywhere. The spec's client default minPriceDrop "25, presumably
-- dollars" is therefore stored as 2500 cents in min_price_drop.

create table public.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  username text not null,
  email text,

  email_connected boolean not null default false,
  auto_rebooking boolean not null default false,
  notify_price_drops boolean not null default true,
  notify_rebookings boolean not null default true,
  notify_cancellations boolean not null default true,
  is_admin boolean not null default false,

  -- price alert thresholds (their bounds are the stored limits the settings forms check)
  threshold_type text not null default 'percent',
  percent_threshold integer not null default 10,
  absolute_threshold integer not null default 2000,
  min_price_drop integer not null default 2500,
  min_price_drop_percent integer not null default 10,

  -- rebooking thresholds
  min_savings_percent integer not null default 15,
  min_savings_amount integer not null default 5000,
  threshold_condition text not null default 'either',
  use_separate_international_thresholds boolean not null default false,
  international_min_savings_percent integer not null default 20,
  international_min_savings_amount integer not null default 10000,

  -- notification preferences
  notification_frequency text not null default 'instant',
  notification_time text not null default '09:00',
  notify_email boolean not null default true,
  notify_push boolean not null default false,
  notify_sms boolean not null default false,

  -- subscription and billing (changed only by the system or security definer functions)
  subscription_tier text not null default 'free',
  subscription_start_date timestamptz,
  subscription_end_date timestamptz,
  total_credits_earned integer not null default 0,
  commission_owed integer not null default 0,
  last_billing_date timestamptz,
  flight_limit integer not null default 5,

  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),

  constraint profiles_username_format check (username ~ '^[A-Za-z0-9_.-]{3,30}$'),
  constraint profiles_email_length check (email is null or char_length(email) between 3 and 320),
  constraint profiles_threshold_type_check check (threshold_type in ('percent', 'absolute')),
  constraint profiles_percent_threshold_range check (percent_threshold between 1 and 90),
  constraint profiles_absolute_threshold_range check (absolute_threshold between 100 and 100000),
  constraint profiles_min_price_drop_nonnegative check (min_price_drop >= 0),
  constraint profiles_min_price_drop_percent_range check (min_price_drop_percent between 0 and 100),
  constraint profiles_min_savings_percent_range check (min_savings_percent between 1 and 90),
  constraint profiles_min_savings_amount_range check (min_savings_amount between 100 and 100000),
  constraint profiles_threshold_condition_check check (threshold_condition in ('either', 'both')),
  constraint profiles_international_min_savings_percent_range
    check (international_min_savings_percent between 1 and 90),
  constraint profiles_international_min_savings_amount_range
    check (international_min_savings_amount between 100 and 100000),
  constraint profiles_notification_frequency_check
    check (notification_frequency in ('instant', 'daily', 'weekly')),
  constraint profiles_notification_time_format
    check (notification_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  constraint profiles_subscription_tier_check check (lower(subscription_tier) in ('free', 'premium')),
  constraint profiles_subscription_dates_order
    check (subscription_end_date is null or subscription_start_date is null
           or subscription_end_date >= subscription_start_date),
  constraint profiles_total_credits_earned_nonnegative check (total_credits_earned >= 0),
  constraint profiles_commission_owed_nonnegative check (commission_owed >= 0),
  constraint profiles_flight_limit_check check (flight_limit = -1 or flight_limit >= 0)
);

alter table public.profiles enable row level security;

-- Usernames and emails are unique regardless of case (no citext: lower() unique indexes).
create unique index profiles_username_lower_key on public.profiles (lower(username));
create unique index profiles_email_lower_key on public.profiles (lower(email));
-- Admin dashboard: users, premium/free counts, new users in the last 30 days.
create index profiles_is_admin_idx on public.profiles (is_admin);
create index profiles_created_at_idx on public.profiles (created_at);
create index profiles_subscription_tier_idx on public.profiles (lower(subscription_tier));

-- =============================================================================================
-- Grants
-- =============================================================================================
-- Deny by default. A user may read their row and change only their preferences. is_admin is
-- granted too, but only for admins acting on another user (policy + trigger below). Everything
-- else (tier, flight limit, credits, commission, billing dates, email, username, email_connected)
-- changes only through service_role or security definer functions.

revoke all on table public.profiles from anon, authenticated;
grant select on table public.profiles to authenticated;
grant update (
  auto_rebooking,
  notify_price_drops, notify_rebookings, notify_cancellations,
  threshold_type, percent_threshold, absolute_threshold,
  min_price_drop, min_price_drop_percent,
  min_savings_percent, min_savings_amount, threshold_condition,
  use_separate_international_thresholds,
  international_min_savings_percent, international_min_savings_amount,
  notification_frequency, notification_time, notify_email, notify_push, notify_sms,
  is_admin
) on table public.profiles to authenticated;

-- =============================================================================================
-- Policies
-- =============================================================================================

create policy "Users can view their own profile"
  on public.profiles for select
  to authenticated
  using (id = (select auth.uid()));

create policy "Admins can view every profile"
  on public.profiles for select
  to authenticated
  using ((select private.is_admin()));

create policy "Users can update their own profile"
  on public.profiles for update
  to authenticated
  using (id = (select auth.uid()))
  with check (id = (select auth.uid()));

create policy "Admins can update any profile"
  on public.profiles for update
  to authenticated
  using ((select private.is_admin()))
  with check ((select private.is_admin()));

-- No insert or delete policies: profiles come from the auth.users trigger and go with the user.

-- =============================================================================================
-- Triggers: guard rails for updates
-- =============================================================================================

-- Column grants say which columns a user may touch; this trigger says whose. An end user may
-- change is_admin only as an admin acting on another user (an admin cannot demote themselves
-- and lock everyone out), and an admin acting on another user may change nothing but is_admin.
-- System work (service_role, postgres, security definer functions) passes through.
create or replace function private.guard_profile_update()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if not private.is_end_user() then
    return new;
  end if;

  if new.is_admin is distinct from old.is_admin
     and (old.id = (select auth.uid()) or not private.is_admin()) then
    raise exception 'Only an administrator can change another user''s admin status.'
      using errcode = '42501';
  end if;

  if old.id is distinct from (select auth.uid())
     and (to_jsonb(new) - 'is_admin' - 'updated_at') <> (to_jsonb(old) - 'is_admin' - 'updated_at') then
    raise exception 'Administrators can only change another user''s admin status.'
      using errcode = '42501';
  end if;

  return new;
end;
$$;

revoke all on function private.guard_profile_update() from public, anon, authenticated;

create trigger profiles_guard_update
  before update on public.profiles
  for each row execute function private.guard_profile_update();

-- Automatic rebooking is a premium feature, for everyone (users and system alike). Leaving
-- premium turns it off, as the spec's downgrade does.
create or replace function private.enforce_auto_rebooking_premium()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'UPDATE'
     and lower(old.subscription_tier) = 'premium'
     and lower(new.subscription_tier) <> 'premium' then
    new.auto_rebooking := false;
  end if;

  if new.auto_rebooking and lower(new.subscription_tier) <> 'premium' then
    raise exception 'Premium subscription required for automatic rebooking.'
      using errcode = '42501';
  end if;

  return new;
end;
$$;

revoke all on function private.enforce_auto_rebooking_premium() from public, anon, authenticated;

create trigger profiles_enforce_auto_rebooking_premium
  before insert or update on public.profiles
  for each row execute function private.enforce_auto_rebooking_premium();

create trigger profiles_set_updated_at
  before update on public.profiles
  for each row execute function private.set_updated_at();

-- =============================================================================================
-- Triggers on auth.users: create the profile, keep its email in sync
-- =============================================================================================

-- The username comes from the sign-up metadata when it is present, valid and free; otherwise it
-- is derived from the email's local part (sanitised) and made unique with a numeric suffix.
-- A concurrent sign-up taking the same name is caught by the unique index and retried.
create or replace function private.handle_new_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  requested text := nullif(btrim(new.raw_user_meta_data ->> 'username'), '');
  base text;
  candidate text;
  suffix integer := 0;
  failed_constraint text;
begin
  -- the local part without a +tag, lower-cased, keeping only the characters a username allows
  base := regexp_replace(
    lower(split_part(split_part(coalesce(new.email, ''), '@', 1), '+', 1)),
    '[^a-z0-9_.-]', '', 'g');
  if char_length(base) < 3 then
    base := 'user' || base;
  end if;
  base := left(base, 30);

  if requested is not null
     and requested ~ '^[A-Za-z0-9_.-]{3,30}$'
     and not exists (select 1 from public.profiles p where lower(p.username) = lower(requested)) then
    candidate := requested;
  else
    candidate := base;
  end if;

  loop
    if candidate is distinct from requested then
      -- skip names already taken without paying for a failed insert
      while exists (select 1 from public.profiles p where lower(p.username) = lower(candidate)) loop
        suffix := suffix + 1;
        candidate := left(base, 30 - char_length(suffix::text)) || suffix::text;
      end loop;
    end if;

    begin
      insert into public.profiles (id, username, email)
      values (new.id, candidate, new.email);
      return new;
    exception when unique_violation then
      get stacked diagnostics failed_constraint = constraint_name;
      if failed_constraint is distinct from 'profiles_username_lower_key' then
        raise;
      end if;
      suffix := suffix + 1;
      candidate := left(base, 30 - char_length(suffix::text)) || suffix::text;
    end;
  end loop;
end;
$$;

revoke all on function private.handle_new_user() from public, anon, authenticated;

create trigger on_auth_user_created
  after insert on auth.users
  for each row execute function private.handle_new_user();

create or replace function private.handle_user_email_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.profiles
     set email = new.email
   where id = new.id
     and email is distinct from new.email;
  return new;
end;
$$;

revoke all on function private.handle_user_email_change() from public, anon, authenticated;

create trigger on_auth_user_email_changed
  after update of email on auth.users
  for each row execute function private.handle_user_email_change();

-- =============================================================================================
-- Admin flag for the seed step
-- =============================================================================================

-- Flags the account with this email as an administrator; true when one was found. Used by the
-- local stack's seed step for the demo admin, and by operators on a real project.
create or replace function private.make_admin(p_email text)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  flagged integer;
begin
  update public.profiles
     set is_admin = true
   where lower(email) = lower(btrim(p_email));
  get diagnostics flagged = row_count;
  return flagged > 0;
end;
$$;

revoke all on function private.make_admin(text) from public, anon, authenticated;
grant execute on function private.make_admin(text) to service_role;
