import { expect, test } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { captureAtBothWidths, chooseAirline, expectToast, newTraveller, putOnPremium, signUp } from './support.ts';

// Issue 24 on the card: American Airlines' conditions of carriage forbid automated re-shopping, so
// a premium traveller's confirmed drop on a Main Cabin fare reads 'Approve rebooking' with the rule
// in words, and approving it rebooks at once through the simulated fare source (DROP...: every
// quote 20% below the price paid, confirmed by the second quote). Screenshots at 1280 and 375 px.
test('a premium traveller approves the rebooking of an American Airlines drop on its card', async ({ page }) => {
  const traveller = newTraveller();
  await signUp(page, traveller);
  await putOnPremium(traveller.username);
  await page.reload();

  await page.getByRole('tab', { name: 'Manual Entry' }).click();
  const bookingCode = `DROP${randomBytes(3).toString('hex').toUpperCase()}`;
  await chooseAirline(page, 'American Airlines');
  await page.getByLabel('Passenger Last Name').fill('Rivera');
  await page.getByLabel('Booking Confirmation Code').fill(bookingCode);
  await expectToast(page, { title: 'Flight Added' }, () => page.getByRole('button', { name: 'Add Flight' }).click());

  const card = page.getByRole('article').filter({ hasText: `Booking ${bookingCode}` });
  await expectToast(page, { title: 'Price check complete' }, () =>
    card.getByRole('button', { name: 'Check Now' }).click(),
  );
  const approve = card.getByRole('button', { name: 'Approve rebooking' });
  await expect(approve).toBeVisible();
  await expect(card.getByRole('button', { name: 'Rebook at Lower Price' })).toHaveCount(0);
  await expect(card.getByTestId('approval-needed')).toContainText(
    'approve and FareBack rebooks at once if the fare still holds',
  );
  await expect(card.getByTestId('approval-needed')).toContainText('American Airlines Main Cabin and above');
  await captureAtBothWidths(page, 'card-approve-rebooking');

  await expectToast(page, { title: 'Flight rebooked successfully' }, () => approve.click());
  // rebooked, the flight leaves the watched list for the history
  await expect(card).toHaveCount(0);
  await page.getByRole('tab', { name: 'Rebooking History' }).click();
  const rebooked = page.getByRole('article').filter({ hasText: `Booking ${bookingCode}` });
  await expect(rebooked.getByText('Successfully Rebooked')).toBeVisible();
  await expect(rebooked.getByRole('button', { name: 'Approve rebooking' })).toHaveCount(0);
  await captureAtBothWidths(page, 'card-approved-rebooked');
});
