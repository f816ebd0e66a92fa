import type { NotificationDataOf } from './data.ts';
import { p, money, type Template, appLink } from './layout.ts';

/** The refund of an unapplied commission payment gave up: the money is held for the traveller. */
export const refundHeld: Template<NotificationDataOf<'refund_held'>> = {
  subject: 'Your FareBack refund is delayed',
  body: (d, ctx) => ({
    heading: 'Refund delayed: your money is held',
    lines: [
      p(
        `We could not refund ${money(d.amount)} of your commission payment to your card. The money is held for you ` +
          'and our team has been told; they will refund it to you.',
      ),
    ],
    action: { label: 'See your billing', href: appLink(ctx, '/dashboard', 'plan') },
  }),
};
