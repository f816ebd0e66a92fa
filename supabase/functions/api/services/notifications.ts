// Delivers queued email notifications (the outbox rows price checks write; see migration
// 20261122001400_price_alerts.sql). Claiming marks the rows sent in one UPDATE ... SKIP LOCKED
// (queries/notifications.ts), before sending and outside any open transaction: two workers never
// take the same row, and an alert goes out at most once. A send that fails turns its row to
// 'failed' and is logged; the traveller still sees the drop on the dashboard.
//
// Only to confirmed addresses (migration 20261123000300_email_confirmation.sql): a claimed row
// whose owner's address is unconfirmed becomes 'suppressed' and nothing is sent. The subject is
// fixed per kind of notification, never the row's title or anything else a user could have
// written (airline, booking code, names): a subject is what a relay abuser wants to choose.
import type { Mailer } from '../../_shared/mailer/types.ts';
import type { Logger } from '../context.ts';
import type { Db } from '../db.ts';
import { claimPendingEmails, markEmailFailed } from '../queries/notifications.ts';

export interface NotifierDeps {
  db: Pick<Db, 'asService'>;
  mailer: Mailer;
  config: { siteUrl: string };
  log?: Logger;
}

/** Alert emails one scheduler or admin request sends; a backlog drains over the following requests. */
export const ALERTS_PER_REQUEST = 200;

/** Subjects per notification type: fixed text only. */
export const NOTIFICATION_SUBJECTS: Record<string, string> = {
  price_drop: 'A fare dropped on one of your flights',
};
const DEFAULT_SUBJECT = 'News about one of your flights on FareBack';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] ?? ch);

/**
 * Sends up to `limit` pending email notifications; answers how many went out and how many failed
 * (suppressed ones, for unconfirmed addresses, are neither).
 */
export async function deliverPendingEmails(deps: NotifierDeps, limit = 50): Promise<{ sent: number; failed: number }> {
  const rows = await deps.db.asService((tx) => claimPendingEmails(tx, limit));
  const claimed = rows.filter((note) => note.status === 'sent');
  if (claimed.length < rows.length) {
    deps.log?.({
      level: 'info',
      msg: 'alerts to unconfirmed addresses suppressed',
      count: rows.length - claimed.length,
    });
  }
  let failed = 0;
  const dashboard = `${deps.config.siteUrl}/dashboard`;
  for (const note of claimed) {
    const text = `Hi ${note.username},\n\n${note.message}\n\nOpen your dashboard to see the new fare and rebook: ${dashboard}\n\nYou get these emails because price-drop alerts are on in your notification preferences.\n\nFareBack`;
    const html = `<p>Hi ${escapeHtml(note.username)},</p><p>${escapeHtml(note.message)}</p><p><a href="${escapeHtml(dashboard)}">Open your dashboard</a> to see the new fare and rebook.</p><p style="color:#666;font-size:12px">You get these emails because price-drop alerts are on in your notification preferences.</p>`;
    try {
      const subject = NOTIFICATION_SUBJECTS[note.type] ?? DEFAULT_SUBJECT;
      await deps.mailer.send({ to: note.email, subject, text, html });
    } catch (error) {
      failed += 1;
      deps.log?.({ level: 'error', msg: 'notification email failed', notificationId: note.id, error: String(error) });
      await deps.db.asService((tx) => markEmailFailed(tx, note.id));
    }
  }
  return { sent: claimed.length - failed, failed };
}
