import { expect, test, type Page } from '@playwright/test';
import { addWatchedFlights, capture, expectToast, logIn, newTraveller, putOnPremium, signUp } from './support.ts';

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
