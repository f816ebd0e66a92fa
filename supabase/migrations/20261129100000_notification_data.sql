-- =============================================================================================
-- Notifications carry a type and data, never sentences (issue 22, item 5)
-- =============================================================================================
-- A notification is its type and the facts of the news (cents, dates, ids, airline, airports):
-- the api's email templates (supabase/functions/api/services/notification-templates/) write every
-- subject, heading and sentence, one template per type, so the wording of an email lives in one
-- place. Producers, in SQL and in TypeScript, call
--   private.queue_notification(p_user_id, p_type, p_data jsonb, p_flight_id, p_dedupe_key)
-- and write no text. The data of each type is listed in docs/architecture.md "Notifications" and
-- typed (and checked when an email is rendered) in notification-templates/data.ts.
--
-- Intended schema differences (for the catalog comparison of the issue 22 baseline):
--   * public.notification_history: columns title and message dropped, with their checks
--     notification_history_title_length and notification_history_message_length;
--     additional_data renamed data, now `not null default '{}'` with the check
--     notification_history_data_object (a JSON object); comments of type and data rewritten.
--   * private.queue_notification(uuid, text, text, text, jsonb, bigint, text) dropped;
--     private.queue_notification(p_user_id uuid, p_type text, p_data jsonb default '{}',
--     p_flight_id bigint default null, p_dedupe_key text default null) returns bigint created in
--     its place (same rules: once per dedupe key, the traveller's switches, confirmed address,
--     price-drop thresholds, instant or digest, premium priority), with its comment and grants.
--   * private.billing_notify(uuid, text, text, text, jsonb, text) dropped: it only passed its
--     arguments to queue_notification; its callers call queue_notification.
--   * private.alert_admins(text, text, jsonb, text) dropped; private.alert_admins(p_data jsonb,
--     p_dedupe_key text) in its place: one admin_alert per admin, data.event names the alert.
--   * Redefined with the same signature, writing data instead of sentences:
--     private.run_notification_passes(timestamptz) (credit_expiring), private.expire_subscriptions
--     (timestamptz) (subscription_expired), private.payment_failed(text, text) (payment_failed,
--     data.purpose added), private.payment_unapplied_refunded(text, text, integer)
--     (payment_refunded, admin_alert commission_refunded), private.unapplied_refund_failed(bigint,
--     text, text) (admin_alert commission_refund_failed / commission_refund_held, refund_held).
--     Their behaviour is otherwise unchanged.

-- =============================================================================================
-- The row: type and data
-- =============================================================================================

alter table public.notification_history
  drop constraint notification_history_title_length,
  drop constraint notification_history_message_length,
  drop column title,
  drop column message;

alter table public.notification_history rename column additional_data to data;
update public.notification_history set data = '{}'::jsonb where data is null or jsonb_typeof(data) <> 'object';
alter table public.notification_history
  alter column data set default '{}'::jsonb,
  alter column data set not null,
  add constraint notification_history_data_object check (jsonb_typeof(data) = 'object');

comment on column public.notification_history.type is
  'Kind of message, which names its email template and the shape of data: price_drop, rebooking, action_needed, '
  'flight_cancelled, credit_expiring, payment_failed, commission_statement, email_reconnect, import_over_limit, '
  'subscription_expired, payment_refunded, refund_held, admin_alert (1-50 characters).';
comment on column public.notification_history.data is
  'The facts of the news as a JSON object, never sentences: amounts in cents, dates, ids, airline and airports, '
  'e.g. price_drop {airline, flightNumber, departureAirport, arrivalAirport, oldPrice, newPrice, netSavings, ...}. '
  'The api''s template for the type writes the email from it (docs/architecture.md "Notifications").';

-- =============================================================================================
-- Queue a notification: the one writer of the outbox
-- =============================================================================================

drop function private.queue_notification(uuid, text, text, text, jsonb, bigint, text);

create function private.queue_notification(
  p_user_id uuid,
  p_type text,
  p_data jsonb default '{}'::jsonb,
  p_flight_id bigint default null,
  p_dedupe_key text default null
)
returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_profile public.profiles%rowtype;
  v_id bigint;
  v_data jsonb := coalesce(p_data, '{}'::jsonb);
  v_drop bigint;
  v_old bigint;
  v_delivery text := 'instant';
  v_premium boolean;
begin
  if p_dedupe_key is not null then
    select n.id into v_id from public.notification_history n
     where n.user_id = p_user_id and n.dedupe_key = p_dedupe_key;
    if found then
      return v_id;
    end if;
  end if;

  select * into v_profile from public.profiles p where p.id = p_user_id;
  if not found then
    raise exception 'no traveller %', p_user_id using errcode = 'P0002';
  end if;

  -- nothing but the confirmation goes to an unconfirmed address (the relay rule), and nothing
  -- the traveller turned off is written
  if v_profile.email is null or v_profile.email_confirmed_at is null
     or not private.wants_notification(v_profile, p_type) then
    return null;
  end if;

  -- a price-drop alert needs either threshold met by the fare's drop (the email then shows the
  -- net figure, after any change fee, and whether it qualifies for a rebooking)
  if p_type = 'price_drop' then
    v_old := (v_data ->> 'oldPrice')::bigint;
    v_drop := v_old - (v_data ->> 'newPrice')::bigint;
    if v_drop is null or v_drop <= 0
       or not (v_drop >= v_profile.min_price_drop or v_drop * 100 >= v_profile.min_price_drop_percent * v_old) then
      return null;
    end if;
  end if;

  if v_profile.notification_frequency in ('daily', 'weekly') and p_type in ('price_drop', 'rebooking') then
    v_delivery := 'digest';
  end if;

  insert into public.notification_history
    (user_id, flight_id, type, data, status, channel, dedupe_key, delivery)
  values
    (p_user_id, p_flight_id, p_type, v_data, 'pending', 'email', p_dedupe_key, v_delivery)
  on conflict (user_id, dedupe_key) where dedupe_key is not null do nothing
  returning id into v_id;

  if v_id is null then
    -- a concurrent call with the same key committed first
    select n.id into v_id from public.notification_history n
     where n.user_id = p_user_id and n.dedupe_key = p_dedupe_key;
    return v_id;
  end if;

  if v_delivery = 'instant' then
    select coalesce(s.tier = 'premium', false) into v_premium
      from public.subscription_plans s where s.id = v_profile.plan_id;
    perform private.enqueue_job('notification_email', jsonb_build_object('notificationId', v_id), null,
                                'notification_email:' || v_id, case when v_premium then 10 else 0 end);
  end if;
  return v_id;
end;
$$;

revoke all on function private.queue_notification(uuid, text, jsonb, bigint, text)
  from public, anon, authenticated, service_role;
comment on function private.queue_notification(uuid, text, jsonb, bigint, text) is
  'The outbox''s one writer: writes a notification (a type and its data, no text) once per (traveller, dedupe key) '
  'if the traveller wants it and queues its delivery; null when not written.';

drop function private.billing_notify(uuid, text, text, text, jsonb, text);

-- One admin_alert to every admin, deduplicated per admin by p_dedupe_key; p_data.event names the alert.
drop function private.alert_admins(text, text, jsonb, text);

create function private.alert_admins(p_data jsonb, p_dedupe_key text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_admin uuid;
begin
  for v_admin in select p.id from public.profiles p where p.is_admin loop
    perform private.queue_notification(v_admin, 'admin_alert', p_data, null, p_dedupe_key);
  end loop;
end;
$$;

revoke all on function private.alert_admins(jsonb, text) from public, anon, authenticated, service_role;
comment on function private.alert_admins(jsonb, text) is
  'Queues one admin_alert notification (data: event and its facts) to every admin, once per admin and dedupe key.';

-- =============================================================================================
-- Producers: data, no sentences
-- =============================================================================================

create or replace function private.run_notification_passes(p_now timestamptz default null)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_now timestamptz := coalesce(p_now, clock_timestamp());
  v_moved integer;
  v_instant integer;
  v_digests integer;
  v_credits integer;
begin
  -- back on instant: the waiting digest items go out on their own
  update public.notification_history n
     set delivery = 'instant'
    from public.profiles p
   where p.id = n.user_id
     and n.status = 'pending' and n.delivery = 'digest'
     and p.notification_frequency = 'instant';
  get diagnostics v_moved = row_count;
  v_instant := private.enqueue_pending_notifications();

  with waiting as (
    select p.id as user_id, p.notification_frequency as period, p.time_zone,
           v_now at time zone p.time_zone as local_now,
           p.notification_time::time as at_time,
           coalesce(s.tier = 'premium', false) as premium
      from public.profiles p
      left join public.subscription_plans s on s.id = p.plan_id
     where p.notification_frequency in ('daily', 'weekly')
       and exists (select 1 from public.notification_history n
                    where n.user_id = p.id and n.status = 'pending' and n.delivery = 'digest')
  ),
  slots as (
    -- the latest send time at or before now, in the traveller's clock
    select w.*,
           case when w.period = 'daily'
                then date_trunc('day', w.local_now) + w.at_time
                     - case when w.local_now < date_trunc('day', w.local_now) + w.at_time
                            then interval '1 day' else interval '0' end
                else date_trunc('week', w.local_now) + w.at_time
                     - case when w.local_now < date_trunc('week', w.local_now) + w.at_time
                            then interval '7 days' else interval '0' end
           end as send_local
      from waiting w
  )
  select count(private.enqueue_job(
           'notification_digest',
           jsonb_build_object('userId', s.user_id, 'period', s.period,
                              'cutoff', to_char((s.send_local at time zone s.time_zone) at time zone 'UTC',
                                                'YYYY-MM-DD"T"HH24:MI:SS"Z"')),
           null,
           'notification_digest:' || s.user_id || ':' || s.period || ':' || to_char(s.send_local, 'YYYY-MM-DD'),
           case when s.premium then 10 else 0 end))::integer
    into v_digests
    from slots s
   where exists (select 1 from public.notification_history n
                  where n.user_id = s.user_id and n.status = 'pending' and n.delivery = 'digest'
                    and n.created_at < (s.send_local at time zone s.time_zone));

  with credits as (
    select f.id, f.user_id, f.airline, f.airline_credit, f.credit_expiry_date, t.days,
           f.credit_expiry_date - (v_now at time zone p.time_zone)::date as days_left
      from public.flights f
      join public.profiles p on p.id = f.user_id
     cross join (values (30), (7)) as t (days)
     where f.airline_credit > 0
       and f.credit_expiry_date between (v_now at time zone 'UTC')::date - 1 and (v_now at time zone 'UTC')::date + 31
  )
  select count(private.queue_notification(
           c.user_id, 'credit_expiring',
           jsonb_build_object('airline', c.airline, 'amount', c.airline_credit,
                              'expiresAt', to_char(c.credit_expiry_date, 'YYYY-MM-DD'), 'daysLeft', c.days_left),
           c.id,
           'credit_expiring:' || c.id || ':' || to_char(c.credit_expiry_date, 'YYYY-MM-DD') || ':' || c.days))::integer
    into v_credits
    from credits c
   where c.days_left between 0 and c.days
     and (c.days = 7 or c.days_left > 7);

  return jsonb_build_object('movedToInstant', v_moved, 'instantQueued', v_instant,
                            'digestsDue', v_digests, 'creditReminders', v_credits);
end;
$$;

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
    perform private.queue_notification(
      r.id, 'subscription_expired',
      jsonb_build_object('endDate', r.ended, 'flightLimit', v_limit, 'unwatched', v_unwatched),
      null,
      'subscription_expired:' || r.id || ':' || to_char(r.ended at time zone 'UTC', 'YYYY-MM-DD'));
    v_moved := v_moved + 1;
  end loop;
  return v_moved;
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
  -- reason: what the provider said (or the default recorded as the payment's failure_message)
  perform private.queue_notification(
    pay.user_id, 'payment_failed',
    jsonb_build_object('purpose', pay.purpose, 'amount', pay.amount, 'reason', left(reason, 500)),
    null, 'payment_failed:' || p_id);
  return true;
end;
$$;

create or replace function private.payment_unapplied_refunded(p_id text, p_refund_id text, p_amount integer)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_pay private.payments;
  v_username text;
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
  perform private.queue_notification(
    v_pay.user_id, 'payment_refunded',
    jsonb_build_object('amount', p_amount, 'paymentAmount', v_pay.amount, 'applied', v_pay.applied),
    null, 'payment_refunded:' || p_id);
  select p.username into v_username from public.profiles p where p.id = v_pay.user_id;
  perform private.alert_admins(
    jsonb_build_object('event', 'commission_refunded', 'userId', v_pay.user_id, 'username', v_username,
                       'paymentId', p_id, 'refundId', p_refund_id, 'amount', p_amount),
    'unapplied_refund:' || p_id);
  return true;
end;
$$;

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
  v_username text;
  v_data jsonb;
begin
  select * into v_pay from private.payments pay where pay.id = p_id for update;
  if not found or v_pay.unapplied_refund_id is not null or v_pay.amount <= v_pay.applied then
    return null;
  end if;
  -- the last attempt exactly as private.fail_job decides it (20261124000100_job_queue.sql)
  select j.attempts >= j.max_attempts into v_final from public.jobs j where j.id = p_job_id;
  select p.username into v_username from public.profiles p where p.id = v_pay.user_id;
  v_data := jsonb_build_object('userId', v_pay.user_id, 'username', v_username, 'paymentId', p_id,
                               'amount', v_pay.amount - v_pay.applied, 'reason', left(p_reason, 500));
  if not coalesce(v_final, false) then
    perform private.alert_admins(v_data || jsonb_build_object('event', 'commission_refund_failed'),
                                 'unapplied_refund_failed:' || p_id);
    return 'retrying';
  end if;
  update private.payments pay set unapplied_held_at = coalesce(pay.unapplied_held_at, now()) where pay.id = p_id;
  perform private.alert_admins(v_data || jsonb_build_object('event', 'commission_refund_held'),
                               'unapplied_refund_held:' || p_id);
  perform private.queue_notification(
    v_pay.user_id, 'refund_held',
    jsonb_build_object('paymentId', p_id, 'amount', v_pay.amount - v_pay.applied),
    null, 'unapplied_refund_held:' || p_id);
  return 'held';
end;
$$;
