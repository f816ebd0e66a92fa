-- =============================================================================================
-- Chargebacks: Stripe's charge.dispute.created / charge.dispute.closed (issue 21, finding 10)
-- =============================================================================================
-- A cardholder's bank can take a payment back. Stripe reports it with charge.dispute.created
-- (the dispute object: its charge, payment_intent, amount and status) and, when the bank has
-- decided, charge.dispute.closed with status won (the money stays with us), lost (it went back
-- to the cardholder) or warning_closed (an inquiry that never became a chargeback)
-- (docs.stripe.com/api/disputes/object; docs.stripe.com/disputes). While a payment is disputed
-- what it paid for is taken back, as a refund takes it back (private.payment_refunded):
--   * a subscription payment: the traveller goes to the free plan (private.move_to_free_plan,
--     flights beyond the free limit unwatched); the paid dates are kept, so a won dispute
--     restores the plan for what is left of the year;
--   * a commission payment: what it took off the commission owed is owed again.
-- Won (or warning_closed) restores; lost leaves it taken back for good. Each step is recorded on
-- the payment row and in the admin audit log (action payment.dispute, actor null: Stripe).

alter table private.payments
  drop constraint payments_status_check,
  add constraint payments_status_check check (status in ('pending', 'succeeded', 'failed', 'refunded', 'disputed')),
  add column dispute_id text,
  add column dispute_status text,
  add column disputed_at timestamptz;

comment on column private.payments.dispute_id is 'Stripe dispute (du_...) opened on this payment, else null.';
comment on column private.payments.dispute_status is
  'Stripe''s status of that dispute as last reported: needs_response, under_review, warning_needs_response, '
  'won, lost, warning_closed...; null when never disputed.';
comment on column private.payments.disputed_at is 'When the dispute was first applied (its rights taken back), else null.';

alter table public.admin_audit_log
  drop constraint admin_audit_log_action_check,
  add constraint admin_audit_log_action_check check (action in (
    'admin.grant', 'admin.revoke', 'plan.create', 'plan.update', 'commission.payment',
    'run.price_check', 'run.auto_rebooking', 'payment.dispute'));

-- The audit row of a dispute step: the traveller, the payment, and Stripe's status.
create or replace function private.audit_payment_dispute(p_pay private.payments, p_before jsonb, p_after jsonb)
returns void
language sql
security definer
set search_path = ''
as $$
  select private.record_admin_action(
    null, 'payment.dispute', 'user', p_pay.user_id::text,
    (select p.username from public.profiles p where p.id = p_pay.user_id),
    jsonb_build_object('payment', p_pay.id, 'purpose', p_pay.purpose, 'amount', p_pay.amount) || p_before,
    jsonb_build_object('payment', p_pay.id, 'purpose', p_pay.purpose, 'amount', p_pay.amount) || p_after);
$$;

revoke all on function private.audit_payment_dispute(private.payments, jsonb, jsonb)
  from public, anon, authenticated, service_role;
comment on function private.audit_payment_dispute(private.payments, jsonb, jsonb) is
  'Writes the admin audit row (payment.dispute, actor null) of one step of a dispute on a payment.';

-- A dispute opened on a succeeded payment: its rights are taken back (see the banner). Answers
-- whether anything changed; a dispute already applied only records Stripe's newer status.
create or replace function private.payment_disputed(p_id text, p_dispute_id text, p_dispute_status text)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  pay private.payments;
begin
  select * into pay from private.payments where id = p_id for update;
  if not found then
    return false;
  end if;
  if pay.status = 'disputed' then
    update private.payments set dispute_status = p_dispute_status where id = p_id;
    return false;
  end if;
  if pay.status <> 'succeeded' then
    return false;
  end if;
  perform 1 from public.profiles where id = pay.user_id for update;
  update private.payments
     set status = 'disputed', dispute_id = p_dispute_id, dispute_status = p_dispute_status, disputed_at = now()
   where id = p_id;
  if pay.purpose = 'commission' then
    update public.profiles
       set commission_owed = commission_owed + pay.applied,
           commission_paid = commission_paid - pay.applied
     where id = pay.user_id;
  elsif exists (select 1 from public.profiles p where p.id = pay.user_id and p.plan_id = pay.plan_id) then
    perform private.move_to_free_plan(pay.user_id);
    perform private.unwatch_flights_over_limit(pay.user_id);
  end if;
  perform private.audit_payment_dispute(pay,
    jsonb_build_object('status', 'succeeded'),
    jsonb_build_object('status', 'disputed', 'dispute', p_dispute_id, 'disputeStatus', p_dispute_status));
  return true;
end;
$$;

-- A dispute closed: won or warning_closed restores what payment_disputed took back (a
-- subscription's plan while its paid year lasts; the commission it paid, up to what is owed now);
-- lost leaves it taken back: the payment's billing row reads refunded, a subscription's paid
-- period ends now. A closed event for a dispute never applied (its created event lost) applies
-- it first when lost.
create or replace function private.payment_dispute_closed(p_id text, p_dispute_id text, p_dispute_status text)
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
  select * into pay from private.payments where id = p_id;
  if not found then
    return false;
  end if;
  if pay.status = 'succeeded' and p_dispute_status = 'lost' then
    -- its open state was never reported: take the rights back first
    perform private.payment_disputed(p_id, p_dispute_id, null);
  end if;
  select * into pay from private.payments where id = p_id for update;
  -- restored already (won), or lost for good: nothing more to do
  if pay.status <> 'disputed' or pay.dispute_status = 'lost' then
    return false;
  end if;
  select commission_owed into owed from public.profiles where id = pay.user_id for update;
  if p_dispute_status in ('won', 'warning_closed') then
    update private.payments set status = 'succeeded', dispute_status = p_dispute_status where id = p_id;
    if pay.purpose = 'commission' then
      took := least(pay.applied, owed);
      update public.profiles
         set commission_owed = commission_owed - took,
             commission_paid = commission_paid + took
       where id = pay.user_id;
      update private.payments set applied = took where id = p_id;
    else
      update public.profiles set plan_id = pay.plan_id
       where id = pay.user_id and subscription_end_date > now()
         and plan_id in (select sp.id from public.subscription_plans sp where sp.tier = 'free');
      perform private.promote_found_flights(pay.user_id);
    end if;
  elsif p_dispute_status = 'lost' then
    update private.payments set dispute_status = 'lost' where id = p_id;
    update public.billing_transactions set status = 'refunded' where payment_reference = p_id;
    if pay.purpose = 'subscription' then
      update public.profiles set subscription_end_date = greatest(subscription_start_date, now())
       where id = pay.user_id and plan_id in (select sp.id from public.subscription_plans sp where sp.tier = 'free');
      update private.billing_accounts set subscription_status = 'expired', renews = false where user_id = pay.user_id;
    end if;
  else
    update private.payments set dispute_status = p_dispute_status where id = p_id;
    return false;
  end if;
  perform private.audit_payment_dispute(pay,
    jsonb_build_object('status', 'disputed', 'disputeStatus', pay.dispute_status),
    jsonb_build_object('status', case when p_dispute_status = 'lost' then 'disputed' else 'succeeded' end,
                       'dispute', p_dispute_id, 'disputeStatus', p_dispute_status));
  return true;
end;
$$;

revoke all on function private.payment_disputed(text, text, text) from public, anon, authenticated, service_role;
revoke all on function private.payment_dispute_closed(text, text, text) from public, anon, authenticated, service_role;
comment on function private.payment_disputed(text, text, text) is
  'A Stripe dispute opened on a succeeded payment: status disputed; a subscription''s traveller goes to the '
  'free plan (dates kept), a commission payment''s amount is owed again; audited. Idempotent.';
comment on function private.payment_dispute_closed(text, text, text) is
  'A Stripe dispute closed: won/warning_closed restores the plan (while paid) or the commission paid; lost '
  'keeps it taken back (billing row refunded, a subscription''s period ends). Audited. Idempotent.';
