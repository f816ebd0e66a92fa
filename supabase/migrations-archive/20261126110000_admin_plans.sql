-- =============================================================================================
-- Admin area: subscription plans and recorded commission payments
-- =============================================================================================
-- Admins create and edit plans through the api (PUT/POST /api/admin/subscription-plans), which
-- writes as the admin (role authenticated: the plans' policies and column grants apply, and the
-- audit triggers see the actor). What this migration adds:
--   * the plan columns' rules the admin forms state: a flight limit is -1 (unlimited) or at
--     least 1; a commission rate of 0 is "none" (null is still read as 0, see below);
--   * two guards that keep sign-up and checkout working whoever edits the plans (the api, the
--     data API, an operator in Studio): the tier of a plan travellers are on never changes
--     under them, and an active free plan and an active paid premium plan always remain;
--   * private.record_commission_payment: an admin records a payment a traveller made outside
--     the app (bank transfer, cheque), in one transaction with its audit row.

-- =============================================================================================
-- Column rules
-- =============================================================================================

-- No plan on main has a limit of 0 (it would monitor nothing); a database that has one gets the
-- nearest valid limit rather than a failed deploy.
update public.subscription_plans set flight_limit = 1 where flight_limit = 0;

alter table public.subscription_plans
  drop constraint subscription_plans_flight_limit_check,
  add constraint subscription_plans_flight_limit_check check (flight_limit = -1 or flight_limit >= 1);

-- "No commission" is 0. Null stays legal (older rows and direct inserts; the spec's "may be
-- empty"), and every reader takes it as 0 (coalesce), but the api always writes a number and a
-- plan inserted without a rate now reads 0 in Studio too.
update public.subscription_plans set commission_rate = 0 where commission_rate is null;
alter table public.subscription_plans alter column commission_rate set default 0;

-- The name is unique regardless of case: subscription_plans_name_lower_key on lower(name)
-- (migration 20261122000300). The api answers a duplicate as a 400 on the name field, also when
-- two admins create the same name at once: the index decides.

-- =============================================================================================
-- Guards: what an edit of the plans may not break
-- =============================================================================================

-- A plan's tier is what its travellers get (premium: automatic rebooking, no checkout). Changing
-- it under them would hand free travellers premium, or leave premium travellers with automatic
-- rebooking switched on that their plan no longer allows (every later change of their profile
-- would then be refused). Move them to another plan first, or create a new plan.
create or replace function private.guard_plan_tier_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  travellers integer;
begin
  select count(*) into travellers from public.profiles p where p.plan_id = new.id;
  if travellers > 0 then
    raise exception
      'Travellers are on this plan (%): it cannot change between free (no price, no automatic rebooking) and paid while anyone is on it. Create a new plan instead.',
      travellers
      using errcode = 'FB409';
  end if;
  return new;
end;
$$;

comment on function private.guard_plan_tier_change() is
  'Trigger: refuses (FB409) a change of subscription_plans.tier while any profile is on the plan.';

revoke all on function private.guard_plan_tier_change() from public, anon, authenticated, service_role;

create trigger subscription_plans_guard_tier_change
  before update of tier on public.subscription_plans
  for each row
  when (new.tier is distinct from old.tier)
  execute function private.guard_plan_tier_change();

-- Sign-up puts a new account on the active free plan (private.default_plan_id), and checkout
-- sells an active premium plan with a price (queries/billing.ts premiumPlan). An edit that would
-- leave either without a plan is refused. Serialized by an advisory lock, so two admins retiring
-- the last two such plans at the same moment cannot both succeed: the second one's check runs
-- after the first commits and sees its change.
create or replace function private.keep_plans_on_offer()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform pg_advisory_xact_lock(hashtext('fareback.subscription_plans.offer'));
  if not exists (select 1 from public.subscription_plans sp where sp.is_active and sp.tier = 'free') then
    raise exception
      'New accounts start on the free plan: at least one active free plan (no price, no automatic rebooking) must remain.'
      using errcode = 'FB409';
  end if;
  if not exists (
    select 1 from public.subscription_plans sp where sp.is_active and sp.tier = 'premium' and sp.price > 0
  ) then
    raise exception
      'Checkout sells Premium: at least one active paid plan must remain.'
      using errcode = 'FB409';
  end if;
  return null;
end;
$$;

comment on function private.keep_plans_on_offer() is
  'Statement trigger: refuses (FB409) an update of subscription_plans that leaves no active free plan (sign-up) or no active paid premium plan (checkout).';

revoke all on function private.keep_plans_on_offer() from public, anon, authenticated, service_role;

create trigger subscription_plans_keep_on_offer
  after update on public.subscription_plans
  for each statement
  execute function private.keep_plans_on_offer();

-- =============================================================================================
-- An admin records a commission payment
-- =============================================================================================
-- A traveller paid what they owe outside the app; the admin records it. One transaction, the
-- traveller's row locked first (as every ledger change does: rebookings, card payments), so two
-- admins recording the full amount at once cannot both take it. The ledger still adds up
-- (commissions recorded at rebookings = commission_owed + commission_paid): the amount moves from
-- owed to paid. When nothing is owed afterwards, the pending commission rows and open statements
-- are settled, as a card payment of everything owed settles them (private.payment_succeeded).
-- Answers no row for an unknown traveller.

create or replace function private.record_commission_payment(p_actor uuid, p_user_id uuid, p_amount integer)
returns table (transaction_id bigint, commission_owed integer, commission_paid integer)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_owed integer;
  v_paid integer;
  v_username text;
  v_transaction bigint;
begin
  if p_amount is null or p_amount <= 0 then
    raise exception 'Amount must be above 0' using errcode = 'FB400';
  end if;
  if not exists (select 1 from public.profiles a where a.id = p_actor and a.is_admin) then
    raise exception 'Admin access required' using errcode = '42501';
  end if;

  select p.commission_owed, p.commission_paid, p.username
    into v_owed, v_paid, v_username
    from public.profiles p
   where p.id = p_user_id
   for update;
  if not found then
    return;
  end if;
  if p_amount > v_owed then
    raise exception 'Amount exceeds the commission owed ($%)', to_char(v_owed / 100.0, 'FM999999990.00')
      using errcode = 'FB400';
  end if;

  insert into public.billing_transactions (user_id, amount, status, type, description, payment_method)
  values (p_user_id, p_amount, 'completed', 'commission', 'Commission payment (recorded by FareBack)', 'manual')
  returning id into v_transaction;

  update public.profiles p
     set commission_owed = p.commission_owed - p_amount,
         commission_paid = p.commission_paid + p_amount,
         last_billing_date = now()
   where p.id = p_user_id;

  if p_amount = v_owed then
    update public.billing_transactions b
       set status = 'completed'
     where b.user_id = p_user_id
       and b.type = 'commission'
       and b.status in ('pending', 'failed')
       and (b.payment_reference is null or b.billing_period_start is not null)
       and b.id <> v_transaction;
  end if;

  perform private.record_admin_action(
    p_actor, 'commission.payment', 'user', p_user_id::text, v_username,
    jsonb_build_object('commissionOwed', v_owed, 'commissionPaid', v_paid),
    jsonb_build_object('commissionOwed', v_owed - p_amount, 'commissionPaid', v_paid + p_amount));

  return query select v_transaction, v_owed - p_amount, v_paid + p_amount;
end;
$$;

comment on function private.record_commission_payment(uuid, uuid, integer) is
  'An admin (p_actor) records a commission payment of p_amount cents made outside the app by traveller p_user_id: a completed manual commission billing row, the amount moved from commission_owed to commission_paid, an audit row. FB400 for an amount above what is owed; no row for an unknown traveller. The api''s role only.';

revoke all on function private.record_commission_payment(uuid, uuid, integer) from public, anon, authenticated, service_role;
