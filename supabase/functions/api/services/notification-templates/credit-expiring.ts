import type { NotificationDataOf } from './data.ts';
import { day, figure, money, p, plural, type Template, appLink } from './layout.ts';

export const creditExpiring: Template<NotificationDataOf<'credit_expiring'>> = {
  subject: 'Your airline credit expires soon',
  body: (d, ctx) => ({
    heading: `Your ${d.airline} credit expires in ${plural(d.daysLeft, 'day')}`,
    lines: [
      figure('Credit', money(d.amount)),
      figure('Expires', day(d.expiresAt)),
      p('Book with the airline before then to use it; an unused credit is lost.'),
    ],
    action: { label: 'See your credits', href: appLink(ctx, '/dashboard', 'credits') },
  }),
};
