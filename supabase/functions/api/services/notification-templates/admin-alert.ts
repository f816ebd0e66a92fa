import type { NotificationDataOf } from './data.ts';
import { money, p, type Template } from './layout.ts';

/** What an admin must know about a traveller's money; data.event names the alert. */
export const adminAlert: Template<NotificationDataOf<'admin_alert'>> = {
  subject: 'FareBack admin alert',
  body: (d, ctx) => {
    const who = d.username ?? d.userId;
    const action = { label: 'Open the admin area', href: `${ctx.siteUrl}/admin` };
    switch (d.event) {
      case 'commission_refunded':
        return {
          heading: 'Commission payment refunded',
          lines: [
            p(
              `A commission payment of ${who} arrived when the debt was already paid: ${money(d.amount)} was refunded ` +
                `to their card (payment ${d.paymentId}).`,
            ),
          ],
          action,
        };
      case 'commission_refund_failed':
        return {
          heading: 'Commission refund failed',
          lines: [
            p(
              `The refund of ${money(d.amount)} to ${who} (a commission payment that found nothing owed, payment ` +
                `${d.paymentId}) failed: ${d.reason}. It will be retried.`,
            ),
          ],
          action,
        };
      case 'commission_refund_held':
        return {
          heading: 'Commission refund given up: money held',
          lines: [
            p(
              `The refund of ${money(d.amount)} to ${who} (payment ${d.paymentId}) failed on its last attempt: ` +
                `${d.reason}. The money is held for them; refund it by hand or requeue the dead commission_refund job.`,
            ),
          ],
          action,
        };
    }
  },
};
