import { expect, test } from '@playwright/test';
import { addWatchedFlights, captureAtBothWidths, newTraveller, signUp } from './support.ts';

// At the free plan's limit the Add form says so before anything is typed, with the two ways out.
test('at 5 of 5 flights the Add form says so up front and links to the Subscription tab', async ({ page }) => {
  const traveller = newTraveller();
  await signUp(page, traveller);
  await addWatchedFlights(traveller.username, 5);

  await page.goto('/dashboard?tab=add');
  await expect(page.getByText("You're monitoring 5 of 5 flights, your plan's limit.")).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add Flight' })).toBeDisabled();
  await expect(page.getByRole('link', { name: 'Remove a flight' })).toHaveAttribute('href', '/dashboard');
  await captureAtBothWidths(page, 'manual-entry-at-limit');

  await page.getByRole('link', { name: 'Upgrade to Premium' }).click();
  await expect(page).toHaveURL(/\/dashboard\?tab=plan$/);
  await expect(page.getByRole('tab', { name: 'Subscription' })).toHaveAttribute('aria-selected', 'true');
});
