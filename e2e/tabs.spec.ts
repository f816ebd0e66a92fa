import { expect, test } from '@playwright/test';
import { demoAdmin, demoTraveller, logIn } from './support.ts';

// The selected tab lives in the URL: a reload opens it again, and switching tabs replaces the
// history entry, so Back leaves the page instead of stepping through the tabs.
test('the dashboard tab survives a reload, and Back leaves the page', async ({ page }) => {
  await logIn(page, demoTraveller);
  await page.goto('/help');
  await page.goto('/dashboard');
  await page.getByRole('tab', { name: 'Airline Credits' }).click();
  await expect(page).toHaveURL(/\/dashboard\?tab=credits$/);
  await page.getByRole('tab', { name: 'Rebooking History' }).click();
  await expect(page).toHaveURL(/\/dashboard\?tab=history$/);

  await page.reload();
  await expect(page.getByRole('tab', { name: 'Rebooking History' })).toHaveAttribute('aria-selected', 'true');

  await page.goBack();
  await expect(page).toHaveURL(/\/help$/);
});

test('the admin tab survives a reload', async ({ page }) => {
  await logIn(page, demoAdmin);
  await page.goto('/admin');
  await page.getByRole('tab', { name: 'Plans' }).click();
  await expect(page).toHaveURL(/\/admin\?tab=subscription-plans$/);
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Plans' })).toHaveAttribute('aria-selected', 'true');
});
