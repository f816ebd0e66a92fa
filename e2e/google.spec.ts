import { expect, test } from '@playwright/test';
import { randomBytes } from 'node:crypto';

// Locally, Supabase Auth's Google provider is a local account chooser; the round trip through the
// api's /api/auth/google redirect and supabase-js picking the session out of the URL is the same.
test('signing up with Gmail goes through the account chooser and onboarding to the dashboard', async ({ page }) => {
  const email = `g_${randomBytes(4).toString('hex')}@example.com`;
  await page.goto('/sign-up');
  await page.getByRole('button', { name: 'Sign up with Gmail' }).click();
  await expect(page.getByRole('heading', { name: 'Choose an account' })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Name').fill('Grace Hopper');
  await page.getByRole('button', { name: 'Continue' }).click();

  // a first Google sign-in is a new account: onboarding first, then the dashboard
  await expect(page).toHaveURL(/\/onboarding/);
  await expect(page.getByRole('heading', { name: 'Connect Your Email' })).toBeVisible();
  await page.getByRole('button', { name: 'Skip setup' }).click();
  await expect(page).toHaveURL(/\/dashboard/);
  await expect(page.getByRole('heading', { name: 'Flight Savings Dashboard' })).toBeVisible();
  // The username is derived from the Google address and shown in the header.
  await expect(page.getByRole('banner').getByText(email.split('@')[0]!)).toBeVisible();
  // The tokens are taken out of the address bar.
  expect(new URL(page.url()).hash).not.toContain('access_token');
});
