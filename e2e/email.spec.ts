import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import nodemailer from 'nodemailer';
import { captureAtBothWidths, expectToast, newTraveller, signUp } from './support.ts';

// Email import through the screens: sign up, onboarding, the sample mailbox, the scan (run through
// the job endpoint: the ticker is off in e2e), a forwarded confirmation, disconnecting.

/**
 * Runs the due scan jobs through the scheduler's endpoint. Only those: a run of every kind would
 * also sweep prices, under the specs that click Check Now themselves.
 */
async function runJobs() {
  const res = await fetch(`${process.env.E2E_API_URL}/internal/jobs`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${process.env.E2E_CRON_SECRET}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ kinds: ['email_scan'] }),
  });
  expect(res.status).toBe(200);
}

/** Runs jobs until `text` shows on the page. */
async function runJobsUntil(page: Page, text: string) {
  await expect
    .poll(
      async () => {
        await runJobs();
        return page.getByText(text).isVisible();
      },
      { timeout: 120_000, intervals: [500] },
    )
    .toBe(true);
}

test('sign up, onboarding, the sample mailbox scanned, a forwarded email imported, disconnect', async ({ page }) => {
  await signUp(page, newTraveller(), { skipOnboarding: false });
  await expect(page.getByRole('heading', { name: 'Connect Your Email' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Connect to Continue' })).toBeDisabled();
  await captureAtBothWidths(page, 'onboarding-connect');
  await expectToast(page, { title: 'Email connected successfully' }, () =>
    page.getByRole('button', { name: 'Toggle Email (Dev)' }).click(),
  );
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Add Your First Flight' })).toBeVisible();
  await page.getByRole('tab', { name: 'From Email' }).click();
  await runJobsUntil(page, 'Scanned 11 of 11 emails, 5 flights found, 1 held for you to confirm');
  await captureAtBothWidths(page, 'onboarding-add-flight');
  await page.getByRole('button', { name: 'Continue Without Waiting' }).click();
  await expectToast(page, { title: 'Onboarding Complete!' }, () =>
    page.getByRole('button', { name: 'Go to Dashboard' }).click(),
  );
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText('Connected', { exact: true }).first()).toBeVisible();
  // the sample mailbox's bookings, none from the hotel, newsletter or check-in reminder
  for (const code of ['5TQ8ZL', 'GHT4WR', 'K7PQ2M', 'X4NR9B']) {
    await expect(page.getByRole('article').filter({ hasText: `Booking ${code}` })).toBeVisible();
  }
  // the Air Canada confirmation came forwarded from a person's address, not an airline's: held
  await expect(page.getByRole('article').filter({ hasText: 'Booking PJ7KQD' })).toHaveCount(0);

  await page.goto('/dashboard?tab=settings');
  await expect(page.getByText('Email successfully connected')).toBeVisible();
  const held = page.getByRole('list', { name: 'Bookings to confirm' });
  await expect(held.getByText('Air Canada PJ7KQD')).toBeVisible();
  await expect(held.getByText(/julia\.harper@example\.com/)).toBeVisible();
  await captureAtBothWidths(page, 'settings-email-held-booking');
  await expectToast(page, { title: 'Booking confirmed' }, () =>
    page.getByRole('button', { name: 'Confirm Air Canada PJ7KQD' }).click(),
  );
  await expect(held).toHaveCount(0);
  await page.goto('/dashboard');
  await expect(page.getByRole('article').filter({ hasText: 'Booking PJ7KQD' })).toBeVisible();

  await page.goto('/dashboard?tab=settings');
  await expect(page.getByText('Email successfully connected')).toBeVisible();
  const address = (await page.getByLabel('Your forwarding address').textContent())?.trim() ?? '';
  expect(address).toMatch(/^trips\+.+@/);
  await captureAtBothWidths(page, 'settings-email-connected');

  // a confirmation forwarded to the private address, at the mail catcher's SMTP port
  const raw = readFileSync(new URL('../dev/mailbox/02-delta-roundtrip.eml', import.meta.url), 'utf8').replaceAll(
    'GHT4WR',
    'FWD7QZ',
  );
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port: Number(process.env.E2E_SMTP_PORT),
    secure: false,
  });
  await transport.sendMail({ envelope: { from: 'me@example.com', to: [address] }, raw });
  transport.close();
  await expect
    .poll(
      async () => {
        await page.goto('/dashboard');
        return page
          .getByRole('article')
          .filter({ hasText: 'Booking FWD7QZ' })
          .waitFor({ timeout: 10_000 })
          .then(
            () => true,
            () => false,
          );
      },
      { timeout: 90_000, intervals: [1000] },
    )
    .toBe(true);

  await page.goto('/account?tab=email');
  await expect(page.getByRole('button', { name: 'Disconnect Email' })).toBeVisible();
  await captureAtBothWidths(page, 'account-email-connected');
  await expectToast(page, { title: 'Email disconnected' }, () =>
    page.getByRole('button', { name: 'Disconnect Email' }).click(),
  );
  await page.goto('/dashboard');
  await expect(page.getByText('Not Connected', { exact: true }).first()).toBeVisible();
});
