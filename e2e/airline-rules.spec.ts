import { expect, test } from '@playwright/test';
import { captureAtBothWidths, demoAdmin, expectToast, logIn } from './support.ts';

// The admin tab 'Airline Rules' (issue 24): the rulebook with its sources, American Airlines on
// approval, the kill switch paused and resumed. Screenshots at 1280 and 375 px go to e2e/screenshots/.
test('the demo admin reads the airline rulebook and pauses and resumes an airline', async ({ page }) => {
  await logIn(page, demoAdmin);
  await page.goto('/admin?tab=airline-rules');
  const table = page.getByRole('table', { name: 'Airline Rules' });
  const american = table.getByRole('row').filter({ hasText: 'Main Cabin and above' });
  await expect(american).toContainText('approval');
  await expect(american).toContainText('Conditions of Carriage');
  await captureAtBothWidths(page, 'admin-airline-rules');

  const jetblue = table.getByRole('row').filter({ hasText: 'Blue, Blue Extra and Mint' });
  await expectToast(page, { title: 'Automation Paused' }, () =>
    jetblue.getByRole('button', { name: 'Pause automation' }).click(),
  );
  await expect(jetblue).toContainText('paused');
  await expectToast(page, { title: 'Automation Resumed' }, () =>
    jetblue.getByRole('button', { name: 'Resume automation' }).click(),
  );
  await expect(jetblue).not.toContainText('paused');
});
