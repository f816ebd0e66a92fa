import { expect, test, type Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import {
  capture,
  captureAtBothWidths,
  demoAdmin,
  expectToast,
  logIn,
  newTraveller,
  putOnPremium,
  signUp,
} from './support.ts';

// The admin's Flights, Billing and Plans tabs against the real api and database: a traveller of
// this run (unique booking codes and plan names, so reruns and parallel tests do not meet) with a
// rebooked flight, a price drop and payments of every status; the demo admin finds them, then
// adds and edits a plan (kept inactive, so the public plan lists other tests read do not change).
// Screenshots of each tab and the edit dialog at 1280 and 375 px go to e2e/screenshots/.

const tag = randomBytes(3).toString('hex').toUpperCase();
const rebookedCode = `AL${tag}R`;
const dropCode = `AL${tag}D`;
const planName = `E2E Plan ${tag}`;

/** The traveller's flights and payments, written as the system writes them (the stack's database, as a superuser). */
async function arrangeTravellerData(username: string): Promise<void> {
  const singleSession = process.env.E2E_DATABASE_SINGLE_SESSION === 'true';
  const sql = postgres(process.env.E2E_DATABASE_URL ?? '', { max: 1, prepare: !singleSession, onnotice: () => {} });
  try {
    const [profile] = await sql<{ id: string }[]>`
      select id from public.profiles where lower(username) = lower(${username})`;
    if (!profile) throw new Error(`no account named ${username}`);
    // rebooked from $450.00 to $380.01: $69.99 of airline credit, 25% commission $17.50 (rounded), the rate
    // and amount stored with the rebooking as private.record_rebooking stores them
    await sql`
      insert into public.flights (user_id, airline, flight_number, booking_code, passenger_last_name,
                                  departure_airport, arrival_airport, departure_date, original_price,
                                  current_price, fare_type, is_eligible_for_rebooking, is_manual_entry,
                                  has_been_rebooked, status, rebooking_date, rebooking_price, airline_credit,
                                  commission_rate, commission_amount)
      values (${profile.id}, 'Delta Air Lines', 'DL402', ${rebookedCode}, 'Rivera', 'ATL', 'LAX',
              current_date + 40, 45000, 38001, 'Flexible Economy', true, true,
              true, 'rebooked', now(), 38001, 6999, 25, 1750)`;
    await sql`
      insert into public.flights (user_id, airline, flight_number, booking_code, passenger_last_name,
                                  departure_airport, arrival_airport, departure_date, original_price,
                                  current_price, fare_type, is_eligible_for_rebooking, is_manual_entry, status)
      values (${profile.id}, 'United Airlines', 'UA88', ${dropCode}, 'Rivera', 'SFO', 'JFK',
              current_date + 60, 52000, 47000, 'Flexible Economy', true, true, 'price_drop')`;
    for (const [status, amount, description] of [
      ['completed', 2499, 'Premium subscription (one year)'],
      ['pending', 1750, '25% commission on the Delta Air Lines DL402 rebooking'],
      ['failed', 1750, 'Commission statement: card declined'],
    ] as const) {
      await sql`
        insert into public.billing_transactions (user_id, amount, status, type, description, payment_reference)
        values (${profile.id}, ${amount}, ${status}, ${amount === 2499 ? 'subscription' : 'commission'},
                ${description}, ${`pi_e2e_${tag}_${status}`})`;
    }
  } finally {
    await sql.end();
  }
}

async function openTab(page: Page, name: string) {
  await page.getByRole('tab', { name }).click();
  await expect(page.getByRole('tab', { name })).toHaveAttribute('aria-selected', 'true');
}

test('the admin finds flights and transactions, adds a plan and edits it', async ({ page, browser }) => {
  const traveller = newTraveller();
  const context = await browser.newContext();
  await signUp(await context.newPage(), traveller);
  await context.close();
  await putOnPremium(traveller.username);
  await arrangeTravellerData(traveller.username);

  await logIn(page, demoAdmin);
  await page.goto('/admin?tab=flights');

  // Flights: a booking code finds its flight; the rebooked one says so, with its commission
  const flights = page.getByRole('table', { name: 'Flights' });
  await page.getByRole('searchbox', { name: 'Search flights' }).fill(rebookedCode);
  await expect(flights.getByRole('row')).toHaveCount(2);
  const rebooked = flights.getByRole('row').filter({ hasText: rebookedCode });
  await expect(rebooked).toContainText(traveller.username);
  await expect(rebooked).toContainText('Delta Air Lines DL402');
  await expect(rebooked).toContainText('ATL → LAX');
  await expect(rebooked.getByText('Rebooked', { exact: true })).toBeVisible();
  await expect(rebooked).toContainText('$69.99');
  await expect(rebooked.getByTitle('25% of the airline credit')).toHaveText(/^\$17\.50/);

  await page.getByRole('searchbox', { name: 'Search flights' }).fill(`AL${tag}`);
  await expect(flights.getByRole('row')).toHaveCount(3);
  await expect(flights.getByRole('row').filter({ hasText: dropCode }).getByText('Price Drop')).toBeVisible();
  await captureAtBothWidths(page, 'admin-flights');

  // Billing: the traveller's payments, each status in its colour
  await openTab(page, 'Billing');
  const transactions = page.getByRole('table', { name: 'Transactions' });
  await page.getByRole('searchbox', { name: 'Search transactions' }).fill(traveller.username);
  await expect(transactions.getByRole('row')).toHaveCount(4);
  for (const [status, tone] of [
    ['completed', 'success'],
    ['pending', 'warning'],
    ['failed', 'danger'],
  ] as const) {
    const row = transactions.getByRole('row').filter({ hasText: `pi_e2e_${tag}_${status}` });
    await expect(row.getByText(status, { exact: true })).toHaveAttribute('data-tone', tone);
  }
  await captureAtBothWidths(page, 'admin-billing');

  // Plans: add one (inactive), then edit it
  await openTab(page, 'Plans');
  const plans = page.getByRole('table', { name: 'Subscription Plans' });
  await expect(plans.getByRole('row').filter({ hasText: 'Premium' }).first()).toBeVisible();
  await page.getByRole('button', { name: 'Add Plan' }).click();
  const add = page.getByRole('dialog', { name: 'Add Subscription Plan' });
  await add.getByLabel('Name').fill(planName);
  await add.getByLabel('Price (cents)').fill('1500');
  await add.getByLabel('Flight Limit').fill('10');
  await add.getByLabel('Commission Rate (%)').fill('20');
  await add.getByLabel('Description').fill('Made by the admin browser test');
  await add.getByText('Active', { exact: true }).click();
  await expect(add.getByRole('checkbox', { name: 'Active' })).not.toBeChecked();
  await expectToast(page, { title: 'Plan Created' }, () => add.getByRole('button', { name: 'Create Plan' }).click());
  await expect(add).toBeHidden();
  const row = plans.getByRole('row').filter({ hasText: planName });
  await expect(row).toContainText('$15.00');
  await expect(row).toContainText('20% Commission');
  await expect(row).toContainText('10 Flights');
  await expect(row.getByText('Inactive')).toBeVisible();
  await captureAtBothWidths(page, 'admin-plans');

  await row.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Subscription Plan' });
  await expect(edit.getByLabel('Name')).toHaveValue(planName);
  await expect(edit.getByLabel('Price (cents)')).toHaveValue(/^1,?500$/);

  // a bad value: the form refuses it with the api's own words, before any call
  await edit.getByLabel('Flight Limit').fill('0');
  await edit.getByRole('button', { name: 'Update Plan' }).click();
  await expect(edit.getByText('Flight limit must be -1 (unlimited) or from 1 to 100000')).toBeVisible();
  // what only the server knows: the name is taken (a 400 naming the field), shown on the field
  await edit.getByLabel('Flight Limit').fill('-1');
  await edit.getByLabel('Name').fill('premium');
  await expectToast(page, { title: 'Update Failed' }, () => edit.getByRole('button', { name: 'Update Plan' }).click());
  await expect(edit.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');
  await expect(edit.getByText(/already/i)).toBeVisible();

  await edit.getByLabel('Name').fill(`${planName} Plus`);
  await edit.getByLabel('Price (cents)').fill('2000');
  for (const size of [
    { width: 375, height: 812 },
    { width: 1280, height: 800 },
  ]) {
    await page.setViewportSize(size);
    await capture(page, 'admin-plan-edit-dialog', { fullPage: false });
  }
  await expectToast(page, { title: 'Plan Updated' }, () => edit.getByRole('button', { name: 'Update Plan' }).click());
  await expect(edit).toBeHidden();
  const edited = plans.getByRole('row').filter({ hasText: `${planName} Plus` });
  await expect(edited).toContainText('$20.00');
  await expect(edited).toContainText('Unlimited');
  await expect(edited).toContainText('Unlimited Flights');
});
