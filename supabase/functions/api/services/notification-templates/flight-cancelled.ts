import type { NotificationDataOf } from './data.ts';
import { flightName, p, type Template } from './layout.ts';

export const flightCancelled: Template<NotificationDataOf<'flight_cancelled'>> = {
  subject: 'The airline cancelled one of your flights',
  body: (d, ctx) => ({
    heading: `The airline cancelled ${flightName(d)}`,
    lines: [
      p(
        'The fare source reports this flight as cancelled. The airline owes you a new flight or a refund: contact them to choose.',
      ),
      p('FareBack stopped watching the fare of this flight.'),
    ],
    action: { label: 'See your flights', href: `${ctx.siteUrl}/dashboard` },
  }),
};
