import type { NotificationDataOf } from './data.ts';
import { figure, flightName, money, p, type Template } from './layout.ts';

export const priceDrop: Template<NotificationDataOf<'price_drop'>> = {
  subject: 'A fare dropped on one of your flights',
  body: (d, ctx) => ({
    heading: `The fare for ${flightName(d)} dropped`,
    lines: [
      p(`The fare dropped from ${money(d.oldPrice, d.currency)} to ${money(d.newPrice, d.currency)}.`),
      figure('What you would save after any change fee', money(d.netSavings, d.currency)),
      p(
        d.qualifies
          ? `This drop qualifies for a rebooking: ${d.reason}`
          : `This drop does not qualify for a rebooking: ${d.reason}`,
      ),
    ],
    action: { label: 'See the new fare', href: `${ctx.siteUrl}/dashboard` },
  }),
};
