import { expect, test, type Page } from '@playwright/test';
import { captureAtBothWidths, demoAdmin, logIn } from './support.ts';

// The admin's Users table at common laptop widths: every column, Actions included, fits inside the
// table's box without sideways scrolling (a phone may scroll the box; the page never does). The
// demo admin's own row carries the longest action cell (a disabled button and why), the premium
// demo's row two buttons (it owes commission). Screenshots at 1280 and 375 px.

/** How far the Users table reaches past its box, and its Actions cells' right edges past the box's. */
async function overflow(page: Page) {
  return page.getByRole('region', { name: 'Users' }).evaluate((box) => {
    const right = box.getBoundingClientRect().right;
    const cells = Array.from(box.querySelectorAll('tr')).map(
      (row) => row.lastElementChild?.getBoundingClientRect().right ?? 0,
    );
    return { scroll: box.scrollWidth - box.clientWidth, actions: Math.max(...cells) - right };
  });
}

test('the Users table fits its Actions column at 1280, 1366 and 1440 px', async ({ page }) => {
  await logIn(page, demoAdmin);
  await page.goto('/admin?tab=users');
  const table = page.getByRole('table', { name: 'Users' });
  await page.getByRole('searchbox', { name: 'Search users' }).fill('@example.com');
  const own = table.getByRole('row').filter({ hasText: 'admin@example.com' });
  await expect(own.getByText('You cannot remove your own admin status')).toBeVisible();
  const owing = table.getByRole('row').filter({ hasText: 'premium@example.com' });
  await expect(owing.getByRole('button', { name: 'Record payment from premium' })).toBeVisible();

  for (const width of [1280, 1366, 1440]) {
    await page.setViewportSize({ width, height: 800 });
    await expect.poll(() => overflow(page), `at ${width} px`).toEqual({ scroll: 0, actions: expect.any(Number) });
    expect((await overflow(page)).actions, `Actions column at ${width} px`).toBeLessThanOrEqual(0);
    await expect(owing.getByRole('button', { name: 'Record payment from premium' })).toBeInViewport();
  }
  await captureAtBothWidths(page, 'admin-users-table');
});
