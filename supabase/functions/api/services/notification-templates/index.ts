// The notification emails: one template per type of public.notification_history row, each in its
// own file beside this one, and the daily/weekly digest that lists several. A row holds a type
// and its data (the facts, in cents and dates; data.ts), never a sentence: every subject, heading
// and line a traveller reads is written here, once per email. docs/architecture.md
// "Notifications" says where a new email goes.
import { actionNeeded } from './action-needed.ts';
import { adminAlert } from './admin-alert.ts';
import { commissionStatement } from './commission-statement.ts';
import { creditExpiring } from './credit-expiring.ts';
import type { Notification, NotificationDataOf, NotificationType } from './data.ts';
import { emailReconnect } from './email-reconnect.ts';
import { flightCancelled } from './flight-cancelled.ts';
import { importOverLimit } from './import-over-limit.ts';
import {
  type EmailBody,
  type EmailContext,
  itemHeading,
  layout,
  plural,
  renderBoth,
  type RenderedEmail,
  type Template,
} from './layout.ts';
import { paymentFailed } from './payment-failed.ts';
import { paymentRefunded } from './payment-refunded.ts';
import { priceDrop } from './price-drop.ts';
import { rebooking } from './rebooking.ts';
import { rebookingApproval } from './rebooking-approval.ts';
import { refundHeld } from './refund-held.ts';
import { renewalReminder } from './renewal-reminder.ts';
import { subscriptionExpired } from './subscription-expired.ts';

export type { EmailContext, RenderedEmail } from './layout.ts';
export {
  isNotificationType,
  type Notification,
  type NotificationContent,
  type NotificationDataOf,
  type NotificationType,
  readNotification,
  type StoredNotification,
} from './data.ts';

const TEMPLATES: { [T in NotificationType]: Template<NotificationDataOf<T>> } = {
  price_drop: priceDrop,
  rebooking,
  action_needed: actionNeeded,
  rebooking_approval: rebookingApproval,
  flight_cancelled: flightCancelled,
  credit_expiring: creditExpiring,
  payment_failed: paymentFailed,
  commission_statement: commissionStatement,
  email_reconnect: emailReconnect,
  import_over_limit: importOverLimit,
  subscription_expired: subscriptionExpired,
  renewal_reminder: renewalReminder,
  payment_refunded: paymentRefunded,
  refund_held: refundHeld,
  admin_alert: adminAlert,
};

export const DIGEST_SUBJECTS = {
  daily: 'Your FareBack daily summary',
  weekly: 'Your FareBack weekly summary',
} as const;

/** The fixed subject of each type's email. */
export const subjectOf = (type: NotificationType): string => TEMPLATES[type].subject;

function bodyOf(note: Notification, ctx: EmailContext): EmailBody {
  // the union of rows is not correlated with the record's type by TypeScript; the key is the type
  const template = TEMPLATES[note.type] as Template<typeof note.data>;
  return template.body(note.data, ctx);
}

/** The email for one notification: its type's subject, HTML and plain-text parts. */
export async function renderNotificationEmail(note: Notification, ctx: EmailContext): Promise<RenderedEmail> {
  return { subject: subjectOf(note.type), ...(await renderBoth(layout(bodyOf(note, ctx), ctx))) };
}

/** One email listing a period's notifications, each under its own heading, in the order given. */
export async function renderDigestEmail(
  period: keyof typeof DIGEST_SUBJECTS,
  notes: readonly Notification[],
  ctx: EmailContext,
): Promise<RenderedEmail> {
  const items = notes.flatMap((note) => {
    const content = bodyOf(note, ctx);
    return [itemHeading(content.heading), ...content.lines];
  });
  const heading = `${plural(notes.length, 'update')} about your flights ${period === 'daily' ? 'today' : 'this week'}`;
  const tree = layout(
    { heading, lines: items, action: { label: 'Open your dashboard', href: `${ctx.siteUrl}/dashboard` } },
    ctx,
  );
  return { subject: DIGEST_SUBJECTS[period], ...(await renderBoth(tree)) };
}
