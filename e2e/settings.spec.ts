import { expect, test, type Page } from '@playwright/test';
import { capture, expectToast, newTraveller, putOnPremium, signUp } from './support.ts';

// The Settings tab on the real stack: a free traveller's premium controls are disabled and the
// way to upgrade opens Subscription, while the settings of every plan save; a premium traveller
// turns automatic rebooking on and saves thresholds and preferences, and each survives a reload.
// Screenshots of the tab at desktop and phone width go to e2e/screenshots/.

const viewports = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'mobile', width: 375, height: 812 },
] as const;

async function openSettings(page: Page) {
  await page.goto('/dashboard?tab=settings');
  await expect(page.getByRole('heading', { name: 'Rebooking Thresholds' })).toBeVisible();
}

const card = (page: Page, name: string) =>
  page.locator('.chakra-card__root').filter({ has: page.getByRole('heading', { name, exact: true }) });

test('a free traveller sees the premium controls disabled, and saves alerts and preferences', async ({ page }) => {
  await signUp(page, newTraveller());
  await openSettings(page);

  const auto = card(page, 'Auto-Rebooking Settings');
  await expect(auto.getByRole('checkbox', { name: 'Automatic rebooking' })).toBeDisabled();
  const thresholds = card(page, 'Rebooking Thresholds');
  for (const slider of await thresholds.getByRole('slider').all()) {
    await expect(slider).toHaveAttribute('aria-disabled', 'true');
  }
  await expect(thresholds.getByLabel('Rebook when')).toBeDisabled();
  await expect(thresholds.getByRole('button', { name: 'Save Thresholds' })).toBeDisabled();

  const dollars = page.getByLabel('Minimum price drop ($)');
  await expect(dollars).toHaveValue('25');
  await dollars.fill('40');
  await expectToast(page, { title: 'Thresholds updated' }, () => dollars.blur());

  const prefs = card(page, 'Notification Preferences');
  await prefs.getByText('Flight cancellations', { exact: true }).click();
  await prefs.getByLabel('Frequency').selectOption('weekly');
  await expectToast(page, { title: 'Preferences Updated' }, () =>
    prefs.getByRole('button', { name: 'Save Preferences' }).click(),
  );

  await page.reload();
  await expect(page.getByLabel('Minimum price drop ($)')).toHaveValue('40');
  await expect(card(page, 'Notification Preferences').getByLabel('Frequency')).toHaveValue('weekly');
  await expect(
    card(page, 'Notification Preferences').getByRole('checkbox', { name: 'Flight cancellations' }),
  ).not.toBeChecked();

  await card(page, 'Auto-Rebooking Settings').getByRole('button', { name: 'Upgrade to Premium' }).click();
  await expect(page.getByRole('tab', { name: 'Subscription' })).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(/\?tab=plan$/);
});

test('a premium traveller turns automatic rebooking on and saves thresholds', async ({ page }) => {
  const traveller = newTraveller();
  await signUp(page, traveller);
  await putOnPremium(traveller.username);
  await openSettings(page);

  const auto = card(page, 'Auto-Rebooking Settings');
  const toggle = auto.getByRole('checkbox', { name: 'Automatic rebooking' });
  await expect(toggle).toBeEnabled();
  await expect(toggle).not.toBeChecked();
  await auto.getByText('Automatic rebooking', { exact: true }).click();
  await expect(toggle).toBeChecked();
  // the run-check action answers with the run's message and count (no flights here: none rebooked)
  await auto.getByRole('button', { name: 'Run Auto-Rebooking Check' }).click();
  await expect(auto.getByRole('status')).toContainText('Flights rebooked: 0');

  const thresholds = card(page, 'Rebooking Thresholds');
  await expect(thresholds.getByRole('slider')).toHaveCount(2);
  const amount = thresholds.getByRole('slider', { name: 'Minimum savings amount', exact: true });
  await expect(amount).toHaveAttribute('aria-valuetext', '$50');
  await amount.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(amount).toHaveAttribute('aria-valuetext', '$60');
  await thresholds.getByLabel('Rebook when').selectOption('both');
  await thresholds.getByText('Use separate thresholds for international flights', { exact: true }).click();
  await expect(thresholds.getByRole('slider')).toHaveCount(4);
  const international = thresholds.getByRole('slider', { name: 'International minimum savings percentage' });
  await international.focus();
  await page.keyboard.press('ArrowLeft');
  await expect(international).toHaveAttribute('aria-valuetext', '19%');
  await expectToast(page, { title: 'Auto-rebooking thresholds updated' }, () =>
    thresholds.getByRole('button', { name: 'Save Thresholds' }).click(),
  );

  await page.reload();
  const after = card(page, 'Rebooking Thresholds');
  await expect(
    card(page, 'Auto-Rebooking Settings').getByRole('checkbox', { name: 'Automatic rebooking' }),
  ).toBeChecked();
  await expect(after.getByRole('slider', { name: 'Minimum savings amount', exact: true })).toHaveAttribute(
    'aria-valuetext',
    '$60',
  );
  await expect(after.getByLabel('Rebook when')).toHaveValue('both');
  await expect(after.getByRole('slider', { name: 'International minimum savings percentage' })).toHaveAttribute(
    'aria-valuetext',
    '19%',
  );

  // and off again
  await card(page, 'Auto-Rebooking Settings').getByText('Automatic rebooking', { exact: true }).click();
  await expect(
    card(page, 'Auto-Rebooking Settings').getByRole('checkbox', { name: 'Automatic rebooking' }),
  ).not.toBeChecked();
  await page.reload();
  await expect(
    card(page, 'Auto-Rebooking Settings').getByRole('checkbox', { name: 'Automatic rebooking' }),
  ).not.toBeChecked();
});

for (const viewport of viewports) {
  test(`the Settings tab at ${viewport.width} px`, async ({ page }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    const free = newTraveller();
    await signUp(page, free);
    await openSettings(page);
    await capture(page, 'settings-free');

    const premium = newTraveller();
    await page.context().clearCookies();
    await page.evaluate(() => window.localStorage.clear());
    await signUp(page, premium);
    await putOnPremium(premium.username);
    await openSettings(page);
    const thresholds = card(page, 'Rebooking Thresholds');
    await thresholds.getByText('Use separate thresholds for international flights', { exact: true }).click();
    await expect(thresholds.getByRole('slider')).toHaveCount(4);
    await capture(page, 'settings-premium');
  });
}
