import { expect, test } from '@playwright/test';
import { capture, demoAdmin, demoTraveller, logIn } from './support.ts';

// Every screen at desktop and phone width: a screenshot to look at (e2e/screenshots/) and a check
// that nothing overflows the viewport sideways, which is how a layout most often breaks on a phone.
const viewports = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'mobile', width: 375, height: 812 },
] as const;

const publicScreens = [
  { path: '/', name: 'landing', heading: 'Airlines Owe You Money' },
  { path: '/login', name: 'login', heading: 'Welcome back' },
  { path: '/sign-up', name: 'sign-up', heading: 'Create an Account' },
  { path: '/forgot-password', name: 'forgot-password', heading: null },
  { path: '/reset-password?token=not-checked-until-submit', name: 'reset-password', heading: null },
  { path: '/contact', name: 'contact', heading: null },
  { path: '/help', name: 'help', heading: null },
  { path: '/privacy', name: 'privacy', heading: null },
  { path: '/terms', name: 'terms', heading: null },
  { path: '/missing-page', name: 'not-found', heading: 'Page Not Found' },
];

const travellerScreens = [
  { path: '/dashboard', name: 'dashboard', heading: 'Flight Savings Dashboard' },
  { path: '/account', name: 'account', heading: 'Account Settings' },
  { path: '/connect-email', name: 'connect-email', heading: 'Email Connection' },
  { path: '/premium-checkout', name: 'premium-checkout', heading: 'Upgrade to Premium' },
  { path: '/onboarding', name: 'onboarding', heading: null },
];

for (const viewport of viewports) {
  test.describe(`${viewport.name} (${viewport.width} px)`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('public screens', async ({ page }) => {
      for (const screen of publicScreens) {
        await page.goto(screen.path);
        if (screen.heading) await expect(page.getByRole('heading', { name: screen.heading })).toBeVisible();
        if (screen.name === 'reset-password') await expect(page.getByLabel('New Password')).toBeVisible();
        await capture(page, screen.name);
      }
    });

    test('traveller screens', async ({ page }) => {
      await logIn(page, demoTraveller);
      for (const screen of travellerScreens) {
        await page.goto(screen.path);
        if (screen.heading) await expect(page.getByRole('heading', { name: screen.heading }).first()).toBeVisible();
        await capture(page, screen.name);
      }
      if (viewport.name === 'mobile') {
        await page.goto('/dashboard');
        await page.getByRole('button', { name: 'Open menu' }).click();
        await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
        await capture(page, 'mobile-menu');
      } else {
        await page.goto('/dashboard');
        await page.getByRole('button', { name: 'Account menu' }).click();
        await expect(page.getByRole('menuitem', { name: 'Sign out' })).toBeVisible();
        await capture(page, 'avatar-menu');
      }
    });

    test('admin screen', async ({ page }) => {
      await logIn(page, demoAdmin);
      await page.goto('/admin');
      await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
      await expect(page.getByRole('banner').getByText('Admin', { exact: true }).filter({ visible: true })).toHaveCount(
        1,
      );
      await capture(page, 'admin');
    });
  });
}
