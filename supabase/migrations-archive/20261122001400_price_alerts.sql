-- =============================================================================================
-- Price-drop alerts: the notification outbox
-- =============================================================================================
-- A price check that finds a new drop queues a notification_history row with status 'pending'
-- in the same statement that records the price (api/queries/price-checks.ts); the api's
-- notifier then claims pending email rows, marks them sent and sends them, so an alert is never
-- lost with a rolled-back check and never sent twice. This index finds the pending rows.

create index notification_history_pending_idx
  on public.notification_history (id)
  where status = 'pending';
