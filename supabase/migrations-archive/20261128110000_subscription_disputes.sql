-- =============================================================================================
-- Checkout subscriptions under dispute; flights watched again when a plan gains room
-- (issue 21, findings 10 and 2: the gaps left by migrations 20261128100000 and 20261128100100)
-- =============================================================================================

-- ---- a Checkout subscription's disputed payment names its subscription --------------------
-- A dispute on a Stripe Checkout subscription's invoice is recorded as an adopted payment
-- (queries/billing.ts adoptDisputedSubscriptionPayment) with the subscription the traveller's
-- billing account held then. While that payment's dispute is open (status disputed) or lost
-- (disputed, dispute_status lost), the subscription's own events must not give Premium back: a
-- dispute is on a charge (docs.stripe.com/api/disputes/object) and leaves the subscription as it
-- was at Stripe, so its next customer.subscription.updated or invoice.paid (a renewal) reports
-- it active, and applying that put the traveller back on Premium. A won dispute puts the payment back to
-- succeeded, and the subscription then applies as before. A lost one also cancels the Stripe
-- subscription (services/billing.ts, docs.stripe.com/api/subscriptions/cancel: "The customer
-- won't be charged again for the subscription").

alter table private.payments add column subscription_id text;

comment on column private.payments.subscription_id is
  'The Stripe subscription whose invoice this payment paid (a disputed Checkout invoice the api adopted), '
  'else null. While its dispute is open or lost that subscription cannot give Premium back.';

create index payments_subscription_disputed_idx on private.payments (subscription_id)
  where subscription_id is not null and status = 'disputed';

-- The one home of the guard and of what a live Stripe subscription sets: the plan and the paid
-- period Stripe states. Answers false (and changes nothing) while a payment of that subscription
-- is disputed (open or lost). The flights found over a limit are watched again by the trigger
-- below, as on every plan change.
create or replace function private.apply_subscription_plan(
  p_user_id uuid,
  p_subscription_id text,
  p_plan_id bigint,
  p_period_start timestamptz,
  p_period_end timestamptz
)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform 1 from public.profiles where id = p_user_id for update;
  if not found then
    return false;
  end if;
  if exists (select 1 from private.payments pay
              where pay.subscription_id = p_subscription_id and pay.status = 'disputed') then
    return false;
  end if;
  update public.profiles set
    plan_id = p_plan_id,
    subscription_start_date = coalesce(p_period_start, subscription_start_date, now()),
    subscription_end_date = coalesce(p_period_end, subscription_end_date),
    last_billing_date = now()
  where id = p_user_id;
  return true;
end;
$$;

revoke all on function private.apply_subscription_plan(uuid, text, bigint, timestamptz, timestamptz)
  from public, anon, authenticated, service_role;
comment on function private.apply_subscription_plan(uuid, text, bigint, timestamptz, timestamptz) is
  'A live Stripe subscription as read back from Stripe: the traveller''s plan and paid period. Refuses '
  '(false, nothing changed) while a payment of that subscription is disputed (open or lost).';

-- ---- a plan that gains room watches the flights kept over the limit again -------------------
-- Flights beyond a plan's limit are kept with over_limit (an email scan past the limit, the
-- expiry pass, a dispute: private.unwatch_flights_over_limit). Whenever a traveller's plan
-- changes, in the same transaction, as many of them as the new plan has room for are watched
-- again (private.promote_found_flights: the oldest first; none when there is no room). One home
-- for every path that changes a plan: a payment (private.payment_succeeded: the test-mode
-- confirm, Stripe's payment_intent.succeeded), a Stripe subscription becoming active
-- (private.apply_subscription_plan), a won dispute, an admin. A change of a plan's own limit is
-- not a change of anyone's plan and is not covered.
create or replace function private.promote_flights_on_plan_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.promote_found_flights(new.id);
  return null;
end;
$$;

revoke all on function private.promote_flights_on_plan_change() from public, anon, authenticated, service_role;
comment on function private.promote_flights_on_plan_change() is
  'Trigger: after a traveller''s plan changes, watches again the flights kept over the limit, as far as '
  'the new plan has room (private.promote_found_flights).';

-- `update of plan_id`: fires only for statements that set the plan (not the flight counter's
-- updates of the same row, which promote_found_flights' flight updates cause).
create trigger profiles_promote_flights_on_plan_change
  after update of plan_id on public.profiles
  for each row
  when (old.plan_id is distinct from new.plan_id)
  execute function private.promote_flights_on_plan_change();
