import type { NotificationDataOf } from './data.ts';
import { p, plural, type Template, appLink } from './layout.ts';

export const importOverLimit: Template<NotificationDataOf<'import_over_limit'>> = {
  subject: 'Flights found in your inbox are waiting for you',
  body: (d, ctx) => ({
    heading: 'More flights are waiting in your inbox',
    lines: [
      p(`FareBack found ${plural(d.found, 'flight')} in your inbox, more than your plan watches (${d.limit}).`),
      p('Upgrade to Premium to watch every flight.'),
    ],
    action: { label: 'See plans', href: appLink(ctx, '/dashboard', 'plan') },
  }),
};
