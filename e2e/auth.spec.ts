import { expect, test } from '@playwright/test';
import {
  demoTraveller,
  expectShownDuring,
  expectToast,
  logIn,
  logOut,
  newTraveller,
  signUp,
  waitForEmail,
} from './support.ts';

test('a traveller signs up, lands on the dashboard, logs out to / and logs in again', async ({ page }) => {
  const user = newTraveller();
  // each toast is recorded from before the step that shows it: it lasts 5 s, the step may take longer
  await expectToast(page, { title: 'Registration successful' }, () => signUp(page, user));
  await expect(page.getByRole('heading', { name: 'Flight Savings Dashboard' })).toBeVisible();
  await expect(page.getByRole('banner').getByText(user.username)).toBeVisible();

  await expectToast(page, { title: 'Logged out successfully' }, () => logOut(page));
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login$/);

  await expectToast(page, { title: 'Login successful' }, () => logIn(page, user));
  await expect(page.getByRole('heading', { name: 'Flight Savings Dashboard' })).toBeVisible();
});

test('a wrong password is refused with the server message', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Username').fill(demoTraveller.username);
  await page.getByLabel('Password', { exact: true }).fill('Wrong@Password1');
  await expectToast(page, { title: 'Login failed', description: 'Invalid username or password' }, () =>
    page.getByRole('button', { name: 'Log In' }).click(),
  );
  await expect(page).toHaveURL(/\/login$/);
});

test('forgot password: the email arrives, its link resets the password, the new one works', async ({ page }) => {
  const user = newTraveller();
  await signUp(page, user);
  // Until its address is confirmed an account is sent nothing but the confirmation, a reset link
  // included: open the confirmation link first.
  const confirmation = await waitForEmail(user.email, (e) => /\/confirm-email\?token=/.test(e.html ?? ''));
  const confirmLink = /href="([^"]*\/confirm-email\?token=[^"]+)"/.exec(confirmation.html ?? '')?.[1];
  expect(confirmLink, 'the confirmation email carries a confirmation link').toBeTruthy();
  const confirmTarget = new URL(confirmLink!.replace(/&amp;/g, '&'));
  await page.goto(`${confirmTarget.pathname}${confirmTarget.search}`);
  await expect(page.getByRole('heading', { name: 'Email Confirmed' })).toBeVisible();
  await page.goto('/dashboard');
  await logOut(page);

  await page.goto('/forgot-password');
  await page.getByLabel('Email').fill(user.email);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.getByText('Email Sent')).toBeVisible();

  const email = await waitForEmail(user.email, (e) => /\/reset-password\?token=/.test(e.html ?? ''));
  const link = /href="([^"]*\/reset-password\?token=[^"]+)"/.exec(email.html ?? '')?.[1];
  expect(link, 'the reset email carries a reset link').toBeTruthy();
  const target = new URL(link!.replace(/&amp;/g, '&'));
  // shown for the first second (or until the session check answers): watched for from before the load
  await expectShownDuring(page.getByText('Verifying your reset link...'), () =>
    page.goto(`${target.pathname}${target.search}`),
  );

  const newPassword = 'Renewed@2027y';
  await page.getByLabel('New Password').fill(newPassword);
  await page.getByLabel('Confirm Password').fill(newPassword);
  // shown for 2 s, then the page goes to /login
  await expectShownDuring(page.getByText('Password Reset Complete'), () =>
    page.getByRole('button', { name: 'Reset Password' }).click(),
  );
  await expect(page).toHaveURL(/\/login$/);

  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await expectToast(page, { description: 'Invalid username or password' }, () =>
    page.getByRole('button', { name: 'Log In' }).click(),
  );

  await logIn(page, { username: user.username, password: newPassword });
});

test('a reset link without a token says so and goes to /forgot-password', async ({ page }) => {
  // the page and its toast say so for 2 s, then the page moves on
  await expectToast(page, { title: 'Missing token' }, () => page.goto('/reset-password'));
  await expect(page).toHaveURL(/\/forgot-password$/);
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
