import { expect, test, type Page } from '@playwright/test';
import {
  addWatchedFlights,
  capture,
  captureAtBothWidths,
  expectToast,
  logIn,
  newTraveller,
  putOnPremium,
  signUp,
  withStackDatabase,
} from './support.ts';

// Money moving in the local test mode (no Stripe key: no card is charged, the api's confirmation
// step completes or declines each payment): a declined upgrade, an upgrade, checkout, and the demo
// premium traveller paying the commission owed. Screenshots of the Subscription tab (free and
// premium), the payment dialog and checkout at 1280 and 375 px go to e2e/screenshots/.

const demoPremium = { username: 'premium', password: 'Premium@2026!' };
const viewports = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'mobile', width: 375, height: 812 },
] as const;

async function openPlanTab(page: Page) {
  await page.goto('/dashboard?tab=plan');
  await expect(page.getByRole('heading', { name: 'Your Subscription' })).toBeVisible();
}

const subscriptionCard = (page: Page) => page.locator('.chakra-card__root').filter({ hasText: 'Your Subscription' });

/** Pays a Premium year from the Subscription tab's payment dialog (the test mode's valid card). */
async function payYear(page: Page) {
  const card = subscriptionCard(page);
  await card.getByRole('button', { name: 'Upgrade to Premium' }).click();
  const dialog = page.getByRole('dialog', { name: 'Premium Subscription' });
  await expectToast(page, { title: 'Payment Successful', description: 'Your subscription has been updated!' }, () =>
    dialog.getByRole('button', { name: /^Pay \$/ }).click(),
  );
  await expect(dialog).toBeHidden();
  await expect(card.getByText('Premium', { exact: true })).toBeVisible();
}

/**
 * The traveller's paid year ended an hour ago with a declining card saved, and the daily pass ran
 * (through the scheduler's endpoint, only that kind), as tests/api/subscription-expiry.test.ts
 * arranges a failed renewal: time moves by moving the stored dates, never by waiting.
 */
async function failRenewal(username: string) {
  await withStackDatabase(async (sql) => {
    const [profile] = await sql<{ id: string }[]>`
      update public.profiles set subscription_start_date = now() - interval '1 year' - interval '1 hour',
                                 subscription_end_date = now() - interval '1 hour'
       where lower(username) = lower(${username}) returning id`;
    if (!profile) throw new Error(`no account named ${username}`);
    const saved = await sql`update private.billing_accounts set payment_method_id = 'pm_card_chargeDeclined'
                             where user_id = ${profile.id} returning user_id`;
    expect(saved).toHaveLength(1);
    await sql`delete from public.jobs where kind = 'subscription_expiry'`;
  });
  const res = await fetch(`${process.env.E2E_API_URL}/internal/jobs`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${process.env.E2E_CRON_SECRET}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ kinds: ['subscription_expiry'] }),
  });
  expect(res.status).toBe(200);
}

test('a declined card, then an upgrade', async ({ page }) => {
  await signUp(page, newTraveller());
  await openPlanTab(page);
  const card = page.locator('.chakra-card__root').filter({ hasText: 'Your Subscription' });
  await expect(card.getByText('Premium Only')).toBeVisible();

  await card.getByRole('button', { name: 'Upgrade to Premium' }).click();
  const dialog = page.getByRole('dialog', { name: 'Premium Subscription' });
  await expect(dialog.getByText('Test mode: no real card is charged')).toBeVisible();
  await expectToast(page, { title: 'Payment Failed' }, () =>
    dialog.getByRole('button', { name: 'Simulate a declined card' }).click(),
  );
  await expect(card.getByText('Free', { exact: true })).toBeVisible();

  await expectToast(page, { title: 'Payment Successful', description: 'Your subscription has been updated!' }, () =>
    dialog.getByRole('button', { name: /^Pay \$/ }).click(),
  );
  await expect(dialog).toBeHidden();
  await expect(card.getByText('Premium', { exact: true })).toBeVisible();
  await expect(card.getByText('Currently disabled - Enable in settings')).toBeVisible();
  // The declined attempt and the payment are one intent: the history shows the paid year.
  const history = page.getByRole('table', { name: 'Payment History' });
  await expect(history.getByRole('row')).toHaveCount(2);
  await expect(history.getByText('completed')).toBeVisible();
});

test('a downgrade with more flights than the free plan watches says how many to remove and keeps them all', async ({
  page,
}) => {
  const traveller = newTraveller();
  await signUp(page, traveller);
  await putOnPremium(traveller.username);
  await addWatchedFlights(traveller.username, 7);
  await openPlanTab(page);
  const card = page.locator('.chakra-card__root').filter({ hasText: 'Your Subscription' });
  await expect(card.getByText('Premium', { exact: true })).toBeVisible();

  await card.getByRole('button', { name: 'Downgrade to Free' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Downgrade to Free?' });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(card.getByText('Premium', { exact: true })).toBeVisible();

  await card.getByRole('button', { name: 'Downgrade to Free' }).click();
  await expectToast(page, { title: 'Downgraded to Free Tier' }, () =>
    confirm.getByRole('button', { name: 'Downgrade now' }).click(),
  );
  await expect(card.getByText('Free', { exact: true })).toBeVisible();
  await expect(page.getByText('Remove 2 flights to add new ones')).toBeVisible();

  // nothing was deleted: all seven are still listed
  await page.goto('/dashboard?tab=flights');
  for (let i = 0; i < 7; i++) await expect(page.getByText(`DL${400 + i}`, { exact: false }).first()).toBeVisible();
});

test('a paid year renews; downgrade at the end of the year keeps Premium and can be taken back; downgrade now ends it', async ({
  page,
}) => {
  await signUp(page, newTraveller());
  await openPlanTab(page);
  await payYear(page);
  const card = subscriptionCard(page);
  await expect(card.getByText(/^Renews on .+ for \$24\.99 a year\.$/)).toBeVisible();
  await captureAtBothWidths(page, 'subscription-renewing');

  // the dialog asks when: the end of the paid year is the default, nothing lost
  await card.getByRole('button', { name: 'Downgrade to Free' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Downgrade to Free?' });
  const when = confirm.getByRole('radiogroup', { name: 'When to downgrade' });
  await expect(when.getByRole('radio', { name: /^At the end of the paid year/ })).toBeChecked();
  await expect(confirm.getByRole('button', { name: 'Downgrade at year end' })).toBeVisible();
  await captureAtBothWidths(page, 'downgrade-dialog-period-end', { fullPage: false });
  await expectToast(page, { title: 'Subscription Updated' }, () =>
    confirm.getByRole('button', { name: 'Downgrade at year end' }).click(),
  );
  await expect(confirm).toBeHidden();
  await expect(card.getByText('Premium', { exact: true })).toBeVisible();
  await expect(card.getByText(/^Premium until .+, then the Free plan: renewal is off\.$/)).toBeVisible();
  await captureAtBothWidths(page, 'subscription-downgrade-scheduled');

  // taken back: the year renews again
  await expectToast(page, { title: 'Subscription Updated' }, () =>
    card.getByRole('button', { name: 'Keep Premium (renew)' }).click(),
  );
  await expect(card.getByText(/^Renews on .+ for \$24\.99 a year\.$/)).toBeVisible();

  // now: the free plan at once
  await card.getByRole('button', { name: 'Downgrade to Free' }).click();
  await when.getByText('Now', { exact: true }).click();
  await expect(when.getByRole('radio', { name: /^Now/ })).toBeChecked();
  await expect(confirm.getByText(/^From now you are on the Free plan/)).toBeVisible();
  await captureAtBothWidths(page, 'downgrade-dialog-now', { fullPage: false });
  await expectToast(page, { title: 'Downgraded to Free Tier' }, () =>
    confirm.getByRole('button', { name: 'Downgrade now' }).click(),
  );
  await expect(card.getByText('Free', { exact: true })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Upgrade to Premium' })).toBeVisible();
  await captureAtBothWidths(page, 'subscription-downgraded-now');
});

test('a downgrade already scheduled for the year end can be brought forward to now', async ({ page }) => {
  await signUp(page, newTraveller());
  await openPlanTab(page);
  await payYear(page);
  const card = subscriptionCard(page);
  await card.getByRole('button', { name: 'Downgrade to Free' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Downgrade to Free?' });
  await expectToast(page, { title: 'Subscription Updated' }, () =>
    confirm.getByRole('button', { name: 'Downgrade at year end' }).click(),
  );
  await card.getByRole('button', { name: 'Downgrade now' }).click();
  await expect(confirm.getByText(/^From now you are on the Free plan/)).toBeVisible();
  await expectToast(page, { title: 'Downgraded to Free Tier' }, () =>
    confirm.getByRole('button', { name: 'Downgrade now' }).click(),
  );
  await expect(card.getByText('Free', { exact: true })).toBeVisible();
});

test('changing the card, then a failed renewal: the banner, Update card, Premium renewed', async ({ page }) => {
  const traveller = newTraveller();
  await signUp(page, traveller);
  await openPlanTab(page);
  await payYear(page);
  const card = subscriptionCard(page);
  await expectToast(
    page,
    { title: 'Card Updated', description: /used for your next renewal and commission statements/ },
    () => card.getByRole('button', { name: 'Update card' }).click(),
  );
  await captureAtBothWidths(page, 'subscription-card-updated');

  await failRenewal(traveller.username);
  await openPlanTab(page);
  const banner = page.getByRole('alert', { name: 'Payment failed' });
  await expect(banner.getByText('Your Premium renewal of $24.99 did not go through')).toBeVisible();
  await expect(banner.getByText(/declined/)).toBeVisible();
  await expect(banner.getByText(/^Next try: /)).toBeVisible();
  await expect(banner.getByText(/1, 3 and 7 days after the first failure.*Free plan/)).toBeVisible();
  // still Premium, told what to do; one 'Update card', the banner's
  await expect(card.getByText('Premium', { exact: true })).toBeVisible();
  await expect(card.getByText('Your renewal payment failed: update your card to keep Premium.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Update card' })).toHaveCount(1);
  const history = page.getByRole('table', { name: 'Payment History' });
  await expect(history.getByText('failed')).toBeVisible();
  await captureAtBothWidths(page, 'subscription-payment-failed');

  await expectToast(page, { title: 'Card Updated - Premium Renewed' }, () =>
    banner.getByRole('button', { name: 'Update card' }).click(),
  );
  await expect(banner).toBeHidden();
  await expect(card.getByText(/^Renews on .+ for \$24\.99 a year\.$/)).toBeVisible();
  await expect(history.getByText('completed')).toHaveCount(2);
  await captureAtBothWidths(page, 'subscription-renewed-after-card-change');
});

test('checkout in test mode takes a free traveller to the dashboard as premium', async ({ page }) => {
  await signUp(page, newTraveller());
  await page.goto('/premium-checkout');
  await expect(page.getByText('Test mode: no real card is charged')).toBeVisible();
  await page.getByRole('button', { name: 'Secure Checkout' }).click();
  await expect(page).toHaveURL(/test_payment=/);
  await expectToast(page, { title: 'Subscription Successful' }, () =>
    page.getByRole('button', { name: /^Pay \$/ }).click(),
  );
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/premium-checkout');
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('the demo premium traveller pays the commission owed', async ({ page }) => {
  await logIn(page, demoPremium);
  await openPlanTab(page);
  const pay = page.getByRole('button', { name: /^Pay Commission \(\$/ });
  await expect(pay).toBeVisible();
  await pay.click();
  const dialog = page.getByRole('dialog', { name: 'Pay Commission' });
  await expect(dialog.getByText('Test mode: no real card is charged')).toBeVisible();
  await expectToast(page, { title: 'Payment Processed' }, () =>
    dialog.getByRole('button', { name: /^Pay \$/ }).click(),
  );
  await expect(page.getByRole('button', { name: 'No commission due' })).toBeVisible();
  await expect(page.getByText('Commission Owed').locator('..')).toContainText('$0.00');
  await expectToast(
    page,
    { title: 'No commission due', description: "You don't have any commission payments due at this time." },
    () => page.getByRole('button', { name: 'No commission due' }).click(),
  );
});

for (const viewport of viewports) {
  test.describe(`screens (${viewport.width} px)`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('the Subscription tab free and premium, the payment dialog, checkout', async ({ page }) => {
      await signUp(page, newTraveller());
      await openPlanTab(page);
      await expect(page.getByRole('heading', { name: 'Available Plans' })).toBeVisible();
      await expect(page.getByText('Monitor up to 5 flights', { exact: true })).toBeVisible();
      await capture(page, 'subscription-free');

      await page.getByRole('button', { name: 'Upgrade to Premium' }).first().click();
      await expect(page.getByText('Test mode: no real card is charged')).toBeVisible();
      await capture(page, 'payment-dialog', { fullPage: false });
      await page.getByRole('button', { name: 'Close' }).click();

      await page.goto('/premium-checkout');
      await expect(page.getByRole('heading', { name: 'How It Works' })).toBeVisible();
      await capture(page, 'premium-checkout-free');

      await page.context().clearCookies();
      await page.evaluate(() => localStorage.clear());
      await logIn(page, demoPremium);
      await openPlanTab(page);
      await expect(page.getByRole('table', { name: 'Payment History' })).toBeVisible();
      await capture(page, 'subscription-premium');
    });
  });
}
