// What every notification email shares: the greeting, the footer saying why it came (and the
// unsubscribe link of a kind with a switch), the figures' formats, and rendering one React Email
// tree (@react-email/components) to HTML and, from the same tree, the plain-text part
// (@react-email/render), so the two parts never say different things. Written without JSX
// (React.createElement) so the function's Deno config needs no JSX setup.
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

export { h };

export interface EmailContext {
  /** Null: no greeting (the address confirmation names no one: nothing a user wrote goes in it). */
  username: string | null;
  siteUrl: string;
  supportEmail: string;
  /** The one-click link that turns this kind off; null for account messages (no switch). */
  unsubscribeUrl: string | null;
  /** The preference kind the link turns off (private.notification_kind), or 'digest'. */
  kind: string | null;
}

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

/** What a template writes for one notification: the digest shows the heading and lines of each. */
export interface EmailBody {
  heading: string;
  lines: (ReactNode | null)[];
  action?: { label: string; href: string };
}

/**
 * One email per type. The subject is fixed text, never anything a traveller or an airline wrote
 * (airline names, booking codes, usernames): a subject is what someone abusing FareBack as a mail
 * relay wants to choose.
 */
export interface Template<D> {
  subject: string;
  body(data: D, ctx: EmailContext): EmailBody;
}

/** Why the traveller gets this kind of email and what the unsubscribe link turns off. */
const KIND_REASONS: Readonly<Record<string, string>> = {
  price_drop: 'price-drop alerts are on',
  rebooking: 'rebooking emails are on',
  flight_cancelled: 'cancellation emails are on',
  credit_expiring: 'credit expiry reminders are on',
  import_over_limit: 'inbox import notices are on',
  digest: 'you chose a daily or weekly summary',
};

// ---- figures ----

/** Cents as money (en-US; dollars unless the data names another currency). */
export const money = (cents: number, currency = 'USD') =>
  (cents / 100).toLocaleString('en-US', { style: 'currency', currency, minimumFractionDigits: 2 });

/** A date as 'November 24, 2026' (the date part of a timestamp, in UTC). */
export const day = (value: string) =>
  new Date(value).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

/** 'JetBlue Airways B6 123 (JFK to LAX)' */
export const flightName = (f: {
  airline: string;
  flightNumber: string;
  departureAirport: string;
  arrivalAirport: string;
}) => `${f.airline} ${f.flightNumber} (${f.departureAirport} to ${f.arrivalAirport})`;

/** Only http(s) links are linked; anything else falls back. */
export const safeLink = (value: string, fallback: string) => (/^https?:\/\/[^\s"<>]+$/.test(value) ? value : fallback);

/**
 * A page of the web app: `tab` is a dashboard tab id (web/src/features/dashboard/tabs.ts: flights,
 * history, credits, settings, add, plan). Every email link is checked against the web router
 * (web/src/app/email-links.test.ts).
 */
export const appLink = (ctx: EmailContext, path: string, tab?: string) =>
  `${ctx.siteUrl}${path}${tab ? `?tab=${tab}` : ''}`;

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

// ---- pieces ----

const styles = {
  body: { backgroundColor: '#f4f6f8', fontFamily: 'Helvetica, Arial, sans-serif', color: '#1a202c' },
  container: { backgroundColor: '#ffffff', padding: '24px', maxWidth: '560px', borderRadius: '8px' },
  heading: { fontSize: '20px', margin: '0 0 16px' },
  itemHeading: { fontSize: '16px', margin: '20px 0 4px' },
  button: { backgroundColor: '#2b6cb0', color: '#ffffff', padding: '12px 20px', borderRadius: '6px', fontWeight: 600 },
  figure: { fontSize: '16px', margin: '4px 0' },
  footer: { color: '#718096', fontSize: '12px', lineHeight: '18px' },
};

export const p = (text: ReactNode, style?: Record<string, string | number>) => h(Text, { style }, text);
export const figure = (label: string, value: string) => p(`${label}: ${value}`, styles.figure);
/** A notification's heading inside the digest. */
export const itemHeading = (text: string) => h(Heading, { as: 'h2', style: styles.itemHeading }, text);

export function layout(body: EmailBody, ctx: EmailContext): ReactNode {
  const reason = ctx.kind ? KIND_REASONS[ctx.kind] : undefined;
  return h(
    Html,
    { lang: 'en' },
    h(Head),
    h(Preview, null, body.heading),
    h(
      Body,
      { style: styles.body },
      h(
        Container,
        { style: styles.container },
        ctx.username === null ? null : p(`Hi ${ctx.username},`),
        h(Heading, { as: 'h1', style: styles.heading }, body.heading),
        ...body.lines.filter((line) => line !== null),
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

/** Headings keep their case in the plain-text part (html-to-text shouts them by default). */
const PLAIN_TEXT = {
  selectors: [
    { selector: 'h1', options: { uppercase: false } },
    { selector: 'h2', options: { uppercase: false } },
    { selector: 'img', format: 'skip' },
  ],
};

export async function renderBoth(tree: ReactNode): Promise<{ html: string; text: string }> {
  const [html, text] = await Promise.all([
    render(tree),
    render(tree, { plainText: true, htmlToTextOptions: PLAIN_TEXT }),
  ]);
  return { html, text };
}
