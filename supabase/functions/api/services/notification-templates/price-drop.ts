import type { NotificationDataOf } from './data.ts';
import { figure, flightName, money, p, type Template } from './layout.ts';

/** What FareBack does next, by the airline rule's mode (private.flight_rebooking_mode). */
const MODE_LINES = {
  automatic: 'With automatic rebooking on, FareBack changes this booking for you when the drop qualifies.',
  approval: 'This airline needs your approval: FareBack changes this booking only after you approve it.',
  assisted: 'You change this booking with the airline; FareBack shows you what to ask for.',
  none: 'This fare cannot be changed, so the drop is a missed opportunity.',
} as const;

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
      ...(d.rule ? [p(`The airline's rule: ${d.rule}.`)] : []),
      ...(d.rebookingMode ? [p(MODE_LINES[d.rebookingMode])] : []),
    ],
    action: { label: 'See the new fare', href: `${ctx.siteUrl}/dashboard` },
  }),
};
