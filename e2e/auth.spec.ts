import { expect, test } from '@playwright/test';
import { demoTraveller, logIn, logOut, newTraveller, signUp, waitForEmail } from './support.ts';

test('a traveller signs up, lands on the dashboard, logs out to / and logs in again', async ({ page }) => {
  const user = newTraveller();
  await signUp(page, user);
  await expect(page.getByRole('heading', { name: 'Flight Savings Dashboard' })).toBeVisible();
  await expect(page.getByText('Registration successful')).toBeVisible();
  await expect(page.getByRole('banner').getByText(user.username)).toBeVisible();

  await logOut(page);
  await expect(page.getByText('Logged out successfully')).toBeVisible();
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login$/);

  await logIn(page, user);
  await expect(page.getByText('Login successful')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Flight Savings Dashboard' })).toBeVisible();
});

test('a wrong password is refused with the server message', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Username').fill(demoTraveller.username);
  await page.getByLabel('Password', { exact: true }).fill('Wrong@Password1');
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByText('Login failed')).toBeVisible();
  await expect(page.getByText('Invalid username or password')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

test('forgot password: the email arrives, its link resets the password, the new one works', async ({ page }) => {
  const user = newTraveller();
  await signUp(page, user);
  await logOut(page);

  await page.goto('/forgot-password');
  await page.getByLabel('Email').fill(user.email);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.getByText('Email Sent')).toBeVisible();

  const email = await waitForEmail(user.email);
  const link = /href="([^"]*\/reset-password\?token=[^"]+)"/.exec(email.html ?? '')?.[1];
  expect(link, 'the reset email carries a reset link').toBeTruthy();
  const target = new URL(link!.replace(/&amp;/g, '&'));
  await page.goto(`${target.pathname}${target.search}`);
  await expect(page.getByText('Verifying your reset link...')).toBeVisible();

  const newPassword = 'Renewed@2027y';
  await page.getByLabel('New Password').fill(newPassword);
  await page.getByLabel('Confirm Password').fill(newPassword);
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByText('Password Reset Complete')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/, { timeout: 5_000 });

  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByText('Invalid username or password')).toBeVisible();

  await logIn(page, { username: user.username, password: newPassword });
});

test('a reset link without a token says so and goes to /forgot-password', async ({ page }) => {
  await page.goto('/reset-password');
  await expect(page.getByText('Missing token').first()).toBeVisible();
  await expect(page).toHaveURL(/\/forgot-password$/, { timeout: 5_000 });
});

test('an unknown path shows the not-found page', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  await expect(page.getByText('Did you forget to add the page to the router?')).toBeVisible();
});

test('a visitor on /dashboard goes to /login', async ({ page }) => {
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
});

test('a traveller on /admin goes to /dashboard', async ({ page }) => {
  await logIn(page, demoTraveller);
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Flight Savings Dashboard' })).toBeVisible();
});

test('/auth redirects to /login', async ({ page }) => {
  await page.goto('/auth');
  await expect(page).toHaveURL(/\/login$/);
});
