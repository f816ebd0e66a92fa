import type { NotificationDataOf } from './data.ts';
import { day, figure, flightName, money, p, type Template } from './layout.ts';

export const rebooking: Template<NotificationDataOf<'rebooking'>> = {
  subject: 'Your flight was rebooked at a lower fare',
  body: (d, ctx) => ({
    heading: `We rebooked ${flightName(d)} at a lower fare`,
    lines: [
      figure('New fare', money(d.newPrice)),
      figure('Airline credit', money(d.credit)),
      d.reference ? figure('Credit reference', d.reference) : null,
      d.creditExpiresAt ? figure('Credit expires', day(d.creditExpiresAt)) : null,
      p('Your itinerary stays the same. Keep the credit reference: the airline asks for it when you use the credit.'),
    ],
    action: { label: 'See your flights', href: `${ctx.siteUrl}/dashboard` },
  }),
};
