-- =============================================================================================
-- public.ops_failed_notifications: find each row's delivery job by one indexed key
-- =============================================================================================
-- Migration 20261126300100 found a notification's delivery job with one OR of two conditions
-- (the instant job's dedupe key, or the digest job's id in digest_key). Read by an admin, whose
-- policies on public.jobs apply first (security_invoker), PostgreSQL could not use an index for
-- that OR and read every job once per failed notification: 34 s for 1,000 failed notifications
-- over 50,000 jobs, against 0.2 s as service_role. Nor can it for a key computed in the join
-- condition ('notification_email:' || n.id): under a policy only leakproof conditions may use an
-- index, and text concatenation is not one. So the keys are computed first, in materialized CTEs
-- (each instant row's job key, each digest row's job id, each dead digest job's key), and the
-- jobs and notifications are then joined on those plain columns, through their indexes.
-- Same columns, rows and order; comments, grants and the read-only trigger stay.

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
