import type { NotificationDataOf } from './data.ts';
import { p, type Template } from './layout.ts';

const PROVIDERS = { gmail: 'Gmail', sample: 'sample' } as const;

export const emailReconnect: Template<NotificationDataOf<'email_reconnect'>> = {
  subject: 'Reconnect your inbox to FareBack',
  body: (d, ctx) => ({
    heading: 'Reconnect your inbox',
    lines: [
      p(`FareBack can no longer read your ${PROVIDERS[d.provider]} inbox: access was withdrawn or has expired.`),
      p('Until you reconnect it, new bookings in your inbox are not imported.'),
    ],
    action: { label: 'Reconnect', href: `${ctx.siteUrl}/connect-email` },
  }),
};
