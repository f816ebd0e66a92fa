-- =============================================================================================
-- Notifications: one outbox, delivered through the job queue
-- =============================================================================================
-- Every message FareBack sends a traveller is a public.notification_history row. Whoever has
-- news (price checks, the auto-rebooking engine, payments, the inbox scan) calls
-- private.queue_notification() in the transaction that makes the news true; it
--   * writes the row once per (traveller, dedupe key): calling it again answers the same row;
--   * applies the traveller's preferences: the switch for the kind (notify_price_drops,
--     notify_rebookings, notify_cancellations, or a kind in unsubscribed_kinds), email on, an
--     address its owner confirmed (migration 20261123000300_email_confirmation.sql), and for
--     price drops the alert thresholds (min_price_drop cents or min_price_drop_percent, either);
--     a message the traveller does not want is not written (null is answered);
--   * applies their frequency: 'instant' enqueues a notification_email job now; 'daily' and
--     'weekly' leave the row pending for the digest (news that cannot wait, a cancellation or an
--     expiring credit, and account messages are always instant);
--   * premium travellers' jobs get a higher priority: claimed before free ones.
-- The api's notification_email handler (services/notifications.ts) sends the row through the
-- mailer with an idempotency key; see docs/architecture.md "Notifications".

-- =============================================================================================
-- The traveller's time zone (for the digest's time of day)
-- =============================================================================================
-- An IANA name ('Europe/Paris'); the browser reports it and the preferences call stores it.
-- Abbreviations and POSIX offsets ('EST', 'UTC+5') are refused: their meaning is not a place's.

create or replace function private.is_time_zone(p_name text)
returns boolean
language plpgsql
immutable
set search_path = ''
as $$
begin
  if p_name is null or p_name !~ '^(UTC|[A-Z][A-Za-z_]+(/[A-Za-z0-9_+-]+){1,2})$' then
    return false;
  end if;
  perform now() at time zone p_name;
  return true;
exception
  when invalid_parameter_value then
    return false;
end;
$$;

alter table public.profiles
  add column time_zone text not null default 'UTC',
  add constraint profiles_time_zone_check check (private.is_time_zone(time_zone)),
  -- kinds without a switch of their own that the traveller turned off (the unsubscribe link)
  add column unsubscribed_kinds text[] not null default '{}',
  add constraint profiles_unsubscribed_kinds_check check (cardinality(unsubscribed_kinds) <= 20);

comment on column public.profiles.time_zone is 'IANA time zone the digest time of day is read in.';
comment on column public.profiles.unsubscribed_kinds is
  'Email kinds without a notify_* switch the traveller turned off (credit_expiring, import_over_limit, ...).';

grant update (time_zone, unsubscribed_kinds) on table public.profiles to authenticated;

-- =============================================================================================
-- The outbox row
-- =============================================================================================
-- status: pending (queued) -> sending (a worker is handing it to the mailer, under
-- delivery_key) -> sent; suppressed (the address was unconfirmed or the kind turned off when it
-- was due); failed (the mailer refused it for good after the queue's retries).
-- delivery: 'instant' (its own notification_email job) or 'digest' (the daily/weekly digest).

alter table public.notification_history
  drop constraint notification_history_status_check,
  add constraint notification_history_status_check
    check (status in ('pending', 'sending', 'sent', 'failed', 'suppressed')),
  add column dedupe_key text,
  add column delivery text not null default 'instant',
  add column delivery_key text,
  add column digest_key text,
  add column attempts integer not null default 0,
  add column last_error text,
  add constraint notification_history_dedupe_key_length check (char_length(dedupe_key) between 1 and 200),
  add constraint notification_history_delivery_check check (delivery in ('instant', 'digest'));

create unique index notification_history_dedupe_key
  on public.notification_history (user_id, dedupe_key)
  where dedupe_key is not null;

-- the digest finds a traveller's pending digest items
create index notification_history_digest_pending_idx
  on public.notification_history (user_id, id)
  where status = 'pending' and delivery = 'digest';

-- =============================================================================================
-- Queue priority
-- =============================================================================================
-- A job's priority: higher first among the due jobs of a kind, then run_at. Premium travellers'
-- alerts are queued at 10, everything else at 0.

alter table public.jobs add column priority smallint not null default 0;

drop index public.jobs_queued_idx;
create index jobs_queued_idx on public.jobs (kind, priority desc, run_at, id) where status = 'queued';

drop function private.enqueue_job(text, jsonb, timestamptz, text);

create function private.enqueue_job(
  p_kind text,
  p_payload jsonb default '{}'::jsonb,
  p_run_after timestamptz default null,
  p_dedupe_key text default null,
  p_priority integer default 0
)
returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_id bigint;
begin
  insert into public.jobs (kind, payload, run_at, dedupe_key, max_attempts, priority)
  select k.kind, coalesce(p_payload, '{}'::jsonb), coalesce(p_run_after, clock_timestamp()), p_dedupe_key,
         k.max_attempts, coalesce(p_priority, 0)
    from private.job_kinds k
   where k.kind = p_kind
  on conflict (dedupe_key) do nothing
  returning id into v_id;
  if v_id is not null then
    return v_id;
  end if;

  if not exists (select 1 from private.job_kinds k where k.kind = p_kind) then
    raise exception 'unknown job kind: %', p_kind using errcode = '22023';
  end if;
  select j.id into v_id from public.jobs j where j.dedupe_key = p_dedupe_key;
  return v_id;
end;
$$;

create or replace function private.claim_jobs(
  p_kinds text[],
  p_worker text,
  p_limit integer,
  p_lease_seconds integer
)
returns table (id bigint, kind text, payload jsonb, attempt integer, claim_token uuid)
language plpgsql
security definer
set search_path = ''
as $$
#variable_conflict use_column
begin
  if p_limit is null or p_limit < 1 then
    raise exception 'claim at least one job' using errcode = '22023';
  end if;
  if p_lease_seconds is null or p_lease_seconds < 1 then
    raise exception 'a lease lasts at least one second' using errcode = '22023';
  end if;

  with expired as (
    select j.id
      from public.jobs j
     where j.kind = any(p_kinds)
       and j.status = 'running'
       and j.lease_expires_at < clock_timestamp()
     for update skip locked
  )
  update public.jobs j
     set status = case when j.attempts >= j.max_attempts then 'dead' else 'queued' end,
         finished_at = case when j.attempts >= j.max_attempts then clock_timestamp() end,
         claim_token = null,
         locked_by = null,
         lease_expires_at = null,
         last_error = 'the lease of attempt ' || j.attempts || ' ran out (held by ' || coalesce(j.locked_by, '?') || ')'
    from expired e
   where j.id = e.id;

  return query
  with next_jobs as (
    select j.id
      from public.jobs j
     where j.kind = any(p_kinds)
       and j.status = 'queued'
       and j.run_at <= clock_timestamp()
     order by j.priority desc, j.run_at, j.id
     limit p_limit
     for update skip locked
  )
  update public.jobs j
     set status = 'running',
         attempts = j.attempts + 1,
         claim_token = gen_random_uuid(),
         locked_by = left(p_worker, 200),
         lease_expires_at = clock_timestamp() + make_interval(secs => p_lease_seconds)
    from next_jobs n
   where j.id = n.id
  returning j.id, j.kind, j.payload, j.attempts, j.claim_token;
end;
$$;

-- =============================================================================================
-- Kinds
-- =============================================================================================
-- A send that fails is retried after 30 s, 1, 2, 4 ... minutes up to 6 hours, for 12 attempts
-- (about a day and a half) before the row is marked failed and the job becomes a dead letter.

insert into private.job_kinds (kind, description, max_attempts, backoff_base_seconds, backoff_max_seconds)
values
  ('notification_email', 'Send one notification_history row by email (payload: notificationId).', 12, 30, 21600),
  ('notification_digest', 'Send one traveller''s daily or weekly digest (payload: userId, period).', 12, 30, 21600),
  ('notification_passes', 'Queue what is due: digests whose time has come, expiring airline credits.', 3, 30, 600);

-- =============================================================================================
-- Which switch governs a kind
-- =============================================================================================
-- The preference a type of notification answers to, which is also the kind its unsubscribe
-- link turns off; null for account messages (payment failed, statement, reconnect the inbox),
-- which every traveller gets while they have an account.

create or replace function private.notification_kind(p_type text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case
    when p_type = 'price_drop' then 'price_drop'
    when p_type in ('rebooking', 'action_needed') then 'rebooking'
    when p_type = 'flight_cancelled' then 'flight_cancelled'
    when p_type in ('payment_failed', 'commission_statement', 'email_reconnect') then null
    else p_type
  end
$$;

-- Whether the traveller wants email of this kind (their switches; nothing about the address).
create or replace function private.wants_notification(p_profile public.profiles, p_type text)
returns boolean
language sql
stable
set search_path = ''
as $$
  select p_profile.notify_email and case
    when private.notification_kind(p_type) is null then true
    when private.notification_kind(p_type) = 'price_drop' then p_profile.notify_price_drops
    when private.notification_kind(p_type) = 'rebooking' then p_profile.notify_rebookings
    when private.notification_kind(p_type) = 'flight_cancelled' then p_profile.notify_cancellations
    else not (private.notification_kind(p_type) = any(p_profile.unsubscribed_kinds))
  end
$$;

-- Turns one kind off (the unsubscribe link). Answers false for a kind nobody can turn off.
create or replace function private.unsubscribe_notification_kind(p_user_id uuid, p_kind text)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
begin
  if p_kind is null or private.notification_kind(p_kind) is distinct from p_kind then
    return false;
  end if;
  update public.profiles p
     set notify_price_drops = case when p_kind = 'price_drop' then false else p.notify_price_drops end,
         notify_rebookings = case when p_kind = 'rebooking' then false else p.notify_rebookings end,
         notify_cancellations = case when p_kind = 'flight_cancelled' then false else p.notify_cancellations end,
         unsubscribed_kinds = case
           when p_kind in ('price_drop', 'rebooking', 'flight_cancelled') or p_kind = any(p.unsubscribed_kinds)
             then p.unsubscribed_kinds
           else p.unsubscribed_kinds || p_kind
         end
   where p.id = p_user_id;
  return found;
end;
$$;

-- =============================================================================================
-- Queue a notification
-- =============================================================================================

create or replace function private.queue_notification(
  p_user_id uuid,
  p_type text,
  p_title text,
  p_message text,
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
    (user_id, flight_id, type, title, message, status, channel, additional_data, dedupe_key, delivery)
  values
    (p_user_id, p_flight_id, p_type, p_title, p_message, 'pending', 'email', v_data, p_dedupe_key, v_delivery)
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

-- Rows left pending without a delivery job (written before this migration, or by hand) get one:
-- maintenance calls this, so an instant notification is never stranded.
create or replace function private.enqueue_pending_notifications(p_limit integer default 1000)
returns integer
language sql
security definer
set search_path = ''
as $$
  with stranded as (
    select n.id, coalesce(s.tier = 'premium', false) as premium
      from public.notification_history n
      join public.profiles p on p.id = n.user_id
      left join public.subscription_plans s on s.id = p.plan_id
     where n.status in ('pending', 'sending') and n.delivery = 'instant' and n.channel = 'email'
       and not exists (select 1 from public.jobs j where j.dedupe_key = 'notification_email:' || n.id)
     order by n.id
     limit p_limit
  )
  select count(private.enqueue_job('notification_email', jsonb_build_object('notificationId', s.id), null,
                                   'notification_email:' || s.id, case when s.premium then 10 else 0 end))::integer
    from stranded s
$$;

-- rows queued before this migration by the price checks
select private.enqueue_pending_notifications(100000);

-- =============================================================================================
-- Privileges
-- =============================================================================================
-- The api's role owns these and runs them; nobody else. wants_notification and
-- notification_kind are plain helpers (no definer rights) but are not for end users either.

-- is_time_zone is in profiles' check constraint, which runs as whoever updates the row
revoke all on function private.is_time_zone(text) from public, anon, service_role;
grant execute on function private.is_time_zone(text) to authenticated;
revoke all on function private.enqueue_job(text, jsonb, timestamptz, text, integer)
  from public, anon, authenticated, service_role;
revoke all on function private.notification_kind(text) from public, anon, authenticated, service_role;
revoke all on function private.wants_notification(public.profiles, text) from public, anon, authenticated, service_role;
revoke all on function private.unsubscribe_notification_kind(uuid, text) from public, anon, authenticated, service_role;
revoke all on function private.queue_notification(uuid, text, text, text, jsonb, bigint, text)
  from public, anon, authenticated, service_role;
revoke all on function private.enqueue_pending_notifications(integer) from public, anon, authenticated, service_role;
