import type { NotificationDataOf } from './data.ts';
import { day, figure, money, p, type Template, appLink } from './layout.ts';

export const commissionStatement: Template<NotificationDataOf<'commission_statement'>> = {
  subject: 'Your FareBack commission statement',
  body: (d, ctx) => ({
    heading: `Your commission statement for ${day(d.periodStart)} to ${day(d.periodEnd)}`,
    lines: [
      figure('Airline credits won for you', money(d.credits)),
      figure('Commission due', money(d.commissionDue)),
      d.charged
        ? p(`${money(d.commissionDue)} was charged to your saved card.`)
        : d.commissionDue > 0
          ? p(`${money(d.commissionDue)} is due. You can pay it from your dashboard.`)
          : p('Nothing is due.'),
    ],
    action: { label: 'See your billing', href: appLink(ctx, '/dashboard', 'plan') },
  }),
};
