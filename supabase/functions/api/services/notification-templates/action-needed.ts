import type { NotificationDataOf } from './data.ts';
import { figure, flightName, money, p, safeLink, type Template } from './layout.ts';

/** A ticket bought from the airline: FareBack cannot change it, the traveller asks for the fare. */
export const actionNeeded: Template<NotificationDataOf<'action_needed'>> = {
  subject: 'A lower fare is waiting: ask your airline',
  body: (d, ctx) => ({
    heading: `A lower fare is waiting for ${flightName(d)}`,
    lines: [
      p(
        'You bought this ticket from the airline, so FareBack cannot change it for you. One call or chat gets you the saving.',
      ),
      figure('What you would save after any change fee', money(d.netSavings)),
      p(
        `Ask ${d.airline} to change booking ${d.flightNumber} to the same flights at the current fare and to ` +
          `return the difference ${d.refundForm === 'cash' ? 'as a refund' : 'as a travel credit'}.`,
      ),
    ],
    action: { label: 'How to ask', href: safeLink(d.link, `${ctx.siteUrl}/dashboard`) },
  }),
};
