import { expect, test, type Page } from '@playwright/test';
import { demoAdmin, demoTraveller, logIn, logOut } from './support.ts';

// The console of every screen is clean: a test fails on any console error (a failed request the
// browser reports, an uncaught exception, React's warnings logged as errors) and on chart size
// warnings, signed out, signed in as a traveller and as an admin, and across signing out.

const publicPaths = [
  '/',
  '/login',
  '/sign-up',
  '/forgot-password',
  '/contact',
  '/help',
  '/privacy',
  '/terms',
  '/missing-page',
];
const travellerPaths = [
  '/dashboard',
  '/dashboard?tab=history',
  '/dashboard?tab=credits',
  '/dashboard?tab=settings',
  '/dashboard?tab=add',
  '/dashboard?tab=subscription',
  '/account',
  '/account?tab=email',
  '/connect-email',
  '/premium-checkout',
  '/onboarding',
];
const adminPaths = ['/admin'];

/** Everything the console said that it should not have, with the page it was on. */
function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    const text = message.text();
    if (
      message.type() === 'error' ||
      (message.type() === 'warning' && /width\(.*\) and height\(.*\) of chart/.test(text))
    ) {
      // a failed request names only its status in the text; its address is the message's location
      const source = message.location().url;
      problems.push(
        `${new URL(page.url()).pathname}${new URL(page.url()).search}: [${message.type()}] ${text} (${source})`,
      );
    }
  });
  page.on('pageerror', (error) => problems.push(`${page.url()}: [uncaught] ${error.message}`));
  return problems;
}

/** Opens a path and waits until its requests have settled (a late failure still reaches the console). */
async function visit(page: Page, path: string) {
  await page.goto(path);
  await page.waitForLoadState('networkidle');
}

test('no console errors on any page, signed out, as a traveller, as an admin, and on signing out', async ({ page }) => {
  const problems = watchConsole(page);
  for (const path of publicPaths) await visit(page, path);

  await logIn(page, demoTraveller);
  for (const path of travellerPaths) await visit(page, path);
  await visit(page, '/dashboard');
  await logOut(page);
  await page.waitForLoadState('networkidle');
  for (const path of ['/', '/login']) await visit(page, path);

  await logIn(page, demoAdmin);
  for (const path of adminPaths) await visit(page, path);
  for (const tab of ['Users', 'Flights', 'Billing', 'Plans', 'Audit']) {
    const trigger = page.getByRole('tab', { name: tab });
    if (await trigger.count()) {
      await trigger.first().click();
      await page.waitForLoadState('networkidle');
    }
  }
  await logOut(page);
  await page.waitForLoadState('networkidle');

  expect(problems).toEqual([]);
});
