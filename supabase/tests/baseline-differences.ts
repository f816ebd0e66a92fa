// The intended differences between the schema the archived migration history builds
// (supabase/migrations-archive/) and the one the baseline builds (supabase/migrations/), as
// dev/db/catalog.ts's diffCatalogs names them. baseline.test.ts holds the two to exactly this
// list: a difference not listed fails, and so does a listed one that no longer occurs.
// Each entry says why the baseline differs on purpose.

export interface IntendedDifference {
  /** A diffCatalogs key: "<object>: only in old", "<object>: only in new" or "<object>: <aspect> differs". */
  key: string;
  reason: string;
}

// Issue 22 item 5 (branch i22-notify, its migration 20261129100000_notification_data.sql folded
// into the notifications and billing areas): a notification is a type and data, never sentences.
const NOTIFICATION_DATA =
  'issue 22 item 5: a notification carries a type and data; the email templates write every sentence';
const NOTIFICATION_COLUMNS_MOVE =
  'issue 22 item 5: title and message dropped from notification_history, so the columns after them move up';

// Issue 22 item 4 (branch i22-scheduler, its migration 20261129200000_one_scheduler.sql folded
// into the jobs and scheduling, flights and operator views areas): pg_cron calls only
// POST /api/internal/jobs; the sweep and maintenance are recurring job kinds.
const ONE_SCHEDULER = 'issue 22 item 4: one scheduler (recurring job kinds; pg_cron only asks the api to run its jobs)';

const SWEEP_CONTINUATION = 'issue 22 item 4: a sweep longer than a run continues at the next run (batches_left)';

const ROOM_ON_PLAN = 'issue 22 item 3: reads private.room_on_plan, the one rule of room on the plan';

export const intendedDifferences: IntendedDifference[] = [
  { key: 'column public.notification_history.title: only in old', reason: NOTIFICATION_DATA },
  { key: 'column public.notification_history.message: only in old', reason: NOTIFICATION_DATA },
  {
    key: 'constraint public.notification_history.notification_history_title_length: only in old',
    reason: NOTIFICATION_DATA,
  },
  {
    key: 'constraint public.notification_history.notification_history_message_length: only in old',
    reason: NOTIFICATION_DATA,
  },
  {
    key: 'column public.notification_history.additional_data: only in old',
    reason: 'issue 22 item 5: renamed data (the facts of the news), not null default an empty object',
  },
  {
    key: 'column public.notification_history.data: only in new',
    reason: 'issue 22 item 5: additional_data renamed data, not null default an empty object',
  },
  {
    key: 'constraint public.notification_history.notification_history_data_object: only in new',
    reason: "issue 22 item 5: a notification's data is a JSON object",
  },
  {
    key: 'column public.notification_history.type: comment differs',
    reason: 'issue 22 item 5: the type names its email template and the shape of data',
  },
  { key: 'column public.notification_history.attempts: position differs', reason: NOTIFICATION_COLUMNS_MOVE },
  { key: 'column public.notification_history.channel: position differs', reason: NOTIFICATION_COLUMNS_MOVE },
  { key: 'column public.notification_history.created_at: position differs', reason: NOTIFICATION_COLUMNS_MOVE },
  { key: 'column public.notification_history.dedupe_key: position differs', reason: NOTIFICATION_COLUMNS_MOVE },
  { key: 'column public.notification_history.delivery: position differs', reason: NOTIFICATION_COLUMNS_MOVE },
  { key: 'column public.notification_history.delivery_key: position differs', reason: NOTIFICATION_COLUMNS_MOVE },
  { key: 'column public.notification_history.digest_key: position differs', reason: NOTIFICATION_COLUMNS_MOVE },
  { key: 'column public.notification_history.last_error: position differs', reason: NOTIFICATION_COLUMNS_MOVE },
  { key: 'column public.notification_history.read_at: position differs', reason: NOTIFICATION_COLUMNS_MOVE },
  { key: 'column public.notification_history.sent_at: position differs', reason: NOTIFICATION_COLUMNS_MOVE },
  { key: 'column public.notification_history.status: position differs', reason: NOTIFICATION_COLUMNS_MOVE },
  {
    key: 'function private.queue_notification(uuid,text,text,text,jsonb,bigint,text): only in old',
    reason: 'issue 22 item 5: queue_notification takes a type and data, no title or message',
  },
  {
    key: 'function private.queue_notification(uuid,text,jsonb,bigint,text): only in new',
    reason: 'issue 22 item 5: queue_notification(p_user_id, p_type, p_data, p_flight_id, p_dedupe_key), same rules',
  },
  {
    key: 'function private.billing_notify(uuid,text,text,text,jsonb,text): only in old',
    reason: 'issue 22 item 5: it only passed its sentences to queue_notification; its callers call that',
  },
  {
    key: 'function private.alert_admins(text,text,jsonb,text): only in old',
    reason: 'issue 22 item 5: admin alerts carry data (data.event names the alert), no title or message',
  },
  {
    key: 'function private.alert_admins(jsonb,text): only in new',
    reason: 'issue 22 item 5: alert_admins(p_data, p_dedupe_key), one admin_alert per admin',
  },
  {
    key: 'function private.run_notification_passes(timestamp with time zone): body differs',
    reason: 'issue 22 item 5: credit_expiring notifications queued as data',
  },
  {
    key: 'function private.expire_subscriptions(timestamp with time zone): body differs',
    reason: 'issue 22 item 5: subscription_expired notifications queued as data',
  },
  {
    key: 'function private.payment_failed(text,text): body differs',
    reason: 'issue 22 item 5: payment_failed notifications queued as data (data.purpose added)',
  },
  {
    key: 'function private.payment_unapplied_refunded(text,text,integer): body differs',
    reason: 'issue 22 item 5: payment_refunded and the commission_refunded admin alert queued as data',
  },
  {
    key: 'function private.unapplied_refund_failed(bigint,text,text): body differs',
    reason: 'issue 22 item 5: refund_held and the commission_refund_failed/held admin alerts queued as data',
  },
  {
    key: 'function private.request_job_run(): only in new',
    reason: 'issue 22 item 4: the one pg_net call pg_cron makes (POST /api/internal/jobs, Vault secrets)',
  },
  {
    key: 'function private.prune_jobs(interval,interval): body differs',
    reason: "issue 22 item 4: never prunes a kind's newest job, which holds a recurring kind's period key",
  },
  { key: 'function private.prune_jobs(interval,interval): comment differs', reason: ONE_SCHEDULER },
  {
    key: 'rows of private.job_kinds: row (kind=maintenance) differs',
    reason: 'issue 22 item 4: maintenance is a recurring job kind',
  },
  {
    key: 'rows of private.job_kinds: row (kind=price_sweep) differs',
    reason: 'issue 22 item 4: the price sweep is a recurring job kind',
  },
  { key: 'table public.jobs: comment differs', reason: ONE_SCHEDULER },
  { key: 'column public.jobs.kind: comment differs', reason: ONE_SCHEDULER },
  { key: 'column public.jobs.dedupe_key: comment differs', reason: ONE_SCHEDULER },
  { key: 'column public.jobs.finished_at: comment differs', reason: ONE_SCHEDULER },
  { key: 'view public.ops_stuck_rebookings: comment differs', reason: ONE_SCHEDULER },
  // On the pg_cron clusters only (no pg_net there: the archive scheduled no HTTP job). Where pg_net
  // exists the archive also had fareback-price-sweep and fareback-maintenance, and fareback-jobs
  // ran its own pg_net block: the baseline has fareback-jobs alone, running request_job_run().
  {
    key: 'cron job fareback-notification-passes: only in old',
    reason: 'issue 22 item 4: the notification passes are the notification_passes recurring job kind',
  },
  {
    key: 'cron job fareback-jobs: only in new',
    reason: 'issue 22 item 4: the one cron job, select private.request_job_run(), scheduled wherever pg_cron is',
  },
  // The scheduler's 20261129600000_sweep_continuation.sql, folded the same way.
  {
    key: 'function private.finish_price_sweep(bigint): returns differs',
    reason: 'issue 22 item 4: also answers batches_left, so a scheduled sweep goes on at the next run',
  },
  { key: 'function private.finish_price_sweep(bigint): body differs', reason: SWEEP_CONTINUATION },
  { key: 'function private.finish_price_sweep(bigint): comment differs', reason: SWEEP_CONTINUATION },
  {
    key: 'index public.jobs_kind_newest_idx: only in new',
    reason: "issue 22 item 4: pruning finds each kind's newest job with one index probe per kind",
  },
  {
    key: 'function private.prune_jobs(interval,interval): language differs',
    reason: 'issue 22 item 4: plpgsql, so its delete is planned with the intervals and uses jobs_finished_idx',
  },
  // Issue 22 item 3 (branch i22-rules, its migration 20261129300000_rules_one_home.sql folded
  // into the flights, rebooking, billing and email import areas): each rule one home, in SQL.
  {
    key: 'trigger public.flights.flights_set_initial_status: only in old',
    reason: 'issue 22 item 3: only the system inserts flights, so it never fired; the api asks flight_initial_status',
  },
  {
    key: 'function private.set_initial_flight_status(): only in old',
    reason: 'issue 22 item 3: the function of the dropped trigger',
  },
  {
    key: 'function private.flight_initial_status(boolean): only in new',
    reason: 'issue 22 item 3: the status of a flight no check has found a drop on, one home',
  },
  {
    key: 'function private.room_on_plan(uuid): only in new',
    reason: 'issue 22 item 3: room on the plan, one home (the Add Flight check runs it as the traveller)',
  },
  { key: 'function private.enforce_flight_limit(): body differs', reason: ROOM_ON_PLAN },
  { key: 'function private.promote_found_flights(uuid): body differs', reason: ROOM_ON_PLAN },
  { key: 'function private.unwatch_flights_over_limit(uuid): body differs', reason: ROOM_ON_PLAN },
  {
    key: 'function private.auto_rebooking_refusal(public.profiles,public.subscription_plans): only in new',
    reason: 'issue 22 item 3: why automatic rebooking does not apply (plan, switched_off), one home',
  },
  {
    key: 'function private.auto_rebooking_applies(public.profiles,public.subscription_plans): only in new',
    reason: 'issue 22 item 3: automatic rebooking applies (premium, the plan allows it, switched on), one home',
  },
  {
    key: 'function private.start_auto_rebooking_run(text,uuid,uuid,integer): body differs',
    reason:
      'issue 22 item 3: runs for the travellers auto_rebooking_applies to (a premium plan that does not allow it gets none)',
  },
  {
    key: 'function private.commission_on(integer,integer): only in new',
    reason: 'issue 22 item 3: the commission on a rebooking, one home beside the payment ledger',
  },
  {
    key: 'function private.record_rebooking(bigint,uuid,bigint,integer,integer,text,date,text,timestamp with time zone,text): only in new',
    reason: 'issue 22 item 3: the rebooking ledger in SQL beside the payment ledger, out of the flights queries',
  },
  // Issue 28 (branches i28-extract-text and i28-extract-attach, their migrations
  // 20261129400000_flight_party.sql and 20261129500000_attachment_skips.sql folded into the flights
  // and email import areas).
  {
    key: 'column public.flights.passenger_count: only in new',
    reason: 'issue 28: a flight keeps its party (how many travel), so a fare search asks for every seat',
  },
  {
    key: 'constraint public.flights.flights_passenger_count_range: only in new',
    reason: 'issue 28: a party is 1 to 9 travellers (the most one reservation holds)',
  },
  {
    key: 'column public.flights.cabin_class: comment differs',
    reason: 'issue 28: the cabin is null when the email named none, never invented',
  },
  {
    key: 'column public.email_imports.outcome_reason: comment differs',
    reason: 'issue 28: it also names the attachments the import did not read and why',
  },
];
