import { expect, test, type Page } from '@playwright/test';
import postgres from 'postgres';
import { captureAtBothWidths, demoAdmin, expectToast, logIn, newTraveller, signUp } from './support.ts';

// The admin area as the demo admin uses it: the header runs, the dashboard's tiles and chart,
// granting and revoking admin on a new account, recording a commission payment, and the audit log
// of those actions; a traveller who is not an admin is sent to /dashboard. Screenshots of the
// Dashboard, Users (payment dialog open) and Audit tabs at 1280 and 375 px go to e2e/screenshots/.

/** Gives the account commission owed (the stack's database, as a superuser), as rebookings would. */
async function setCommissionOwed(username: string, cents: number): Promise<void> {
  const singleSession = process.env.E2E_DATABASE_SINGLE_SESSION === 'true';
  const sql = postgres(process.env.E2E_DATABASE_URL ?? '', { max: 1, prepare: !singleSession, onnotice: () => {} });
  try {
    const updated = await sql`
      update public.profiles set commission_owed = ${cents}, total_credits_earned = ${cents * 4}
       where lower(username) = lower(${username})
      returning id`;
    if (updated.length !== 1) throw new Error(`no account named ${username}`);
  } finally {
    await sql.end();
  }
}

/** Signs a new traveller up in a browser context of its own, leaving `page` as it is. */
async function newAccount(page: Page) {
  const traveller = newTraveller();
  const context = await page.context().browser()!.newContext({ baseURL: process.env.E2E_BASE_URL });
  const other = await context.newPage();
  await signUp(other, traveller);
  await context.close();
  return traveller;
}

async function openTab(page: Page, name: string) {
  await page.getByRole('tab', { name }).click();
  await expect(page.getByRole('tab', { name })).toHaveAttribute('aria-selected', 'true');
}

/** The Users table's row of `username`, found through the search box. */
async function userRow(page: Page, username: string) {
  await page.getByRole('searchbox', { name: 'Search users' }).fill(username);
  const table = page.getByRole('table', { name: 'Users' });
  await expect(table.getByRole('row')).toHaveCount(2);
  const row = table.getByRole('row').filter({ hasText: username });
  await expect(row).toBeVisible();
  return row;
}

test('a traveller who is not an admin is sent from /admin to the dashboard', async ({ page }) => {
  await signUp(page, newTraveller());
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toHaveCount(0);
});

test('the demo admin runs the price check and auto-rebooking and reads the stats and the chart', async ({ page }) => {
  await logIn(page, demoAdmin);
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();

  // the header runs, each with its counts in the toast
  await expectToast(
    page,
    {
      title: 'Price Check Completed',
      description: /^(Checked \d+ flights? and found \d+ price drops?\.|Price check in progress)/,
    },
    () => page.getByRole('button', { name: 'Run Price Check' }).click(),
  );
  await expect(page.getByRole('button', { name: 'Run Price Check' })).toBeEnabled();
  await expectToast(
    page,
    {
      title: 'Auto-Rebooking Completed',
      description: /^Rebooked \d+ flights?, saving \$[\d,]+\.\d\d in airline credit$/,
    },
    () => page.getByRole('button', { name: 'Run Auto-Rebooking' }).click(),
  );
  await expect(page.getByRole('button', { name: 'Run Auto-Rebooking' })).toBeEnabled();

  // the dashboard: every group of tiles and the chart with its text alternative
  for (const group of ['Users', 'Flights', 'Rebookings & savings', 'Commission']) {
    await expect(page.getByRole('heading', { name: group, level: 2 })).toBeVisible();
  }
  await expect(page.getByText('Total users')).toBeVisible();
  await expect(page.getByText('Commission owed')).toBeVisible();
  const chart = page.getByRole('img', { name: 'Chart of price drops, rebookings and savings per day' });
  await expect(chart).toBeVisible();
  // drawn: the day axis's labels and the legend of the three series
  await expect(chart.locator('svg text').first()).toBeVisible();
  for (const series of ['Price drops', 'Rebookings', 'Savings']) {
    await expect(chart.getByText(series, { exact: true })).toBeVisible();
  }
  await expect(page.locator('#admin-activity-summary')).toHaveText(
    / to .*: \d+ price drops?, \d+ rebookings?, \$[\d,]+ in savings\./,
  );
  await page.getByRole('group', { name: 'Chart span' }).getByRole('button', { name: '7 days' }).click();
  await expect(page).toHaveURL(/days=7/);
  await expect(chart).toBeVisible();
  await captureAtBothWidths(page, 'admin-dashboard');
});

test('the demo admin grants and revokes admin, records a commission payment and reads those actions in the audit log', async ({
  page,
}) => {
  const grantee = await newAccount(page);
  const payer = await newAccount(page);
  await setCommissionOwed(payer.username, 5000);

  await logIn(page, demoAdmin);
  await page.goto('/admin');
  // a run, to find in the audit log below
  await expectToast(page, { title: 'Price Check Completed' }, () =>
    page.getByRole('button', { name: 'Run Price Check' }).click(),
  );

  // grant admin to the new account, with the confirmation, then revoke it
  await openTab(page, 'Users');
  let row = await userRow(page, grantee.username);
  await expect(row.getByText('Admin', { exact: true })).toHaveCount(0);
  await row.getByRole('button', { name: `Grant admin for ${grantee.username}` }).click();
  const grant = page.getByRole('alertdialog', { name: `Grant admin to ${grantee.username}?` });
  await expectToast(page, { title: 'Admin Status Updated', description: `${grantee.username} is now an admin.` }, () =>
    grant.getByRole('button', { name: 'Grant admin' }).click(),
  );
  await expect(grant).toBeHidden();
  await expect(row.getByText('Admin', { exact: true })).toBeVisible();

  await row.getByRole('button', { name: `Revoke admin for ${grantee.username}` }).click();
  const revoke = page.getByRole('alertdialog', { name: `Revoke admin from ${grantee.username}?` });
  await expectToast(
    page,
    { title: 'Admin Status Updated', description: `${grantee.username} is no longer an admin.` },
    () => revoke.getByRole('button', { name: 'Revoke admin' }).click(),
  );
  await expect(revoke).toBeHidden();
  await expect(row.getByText('Admin', { exact: true })).toHaveCount(0);

  // the demo admin's own row cannot be revoked
  row = await userRow(page, demoAdmin.username);
  await expect(row.getByRole('button', { name: `Revoke admin for ${demoAdmin.username}` })).toBeDisabled();
  await expect(row.getByText('You cannot remove your own admin status')).toBeVisible();

  // a commission payment: prefilled with what is owed, refused above it, then recorded
  row = await userRow(page, payer.username);
  await expect(row.getByRole('cell', { name: '$50.00 owed $0.00 paid' })).toBeVisible();
  await row.getByRole('button', { name: `Record payment from ${payer.username}` }).click();
  const payment = page.getByRole('dialog', { name: 'Record Commission Payment' });
  const amount = payment.getByLabel(/Amount paid/);
  await expect(amount).toHaveValue('50.00');
  await amount.fill('60');
  await payment.getByRole('button', { name: 'Record Payment' }).click();
  await expect(payment.getByText('Amount cannot be more than the $50.00 owed')).toBeVisible();
  await amount.fill('20');
  await captureAtBothWidths(page, 'admin-users');
  await expectToast(
    page,
    {
      title: 'Commission Payment Processed',
      description: `Recorded $20.00 from ${payer.username}; $30.00 still owed.`,
    },
    () => payment.getByRole('button', { name: 'Record Payment' }).click(),
  );
  await expect(payment).toBeHidden();
  await expect(row.getByRole('cell', { name: '$30.00' })).toBeVisible();
  await expect(row.getByRole('cell', { name: '$20.00' })).toBeVisible();

  // the audit log has each of those actions
  await openTab(page, 'Audit');
  const audit = page.getByRole('table', { name: 'Audit log' });
  const search = page.getByRole('searchbox', { name: 'Search audit log' });
  await search.fill(grantee.username);
  await expect(audit.getByRole('row').filter({ hasText: 'Admin granted' })).toHaveCount(1);
  await expect(audit.getByRole('row').filter({ hasText: 'Admin revoked' })).toHaveCount(1);
  await expect(audit.getByRole('row').filter({ hasText: 'Admin granted' })).toContainText(demoAdmin.username);
  await expect(audit.getByRole('row').filter({ hasText: 'Admin granted' })).toContainText(/isAdmin: false → true/);
  await search.fill(payer.username);
  await expect(audit.getByRole('row').filter({ hasText: 'Commission payment' })).toHaveCount(1);
  await search.fill('');
  await expect(audit.getByRole('row').filter({ hasText: 'Price check run' }).first()).toBeVisible();
  await captureAtBothWidths(page, 'admin-audit');
});
