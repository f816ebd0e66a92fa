import type { NotificationDataOf } from './data.ts';
import { figure, money, p, type Template, appLink } from './layout.ts';

export const paymentFailed: Template<NotificationDataOf<'payment_failed'>> = {
  subject: 'Your FareBack payment did not go through',
  body: (d, ctx) => ({
    heading: 'Your payment did not go through',
    lines: [
      figure('Amount', money(d.amount)),
      figure('Reason', d.reason),
      d.purpose === 'commission'
        ? p('The commission is still owed; you can pay it from your dashboard.')
        : p('Update your payment method to keep your plan.'),
    ],
    action: { label: 'Update payment method', href: appLink(ctx, '/dashboard', 'plan') },
  }),
};
