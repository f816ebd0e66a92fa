import { expect, test } from '@playwright/test';
import postgres from 'postgres';
import { captureAtBothWidths, logIn, newTraveller, signUp } from './support.ts';

// The flight card's states as a traveller meets them, against the real api and database: a
// cancelled, a departed and a being-rebooked flight each with its own badge and Check Now off with
// the reason; a 20% drop on Basic Economy named as a fare that cannot be changed, its upgrade link
// on the Subscription tab; the guided (airline-direct) dialog starting empty; and the premium
// demo's cards with their price history charts. Screenshots at 1280 and 375 px.

async function arrangeFlights(username: string): Promise<void> {
  const singleSession = process.env.E2E_DATABASE_SINGLE_SESSION === 'true';
  const sql = postgres(process.env.E2E_DATABASE_URL ?? '', { max: 1, prepare: !singleSession, onnotice: () => {} });
  try {
    const rows: [string, string, string, number, number, string, boolean, string][] = [
      ['AA10', 'cancelled', 'Refundable Economy', 40000, 40000, 'source', true, '+20'],
      ['AA11', 'departed', 'Refundable Economy', 40000, 40000, 'source', true, '+25'],
      ['AA12', 'rebooking', 'Refundable Economy', 40000, 35000, 'source', true, '+30'],
      ['AA13', 'price_drop', 'Basic Economy', 45500, 36400, 'source', false, '+35'],
      ['AS14', 'price_drop', 'Flexible Economy', 30000, 25000, 'assisted', true, '+40'],
    ];
    for (const [number, status, fare, paid, now, method, eligible, days] of rows) {
      await sql`
        insert into public.flights (user_id, airline, flight_number, booking_code, passenger_last_name,
                                    departure_airport, arrival_airport, departure_date, original_price,
                                    current_price, lowest_price, highest_price, fare_type,
                                    is_eligible_for_rebooking, is_manual_entry, status, rebooking_method,
                                    last_checked)
        select id, ${number.startsWith('AS') ? 'Alaska Airlines' : 'American Airlines'}, ${number},
               ${`${number}X${Math.floor(Math.random() * 1000)}`}, 'Smith', 'DFW', 'ORD',
               current_date + ${Number(days)}::int, ${paid}, ${now}, ${now}, ${paid}, ${fare}, ${eligible}, true,
               ${status}, ${method}, now()
          from public.profiles where lower(username) = lower(${username})`;
    }
  } finally {
    await sql.end();
  }
}

test('each card tells its state, the Basic Economy drop its real reason, the guided dialog starts empty', async ({
  page,
}) => {
  const traveller = newTraveller();
  await signUp(page, traveller);
  await arrangeFlights(traveller.username);
  await page.reload();

  for (const [flight, badge, reason] of [
    ['American Airlines AA10', 'Cancelled by airline', /airline cancelled this flight/],
    ['American Airlines AA11', 'Departed', /has departed/],
    ['American Airlines AA12', 'Rebooking in progress', /rebooking this flight now/],
  ] as const) {
    const card = page.getByRole('article', { name: flight });
    await expect(card.getByText(badge, { exact: true })).toBeVisible();
    await expect(card.getByRole('button', { name: 'Check Now' })).toBeDisabled();
    await expect(card.getByText(reason)).toBeVisible();
    await expect(card.getByText('Limited Monitoring')).toHaveCount(0);
  }

  const basic = page.getByRole('article', { name: 'American Airlines AA13' });
  await expect(basic.getByText('Fare cannot be changed', { exact: true })).toBeVisible();
  await expect(basic.getByText('Below your rebooking threshold')).toHaveCount(0);
  await expect(basic.getByRole('link', { name: 'Upgrade to Premium' })).toHaveAttribute('href', '/dashboard?tab=plan');
  await expect(page.getByText('Drops you can claim, after change fees')).toBeVisible();
  await captureAtBothWidths(page, 'flight-card-states');

  await basic.getByRole('link', { name: 'Upgrade to Premium' }).click();
  await expect(page.getByRole('tab', { name: /Subscription|Plan/ })).toHaveAttribute('aria-selected', 'true');
  await page.goto('/dashboard');

  const guided = page.getByRole('article', { name: 'Alaska Airlines AS14' });
  await guided.getByRole('button', { name: 'Rebook at Lower Price' }).click();
  const dialog = page.getByRole('dialog', { name: 'Rebook at Lower Price' });
  await expect(dialog.getByLabel(/New price/)).toHaveValue('');
  await expect(dialog.getByLabel(/Airline credit/)).toHaveValue('');
  await expect(dialog.getByText(/Expected: about \$50\.00/)).toBeVisible();
  for (const size of [
    { width: 375, height: 812 },
    { width: 1280, height: 800 },
  ]) {
    await page.setViewportSize(size);
    await page.screenshot({ path: `e2e/screenshots/assisted-dialog-${size.width >= 1000 ? 'desktop' : 'mobile'}.png` });
  }
});

test("the premium demo's cards chart their price history", async ({ page }) => {
  await logIn(page, { username: 'premium', password: 'Premium@2026!' });
  const card = page.getByRole('article', { name: 'American Airlines AA100' });
  await expect(card.getByText(/No price checks yet/)).toHaveCount(0);
  await expect(card.locator('.recharts-surface')).toBeVisible();
  await captureAtBothWidths(page, 'premium-demo-dashboard');
});
