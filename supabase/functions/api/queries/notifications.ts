// public.notification_history as an outbox: rows queued pending by the price checks
// (queries/price-checks.ts) and claimed for delivery by services/notifications.ts. Service
// connection only.
import type { Tx } from '../db.ts';

export interface ClaimedEmail {
  id: number;
  /** 'sent': deliver it now; 'suppressed': the owner's address is not confirmed, send nothing. */
  status: 'sent' | 'suppressed';
  type: string;
  email: string;
  username: string;
  message: string;
}

/**
 * Claims up to `limit` pending email notifications, marking each one sent (or suppressed, for an
 * owner whose address is not confirmed at this moment) in one UPDATE that skips rows another
 * worker holds: two workers never take the same row, and an alert goes out at most once.
 */
export async function claimPendingEmails(tx: Tx, limit: number): Promise<ClaimedEmail[]> {
  const rows = await tx<ClaimedEmail[]>`
    update public.notification_history n
       set status = case when p.email_confirmed_at is not null and p.email is not null
                         then 'sent' else 'suppressed' end,
           sent_at = now()
      from public.profiles p
     where n.id in (
             select id from public.notification_history
              where status = 'pending' and channel = 'email'
              order by id
              limit ${limit}
              for update skip locked
           )
       and p.id = n.user_id
    returning n.id, n.status, n.type, p.email, p.username, n.message
  `;
  return rows.map((row) => ({ ...row, id: Number(row.id) }));
}

export async function markEmailFailed(tx: Tx, notificationId: number): Promise<void> {
  await tx`update public.notification_history set status = 'failed' where id = ${notificationId}`;
}
