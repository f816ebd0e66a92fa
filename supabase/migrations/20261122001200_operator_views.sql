-- =============================================================================================
-- Operator views: read-only answers for Supabase Studio
-- =============================================================================================
-- Four questions an operator asks when something looks wrong, each a view in public (Studio's
-- Table Editor lists them beside the tables; the SQL editor reads them with select * from ...):
--   public.ops_commission_owed        travellers who owe commission, what they paid, their last statement
--   public.ops_stuck_rebookings       flights held in 'rebooking' for longer than 30 minutes
--   public.ops_failed_jobs            dead letters and jobs waiting to retry after a failed attempt
--   public.ops_failed_notifications   notifications whose delivery failed for good or whose job died
--
-- Who may read them. A view in an exposed schema is an HTTP endpoint on Supabase
-- (/rest/v1/ops_failed_jobs), so:
--   * security_invoker: the view reads its tables with the caller's rights and row-level security,
--     never its owner's (the owner bypasses RLS; a default view would hand every row to anyone
--     granted SELECT on it). Every table read here is one admins may already read in full through
--     their policies, and nothing in private is read, so an admin gets every row and no new right;
--   * a guard in each view returns no row to an end user who is not an admin (anon and
--     authenticated run as themselves, private.is_end_user()); with RLS alone a traveller would see
--     their own rows here. Studio (the project owner), service_role and the api's role are not
--     end users and read everything;
--   * SELECT is granted to authenticated (admins sign in as it) and service_role, nothing to anon;
--     INSERT, UPDATE and DELETE to nobody, and an INSTEAD OF trigger refuses writes even for the
--     owner (one of them would otherwise be an automatically updatable view of public.jobs).
-- supabase/tests/privileges.test.ts lists these four as the only views end users hold a grant on;
-- supabase/tests/operator-views.test.ts checks their rows and who reads what.

-- =============================================================================================
-- Travellers with commission owed
-- =============================================================================================
-- The last statement is the latest commission row with a billing period (the monthly
-- commission_statements job closes one per traveller and period; private.close_commission_period).
create view public.ops_commission_owed
with (security_invoker = true) as
select p.id as user_id,
       p.username,
       p.email,
       sp.name as plan_name,
       sp.tier as plan_tier,
       sp.commission_rate as commission_rate_percent,
       p.commission_owed as owed_cents,
       p.commission_paid as paid_cents,
       p.total_credits_earned as credits_earned_cents,
       p.last_billing_date as last_payment_at,
       s.id as last_statement_id,
       s.billing_period_start as last_statement_period_start,
       s.billing_period_end as last_statement_period_end,
       s.amount as last_statement_amount_cents,
       s.status as last_statement_status,
       s.transaction_date as last_statement_at
  from public.profiles p
  join public.subscription_plans sp on sp.id = p.plan_id
  left join lateral (
    select bt.id, bt.billing_period_start, bt.billing_period_end, bt.amount, bt.status, bt.transaction_date
      from public.billing_transactions bt
     where bt.user_id = p.id
       and bt.type = 'commission'
       and bt.billing_period_start is not null
     order by bt.billing_period_start desc, bt.id desc
     limit 1
  ) s on true
 where p.commission_owed > 0
   and (select not private.is_end_user() or private.is_admin())
 order by p.commission_owed desc, p.id;

comment on view public.ops_commission_owed is
  'Operators: every traveller who owes commission now, most owed first, with what they paid and their last monthly statement. Read-only; admins and service_role only (others get no row).';

comment on column public.ops_commission_owed.user_id is 'The traveller (public.profiles.id).';
comment on column public.ops_commission_owed.username is 'The traveller''s username.';
comment on column public.ops_commission_owed.email is 'The traveller''s account address.';
comment on column public.ops_commission_owed.plan_name is 'Name of the plan they are on.';
comment on column public.ops_commission_owed.plan_tier is 'Tier of that plan: free or premium.';
comment on column public.ops_commission_owed.commission_rate_percent is 'That plan''s commission rate, integer percent (null: none).';
comment on column public.ops_commission_owed.owed_cents is 'Commission owed now, in cents (profiles.commission_owed; always above 0 here).';
comment on column public.ops_commission_owed.paid_cents is 'Commission paid so far, in cents (profiles.commission_paid).';
comment on column public.ops_commission_owed.credits_earned_cents is 'Airline credit FareBack won them, all time, in cents (profiles.total_credits_earned).';
comment on column public.ops_commission_owed.last_payment_at is 'When their last payment (subscription or commission) succeeded, or null.';
comment on column public.ops_commission_owed.last_statement_id is 'The last commission statement (public.billing_transactions.id), or null when none was closed yet.';
comment on column public.ops_commission_owed.last_statement_period_start is 'First day of the last statement''s period.';
comment on column public.ops_commission_owed.last_statement_period_end is 'Last day of the last statement''s period.';
comment on column public.ops_commission_owed.last_statement_amount_cents is 'What the last statement asked for, in cents (everything owed when it closed).';
comment on column public.ops_commission_owed.last_statement_status is 'The last statement''s status: pending (unpaid), completed, failed (card declined) or refunded.';
comment on column public.ops_commission_owed.last_statement_at is 'The last statement''s transaction_date (public.billing_transactions).';

-- =============================================================================================
-- Flights stuck in 'rebooking'
-- =============================================================================================
-- A rebook moves the flight price_drop -> rebooking and sets rebooking_claimed_at in one update
-- (api/queries/flights.ts claimRebooking); the request normally settles the claim within seconds.
-- When the request dies or the source's answer is lost, the reconciler asks the source about
-- claims older than REBOOKING_CLAIM_MINUTES (5) at every maintenance job (every 15 minutes).
-- Stuck = still 'rebooking' 30 minutes after the claim: past the 5-minute lease plus a 15-minute
-- maintenance interval with room to spare, so a row here means the
-- reconciler could not settle it (the source keeps failing) or is not running. A flight in
-- 'rebooking' without a claim time (set by hand) is listed too. The attempt's own record (state,
-- error, reconciler attempts) is private.rebookings, flight_id = this flight_id, readable in Studio.
create view public.ops_stuck_rebookings
with (security_invoker = true) as
select f.id as flight_id,
       f.user_id,
       p.username,
       p.email,
       f.airline,
       f.flight_number,
       f.booking_code,
       f.departure_airport,
       f.arrival_airport,
       f.departure_date,
       f.rebooking_method,
       f.original_price as original_price_cents,
       f.current_price as current_price_cents,
       f.rebooking_claimed_at as claimed_at,
       (floor(extract(epoch from (now() - f.rebooking_claimed_at)) / 60))::integer as stuck_minutes
  from public.flights f
  join public.profiles p on p.id = f.user_id
 where f.status = 'rebooking'
   and (f.rebooking_claimed_at is null or f.rebooking_claimed_at < now() - interval '30 minutes')
   and (select not private.is_end_user() or private.is_admin())
 order by f.rebooking_claimed_at nulls first, f.id;

comment on view public.ops_stuck_rebookings is
  'Operators: flights still in status rebooking 30 minutes after their claim (the reconciler settles claims older than 5 minutes at every maintenance job, every 15 minutes), oldest first. See private.rebookings for the attempt. Read-only; admins and service_role only.';

comment on column public.ops_stuck_rebookings.flight_id is 'The flight (public.flights.id; private.rebookings.flight_id).';
comment on column public.ops_stuck_rebookings.user_id is 'The flight''s owner.';
comment on column public.ops_stuck_rebookings.username is 'The owner''s username.';
comment on column public.ops_stuck_rebookings.email is 'The owner''s account address.';
comment on column public.ops_stuck_rebookings.airline is 'The flight''s airline.';
comment on column public.ops_stuck_rebookings.flight_number is 'The outbound flight number.';
comment on column public.ops_stuck_rebookings.booking_code is 'The booking reference (PNR).';
comment on column public.ops_stuck_rebookings.departure_airport is 'Origin IATA code.';
comment on column public.ops_stuck_rebookings.arrival_airport is 'Destination IATA code.';
comment on column public.ops_stuck_rebookings.departure_date is 'Outbound departure date.';
comment on column public.ops_stuck_rebookings.rebooking_method is 'source (FareBack changes the booking at the fare source) or assisted (the traveller confirms a change made with the airline).';
comment on column public.ops_stuck_rebookings.original_price_cents is 'Price paid, in cents of the flight''s currency.';
comment on column public.ops_stuck_rebookings.current_price_cents is 'The dropped fare the rebooking was claimed for, in cents.';
comment on column public.ops_stuck_rebookings.claimed_at is 'When the rebooking claim was taken (flights.rebooking_claimed_at); null when the status was set without a claim.';
comment on column public.ops_stuck_rebookings.stuck_minutes is 'Whole minutes since claimed_at (at least 30); null when claimed_at is.';

-- =============================================================================================
-- Failed jobs
-- =============================================================================================
-- Dead letters (status dead: the kind's max_attempts used, or a permanent error; pruned after 30
-- days) and jobs back in the queue after a failed attempt (queued with last_error set), waiting
-- for their next attempt at run_at. A job being retried right now (running) shows again if that
-- attempt fails too; a job that failed and then succeeded (done) is not listed.
create view public.ops_failed_jobs
with (security_invoker = true) as
select j.id as job_id,
       j.kind,
       j.status,
       j.attempts,
       j.max_attempts,
       j.last_error,
       case when j.status = 'dead' then j.finished_at else j.updated_at end as failed_at,
       case when j.status = 'queued' then j.run_at end as next_attempt_at,
       j.dedupe_key,
       j.payload,
       j.created_at
  from public.jobs j
 where (j.status = 'dead' or (j.status = 'queued' and j.last_error is not null))
   and (select not private.is_end_user() or private.is_admin())
 order by case when j.status = 'dead' then j.finished_at else j.updated_at end desc, j.id desc;

comment on view public.ops_failed_jobs is
  'Operators: background jobs that failed: dead letters (no attempt left) and jobs waiting to retry after a failed attempt, latest failure first. Read-only; admins and service_role only.';

comment on column public.ops_failed_jobs.job_id is 'The job (public.jobs.id).';
comment on column public.ops_failed_jobs.kind is 'Its kind (private.job_kinds): price_check, notification_email, email_scan, ...';
comment on column public.ops_failed_jobs.status is 'dead (never retried; kept 30 days) or queued (retried at next_attempt_at).';
comment on column public.ops_failed_jobs.attempts is 'Attempts made so far.';
comment on column public.ops_failed_jobs.max_attempts is 'Attempts allowed before it is dead.';
comment on column public.ops_failed_jobs.last_error is 'The last failed attempt''s error (a lease that ran out reads ''the lease of attempt N ran out'').';
comment on column public.ops_failed_jobs.failed_at is 'When it died (dead) or when its last attempt failed (queued).';
comment on column public.ops_failed_jobs.next_attempt_at is 'When a queued job is retried; null for a dead one.';
comment on column public.ops_failed_jobs.dedupe_key is 'The piece of work it names (e.g. notification_email:<notification id>), or null.';
comment on column public.ops_failed_jobs.payload is 'The job''s input (JSON).';
comment on column public.ops_failed_jobs.created_at is 'When it was enqueued.';

-- =============================================================================================
-- Failed notifications: public.ops_failed_notifications
-- =============================================================================================
-- A notification whose delivery failed: the mailer refused it after the last retry (status
-- failed), or its delivery job died without the row being settled (a lease that kept running
-- out leaves it pending or sending). The delivery job of an instant row has the dedupe key
-- notification_email:<id>; a digest item names its digest job in digest_key
-- (fareback-digest-<job id>). Rows still being retried are not here: their job is in
-- public.ops_failed_jobs until it succeeds or dies.
--
-- One OR of two conditions (the instant job's dedupe key, or the digest job's id in digest_key)
-- would find a notification's delivery job, but read by an admin, whose policies on public.jobs
-- apply first (security_invoker), PostgreSQL cannot use an index for that OR and reads every job
-- once per failed notification: 34 s for 1,000 failed notifications
-- over 50,000 jobs, against 0.2 s as service_role. Nor can it for a key computed in the join
-- condition ('notification_email:' || n.id): under a policy only leakproof conditions may use an
-- index, and text concatenation is not one. So the keys are computed first, in materialized CTEs
-- (each instant row's job key, each digest row's job id, each dead digest job's key), and the
-- jobs and notifications are then joined on those plain columns, through their indexes.
create or replace view public.ops_failed_notifications
with (security_invoker = true) as
with dead_digests as materialized (
  select (j.payload ->> 'userId')::uuid as user_id, 'fareback-digest-' || j.id as digest_key
    from public.jobs j
   where j.kind = 'notification_digest' and j.status = 'dead'
),
failing as (
  select n.id from public.notification_history n where n.status = 'failed'
  union
  select (j.payload ->> 'notificationId')::bigint
    from public.jobs j
   where j.kind = 'notification_email' and j.status = 'dead'
  union
  select n.id
    from dead_digests dd
    join public.notification_history n on n.user_id = dd.user_id and n.digest_key = dd.digest_key
),
failed as materialized (
  select n.id, n.user_id, n.type, n.channel, n.delivery, n.status, n.attempts, n.last_error, n.created_at,
         n.flight_id,
         case when n.digest_key is null then 'notification_email:' || n.id end as email_job_key,
         substring(n.digest_key from '^fareback-digest-([0-9]+)$')::bigint as digest_job_id
    from failing x
    join public.notification_history n on n.id = x.id
   where n.status not in ('sent', 'suppressed')
)
select f.id as notification_id,
       f.user_id,
       p.username,
       p.email,
       f.type,
       f.channel,
       f.delivery,
       f.status,
       f.attempts,
       coalesce(f.last_error, ej.last_error, dj.last_error) as error,
       coalesce(ej.id, dj.id) as job_id,
       coalesce(ej.status, dj.status) as job_status,
       coalesce(ej.finished_at, ej.updated_at, dj.finished_at, dj.updated_at) as failed_at,
       f.created_at as queued_at,
       f.flight_id
  from failed f
  join public.profiles p on p.id = f.user_id
  left join public.jobs ej on ej.dedupe_key = f.email_job_key
  left join public.jobs dj on dj.id = f.digest_job_id
 where (select not private.is_end_user() or private.is_admin())
 order by coalesce(ej.finished_at, ej.updated_at, dj.finished_at, dj.updated_at, f.created_at) desc, f.id desc;

comment on view public.ops_failed_notifications is
  'Operators: notifications that were not delivered: refused by the mailer after the last retry (status failed) or whose delivery job died, latest first. Retries in progress are in public.ops_failed_jobs. Read-only; admins and service_role only.';

comment on column public.ops_failed_notifications.notification_id is 'The notification (public.notification_history.id).';
comment on column public.ops_failed_notifications.user_id is 'The traveller it was for.';
comment on column public.ops_failed_notifications.username is 'The traveller''s username.';
comment on column public.ops_failed_notifications.email is 'The traveller''s account address (where it was to be sent).';
comment on column public.ops_failed_notifications.type is 'Its type: price_drop, rebooking, action_needed, flight_cancelled, credit_expiring, payment_failed, commission_statement, ...';
comment on column public.ops_failed_notifications.channel is 'Its channel (email).';
comment on column public.ops_failed_notifications.delivery is 'instant (its own job) or digest (sent in a daily or weekly digest).';
comment on column public.ops_failed_notifications.status is 'failed (given up after the last retry), or pending / sending when its job died first.';
comment on column public.ops_failed_notifications.attempts is 'How many times a delivery job took it for sending.';
comment on column public.ops_failed_notifications.error is 'The mailer''s last error for it, else its delivery job''s last error.';
comment on column public.ops_failed_notifications.job_id is 'Its delivery job (public.jobs.id; notification_email or notification_digest), or null once pruned.';
comment on column public.ops_failed_notifications.job_status is 'That job''s status (dead when it gave up).';
comment on column public.ops_failed_notifications.failed_at is 'When the delivery job finished or last changed; null once the job was pruned (after 30 days).';
comment on column public.ops_failed_notifications.queued_at is 'When the notification was queued.';
comment on column public.ops_failed_notifications.flight_id is 'The flight it was about, or null.';

-- =============================================================================================
-- Read-only, for admins and service_role
-- =============================================================================================
create or replace function private.refuse_operator_view_write()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  raise exception '%.% is a read-only operator view', tg_table_schema, tg_table_name
    using errcode = '42501',
          hint = 'Change the tables it reads (through the api), never the view.';
end;
$$;

comment on function private.refuse_operator_view_write() is
  'INSTEAD OF trigger of the public.ops_* views: refuses every insert, update and delete, whoever asks.';

revoke all on function private.refuse_operator_view_write() from public, anon, authenticated, service_role;

do $$
declare
  v text;
begin
  foreach v in array array['ops_commission_owed', 'ops_stuck_rebookings', 'ops_failed_jobs', 'ops_failed_notifications']
  loop
    execute format('create trigger %I instead of insert or update or delete on public.%I '
                   'for each row execute function private.refuse_operator_view_write()', v || '_read_only', v);
    execute format('revoke all on table public.%I from public, anon, authenticated, service_role', v);
    execute format('grant select on table public.%I to authenticated, service_role', v);
  end loop;
end
$$;
