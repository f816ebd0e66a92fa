import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { DASHBOARD_TAB_IDS } from '@/features/dashboard/tabs';
import {
  type EmailContext,
  type NotificationDataOf,
  type NotificationType,
  readNotification,
  renderNotificationEmail,
} from '../../../supabase/functions/api/services/notification-templates/index.ts';
import { routes } from './routes';

/*
 * Every link in every email opens a real page: each template is rendered with data of its type and
 * each link to the site is resolved against the web app's router (not the catch-all 404) and, on
 * the dashboard, its `?tab=` against the dashboard's tabs (issue 25: links opened
 * `?tab=subscription`, which is no tab, and landed on Flights).
 */

const site = 'https://fareback.test';
const ctx: EmailContext = {
  username: 'ada',
  siteUrl: site,
  supportEmail: 'support@fareback.app',
  unsubscribeUrl: `${site}/unsubscribe?token=abc`,
  kind: 'rebooking',
};

const flight = { airline: 'JetBlue Airways', flightNumber: 'B6 123', departureAirport: 'JFK', arrivalAirport: 'LAX' };

/** One example of each type's data; the type makes a new template fail to compile until it has one. */
const EXAMPLES: { [T in NotificationType]: NotificationDataOf<T> } = {
  price_drop: { ...flight, oldPrice: 50000, newPrice: 40000, netSavings: 9000, qualifies: true, reason: 'meets it' },
  rebooking: { ...flight, newPrice: 41000, credit: 9000, reference: 'CR-1', creditExpiresAt: '2027-11-24' },
  action_needed: { ...flight, netSavings: 6400, refundForm: 'credit', link: 'not a link' },
  rebooking_approval: {
    ...flight,
    oldPrice: 50000,
    newPrice: 40000,
    currency: 'USD',
    netSavings: 10000,
    rule: 'American Airlines Main Cabin: changes only with your approval',
    expiresAt: '2026-11-29T10:00:00Z',
    link: `${site}/dashboard?approve=token`,
  },
  flight_cancelled: flight,
  credit_expiring: { airline: 'Delta', amount: 5000, expiresAt: '2026-12-24', daysLeft: 30 },
  payment_failed: { purpose: 'subscription', amount: 2499, reason: 'Your card was declined.' },
  commission_statement: {
    periodStart: '2026-10-01',
    periodEnd: '2026-10-31',
    credits: 9000,
    commissionDue: 2250,
    charged: false,
  },
  email_reconnect: { provider: 'gmail' },
  import_over_limit: { found: 7, watched: 5, limit: 5 },
  subscription_expired: { endDate: '2026-11-20', flightLimit: 5, unwatched: 2 },
  renewal_reminder: { renewalDate: '2026-12-28T10:00:00Z', amount: 2499, daysBefore: 30 },
  payment_refunded: { amount: 500, paymentAmount: 2500, applied: 2000 },
  refund_held: { paymentId: 'pi_1', amount: 500 },
  admin_alert: {
    event: 'commission_refunded',
    userId: 'u1',
    username: 'ada',
    paymentId: 'pi_1',
    refundId: 're_1',
    amount: 5,
  },
};

function linksOf(html: string): string[] {
  return [...html.matchAll(/href="([^"]+)"/g)].map((m) => (m[1] ?? '').replaceAll('&amp;', '&'));
}

/** Why a link to the site opens no real page and tab, or null when it does. */
function problemWith(href: string): string | null {
  const url = new URL(href);
  const matches = matchRoutes(routes, url.pathname) ?? [];
  const leaf = matches.at(-1)?.route;
  if (!leaf || leaf.path === '*') return `${href}: no route for ${url.pathname}`;
  const tab = url.searchParams.get('tab');
  if (tab === null) return null;
  if (url.pathname !== '/dashboard') return `${href}: ${url.pathname} has no tab ${tab}`;
  return (DASHBOARD_TAB_IDS as readonly string[]).includes(tab) ? null : `${href}: the dashboard has no tab ${tab}`;
}

describe('email links', () => {
  for (const type of Object.keys(EXAMPLES) as NotificationType[]) {
    it(`${type}: every link opens a route and tab of the app`, async () => {
      const read = readNotification({ id: 1, type, data: EXAMPLES[type], createdAt: new Date('2026-11-28T09:00:00Z') });
      if (!read.ok) throw new Error(read.reason);
      const email = await renderNotificationEmail(read.note, ctx);
      const links = linksOf(email.html).filter((href) => href.startsWith(site));
      expect(links.length).toBeGreaterThan(0);
      expect(links.map(problemWith).filter((problem) => problem !== null)).toEqual([]);
    });
  }

  it('the billing emails open the Subscription tab', async () => {
    for (const type of [
      'payment_failed',
      'commission_statement',
      'payment_refunded',
      'refund_held',
      'renewal_reminder',
    ] as const) {
      const read = readNotification({ id: 1, type, data: EXAMPLES[type], createdAt: new Date() });
      if (!read.ok) throw new Error(read.reason);
      const email = await renderNotificationEmail(read.note, ctx);
      expect(linksOf(email.html)).toContain(`${site}/dashboard?tab=plan`);
    }
  });

  it('a link to a missing tab or page is caught', () => {
    expect(problemWith(`${site}/dashboard?tab=subscription`)).toMatch(/no tab subscription/);
    expect(problemWith(`${site}/billing`)).toMatch(/no route/);
    expect(problemWith(`${site}/dashboard?tab=plan`)).toBeNull();
  });
});
