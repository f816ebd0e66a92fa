-- =============================================================================================
-- Connected mailboxes are scanned again every hour
-- =============================================================================================
-- New confirmations arrive after the first scan. Once an hour (the recurring job
-- `email_scan_due`, enqueued by the job runner with the hour in its dedupe key) a scan is opened
-- for every connected mailbox not synced within the interval and without an open scan; each
-- is an ordinary `email_scan` job (incremental by Gmail's history id). A connection that needs
-- reconnecting is not 'connected', so it is never scanned.

insert into private.job_kinds (kind, description, max_attempts, backoff_base_seconds, backoff_max_seconds)
values ('email_scan_due', 'Open an inbox scan for every connected mailbox not synced within the hour.', 3, 60, 600);

create or replace function private.open_due_email_scans(p_synced_before timestamptz)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_scan record;
  v_count integer := 0;
begin
  for v_scan in
    insert into public.email_scans (user_id, provider, mode)
    select c.user_id, c.provider, case when c.history_id is null then 'full' else 'incremental' end
      from public.email_connections c
     where c.status = 'connected'
       and coalesce(c.last_synced_at, c.connected_at) < p_synced_before
       and not exists (
         select 1 from public.email_scans s
          where s.user_id = c.user_id and s.status in ('queued', 'scanning', 'waiting'))
    on conflict (user_id) where status in ('queued', 'scanning', 'waiting') do nothing
    returning id, user_id
  loop
    perform private.enqueue_job('email_scan', jsonb_build_object('scanId', v_scan.id, 'userId', v_scan.user_id),
                                now(), 'email_scan:' || v_scan.id);
    v_count := v_count + 1;
  end loop;
  return v_count;
end;
$$;
revoke all on function private.open_due_email_scans(timestamptz) from public, anon, authenticated;
