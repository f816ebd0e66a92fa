-- =============================================================================================
-- Payments: subscriptions, payment intents, Stripe events and commission statements
-- =============================================================================================
-- The api takes payments through a payments adapter (supabase/functions/_shared/payments/):
-- Stripe when a secret key is configured, a local test mode otherwise. What the database keeps:
--   * private.billing_accounts: one row per traveller who ever paid, with the Stripe customer,
--     the subscription (if any), its status and period, and the card saved for commission;
--   * private.payments: every payment intent the api created, what it pays for (a plan's year or
--     the commission owed), its amount and outcome; the billing row it writes is found by
--     payment_reference = the intent id;
--   * private.stripe_events: each webhook event id once, so a replay does nothing;
--   * private.local_payment_intents: the local test mode's own "Stripe" (no card is charged);
--   * profiles.commission_paid: commission paid so far. The ledger: for every traveller,
--     the commissions recorded at rebookings = commission_owed + commission_paid.
-- Server-only: nothing here is granted to anon or authenticated.

alter table public.profiles
  add column commission_paid integer not null default 0,
  add constraint profiles_commission_paid_nonnegative check (commission_paid >= 0);

create table private.billing_accounts (
  user_id uuid primary key references public.profiles (id) on delete cascade,
  customer_id text unique,
  subscription_id text unique,
  -- none | active | canceled | past_due | expired (the API's SubscriptionStatus)
  subscription_status text not null default 'none',
  renews boolean not null default false,
  -- the card saved for off-session commission charges (a payment method id)
  payment_method_id text,
  updated_at timestamptz not null default now(),

  constraint billing_accounts_status_check
    check (subscription_status in ('none', 'active', 'canceled', 'past_due', 'expired'))
);

alter table private.billing_accounts enable row level security;
revoke all on table private.billing_accounts from public, anon, authenticated;

create trigger billing_accounts_set_updated_at
  before update on private.billing_accounts
  for each row execute function private.set_updated_at();

create table private.payments (
  id text primary key,
  user_id uuid not null references public.profiles (id) on delete cascade,
  purpose text not null,
  plan_id bigint references public.subscription_plans (id),
  amount integer not null,
  -- what a succeeded commission payment took off the commission owed (never more than was owed)
  applied integer not null default 0,
  -- pending | succeeded | failed | refunded
  status text not null default 'pending',
  failure_message text,
  -- a statement's off-session charge names its statement row
  statement_id bigint references public.billing_transactions (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),

  constraint payments_purpose_check check (purpose in ('subscription', 'commission')),
  constraint payments_plan_when_subscription check (purpose <> 'subscription' or plan_id is not null),
  constraint payments_amount_positive check (amount > 0),
  constraint payments_status_check check (status in ('pending', 'succeeded', 'failed', 'refunded'))
);

alter table private.payments enable row level security;
revoke all on table private.payments from public, anon, authenticated;
create index payments_user_id_idx on private.payments (user_id, created_at);
-- one commission payment open at a time: it pays what was owed when it began
create unique index payments_one_open_commission_idx on private.payments (user_id)
  where purpose = 'commission' and status = 'pending';

create trigger payments_set_updated_at
  before update on private.payments
  for each row execute function private.set_updated_at();

create table private.stripe_events (
  id text primary key,
  type text not null,
  received_at timestamptz not null default now()
);

alter table private.stripe_events enable row level security;
revoke all on table private.stripe_events from public, anon, authenticated;

create table private.local_payment_intents (
  id text primary key,
  customer_id text not null,
  amount integer not null,
  currency text not null default 'usd',
  status text not null default 'requires_payment_method',
  metadata jsonb not null default '{}',
  payment_method_id text,
  failure_message text,
  created_at timestamptz not null default now(),

  constraint local_payment_intents_status_check
    check (status in ('requires_payment_method', 'succeeded', 'canceled'))
);

alter table private.local_payment_intents enable row level security;
revoke all on table private.local_payment_intents from public, anon, authenticated;

-- =============================================================================================
-- Telling the traveller: through the notification outbox (private.queue_notification), which
-- applies their preferences and delivers through the queue; payments never send mail.
-- =============================================================================================

create or replace function private.billing_notify(
  p_user_id uuid, p_type text, p_title text, p_message text, p_data jsonb, p_dedupe_key text
) returns void
language sql
security definer
set search_path = ''
as $$
  select private.queue_notification(p_user_id, p_type, p_title, p_message, p_data, null, p_dedupe_key);
$$;

revoke all on function private.billing_notify(uuid, text, text, text, jsonb, text) from public, anon, authenticated;

-- A statement closes one period once per traveller.
create unique index billing_transactions_one_statement_per_period_idx
  on public.billing_transactions (user_id, billing_period_start)
  where type = 'commission' and billing_period_start is not null;

-- =============================================================================================
-- Payment outcomes: the only writers of the ledger after a rebooking
-- =============================================================================================
-- Each is idempotent (a replayed or late event changes nothing) and decides from the payment's
-- recorded state, so events arriving out of order end in the provider's final state: a success
-- wins over an earlier failure (the card was retried), a failure never undoes a success.

create or replace function private.payment_succeeded(p_id text, p_payment_method text default null)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  pay private.payments;
  owed integer;
  took integer;
begin
  select * into pay from private.payments where id = p_id for update;
  if not found or pay.status not in ('pending', 'failed') then
    return false;
  end if;
  -- the owner's row first, as a rebooking's recording does: one ledger change at a time
  select commission_owed into owed from public.profiles where id = pay.user_id for update;

  update public.billing_transactions
     set status = 'completed', transaction_date = now(),
         payment_method = coalesce(payment_method, 'card')
   where payment_reference = p_id;

  if pay.purpose = 'subscription' then
    update public.profiles
       set plan_id = pay.plan_id,
           subscription_start_date = now(),
           subscription_end_date = now() + interval '1 year',
           last_billing_date = now()
     where id = pay.user_id;
    insert into private.billing_accounts (user_id, subscription_status, renews, payment_method_id)
    values (pay.user_id, 'active', false, p_payment_method)
    on conflict (user_id) do update
      set subscription_status = 'active',
          renews = false,
          payment_method_id = coalesce(excluded.payment_method_id, private.billing_accounts.payment_method_id);
    update private.payments set status = 'succeeded', failure_message = null where id = p_id;
  else
    took := least(pay.amount, owed);
    update public.profiles
       set commission_owed = commission_owed - took,
           commission_paid = commission_paid + took,
           last_billing_date = now()
     where id = pay.user_id;
    update private.payments set status = 'succeeded', failure_message = null, applied = took where id = p_id;
    -- what this payment settled: the rebookings' pending commissions and open statements before it
    update public.billing_transactions
       set status = 'completed'
     where user_id = pay.user_id
       and type = 'commission'
       and status in ('pending', 'failed')
       and transaction_date <= pay.created_at
       and (payment_reference is null or billing_period_start is not null)
       and payment_reference is distinct from p_id;
    if p_payment_method is not null then
      insert into private.billing_accounts (user_id, payment_method_id)
      values (pay.user_id, p_payment_method)
      on conflict (user_id) do update set payment_method_id = excluded.payment_method_id;
    end if;
  end if;
  return true;
end;
$$;

create or replace function private.payment_failed(p_id text, p_reason text)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  pay private.payments;
  reason text := coalesce(nullif(btrim(p_reason), ''), 'Your card was declined.');
begin
  select * into pay from private.payments where id = p_id for update;
  if not found or pay.status <> 'pending' then
    return false;
  end if;
  update private.payments set status = 'failed', failure_message = left(reason, 500) where id = p_id;
  update public.billing_transactions set status = 'failed' where payment_reference = p_id;
  perform private.billing_notify(
    pay.user_id, 'payment_failed', 'Payment failed',
    case when pay.purpose = 'commission'
      then 'Your commission payment of $' || to_char(pay.amount / 100.0, 'FM999999990.00')
           || ' did not go through: ' || reason || ' It is still owed; you can pay it from your dashboard.'
      else 'Your Premium payment of $' || to_char(pay.amount / 100.0, 'FM999999990.00')
           || ' did not go through: ' || reason
    end,
    jsonb_build_object('amount', pay.amount, 'reason', reason),
    'payment_failed:' || p_id);
  return true;
end;
$$;

-- A refunded payment: a commission refund puts the amount back on what is owed (the ledger
-- still adds up); a subscription refund ends premium at once.
create or replace function private.payment_refunded(p_id text)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  pay private.payments;
begin
  select * into pay from private.payments where id = p_id for update;
  if not found or pay.status <> 'succeeded' then
    return false;
  end if;
  perform 1 from public.profiles where id = pay.user_id for update;
  update private.payments set status = 'refunded' where id = p_id;
  update public.billing_transactions set status = 'refunded' where payment_reference = p_id;
  if pay.purpose = 'commission' then
    update public.profiles
       set commission_owed = commission_owed + pay.applied,
           commission_paid = commission_paid - pay.applied
     where id = pay.user_id;
  else
    update public.profiles
       set plan_id = private.default_plan_id(), subscription_end_date = greatest(subscription_start_date, now())
     where id = pay.user_id;
    update private.billing_accounts set subscription_status = 'expired', renews = false where user_id = pay.user_id;
  end if;
  return true;
end;
$$;

-- Closes a traveller's commission period [p_start, p_end]: one statement row with the credits
-- the period's rebookings earned and the commission due (everything owed at closing, earlier
-- unpaid periods included). Answers the statement's id (the existing one when already closed), or
-- null when there is nothing to state.
create or replace function private.close_commission_period(p_user_id uuid, p_start date, p_end date)
returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare
  due integer;
  credits integer;
  statement_id bigint;
begin
  select commission_owed into due from public.profiles where id = p_user_id for update;
  if not found then
    return null;
  end if;
  select id into statement_id from public.billing_transactions
   where user_id = p_user_id and type = 'commission' and billing_period_start = p_start;
  if found then
    return statement_id;
  end if;
  select coalesce(sum(credits_earned_in_period), 0)::int into credits
    from public.billing_transactions
   where user_id = p_user_id and type = 'commission'
     and billing_period_start is null and payment_reference is null
     and transaction_date >= p_start and transaction_date < p_end + 1;
  if due = 0 and credits = 0 then
    return null;
  end if;
  insert into public.billing_transactions
    (user_id, amount, status, type, description, transaction_date,
     billing_period_start, billing_period_end, credits_earned_in_period)
  values (p_user_id, due, case when due > 0 then 'pending' else 'completed' end, 'commission',
          'Commission statement ' || to_char(p_start, 'Mon FMDD, YYYY') || ' - ' || to_char(p_end, 'Mon FMDD, YYYY'),
          now(), p_start, p_end, credits)
  returning id into statement_id;
  return statement_id;
end;
$$;

revoke all on function private.payment_succeeded(text, text) from public, anon, authenticated;
revoke all on function private.payment_failed(text, text) from public, anon, authenticated;
revoke all on function private.payment_refunded(text) from public, anon, authenticated;
revoke all on function private.close_commission_period(uuid, date, date) from public, anon, authenticated;

-- =============================================================================================
-- Queue kinds
-- =============================================================================================

insert into private.job_kinds (kind, description, max_attempts, backoff_base_seconds, backoff_max_seconds)
values ('commission_statements',
        'Monthly: close every traveller''s commission period with a statement row and charge a saved card.',
        10, 60, 3600)
on conflict (kind) do nothing;
