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
-- The admins' alerts go through private.alert_admins and the hold is payments.unapplied_held_at
-- (both in 20261128200000_commission_payments.sql, beside the refund they belong to).

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
