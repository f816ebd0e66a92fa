-- =============================================================================================
-- Notifications on a schedule: digests, expiring credits, and pg_cron
-- =============================================================================================
-- private.run_notification_passes() queues what is due at a moment:
--   * digests: a traveller on 'daily' gets one email a day at notification_time in their
--     time_zone, on 'weekly' one on Mondays at that time. The digest of a period holds the
--     pending digest items queued before its send time; its job's dedupe key names the traveller
--     and the period, so there is one digest per period, and an item, once taken by a digest, is
--     in no other (services/notifications.ts). A traveller back on 'instant' gets their waiting
--     items one by one.
--   * airline credits (flights.airline_credit, credit_expiry_date, set when a flight is rebooked)
--     expiring within 30 days and within 7 days: one credit_expiring notification per credit and
--     threshold (the dedupe key names both), the 30-day one only while more than 7 days are left.
--   * instant rows left without a delivery job get one.
-- It runs every five minutes: as the api's notification_passes job (the job queue's recurring
-- work, so the stack's ticker drives it) and, where pg_cron exists, as a pg_cron job of its own.
-- Both are safe together: everything it queues is keyed.

-- the link of a digest turns off what digests carry (price drops and rebookings)
create or replace function private.unsubscribe_notification_kind(p_user_id uuid, p_kind text)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
begin
  if p_kind is null or (p_kind <> 'digest' and private.notification_kind(p_kind) is distinct from p_kind) then
    return false;
  end if;
  update public.profiles p
     set notify_price_drops = case when p_kind in ('price_drop', 'digest') then false else p.notify_price_drops end,
         notify_rebookings = case when p_kind in ('rebooking', 'digest') then false else p.notify_rebookings end,
         notify_cancellations = case when p_kind = 'flight_cancelled' then false else p.notify_cancellations end,
         unsubscribed_kinds = case
           when p_kind in ('price_drop', 'rebooking', 'flight_cancelled', 'digest') or p_kind = any(p.unsubscribed_kinds)
             then p.unsubscribed_kinds
           else p.unsubscribed_kinds || p_kind
         end
   where p.id = p_user_id;
  return found;
end;
$$;

create index flights_credit_expiry_idx on public.flights (credit_expiry_date) where airline_credit > 0;

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
           c.user_id, 'credit_expiring', 'Your airline credit expires soon',
           'Your ' || c.airline || ' credit of ' || to_char(c.airline_credit / 100.0, 'FM$999,999,990.00')
             || ' expires on ' || to_char(c.credit_expiry_date, 'FMMonth FMDD, YYYY') || '.',
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

revoke all on function private.unsubscribe_notification_kind(uuid, text) from public, anon, authenticated, service_role;
revoke all on function private.run_notification_passes(timestamptz) from public, anon, authenticated, service_role;

-- =============================================================================================
-- Schedule (pg_cron where it exists)
-- =============================================================================================
-- With pg_cron (Supabase; CI's PostgreSQL with Debian's postgresql-15-cron loaded):
--   fareback-notification-passes  every 5 minutes  select private.run_notification_passes()
--   fareback-jobs                 every minute     pg_net POST <project>/functions/v1/api/internal/jobs
-- beside the price sweep (every 15 minutes) and maintenance (hourly) of migration
-- 20261122001200_price_sweep.sql. The HTTP jobs read the project URL and the CRON_SECRET from
-- Vault when they run, so no secret sits in a migration:
--   select vault.create_secret('https://<ref>.supabase.co', 'fareback_project_url');
--   select vault.create_secret('<the function''s CRON_SECRET>', 'fareback_cron_secret');
-- Missing secrets are reported here with a WARNING rather than by a job failing quietly every
-- minute. Without pg_cron (PGlite in the dev stack, a plain PostgreSQL) nothing is scheduled here
-- and the stack's ticker (dev/ticker.ts) calls /api/internal/jobs every minute, which runs the
-- same passes as recurring work.

do $schedule$
declare
  v_missing text[] := array[]::text[];
begin
  if not exists (select 1 from pg_available_extensions where name = 'pg_cron') then
    raise notice 'pg_cron is not available here: nothing scheduled in the database; the stack''s ticker calls /api/internal/jobs';
    return;
  end if;
  begin
    create extension if not exists pg_cron;
  exception when others then
    raise warning using message = 'pg_cron is installed but could not be enabled here (' || sqlerrm
      || '): FareBack''s notification passes and job runs are NOT scheduled by the database.',
      hint = 'Load it (shared_preload_libraries = ''pg_cron'', cron.database_name = this database), '
        || 'run "create extension pg_cron" as a superuser, then apply this migration''s schedule block again; '
        || 'until then run the ticker (dev/ticker.ts) or call /api/internal/jobs every minute.';
    return;
  end;

  perform cron.schedule('fareback-notification-passes', '*/5 * * * *',
                        'select private.run_notification_passes()');

  if not exists (select 1 from pg_available_extensions where name = 'pg_net') then
    raise warning using message = 'pg_net is not available: pg_cron cannot call /api/internal/jobs '
      || '(nor the price sweep and maintenance endpoints); queued notifications are not sent by the database''s schedule.',
      hint = 'Install pg_net and apply this migration''s schedule block again, or call /api/internal/jobs every minute '
        || 'from another scheduler (dev/ticker.ts does locally).';
    return;
  end if;
  if exists (select 1 from pg_namespace where nspname = 'extensions') then
    create extension if not exists pg_net with schema extensions;
  else
    create extension if not exists pg_net;
  end if;

  perform cron.schedule('fareback-jobs', '* * * * *', $cmd$
    select net.http_post(
      url := (select decrypted_secret from vault.decrypted_secrets where name = 'fareback_project_url')
             || '/functions/v1/api/internal/jobs',
      headers := jsonb_build_object(
        'Content-Type', 'application/json',
        'Authorization', 'Bearer ' || (select decrypted_secret from vault.decrypted_secrets
                                        where name = 'fareback_cron_secret')),
      body := '{}'::jsonb,
      timeout_milliseconds := 60000
    )
  $cmd$);

  if not exists (select 1 from pg_namespace where nspname = 'vault') then
    v_missing := array['fareback_project_url', 'fareback_cron_secret'];
  else
    execute $q$select coalesce(array_agg(w.secret), array[]::text[])
                 from unnest(array['fareback_project_url', 'fareback_cron_secret']) as w (secret)
                where not exists (select 1 from vault.decrypted_secrets s where s.name = w.secret)$q$
       into v_missing;
  end if;
  if cardinality(v_missing) > 0 then
    raise warning using message = 'FareBack''s scheduled calls (jobs every minute, price sweep, maintenance) will FAIL: '
      || 'the Vault secret(s) ' || array_to_string(v_missing, ', ') || ' are missing.',
      hint = 'Run: select vault.create_secret(''https://<ref>.supabase.co'', ''fareback_project_url''); '
        || 'select vault.create_secret(''<the function''''s CRON_SECRET>'', ''fareback_cron_secret'');';
  end if;
end
$schedule$;
