-- =============================================================================================
-- Commission payments: one charge per debt, and money that finds nothing owed goes back
-- =============================================================================================
-- Issue 21, finding 5. Five concurrent `pay-commission` calls made five saved-card charges for
-- one debt (each call gave up the others' rows and charged with a random idempotency key), and
-- a card payment that completed while an admin recorded the same debt as paid was charged,
-- applied as 0 (private.payment_succeeded applies min(amount, owed)) and kept. Now:
--   * the pending payment row is written first, before the provider is called, under the unique
--     index payments_one_open_commission_idx (one pending commission payment per traveller), by
--     private.claim_commission_payment with the traveller's profile row locked;
--   * the row names its debt (debt_key): the traveller, the ledger position (how many of their
--     commission payments have finished) and the amount owed, or the statement it charges. The
--     provider's idempotency key is that key, so every call for the same debt is the same
--     charge, and a new debt (a new rebooking, a payment finished or declined since) a new one;
--   * until the provider answers, the row's id is its debt key; the api then gives it the
--     payment intent's id (private.payments.id is the intent id everywhere else);
--   * what a succeeded commission payment could not apply (amount - applied) is refunded through
--     the payments adapter by the `commission_refund` job (queued in the transaction that
--     applied the payment) and recorded by private.payment_unapplied_refunded: a completed
--     `refund` billing row, the traveller told, every admin alerted. The ledger is untouched
--     (the refunded part never reached commission_paid).

alter table private.payments
  add column debt_key text,
  add column unapplied_refund_id text,
  add column unapplied_refunded integer not null default 0,
  add column unapplied_held_at timestamptz,
  add constraint payments_unapplied_refunded_range check (unapplied_refunded >= 0 and unapplied_refunded <= amount);

comment on column private.payments.debt_key is
  'The debt a commission payment pays: commission:<user>:<finished payments>:<amount owed>, or statement:<billing row id>. Also the provider''s idempotency key; the row''s id until the provider answers.';
comment on column private.payments.unapplied_refund_id is
  'The provider''s refund of what this succeeded commission payment could not apply (amount - applied), once made.';
comment on column private.payments.unapplied_refunded is 'Cents refunded because nothing was owed for them.';
comment on column private.payments.unapplied_held_at is
  'When the refund of this commission payment''s unapplied part (amount - applied) was given up after the commission_refund job''s last attempt: the money is held for the traveller until an operator refunds it (requeueing the dead job); see 20261128700000_refund_failure_alerts.sql.';

create unique index payments_debt_key_idx on private.payments (debt_key) where debt_key is not null;

-- =============================================================================================
-- The claim: the pending row first
-- =============================================================================================
-- Answers the debt key and amount to charge and, for the caller:
--   * payment_id = debt_key: a new (or never answered) claim, call the provider with the key;
--   * payment_id = an intent id: this debt's payment already exists, resume it;
--   * stale_id: another pending commission payment (for an earlier debt) must be given up first;
--     stale_in_flight: it is a claim made in the last 5 minutes whose provider call has not
--     answered yet (giving it up now would let it charge beside this one: wait for it instead);
--   * no row: nothing is owed.
-- For a statement (p_statement_id) the amount is the statement's, never more than owed now.
create or replace function private.claim_commission_payment(p_user_id uuid, p_statement_id bigint default null)
returns table (debt_key text, amount integer, payment_id text, stale_id text, stale_in_flight boolean)
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_owed integer;
  v_finished integer;
  v_key text;
  v_amount integer;
  v_open private.payments;
begin
  -- the owner's row first, as every ledger change does: claims of one traveller queue here
  select p.commission_owed into v_owed from public.profiles p where p.id = p_user_id for update;
  if not found or v_owed <= 0 then
    return;
  end if;
  if p_statement_id is not null then
    select least(b.amount, v_owed) into v_amount from public.billing_transactions b
     where b.id = p_statement_id and b.user_id = p_user_id;
    if not found or v_amount <= 0 then
      return;
    end if;
    v_key := 'statement:' || p_statement_id;
  else
    v_amount := v_owed;
    select count(*)::int into v_finished from private.payments pay
     where pay.user_id = p_user_id and pay.purpose = 'commission' and pay.status <> 'pending';
    v_key := 'commission:' || p_user_id || ':' || v_finished || ':' || v_owed;
  end if;

  select * into v_open from private.payments pay
   where pay.user_id = p_user_id and pay.purpose = 'commission' and pay.status = 'pending';
  if found then
    if v_open.debt_key is not distinct from v_key then
      return query select v_key, v_open.amount, v_open.id, null::text, false;
    else
      return query select v_key, v_amount, null::text, v_open.id,
                          v_open.id = v_open.debt_key and v_open.created_at > now() - interval '5 minutes';
    end if;
    return;
  end if;

  -- a finished payment of this very debt (a statement already charged and declined): not again
  if exists (select 1 from private.payments pay where pay.debt_key = v_key) then
    return;
  end if;

  insert into private.payments (id, user_id, purpose, amount, statement_id, debt_key)
  values (v_key, p_user_id, 'commission', v_amount, p_statement_id, v_key);
  return query select v_key, v_amount, v_key, null::text, false;
end;
$$;

comment on function private.claim_commission_payment(uuid, bigint) is
  'Writes the pending commission payment row of a debt before the provider is called (one pending per traveller, profile row locked); answers its debt key (the idempotency key), amount, and the payment to resume or the stale one to give up first.';

revoke all on function private.claim_commission_payment(uuid, bigint) from public, anon, authenticated, service_role;

-- The provider answered: the claim row takes the intent's id, and its billing row is written (or,
-- for a statement, the statement names the charge). Idempotent: a second call finds it done.
create or replace function private.attach_commission_intent(p_debt_key text, p_intent_id text, p_description text)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_pay private.payments;
begin
  update private.payments pay set id = p_intent_id
   where pay.debt_key = p_debt_key and pay.id = p_debt_key
  returning * into v_pay;
  if not found then
    return false;
  end if;
  if v_pay.statement_id is not null then
    update public.billing_transactions b set payment_reference = p_intent_id, payment_method = 'card'
     where b.id = v_pay.statement_id and b.user_id = v_pay.user_id;
  else
    insert into public.billing_transactions (user_id, amount, status, type, description, payment_method, payment_reference)
    values (v_pay.user_id, v_pay.amount, case when v_pay.status = 'pending' then 'pending' else 'failed' end,
            'commission', p_description, 'card', p_intent_id);
  end if;
  return true;
end;
$$;

revoke all on function private.attach_commission_intent(text, text, text) from public, anon, authenticated, service_role;

-- =============================================================================================
-- What a payment could not apply goes back
-- =============================================================================================

insert into private.job_kinds (kind, description, max_attempts, backoff_base_seconds, backoff_max_seconds)
values ('commission_refund',
        'Refund what a succeeded commission payment could not apply (nothing was owed for it) through the payments adapter (payload: paymentId).',
        20, 60, 21600)
on conflict (kind) do nothing;

-- Queues the refund of a succeeded commission payment's unapplied part, once; answers the cents
-- to refund (0: nothing to do).
create or replace function private.queue_unapplied_refund(p_id text)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_pay private.payments;
begin
  select * into v_pay from private.payments pay where pay.id = p_id;
  if not found or v_pay.purpose <> 'commission' or v_pay.status <> 'succeeded'
     or v_pay.unapplied_refund_id is not null or v_pay.amount <= v_pay.applied then
    return 0;
  end if;
  perform private.enqueue_job('commission_refund', jsonb_build_object('paymentId', p_id), null,
                              'commission_refund:' || p_id, 10);
  return v_pay.amount - v_pay.applied;
end;
$$;

revoke all on function private.queue_unapplied_refund(text) from public, anon, authenticated, service_role;

-- One admin_alert to every admin, deduplicated per admin by p_dedupe_key.
create or replace function private.alert_admins(p_title text, p_message text, p_data jsonb, p_dedupe_key text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_admin uuid;
begin
  for v_admin in select p.id from public.profiles p where p.is_admin loop
    perform private.queue_notification(v_admin, 'admin_alert', p_title, p_message, p_data, null, p_dedupe_key);
  end loop;
end;
$$;

revoke all on function private.alert_admins(text, text, jsonb, text) from public, anon, authenticated, service_role;

-- The refund is made: recorded once, with its billing row; the traveller is told and every admin
-- alerted (a debt paid twice means a manual payment and a card payment crossed). A hold (the
-- refund given up, 20261128700000) is cleared when an operator's requeued job refunds it after all.
create or replace function private.payment_unapplied_refunded(p_id text, p_refund_id text, p_amount integer)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_pay private.payments;
  v_username text;
  v_dollars text := '$' || to_char(p_amount / 100.0, 'FM999999990.00');
begin
  select * into v_pay from private.payments pay where pay.id = p_id for update;
  if not found or v_pay.unapplied_refund_id is not null then
    return false;
  end if;
  update private.payments pay
     set unapplied_refund_id = p_refund_id, unapplied_refunded = p_amount, unapplied_held_at = null
   where pay.id = p_id;
  insert into public.billing_transactions (user_id, amount, status, type, description, payment_method, payment_reference)
  values (v_pay.user_id, p_amount, 'completed', 'refund',
          'Refund: commission payment received when nothing more was owed', 'card', p_refund_id);
  perform private.billing_notify(
    v_pay.user_id, 'payment_refunded', 'Commission payment refunded',
    'Your card payment of $' || to_char(v_pay.amount / 100.0, 'FM999999990.00') || ' arrived when ' ||
    case when v_pay.applied = 0 then 'nothing more was owed' else 'only part of it was owed' end ||
    ', so ' || v_dollars || ' has been refunded to your card.',
    jsonb_build_object('amount', p_amount, 'paymentAmount', v_pay.amount, 'applied', v_pay.applied),
    'payment_refunded:' || p_id);
  select p.username into v_username from public.profiles p where p.id = v_pay.user_id;
  perform private.alert_admins(
    'Commission payment refunded',
    'A commission payment of ' || coalesce(v_username, v_pay.user_id::text) || ' arrived when the debt was already paid: '
      || v_dollars || ' was refunded to their card (payment ' || p_id || ').',
    jsonb_build_object('userId', v_pay.user_id, 'paymentId', p_id, 'refundId', p_refund_id, 'amount', p_amount),
    'unapplied_refund:' || p_id);
  return true;
end;
$$;

revoke all on function private.payment_unapplied_refunded(text, text, integer) from public, anon, authenticated, service_role;
