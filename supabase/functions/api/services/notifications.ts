// Sends the notification outbox (public.notification_history, queued by
// private.queue_notification: migration 20261125110000_notification_outbox.sql) through the job
// queue. Three job kinds (registered in jobs/handlers.ts):
//   * notification_email: one instant row. Premium travellers' jobs are claimed first.
//   * notification_digest: one traveller's daily or weekly digest, keyed by traveller and period.
//   * notification_passes: every five minutes, queues what is due (digests whose time has come
//     in the traveller's time zone, airline credits expiring in 30 and 7 days); pg_cron runs the
//     same SQL where it exists (migration 20261125110100_notification_schedule.sql).
//
// Delivery is at least once, with an idempotency key so a message is not sent twice:
//   1. a transaction turns the row 'sending' under its delivery key ('fareback-notification-<id>',
//      a digest's: its job's dedupe key) and commits;
//   2. the mailer sends it with that key (SMTP: the Message-ID; Resend: its Idempotency-Key,
//      which Resend sends once per key within 24 hours);
//   3. the row becomes 'sent' in the transaction that completes the job.
// A send that fails leaves the row 'sending' and the job is retried with the kind's backoff (30 s
// doubling up to 6 h, 12 attempts); after the last the row is 'failed' and the job a dead
// letter. A crash between 2 and 3 (the message went out, the commit did not) retries the job once
// its lease runs out and sends the same message again under the same key: Resend drops it;
// over SMTP the receiving side sees the same Message-ID (most clients show one message). This is
// the one window where a duplicate can reach an inbox; nothing is ever lost.
//
// Only to confirmed addresses (migration 20261123000300_email_confirmation.sql) and only kinds
// the traveller still wants: checked again when sending, a row that fails either is 'suppressed'.
// A row is a type and its data; its template (services/notification-templates/) writes the email,
// with a subject fixed per type, never user text. A row whose data does not fit its type's schema
// cannot be rendered: it ends 'failed' with the reason in last_error (public.ops_failed_notifications
// lists it), at once and without retries, since its data will not change; a digest sends the rest.
import type { Mailer } from '../../_shared/mailer/types.ts';
import type { AppDeps } from '../context.ts';
import type { Tx } from '../db.ts';
import {
  isLastAttempt,
  markSent,
  type OutboxRow,
  type Recipient,
  recordSendFailure,
  runNotificationPasses,
  startSending,
  takeDigestItems,
} from '../queries/notifications.ts';
import type { JobContext, JobHandler, RunDueJobsResult } from './job-runner.ts';
import { runDueJobs } from './job-runner.ts';
import {
  type EmailContext,
  type Notification,
  readNotification,
  renderDigestEmail,
  renderNotificationEmail,
  type RenderedEmail,
} from './notification-templates/index.ts';
import { signUnsubscribeToken, unsubscribeLinks, unsubscribeSecret } from './unsubscribe.ts';

export const NOTIFICATION_EMAIL_JOB = 'notification_email';
export const NOTIFICATION_DIGEST_JOB = 'notification_digest';
export const NOTIFICATION_PASSES_JOB = 'notification_passes';

/** Alert emails one scheduler or admin request sends; a backlog drains over the following runs. */
export const ALERTS_PER_REQUEST = 200;

/** How often the passes run (and pg_cron's schedule of the same SQL). */
const PASSES_EVERY_MINUTES = 5;

type Deps = Pick<AppDeps, 'db' | 'mailer' | 'config' | 'log'>;

async function emailContext(deps: Deps, recipient: Recipient, kind: string | null): Promise<EmailContext> {
  const base = { username: recipient.username, siteUrl: deps.config.siteUrl, supportEmail: deps.config.supportEmail };
  if (!kind) return { ...base, unsubscribeUrl: null, kind: null };
  const token = await signUnsubscribeToken(unsubscribeSecret(deps.config), { userId: recipient.userId, kind });
  return { ...base, unsubscribeUrl: unsubscribeLinks(deps.config, token).page, kind };
}

/** The headers that let a mail client offer its own one-click unsubscribe (RFC 8058). */
async function unsubscribeHeaders(
  deps: Deps,
  recipient: Recipient,
  kind: string | null,
): Promise<Record<string, string>> {
  if (!kind) return {};
  const token = await signUnsubscribeToken(unsubscribeSecret(deps.config), { userId: recipient.userId, kind });
  const links = unsubscribeLinks(deps.config, token);
  return { 'List-Unsubscribe': `<${links.oneClick}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

async function send(
  mailer: Mailer,
  to: string,
  email: RenderedEmail,
  headers: Record<string, string>,
  idempotencyKey: string,
): Promise<void> {
  await mailer.send({ to, subject: email.subject, text: email.text, html: email.html, headers, idempotencyKey });
}

/**
 * Sends, or on a mailer failure records the error on the rows (failed for good on the job's
 * last attempt) and rethrows, so the queue retries the job after its backoff.
 */
async function sendOrRecord(
  deps: Deps,
  ctx: JobContext,
  jobId: number,
  ids: readonly number[],
  sendIt: () => Promise<void>,
): Promise<void> {
  try {
    await sendIt();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await deps.db.asService(async (tx) => recordSendFailure(tx, ids, message, await isLastAttempt(tx, jobId)));
    throw error;
  }
  await ctx.finish(async (tx: Tx) => {
    await markSent(tx, ids);
    return { sent: ids.length };
  });
}

export const notificationEmailHandler: JobHandler<{ notificationId: number }> = {
  kind: NOTIFICATION_EMAIL_JOB,
  leaseSeconds: 60,
  async run(job, ctx) {
    const deps = ctx.deps;
    const started = await deps.db.asService((tx) => startSending(tx, Number(job.payload.notificationId)));
    if (started === null || 'suppressed' in started) {
      await ctx.finish(() => Promise.resolve({ sent: 0, suppressed: started !== null }));
      return;
    }
    const { row, recipient, deliveryKey, kind } = started;
    const read = readNotification(row);
    if (!read.ok) {
      deps.log({ level: 'error', msg: 'notification not rendered', notificationId: row.id, reason: read.reason });
      await ctx.finish(async (tx: Tx) => {
        await recordSendFailure(tx, [row.id], read.reason, true);
        return { sent: 0, failed: 1 };
      });
      return;
    }
    const email = await renderNotificationEmail(read.note, await emailContext(deps, recipient, kind));
    const headers = await unsubscribeHeaders(deps, recipient, kind);
    await sendOrRecord(deps, ctx, job.id, [row.id], () =>
      send(deps.mailer, recipient.email, email, headers, deliveryKey),
    );
  },
};

export interface DigestPayload {
  userId: string;
  period: 'daily' | 'weekly';
  /** Items queued before this moment (the period's send time) belong to this digest. */
  cutoff: string;
}

export const notificationDigestHandler: JobHandler<DigestPayload> = {
  kind: NOTIFICATION_DIGEST_JOB,
  leaseSeconds: 120,
  async run(job, ctx) {
    const deps = ctx.deps;
    const { userId, period, cutoff } = job.payload;
    // the job's dedupe key names the traveller and the period: the digest's delivery key
    const key = `fareback-digest-${job.id}`;
    const taken = await deps.db.asService((tx) => takeDigestItems(tx, userId, key, new Date(cutoff)));
    if (!taken.recipient || taken.rows.length === 0) {
      await ctx.finish(() => Promise.resolve({ sent: 0 }));
      return;
    }
    const recipient = taken.recipient;
    const rows: Notification[] = [];
    const unreadable: { row: OutboxRow; reason: string }[] = [];
    for (const row of taken.rows) {
      const read = readNotification(row);
      if (read.ok) rows.push(read.note);
      else unreadable.push({ row, reason: read.reason });
    }
    if (unreadable.length > 0) {
      for (const { row, reason } of unreadable) {
        deps.log({ level: 'error', msg: 'notification not rendered', notificationId: row.id, reason });
      }
      // failed for good whatever becomes of the rest: a retry of this digest sends the same others
      await deps.db.asService(async (tx) => {
        for (const { row, reason } of unreadable) await recordSendFailure(tx, [row.id], reason, true);
      });
    }
    if (rows.length === 0) {
      await ctx.finish(() => Promise.resolve({ sent: 0, failed: unreadable.length }));
      return;
    }
    const email = await renderDigestEmail(
      period === 'weekly' ? 'weekly' : 'daily',
      rows,
      await emailContext(deps, recipient, 'digest'),
    );
    const headers = await unsubscribeHeaders(deps, recipient, 'digest');
    await sendOrRecord(
      deps,
      ctx,
      job.id,
      rows.map((row) => row.id),
      () => send(deps.mailer, recipient.email, email, headers, key),
    );
  },
};

export const notificationPassesHandler: JobHandler = {
  kind: NOTIFICATION_PASSES_JOB,
  leaseSeconds: 120,
  async run(_job, ctx) {
    await ctx.finish((tx) => runNotificationPasses(tx));
  },
  recurring(now) {
    const slot = new Date(Math.floor(now.getTime() / (PASSES_EVERY_MINUTES * 60_000)) * PASSES_EVERY_MINUTES * 60_000);
    return [{ kind: NOTIFICATION_PASSES_JOB, dedupeKey: `notification_passes:${slot.toISOString()}` }];
  },
};

export const NOTIFICATION_HANDLERS = [
  notificationEmailHandler,
  notificationDigestHandler,
  notificationPassesHandler,
] as const;

/**
 * Sends queued instant notifications now (after a traveller's own check found a drop, after a
 * sweep, in maintenance), premium travellers' first; the same jobs the scheduler runs every
 * minute, so nothing here is a second way of sending.
 */
export function sendQueuedNotifications(
  deps: AppDeps,
  options: { maxJobs?: number; budgetMs?: number } = {},
): Promise<RunDueJobsResult> {
  return runDueJobs(deps, [notificationEmailHandler as JobHandler<never>], {
    maxJobs: options.maxJobs ?? ALERTS_PER_REQUEST,
    budgetMs: options.budgetMs ?? 20_000,
  });
}
