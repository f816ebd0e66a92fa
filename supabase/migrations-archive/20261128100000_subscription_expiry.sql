-- =============================================================================================
-- The end of a paid year (issue 21, finding 2)
-- =============================================================================================
-- Nothing read profiles.subscription_end_date, so a one-year payment gave Premium for life. A
-- daily pass (the job queue's `subscription_expiry` kind: recurring work of the one job runner,
-- services/subscription-expiry.ts) moves every traveller whose paid period ended and who does
-- not renew through Stripe to the free plan: automatic rebooking off, the free flight limit
-- (flights beyond it kept but no longer watched), nothing deleted; and tells them through the
-- outbox. A subscription Stripe renews, or is still retrying (past_due), is left to Stripe's
-- webhooks (customer.subscription.updated / deleted).

-- ---- the move to the free plan: one home for the downgrade, the expiry and a dispute ---------
-- The traveller's own downgrade (queries/billing.ts moveToFreePlan), the expiry below and a
-- disputed subscription payment (migration 20261128100100) all call it. Automatic rebooking is
-- premium only (the profile trigger turns it off when leaving a premium plan; set here too, so
-- the move does not depend on which plan it came from).
create or replace function private.move_to_free_plan(p_user_id uuid)
returns void
language sql
security definer
set search_path = ''
as $$
  update public.profiles set plan_id = private.default_plan_id(), auto_rebooking = false where id = p_user_id;
$$;

revoke all on function private.move_to_free_plan(uuid) from public, anon, authenticated, service_role;
comment on function private.move_to_free_plan(uuid) is
  'Puts a traveller on the free plan (private.default_plan_id) with automatic rebooking off. Deletes '
  'nothing. Called by the downgrade, the expiry pass and a disputed subscription payment.';

-- ---- the flight limit applied to flights already watched --------------------------------------
-- The inverse of private.promote_found_flights: the watched flights beyond the plan's limit are
-- kept with over_limit (not watched: no price checks, no rebooking), the most recently added
-- first; a flight being rebooked right now is kept watched. A later scan, or a larger plan and a
-- scan, watches them again (promote_found_flights).
create or replace function private.unwatch_flights_over_limit(p_user_id uuid)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_limit integer;
  v_count integer;
begin
  select sp.flight_limit into v_limit
    from public.profiles p join public.subscription_plans sp on sp.id = p.plan_id
   where p.id = p_user_id
   for update of p;
  if v_limit is null or v_limit = -1 then
    return 0;
  end if;
  with ranked as (
    select f.id, row_number() over (order by (f.status = 'rebooking') desc, f.created_at, f.id) as n
      from public.flights f
     where f.user_id = p_user_id and private.flight_is_watched(f)
  )
  update public.flights f set over_limit = true
    from ranked r
   where f.id = r.id and r.n > v_limit;
  get diagnostics v_count = row_count;
  return v_count;
end;
$$;

revoke all on function private.unwatch_flights_over_limit(uuid) from public, anon, authenticated, service_role;
comment on function private.unwatch_flights_over_limit(uuid) is
  'Marks the traveller''s watched flights beyond their plan''s limit over_limit (kept, not watched), newest '
  'first; answers how many. The inverse of private.promote_found_flights.';

-- ---- the daily pass ------------------------------------------------------------------------
-- Which travellers are due is decided here: on a premium plan, the paid period ended before
-- p_now, and no Stripe subscription that renews or is being retried. Idempotent: a traveller
-- moved is on the free plan, so a second run finds nobody; the notification's dedupe key names
-- the period that ended. Answers how many travellers it moved.
create or replace function private.expire_subscriptions(p_now timestamptz default now())
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  r record;
  v_moved integer := 0;
  v_unwatched integer;
  v_limit integer;
  v_ended text;
begin
  for r in
    select p.id, p.subscription_end_date as ended
      from public.profiles p
      join public.subscription_plans sp on sp.id = p.plan_id
      left join private.billing_accounts ba on ba.user_id = p.id
     where sp.tier = 'premium'
       and p.subscription_end_date < p_now
       and not coalesce(ba.subscription_id is not null and (ba.renews or ba.subscription_status = 'past_due'), false)
     order by p.id
     for update of p
  loop
    perform private.move_to_free_plan(r.id);
    v_unwatched := private.unwatch_flights_over_limit(r.id);
    insert into private.billing_accounts (user_id, subscription_status, renews)
    values (r.id, 'expired', false)
    on conflict (user_id) do update set subscription_status = 'expired', renews = false;
    select sp.flight_limit into v_limit
      from public.profiles p join public.subscription_plans sp on sp.id = p.plan_id where p.id = r.id;
    v_ended := to_char(r.ended at time zone 'UTC', 'Mon FMDD, YYYY');
    perform private.queue_notification(
      r.id, 'subscription_expired', 'Your Premium year has ended',
      'Your Premium subscription ended on ' || v_ended || '. You are now on the Free plan: automatic '
        || 'rebooking is off' || case when v_limit = -1 then '.' else ' and up to ' || v_limit || ' flights are watched.' end
        || case when v_unwatched > 0
             then ' ' || v_unwatched || ' of your flights are kept but no longer watched. Nothing was deleted.'
             else ' Nothing was deleted.' end,
      jsonb_build_object('endDate', r.ended, 'flightLimit', v_limit, 'unwatched', v_unwatched),
      null,
      'subscription_expired:' || r.id || ':' || to_char(r.ended at time zone 'UTC', 'YYYY-MM-DD'));
    v_moved := v_moved + 1;
  end loop;
  return v_moved;
end;
$$;

revoke all on function private.expire_subscriptions(timestamptz) from public, anon, authenticated, service_role;
comment on function private.expire_subscriptions(timestamptz) is
  'The daily expiry pass: every premium traveller whose subscription_end_date is past and who does not '
  'renew through Stripe goes to the free plan (auto-rebooking off, flights beyond the limit unwatched, '
  'nothing deleted), billing status expired, one subscription_expired notification. Answers how many.';

insert into private.job_kinds (kind, description, max_attempts, backoff_base_seconds, backoff_max_seconds)
values ('subscription_expiry',
        'Daily: move travellers whose paid year ended (and who do not renew through Stripe) to the free plan.',
        10, 60, 3600)
on conflict (kind) do nothing;
