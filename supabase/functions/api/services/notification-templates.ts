// The notification emails: one template per type of notification_history row (the types and
// the additional_data each carries are listed in docs/architecture.md "Notifications"), a
// generic one for any other type, and the daily/weekly digest. Built with React Email
// (@react-email/components) and rendered to HTML and, from the same tree, to the plain-text
// part (@react-email/render), so the two parts never say different things.
//
// The subject is fixed text per type, never the row's title or anything a traveller or an
// airline wrote (airline names, booking codes, usernames): a subject is what someone abusing
// FareBack as a mail relay wants to choose. Money is integer cents in the data, shown in dollars.
// Written without JSX (React.createElement) so the function's Deno config needs no JSX setup.
// @ts-types="npm:@types/react@19.3.0"
import { createElement as h, type ReactNode } from 'react';
import {
  Body,
  Button,
  Container,
  Head,
  Heading,
  Hr,
  Html,
  Link,
  Preview,
  Section,
  Text,
} from '@react-email/components';
import { render } from '@react-email/render';

export const NOTIFICATION_SUBJECTS: Readonly<Record<string, string>> = {
  price_drop: 'A fare dropped on one of your flights',
  rebooking: 'Your flight was rebooked at a lower fare',
  action_needed: 'A lower fare is waiting: ask your airline',
  flight_cancelled: 'The airline cancelled one of your flights',
  credit_expiring: 'Your airline credit expires soon',
  payment_failed: 'Your FareBack payment did not go through',
  commission_statement: 'Your FareBack commission statement',
  email_reconnect: 'Reconnect your inbox to FareBack',
  import_over_limit: 'Flights found in your inbox are waiting for you',
  subscription_expired: 'Your FareBack Premium year has ended',
  payment_refunded: 'A FareBack payment was refunded to your card',
  refund_held: 'Your FareBack refund is delayed',
  admin_alert: 'FareBack admin alert',
};
export const DEFAULT_SUBJECT = 'News about one of your flights on FareBack';
export const DIGEST_SUBJECTS = {
  daily: 'Your FareBack daily summary',
  weekly: 'Your FareBack weekly summary',
} as const;

/** Why the traveller gets this kind of email and what the unsubscribe link turns off. */
const KIND_REASONS: Readonly<Record<string, string>> = {
  price_drop: 'price-drop alerts are on',
  rebooking: 'rebooking emails are on',
  flight_cancelled: 'cancellation emails are on',
  credit_expiring: 'credit expiry reminders are on',
  import_over_limit: 'inbox import notices are on',
  digest: 'you chose a daily or weekly summary',
};

export interface NotificationForEmail {
  id: number;
  type: string;
  title: string;
  message: string;
  data: Record<string, unknown>;
  createdAt: Date;
}

export interface EmailContext {
  username: string;
  siteUrl: string;
  supportEmail: string;
  /** The one-click link that turns this kind off; null for account messages (no switch). */
  unsubscribeUrl: string | null;
  /** The preference kind the link turns off (private.notification_kind). */
  kind: string | null;
}

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

// ---- reading the data: anything missing or of the wrong shape is left out, never shown as 'undefined' ----

const str = (data: Record<string, unknown>, key: string): string | null => {
  const value = data[key];
  return typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, 200) : null;
};
const cents = (data: Record<string, unknown>, key: string): number | null => {
  const value = data[key];
  return typeof value === 'number' && Number.isFinite(value) ? Math.round(value) : null;
};
const money = (amount: number) =>
  (amount / 100).toLocaleString('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 });
const day = (value: string | null) => {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime())
    ? value
    : date.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
};
/** Only http(s) links are linked; anything else falls back to the dashboard. */
const safeLink = (value: string | null, fallback: string) =>
  value && /^https?:\/\/[^\s"<>]+$/.test(value) ? value : fallback;

function flightName(data: Record<string, unknown>): string {
  const flight = [str(data, 'airline'), str(data, 'flightNumber')].filter(Boolean).join(' ');
  const route = str(data, 'route');
  if (flight && route) return `${flight} (${route})`;
  return flight || route || 'your flight';
}

// ---- the pieces every email shares ----

const styles = {
  body: { backgroundColor: '#f4f6f8', fontFamily: 'Helvetica, Arial, sans-serif', color: '#1a202c' },
  container: { backgroundColor: '#ffffff', padding: '24px', maxWidth: '560px', borderRadius: '8px' },
  heading: { fontSize: '20px', margin: '0 0 16px' },
  button: { backgroundColor: '#2b6cb0', color: '#ffffff', padding: '12px 20px', borderRadius: '6px', fontWeight: 600 },
  figure: { fontSize: '16px', margin: '4px 0' },
  footer: { color: '#718096', fontSize: '12px', lineHeight: '18px' },
};

const p = (text: ReactNode, style?: Record<string, string | number>) => h(Text, { style }, text);
const figure = (label: string, value: string) => p(`${label}: ${value}`, styles.figure);

interface Body {
  heading: string;
  lines: ReactNode[];
  action?: { label: string; href: string };
}

function layout(preview: string, body: Body, ctx: EmailContext): ReactNode {
  const reason = ctx.kind ? KIND_REASONS[ctx.kind] : undefined;
  return h(
    Html,
    { lang: 'en' },
    h(Head),
    h(Preview, null, preview),
    h(
      Body,
      { style: styles.body },
      h(
        Container,
        { style: styles.container },
        p(`Hi ${ctx.username},`),
        h(Heading, { as: 'h1', style: styles.heading }, body.heading),
        ...body.lines,
        body.action
          ? h(
              Section,
              { style: { margin: '20px 0' } },
              h(Button, { href: body.action.href, style: styles.button }, body.action.label),
            )
          : null,
        h(Hr),
        p(
          [
            reason
              ? `You get these emails because ${reason} in your notification preferences.`
              : 'This is a message about your FareBack account.',
            ` Questions? Write to ${ctx.supportEmail}.`,
          ].join(''),
          styles.footer,
        ),
        ctx.unsubscribeUrl
          ? p(
              h(Link, { href: ctx.unsubscribeUrl, style: { color: '#718096' } }, 'Unsubscribe from these emails'),
              styles.footer,
            )
          : null,
        p('FareBack', styles.footer),
      ),
    ),
  );
}

// ---- one body per type ----

function body(note: NotificationForEmail, ctx: EmailContext): Body {
  const d = note.data;
  const dashboard = `${ctx.siteUrl}/dashboard`;
  const flight = flightName(d);
  switch (note.type) {
    case 'price_drop': {
      const oldPrice = cents(d, 'oldPrice');
      const newPrice = cents(d, 'newPrice');
      const net = cents(d, 'netSavings');
      const reason = str(d, 'reason');
      const qualifies = d.qualifies === true;
      return {
        heading: `The fare for ${flight} dropped`,
        lines: [
          oldPrice !== null && newPrice !== null
            ? p(`The fare dropped from ${money(oldPrice)} to ${money(newPrice)}.`)
            : p(note.message),
          net !== null ? figure('What you would save after any change fee', money(net)) : null,
          p(
            qualifies
              ? `This drop qualifies for a rebooking${reason ? `: ${reason}` : '.'}`
              : `This drop does not qualify for a rebooking${reason ? `: ${reason}` : '.'}`,
          ),
        ],
        action: { label: 'See the new fare', href: dashboard },
      };
    }
    case 'rebooking': {
      const newPrice = cents(d, 'newPrice');
      const credit = cents(d, 'credit');
      const reference = str(d, 'reference');
      const expires = day(str(d, 'creditExpiresAt'));
      return {
        heading: `We rebooked ${flight} at a lower fare`,
        lines: [
          newPrice !== null ? figure('New fare', money(newPrice)) : null,
          credit !== null ? figure('Airline credit', money(credit)) : null,
          reference ? figure('Credit reference', reference) : null,
          expires ? figure('Credit expires', expires) : null,
          p(
            'Your itinerary stays the same. Keep the credit reference: the airline asks for it when you use the credit.',
          ),
        ],
        action: { label: 'See your flights', href: dashboard },
      };
    }
    case 'action_needed': {
      const net = cents(d, 'netSavings');
      const ask = str(d, 'whatToAsk');
      return {
        heading: `A lower fare is waiting for ${flight}`,
        lines: [
          p(
            'You bought this ticket from the airline, so FareBack cannot change it for you. One call or chat gets you the saving.',
          ),
          net !== null ? figure('What you would save after any change fee', money(net)) : null,
          ask ? p(`Ask the airline: "${ask}"`) : p(note.message),
        ],
        action: { label: 'How to ask', href: safeLink(str(d, 'link'), dashboard) },
      };
    }
    case 'flight_cancelled':
      return {
        heading: `The airline cancelled ${flight}`,
        lines: [
          p(
            'The fare source reports this flight as cancelled. The airline owes you a new flight or a refund: contact them to choose.',
          ),
          p('FareBack stopped watching the fare of this flight.'),
        ],
        action: { label: 'See your flights', href: dashboard },
      };
    case 'credit_expiring': {
      const amount = cents(d, 'amount');
      const expires = day(str(d, 'expiresAt'));
      const daysLeft = cents(d, 'daysLeft');
      const airline = str(d, 'airline') ?? 'your airline';
      return {
        heading: `Your ${airline} credit expires ${daysLeft !== null ? `in ${daysLeft} day${daysLeft === 1 ? '' : 's'}` : 'soon'}`,
        lines: [
          amount !== null ? figure('Credit', money(amount)) : null,
          expires ? figure('Expires', expires) : null,
          p('Book with the airline before then to use it; an unused credit is lost.'),
        ],
        action: { label: 'See your credits', href: dashboard },
      };
    }
    case 'payment_failed': {
      const amount = cents(d, 'amount');
      const reason = str(d, 'reason');
      return {
        heading: 'Your payment did not go through',
        lines: [
          amount !== null ? figure('Amount', money(amount)) : null,
          reason ? figure('Reason', reason) : null,
          p('Update your payment method to keep your plan.'),
        ],
        action: { label: 'Update payment method', href: `${ctx.siteUrl}/dashboard?tab=subscription` },
      };
    }
    case 'commission_statement': {
      const due = cents(d, 'commissionDue');
      const charged = cents(d, 'charged');
      const credits = cents(d, 'credits');
      const period = [day(str(d, 'periodStart')), day(str(d, 'periodEnd'))].filter(Boolean).join(' to ');
      return {
        heading: `Your commission statement${period ? ` for ${period}` : ''}`,
        lines: [
          credits !== null ? figure('Airline credits won for you', money(credits)) : null,
          due !== null ? figure('Commission due', money(due)) : null,
          charged !== null ? figure('Charged', money(charged)) : null,
        ],
        action: { label: 'See your billing', href: `${ctx.siteUrl}/dashboard?tab=subscription` },
      };
    }
    case 'email_reconnect': {
      const provider = str(d, 'provider') ?? 'your email provider';
      return {
        heading: 'Reconnect your inbox',
        lines: [
          p(`FareBack can no longer read your ${provider} inbox: access was withdrawn or has expired.`),
          p('Until you reconnect it, new bookings in your inbox are not imported.'),
        ],
        action: { label: 'Reconnect', href: `${ctx.siteUrl}/connect-email` },
      };
    }
    case 'import_over_limit': {
      const found = cents(d, 'found');
      const limit = cents(d, 'limit');
      return {
        heading: 'More flights are waiting in your inbox',
        lines: [
          p(
            `FareBack found ${found ?? 'some'} flight${found === 1 ? '' : 's'} in your inbox, more than your plan watches${limit !== null ? ` (${limit})` : ''}.`,
          ),
          p('Upgrade to Premium to watch every flight.'),
        ],
        action: { label: 'See plans', href: `${ctx.siteUrl}/dashboard?tab=subscription` },
      };
    }
    case 'subscription_expired': {
      const ended = day(str(d, 'endDate'));
      const limit = cents(d, 'flightLimit');
      const unwatched = cents(d, 'unwatched') ?? 0;
      return {
        heading: 'Your Premium year has ended',
        lines: [
          p(
            `Your Premium subscription ended${ended ? ` on ${ended}` : ''} and was not renewed. You are now on the Free plan.`,
          ),
          p(
            `Automatic rebooking is off${limit !== null && limit >= 0 ? ` and FareBack watches up to ${limit} flights` : ''}.`,
          ),
          unwatched > 0
            ? p(
                `${unwatched} of your flights ${unwatched === 1 ? 'is' : 'are'} kept but no longer watched. Nothing was deleted.`,
              )
            : p('Nothing was deleted.'),
          p('Renew Premium to turn automatic rebooking back on.'),
        ],
        action: { label: 'Renew Premium', href: `${ctx.siteUrl}/premium-checkout` },
      };
    }
    default:
      return {
        heading: note.title,
        lines: [p(note.message)],
        action: { label: 'Open your dashboard', href: dashboard },
      };
  }
}

/** Headings keep their case in the plain-text part (html-to-text shouts them by default). */
const PLAIN_TEXT = {
  selectors: [
    { selector: 'h1', options: { uppercase: false } },
    { selector: 'h2', options: { uppercase: false } },
    { selector: 'img', format: 'skip' },
  ],
};

async function renderBoth(tree: ReactNode): Promise<{ html: string; text: string }> {
  const [html, text] = await Promise.all([
    render(tree),
    render(tree, { plainText: true, htmlToTextOptions: PLAIN_TEXT }),
  ]);
  return { html, text };
}

/** The email for one notification: fixed subject, HTML and plain-text parts. */
export async function renderNotificationEmail(note: NotificationForEmail, ctx: EmailContext): Promise<RenderedEmail> {
  const content = body(note, ctx);
  const filled = { ...content, lines: content.lines.filter((line) => line !== null) };
  return {
    subject: NOTIFICATION_SUBJECTS[note.type] ?? DEFAULT_SUBJECT,
    ...(await renderBoth(layout(content.heading, filled, ctx))),
  };
}

/** One email listing a period's notifications, each under its own heading. */
export async function renderDigestEmail(
  period: keyof typeof DIGEST_SUBJECTS,
  notes: readonly NotificationForEmail[],
  ctx: EmailContext,
): Promise<RenderedEmail> {
  const items = notes.flatMap((note) => {
    const content = body(note, ctx);
    return [
      h(Heading, { as: 'h2', style: { fontSize: '16px', margin: '20px 0 4px' } }, content.heading),
      ...content.lines.filter((line) => line !== null),
    ];
  });
  const heading = `${notes.length} update${notes.length === 1 ? '' : 's'} about your flights ${period === 'daily' ? 'today' : 'this week'}`;
  const tree = layout(
    heading,
    { heading, lines: items, action: { label: 'Open your dashboard', href: `${ctx.siteUrl}/dashboard` } },
    ctx,
  );
  return { subject: DIGEST_SUBJECTS[period], ...(await renderBoth(tree)) };
}
