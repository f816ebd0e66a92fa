import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { capture, chooseAirline, expectToast, newTraveller, signUp } from './support.ts';

// The flight journey against the simulated fare source, whose booking-code prefixes
// steer it: DROP... quotes 20% below the price paid (and can be rebooked), BASICDROP... is a Basic
// Economy fare that drops too (a missed opportunity). Then the dashboard's tabs, with flights in
// them, at desktop and phone width: screenshots in e2e/screenshots/ and no sideways scrolling.

const code = (prefix: string) => `${prefix}${randomBytes(3).toString('hex').toUpperCase()}`;

async function addFlight(page: Page, airline: string, lastName: string, bookingCode: string) {
  await page.getByRole('tab', { name: 'Manual Entry' }).click();
  await expect(page.getByRole('heading', { name: 'Manual Flight Entry' })).toBeVisible();
  await chooseAirline(page, airline);
  await page.getByLabel('Passenger Last Name').fill(lastName);
  await page.getByLabel('Booking Confirmation Code').fill(bookingCode);
  await expectToast(page, { title: 'Flight Added' }, () => page.getByRole('button', { name: 'Add Flight' }).click());
  // After adding, the dashboard shows the Flights tab.
  await expect(page.getByRole('tab', { name: 'Flights' })).toHaveAttribute('aria-selected', 'true');
}

/** The card of the flight booked under `bookingCode`. */
function cardOf(page: Page, bookingCode: string) {
  return page.getByRole('article').filter({ hasText: `Booking ${bookingCode}` });
}

/** No serious or critical WCAG 2.1 AA violations on what the page shows now. */
async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const blocking = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(blocking).toEqual([]);
}

test('add a flight, check it, see the drop, rebook, find it in History and Credits, open its details', async ({
  page,
}) => {
  test.slow();
  await page.setViewportSize({ width: 1280, height: 800 });
  await signUp(page, newTraveller());
  await expect(
    page.getByText('No monitored flights found. Connect your email to start monitoring flight confirmations.'),
  ).toBeVisible();

  const dropCode = code('DROP');
  await addFlight(page, 'Delta Air Lines', 'Traveller', dropCode);
  const card = cardOf(page, dropCode);
  await expect(card).toBeVisible();
  await expect(card.getByText('Monitoring', { exact: true })).toBeVisible();
  await expect(card.getByText('never', { exact: true })).toBeVisible();
  await expect(card.getByText('FareBack rebooks this for you')).toBeVisible();

  await expectToast(page, { title: 'Price check complete' }, () =>
    card.getByRole('button', { name: 'Check Now' }).click(),
  );
  await expect(card.getByText(/^\d+\.\d% Price Drop Found$/)).toBeVisible();
  await expect(card.getByText('0 minutes ago')).toBeVisible();
  // the check's quote and the second quote that confirmed the drop
  await expect(card.getByRole('img', { name: /^Price history: 2 checks/ })).toBeVisible();

  // A Basic Economy fare whose price drops: explained, never rebookable.
  const basicCode = code('BASICDROP');
  await addFlight(page, 'United Airlines', 'Traveller', basicCode);
  const basicCard = cardOf(page, basicCode);
  // its toast is awaited too, so that the screenshot below does not find it arriving
  await expectToast(page, { title: 'Price check complete' }, () =>
    basicCard.getByRole('button', { name: 'Check Now' }).click(),
  );
  await expect(basicCard.getByText('Missed Opportunity')).toBeVisible();
  await expect(basicCard.getByText(/tickets cannot be changed automatically/)).toBeVisible();
  await expect(basicCard.getByRole('link', { name: 'Upgrade to Premium' })).toHaveAttribute('href', '/account');
  await expect(basicCard.getByRole('button', { name: 'Rebook at Lower Price' })).toHaveCount(0);

  // A third flight that stays as it is, so the Flights tab has two cards after the rebooking.
  await addFlight(page, 'Spirit Airlines', 'Traveller', code('RISE'));
  await capture(page, 'dashboard-flights');
  await expectAccessible(page);

  await expectToast(
    page,
    {
      title: 'Flight rebooked successfully',
      description: /^You saved \$[\d,]+\.\d\d \(\d+\.\d%\) as airline credit\.$/,
    },
    () => card.getByRole('button', { name: 'Rebook at Lower Price' }).click(),
  );
  // Rebooked flights leave the Flights tab.
  await expect(card).toHaveCount(0);

  await page.getByRole('tab', { name: 'Rebooking History' }).click();
  await expect(page).toHaveURL(/\?tab=history$/);
  const rebooked = cardOf(page, dropCode);
  await expect(rebooked.getByText('Successfully Rebooked')).toBeVisible();
  await expect(page.getByLabel('Total savings')).toContainText(/of \$[\d,]+ in original fares/);
  await capture(page, 'dashboard-history');
  await expectAccessible(page);

  await rebooked.getByRole('button', { name: 'View Rebooking Details' }).click();
  const dialog = page.getByRole('dialog', { name: 'Rebooking Details' });
  for (const section of [
    'Flight Information',
    'Price & Savings',
    'Airline Credit Information',
    'Seat Information',
    'Commission Information',
  ]) {
    await expect(dialog.getByRole('heading', { name: section })).toBeVisible();
  }
  await expect(dialog.getByRole('link', { name: /Check Credit on the airline/ })).toHaveAttribute('target', '_blank');
  // the two quotes that proved the drop before it was rebooked
  const proof = dialog.getByRole('region', { name: 'How the drop was confirmed' });
  await expect(proof.getByText('First quote (drop seen)')).toBeVisible();
  await expect(proof.getByText('Second quote (drop confirmed)')).toBeVisible();
  await expect(proof.getByText(/ · simulated · offer sim_/)).toHaveCount(2);
  await capture(page, 'dashboard-rebooking-details', { fullPage: false });
  await proof.scrollIntoViewIfNeeded();
  await capture(page, 'dashboard-rebooking-proof', { fullPage: false });
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(dialog).toHaveCount(0);

  await page.getByRole('tab', { name: 'Airline Credits' }).click();
  const credits = page.getByRole('list', { name: 'Airline credits' });
  await expect(credits.getByRole('listitem')).toHaveCount(1);
  await expect(credits.getByRole('listitem').first()).toContainText('Delta Air Lines');
  await expect(credits.getByRole('listitem').first()).toContainText(/Reference:\s*\S+/);
  await capture(page, 'dashboard-credits');
  await expectAccessible(page);

  for (const tab of ['Settings', 'Manual Entry', 'Subscription'] as const) {
    await page.getByRole('tab', { name: tab }).click();
    await capture(page, `dashboard-${tab.toLowerCase().replace(' ', '-')}`);
    await expectAccessible(page);
  }

  // The same dashboard on a phone: short tab labels, one column, nothing wider than the screen.
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto('/dashboard');
  await expect(page.getByRole('tab', { name: 'History' })).toBeVisible();
  await expect(cardOf(page, basicCode)).toBeVisible();
  await capture(page, 'dashboard-flights');
  for (const [tab, name] of [
    ['History', 'history'],
    ['Credits', 'credits'],
    ['Settings', 'settings'],
    ['Add', 'manual-entry'],
    ['Plan', 'subscription'],
  ] as const) {
    await page.getByRole('tab', { name: tab, exact: true }).click();
    await expect(page.getByRole('tab', { name: tab, exact: true })).toHaveAttribute('aria-selected', 'true');
    await capture(page, `dashboard-${name}`);
  }
  await page.getByRole('tab', { name: 'History', exact: true }).click();
  await cardOf(page, dropCode).getByRole('button', { name: 'View Rebooking Details' }).click();
  const details = page.getByRole('dialog', { name: 'Rebooking Details' });
  await expect(details).toBeVisible();
  await capture(page, 'dashboard-rebooking-details', { fullPage: false });
  await details.getByRole('region', { name: 'How the drop was confirmed' }).scrollIntoViewIfNeeded();
  await capture(page, 'dashboard-rebooking-proof', { fullPage: false });
});

test('a ticket bought from the airline is rebooked through the guided (assisted) path', async ({ page }) => {
  await signUp(page, newTraveller());
  // DIRECT...: the simulated source cannot change it; DROP: its fare falls below the price paid
  const directCode = code('DIRECTDROP');
  await addFlight(page, 'Alaska Airlines', 'Okafor', directCode);
  const card = cardOf(page, directCode);
  await expect(card.getByText('You change it with the airline; we guide you')).toBeVisible();
  await expectToast(page, { title: 'Price check complete' }, () =>
    card.getByRole('button', { name: 'Check Now' }).click(),
  );
  await expect(card.getByText(/^\d+\.\d% Price Drop Found$/)).toBeVisible();

  await card.getByRole('button', { name: 'Rebook at Lower Price' }).click();
  const dialog = page.getByRole('dialog', { name: 'Rebook at Lower Price' });
  await expect(dialog.getByRole('link', { name: /manage booking page/ })).toHaveAttribute('target', '_blank');
  await expect(dialog.getByText(directCode)).toBeVisible();
  // prefilled with the new fare and the difference; the traveller adds the airline's reference
  await expect(dialog.getByLabel('New price ($)')).not.toHaveValue('');
  const credit = await dialog.getByLabel('Airline credit ($)').inputValue();
  expect(Number(credit)).toBeGreaterThan(0);
  await dialog.getByLabel('Credit reference (optional)').fill('AS-TC-58213');
  await capture(page, 'dashboard-assisted-rebooking', { fullPage: false });
  await expectAccessible(page);

  // a credit of $0 is refused with the schema's message, nothing recorded
  await dialog.getByLabel('Airline credit ($)').fill('0');
  await dialog.getByRole('button', { name: 'Confirm Rebooking' }).click();
  await expect(dialog.getByText('Airline credit must be more than $0')).toBeVisible();
  await dialog.getByLabel('Airline credit ($)').fill(credit);
  await expectToast(page, { title: 'Flight rebooked successfully' }, () =>
    dialog.getByRole('button', { name: 'Confirm Rebooking' }).click(),
  );
  await expect(dialog).toHaveCount(0);
  await expect(card).toHaveCount(0);
  await page.getByRole('tab', { name: 'Airline Credits' }).click();
  const credits = page.getByRole('list', { name: 'Airline credits' });
  await expect(credits.getByRole('listitem')).toHaveCount(1);
  await expect(credits.getByRole('listitem').first()).toContainText('AS-TC-58213');
});

test('stop monitoring a flight: confirmed in a dialog, removed from the list and the stats', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signUp(page, newTraveller());
  const stopCode = code('RISE');
  const keepCode = code('RISE');
  await addFlight(page, 'Delta Air Lines', 'Traveller', stopCode);
  await addFlight(page, 'Spirit Airlines', 'Traveller', keepCode);
  const card = cardOf(page, stopCode);
  const monitored = page
    .getByRole('list', { name: 'Your savings at a glance' })
    .getByRole('listitem')
    .filter({ hasText: 'Monitored Flights' });
  await expect(monitored).toContainText('2');

  // The card with its action, at desktop and phone width.
  await card.scrollIntoViewIfNeeded();
  await capture(page, 'flight-card-stop-monitoring');
  await page.setViewportSize({ width: 375, height: 812 });
  await expect(card.getByRole('button', { name: 'Stop monitoring' })).toBeVisible();
  await capture(page, 'flight-card-stop-monitoring');

  // Cancel keeps the flight; the dialog opens with the focus on Cancel.
  await card.getByRole('button', { name: 'Stop monitoring' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Stop monitoring this flight?' });
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expect(dialog).toContainText('FareBack stops checking its price, and no new alerts come for it.');
  await expect(dialog).toContainText('Any rebooking, airline credit and billing records for it are kept.');
  await capture(page, 'dashboard-stop-monitoring', { fullPage: false });
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(card).toBeVisible();

  await page.setViewportSize({ width: 1280, height: 800 });
  await card.getByRole('button', { name: 'Stop monitoring' }).click();
  await expect(dialog).toBeVisible();
  await capture(page, 'dashboard-stop-monitoring', { fullPage: false });
  await expectToast(
    page,
    { title: 'Monitoring stopped', description: /^Delta Air Lines \S+ is no longer monitored\.$/ },
    () => dialog.getByRole('button', { name: 'Stop monitoring' }).click(),
  );
  await expect(dialog).toHaveCount(0);
  await expect(card).toHaveCount(0);
  await expect(cardOf(page, keepCode)).toBeVisible();
  await expect(monitored).toContainText('1');

  // Gone for good, not only from this page's cache.
  await page.reload();
  await expect(cardOf(page, keepCode)).toBeVisible();
  await expect(card).toHaveCount(0);
});
