import type { NotificationDataOf } from './data.ts';
import { p, money, type Template, appLink } from './layout.ts';

/** A commission payment that arrived when less (or nothing) was owed: the rest went back to the card. */
export const paymentRefunded: Template<NotificationDataOf<'payment_refunded'>> = {
  subject: 'A FareBack payment was refunded to your card',
  body: (d, ctx) => ({
    heading: 'Commission payment refunded',
    lines: [
      p(
        `Your card payment of ${money(d.paymentAmount)} arrived when ` +
          `${d.applied === 0 ? 'nothing more was owed' : 'only part of it was owed'}, ` +
          `so ${money(d.amount)} has been refunded to your card.`,
      ),
    ],
    action: { label: 'See your billing', href: appLink(ctx, '/dashboard', 'plan') },
  }),
};
