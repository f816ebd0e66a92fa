import type { NotificationDataOf } from './data.ts';
import { day, p, type Template } from './layout.ts';

export const subscriptionExpired: Template<NotificationDataOf<'subscription_expired'>> = {
  subject: 'Your FareBack Premium year has ended',
  body: (d, ctx) => ({
    heading: 'Your Premium year has ended',
    lines: [
      p(`Your Premium subscription ended on ${day(d.endDate)} and was not renewed. You are now on the Free plan.`),
      p(
        `Automatic rebooking is off${d.flightLimit >= 0 ? ` and FareBack watches up to ${d.flightLimit} flights` : ''}.`,
      ),
      d.unwatched > 0
        ? p(
            `${d.unwatched} of your flights ${d.unwatched === 1 ? 'is' : 'are'} kept but no longer watched. Nothing was deleted.`,
          )
        : p('Nothing was deleted.'),
      p('Renew Premium to turn automatic rebooking back on.'),
    ],
    action: { label: 'Renew Premium', href: `${ctx.siteUrl}/premium-checkout` },
  }),
};
