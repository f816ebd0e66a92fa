// public.notification_history as the outbox (migration 20261125110000_notification_outbox.sql):
// rows are queued by private.queue_notification and sent by the notification jobs
// (services/notifications.ts). Service connection only.
import type postgres from 'postgres';
import type { Tx } from '../db.ts';
import type { NotificationContent, StoredNotification } from '../services/notification-templates/index.ts';

/** A row as stored: its type and data, read by its template (services/notification-templates/). */
export type OutboxRow = StoredNotification;

export interface Recipient {
  userId: string;
  email: string;
  username: string;
}

interface RowFields {
  id: string | number;
  type: string;
  data: unknown;
  created_at: Date;
}

const toOutboxRow = (row: RowFields): OutboxRow => ({
  id: Number(row.id),
  type: row.type,
  data: row.data,
  createdAt: row.created_at,
});

/**
 * Starts sending one instant notification: a pending row (or one a crashed attempt left
 * 'sending') becomes 'sending' under its delivery key, or 'suppressed' when its owner's address
 * is not confirmed or the kind was turned off since it was queued. Null when there is nothing to
 * send (already sent, failed or suppressed, or gone).
 */
export async function startSending(
  tx: Tx,
  notificationId: number,
): Promise<
  { row: OutboxRow; recipient: Recipient; deliveryKey: string; kind: string | null } | { suppressed: true } | null
> {
  const [row] = await tx<
    (RowFields & {
      status: string;
      delivery_key: string;
      kind: string | null;
      user_id: string;
      email: string;
      username: string;
    })[]
  >`
    update public.notification_history n
       set status = case when p.email is not null and p.email_confirmed_at is not null
                              and private.wants_notification(p, n.type) then 'sending' else 'suppressed' end,
           delivery_key = coalesce(n.delivery_key, 'fareback-notification-' || n.id),
           attempts = n.attempts + 1
      from public.profiles p
     where n.id = ${notificationId}
       and p.id = n.user_id
       and n.status in ('pending', 'sending')
       and n.channel = 'email'
    returning n.id, n.type, n.data, n.created_at, n.status, n.delivery_key,
              private.notification_kind(n.type) as kind, n.user_id, p.email, p.username
  `;
  if (!row) return null;
  if (row.status === 'suppressed') return { suppressed: true };
  return {
    row: toOutboxRow(row),
    recipient: { userId: row.user_id, email: row.email, username: row.username },
    deliveryKey: row.delivery_key,
    kind: row.kind,
  };
}

/** The mailer took the message(s): sent. */
export async function markSent(tx: Tx, notificationIds: readonly number[]): Promise<void> {
  await tx`
    update public.notification_history
       set status = 'sent', sent_at = now(), last_error = null
     where id = any(${notificationIds as number[]}::bigint[]) and status = 'sending'`;
}

/**
 * The mailer failed: the error is kept on the row(s); when the job has no attempt left
 * (`final`) they end 'failed', otherwise they stay 'sending' under their key for the retry.
 */
export async function recordSendFailure(
  tx: Tx,
  notificationIds: readonly number[],
  error: string,
  final: boolean,
): Promise<void> {
  await tx`
    update public.notification_history
       set last_error = left(${error}, 1000),
           status = case when ${final} then 'failed' else status end
     where id = any(${notificationIds as number[]}::bigint[]) and status = 'sending'`;
}

/** Whether the job holding this claim has used its last attempt. */
export async function isLastAttempt(tx: Tx, jobId: number): Promise<boolean> {
  const [row] = await tx<
    { last: boolean }[]
  >`select attempts >= max_attempts as last from public.jobs where id = ${jobId}`;
  return row?.last ?? true;
}

/**
 * Takes one traveller's digest items for the digest `digestKey`: on the first attempt the pending
 * digest items queued before `cutoff`, which become 'sending' under the key; on a retry exactly
 * the items the first attempt took (the same message under the same idempotency key; items
 * queued since wait for the next period). So no item is ever in two digests. Items whose kind the
 * traveller turned off since are suppressed; an unconfirmed address suppresses them all.
 */
export async function takeDigestItems(
  tx: Tx,
  userId: string,
  digestKey: string,
  cutoff: Date,
): Promise<{ recipient: Recipient | null; rows: OutboxRow[] }> {
  const [profile] = await tx<{ email: string | null; username: string; confirmed: boolean }[]>`
    select email, username, email_confirmed_at is not null and notify_email as confirmed
      from public.profiles where id = ${userId} for update`;
  if (!profile) return { recipient: null, rows: [] };
  const rows = await tx<(RowFields & { status: string })[]>`
    update public.notification_history n
       set status = case when ${profile.confirmed && profile.email !== null}
                              and private.wants_notification(p, n.type) then 'sending' else 'suppressed' end,
           digest_key = ${digestKey},
           delivery_key = ${digestKey},
           attempts = n.attempts + 1
      from public.profiles p
     where p.id = n.user_id
       and n.user_id = ${userId}
       and n.delivery = 'digest'
       and case
             -- a retry sends exactly what the first attempt took (same key, same message)
             when exists (select 1 from public.notification_history x
                           where x.user_id = ${userId} and x.digest_key = ${digestKey})
               then n.status = 'sending' and n.digest_key = ${digestKey}
             else n.status = 'pending' and n.created_at < ${cutoff}
           end
    returning n.id, n.type, n.data, n.created_at, n.status
  `;
  const sending = rows.filter((row) => row.status === 'sending').map(toOutboxRow);
  sending.sort((a, b) => a.id - b.id);
  return {
    recipient: profile.email && profile.confirmed ? { userId, email: profile.email, username: profile.username } : null,
    rows: sending,
  };
}

/** Rows left pending without a delivery job get one (maintenance); answers how many. */
export async function enqueueStrandedNotifications(tx: Tx): Promise<number> {
  const [row] = await tx<{ count: number }[]>`select private.enqueue_pending_notifications() as count`;
  return row?.count ?? 0;
}

/** Queues what is due: digests whose time has come, expiring credits (SQL, see the migration). */
export async function runNotificationPasses(tx: Tx): Promise<Record<string, number>> {
  const [row] = await tx<{ result: Record<string, number> }[]>`select private.run_notification_passes() as result`;
  return row?.result ?? {};
}

/** Turns one kind of email off for the traveller (the unsubscribe link); false for a kind without a switch. */
export async function unsubscribeKind(tx: Tx, userId: string, kind: string): Promise<boolean> {
  const [row] = await tx<{ done: boolean }[]>`
    select private.unsubscribe_notification_kind(${userId}::uuid, ${kind}) as done`;
  return row?.done === true;
}

/**
 * Queues a notification from TypeScript, inside the caller's transaction: a type and its data
 * (services/notification-templates/data.ts), no text (migration 20261129100000_notification_data.sql).
 */
export async function queueNotification(
  tx: Tx,
  note: NotificationContent & { userId: string; flightId?: number | null; dedupeKey?: string | null },
): Promise<number | null> {
  const [row] = await tx<{ id: string | null }[]>`
    select private.queue_notification(
      ${note.userId}::uuid, ${note.type}, ${tx.json(note.data as postgres.JSONValue)},
      ${note.flightId ?? null}::bigint, ${note.dedupeKey ?? null}
    ) as id`;
  return row?.id === null || row?.id === undefined ? null : Number(row.id);
}
