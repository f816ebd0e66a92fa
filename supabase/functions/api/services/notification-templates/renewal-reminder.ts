import type { NotificationDataOf } from './data.ts';
import { appLink, day, figure, money, p, type Template } from './layout.ts';

export const renewalReminder: Template<NotificationDataOf<'renewal_reminder'>> = {
  subject: 'Your FareBack Premium renews soon',
  body: (d, ctx) => ({
    heading: `Your Premium year renews in ${d.daysBefore} days`,
    lines: [
      figure('Renews on', day(d.renewalDate)),
      figure('Amount', money(d.amount)),
      p('Your saved card will be charged then for another year of Premium.'),
      p(
        'To stop it, open Subscription and choose Downgrade to Free, at the end of the paid year: you keep Premium until ' +
          `${day(d.renewalDate)} and nothing more is charged. You can also change the card there.`,
      ),
    ],
    action: { label: 'Manage your subscription', href: appLink(ctx, '/dashboard', 'plan') },
  }),
};
