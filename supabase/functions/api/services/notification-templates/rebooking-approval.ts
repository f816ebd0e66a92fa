import type { NotificationDataOf } from './data.ts';
import { day, figure, flightName, money, p, safeLink, type Template } from './layout.ts';

/** A drop on a flight whose airline needs the traveller's approval (American Airlines, a paused airline). */
export const rebookingApproval: Template<NotificationDataOf<'rebooking_approval'>> = {
  subject: 'Approve rebooking at a lower fare',
  body: (d, ctx) => ({
    heading: `Approve rebooking ${flightName(d)} at a lower fare`,
    lines: [
      p(`The fare dropped from ${money(d.oldPrice, d.currency)} to ${money(d.newPrice, d.currency)}.`),
      figure('New fare', money(d.newPrice, d.currency)),
      figure('Net savings after any change fee', money(d.netSavings, d.currency)),
      p(`The airline's rule: ${d.rule}.`),
      p(
        `FareBack changes this booking only with your approval. The button below approves this one change, ` +
          `once, until ${day(d.expiresAt)} when the quote expires; FareBack rebooks at once if the fare still holds.`,
      ),
    ],
    action: { label: 'Approve rebooking', href: safeLink(d.link, `${ctx.siteUrl}/dashboard`) },
  }),
};
