import { expect, test } from '@playwright/test';
import { captureAtBothWidths, newTraveller, signUp } from './support.ts';

// A new account: the unconfirmed-address notice and the Settings sentence, then 'Your data' on
// /account, the delete confirmation naming what goes, deletion, and the login error under the form.
test('a new traveller is told to confirm, can delete the account, and then cannot log in', async ({ page }) => {
  const user = newTraveller();
  await signUp(page, user, { skipOnboarding: false });
  await expect(page.getByText('Confirm your email address')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Resend confirmation' })).toBeVisible();
  await captureAtBothWidths(page, 'onboarding-unconfirmed');

  await page.getByRole('button', { name: 'Skip setup' }).click();
  await page.goto('/dashboard?tab=settings');
  await expect(page.getByText('Alerts wait for your confirmed address')).toBeVisible();
  await captureAtBothWidths(page, 'settings-unconfirmed');

  await page.goto('/account');
  await expect(page.getByRole('heading', { name: 'Your data' })).toBeVisible();
  await captureAtBothWidths(page, 'account-your-data');
  await page.getByRole('button', { name: 'Delete account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete account' });
  await expect(dialog.getByText(/access is revoked at Google/)).toBeVisible();
  await captureAtBothWidths(page, 'delete-account-dialog');
  await dialog.getByLabel('Password').fill(user.password);
  await dialog.getByRole('button', { name: 'Delete my account' }).click();
  await expect(page).toHaveURL(/\/$/);

  await page.goto('/login');
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByRole('form', { name: 'Log in' }).getByText('Invalid username or password')).toBeVisible();
  await captureAtBothWidths(page, 'login-error');
});
