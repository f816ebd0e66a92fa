import { expect, test } from '@playwright/test';
import { captureAtBothWidths, demoAdmin, expectToast, logIn, newTraveller, signUp } from './support.ts';

// The admin area as the demo admin uses it: the header runs, the dashboard's tiles and chart,
// granting and revoking admin on a new account, recording a commission payment, and the audit log
// of those actions; a traveller who is not an admin is sent to /dashboard. Screenshots of the
// Dashboard, Users (payment dialog open) and Audit tabs at 1280 and 375 px go to e2e/screenshots/.

test('a traveller who is not an admin is sent from /admin to the dashboard', async ({ page }) => {
  await signUp(page, newTraveller());
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toHaveCount(0);
});

test('the demo admin runs the price check and auto-rebooking and reads the stats and the chart', async ({ page }) => {
  await logIn(page, demoAdmin);
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();

  // the header runs, each with its counts in the toast
  await expectToast(
    page,
    {
      title: 'Price Check Completed',
      description: /^(Checked \d+ flights? and found \d+ price drops?\.|Price check in progress)/,
    },
    () => page.getByRole('button', { name: 'Run Price Check' }).click(),
  );
  await expect(page.getByRole('button', { name: 'Run Price Check' })).toBeEnabled();
  await expectToast(
    page,
    {
      title: 'Auto-Rebooking Completed',
      description: /^Rebooked \d+ flights?, saving \$[\d,]+\.\d\d in airline credit$/,
    },
    () => page.getByRole('button', { name: 'Run Auto-Rebooking' }).click(),
  );
  await expect(page.getByRole('button', { name: 'Run Auto-Rebooking' })).toBeEnabled();

  // the dashboard: every group of tiles and the chart with its text alternative
  for (const group of ['Users', 'Flights', 'Rebookings & savings', 'Commission']) {
    await expect(page.getByRole('heading', { name: group, level: 2 })).toBeVisible();
  }
  await expect(page.getByText('Total users')).toBeVisible();
  await expect(page.getByText('Commission owed')).toBeVisible();
  const chart = page.getByRole('img', { name: 'Chart of price drops, rebookings and savings per day' });
  await expect(chart).toBeVisible();
  // drawn: the day axis's labels and the legend of the three series
  await expect(chart.locator('svg text').first()).toBeVisible();
  for (const series of ['Price drops', 'Rebookings', 'Savings']) {
    await expect(chart.getByText(series, { exact: true })).toBeVisible();
  }
  await expect(page.locator('#admin-activity-summary')).toHaveText(
    / to .*: \d+ price drops?, \d+ rebookings?, \$[\d,]+ in savings\./,
  );
  await page.getByRole('group', { name: 'Chart span' }).getByRole('button', { name: '7 days' }).click();
  await expect(page).toHaveURL(/days=7/);
  await expect(chart).toBeVisible();
  await captureAtBothWidths(page, 'admin-dashboard');
});
