-- =============================================================================================
-- A commission refund that fails: admins told at once, the money held when the job gives up
-- =============================================================================================
-- Issue 21, finding 5 ("refund (or hold as credit, and alert)"). The `commission_refund` job
-- (20261128200000_commission_payments.sql) is retried by the queue when the provider refuses or
-- cannot be reached, and was then left dead with nobody told and the traveller's money unrefunded.
-- Now the api's handler (services/billing.ts commissionRefundJob) calls
-- private.unapplied_refund_failed on each failed attempt:
--   * every admin gets one admin_alert per payment (dedupe key unapplied_refund_failed:<payment>)
--     naming the traveller, the amount and the reason, saying it will be retried;
--   * on the job's last attempt (attempts >= max_attempts, the very test private.fail_job makes
--     to bury it) the unapplied amount is marked held for the traveller (unapplied_held_at: the
--     smallest real mechanism; the ledger is untouched, as for a refund), every admin is alerted
--     again (unapplied_refund_held:<payment>) and the traveller is told.
-- The admins' alerts go through private.alert_admins, which the refund's success alert now uses too.

alter table private.payments add column unapplied_held_at timestamptz;

comment on column private.payments.unapplied_held_at is
  'When the refund of this commission payment''s unapplied part (amount - applied) was given up after the commission_refund job''s last attempt: the money is held for the traveller until an operator refunds it (requeueing the dead job).';

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

-- Redefined (unchanged for the traveller) to alert the admins through private.alert_admins and to
-- clear a hold when an operator's requeued job refunds the money after all.
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

-- A refund attempt of the commission_refund job p_job_id (running, claimed) failed with p_reason.
-- Answers 'retrying', 'held' (the job's last attempt: it dies after this), or null (nothing to refund).
create or replace function private.unapplied_refund_failed(p_job_id bigint, p_id text, p_reason text)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_pay private.payments;
  v_final boolean;
  v_who text;
  v_dollars text;
  v_data jsonb;
begin
  select * into v_pay from private.payments pay where pay.id = p_id for update;
  if not found or v_pay.unapplied_refund_id is not null or v_pay.amount <= v_pay.applied then
    return null;
  end if;
  -- the last attempt exactly as private.fail_job decides it (20261124000100_job_queue.sql)
  select j.attempts >= j.max_attempts into v_final from public.jobs j where j.id = p_job_id;
  select coalesce(p.username, v_pay.user_id::text) into v_who from public.profiles p where p.id = v_pay.user_id;
  v_who := coalesce(v_who, v_pay.user_id::text);
  v_dollars := '$' || to_char((v_pay.amount - v_pay.applied) / 100.0, 'FM999999990.00');
  v_data := jsonb_build_object('userId', v_pay.user_id, 'paymentId', p_id, 'amount', v_pay.amount - v_pay.applied,
                               'reason', left(p_reason, 500));
  if not coalesce(v_final, false) then
    perform private.alert_admins(
      'Commission refund failed',
      'The refund of ' || v_dollars || ' to ' || v_who || ' (a commission payment that found nothing owed, payment '
        || p_id || ') failed: ' || left(p_reason, 500) || '. It will be retried.',
      v_data, 'unapplied_refund_failed:' || p_id);
    return 'retrying';
  end if;
  update private.payments pay set unapplied_held_at = coalesce(pay.unapplied_held_at, now()) where pay.id = p_id;
  perform private.alert_admins(
    'Commission refund given up: money held',
    'The refund of ' || v_dollars || ' to ' || v_who || ' (payment ' || p_id || ') failed on its last attempt: '
      || left(p_reason, 500) || '. The money is held for them; refund it by hand or requeue the dead commission_refund job.',
    v_data, 'unapplied_refund_held:' || p_id);
  perform private.billing_notify(
    v_pay.user_id, 'refund_held', 'Refund delayed: your money is held',
    'We could not refund ' || v_dollars || ' of your commission payment to your card. The money is held for you '
      || 'and our team has been told; they will refund it to you.',
    v_data - 'reason', 'unapplied_refund_held:' || p_id);
  return 'held';
end;
$$;

revoke all on function private.unapplied_refund_failed(bigint, text, text) from public, anon, authenticated, service_role;
