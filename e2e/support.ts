import { errors, expect, type Locator, type Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';

export const mailUrl = () => process.env.E2E_MAIL_URL ?? '';

/** A new traveller's credentials, unique per call. */
export function newTraveller() {
  const id = randomBytes(4).toString('hex');
  return { username: `trav_${id}`, email: `trav_${id}@example.com`, password: 'Voyage@2027x' };
}

export const demoTraveller = { username: 'traveller', password: 'Travel@2026!' };
export const demoAdmin = { username: 'admin', password: 'Admin@2026!' };

export interface CaughtEmail {
  subject: string;
  html?: string;
  text?: string;
  to: Array<{ address: string }>;
  date: string;
  headers: Record<string, string>;
}

/**
 * Waits for the newest email to `address` in the mail catcher that `wanted` accepts (an account
 * gets more than one kind: the address confirmation at sign-up, then a reset link, ...).
 */
export async function waitForEmail(
  address: string,
  wanted: (email: CaughtEmail) => boolean = () => true,
  timeoutMs = 60_000,
): Promise<CaughtEmail> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const res = await fetch(`${mailUrl()}/email`);
    const emails = (await res.json()) as CaughtEmail[];
    const mine = emails.filter((e) => e.to.some((t) => t.address.toLowerCase() === address.toLowerCase()) && wanted(e));
    const newest = mine.sort((a, b) => Date.parse(b.date) - Date.parse(a.date))[0];
    if (newest) return newest;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no such email to ${address} arrived`);
}

/** Signs up through the form; `{ skipOnboarding: false }` stays on /onboarding. */
export async function signUp(
  page: Page,
  user: { username: string; email: string; password: string },
  { skipOnboarding = true }: { skipOnboarding?: boolean } = {},
) {
  await page.goto('/sign-up');
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Create Account' }).click();
  // a new account is sent to onboarding; unless a test walks through it, it is skipped
  await expect(page).toHaveURL(/\/onboarding$/);
  if (!skipOnboarding) return;
  await page.getByRole('button', { name: 'Skip setup' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** Puts the account on the Premium plan, as a paid subscription would (the stack's database, as a superuser). */
export async function putOnPremium(username: string): Promise<void> {
  const singleSession = process.env.E2E_DATABASE_SINGLE_SESSION === 'true';
  const sql = postgres(process.env.E2E_DATABASE_URL ?? '', { max: 1, prepare: !singleSession, onnotice: () => {} });
  try {
    const updated = await sql`
      update public.profiles
         set plan_id = (select id from public.subscription_plans where tier = 'premium' order by id limit 1)
       where lower(username) = lower(${username})
      returning id`;
    if (updated.length !== 1) throw new Error(`no account named ${username}`);
  } finally {
    await sql.end();
  }
}

/**
 * Gives the account `count` watched flights (departing in a month or more), inserted as the
 * system does (the stack's database, as a superuser): faster than typing each into the form.
 */
export async function addWatchedFlights(username: string, count: number): Promise<void> {
  const singleSession = process.env.E2E_DATABASE_SINGLE_SESSION === 'true';
  const sql = postgres(process.env.E2E_DATABASE_URL ?? '', { max: 1, prepare: !singleSession, onnotice: () => {} });
  try {
    for (let i = 0; i < count; i++) {
      const departure = new Date(Date.now() + (30 + i) * 86_400_000).toISOString().slice(0, 10);
      await sql`
        insert into public.flights (user_id, airline, flight_number, booking_code, passenger_last_name,
                                    departure_airport, arrival_airport, departure_date, original_price,
                                    current_price, fare_type, is_eligible_for_rebooking, is_manual_entry)
        select id, 'Delta Air Lines', ${`DL${400 + i}`}, ${`DG${String(i).padStart(4, '0')}`}, 'Smith',
               'JFK', 'LAX', ${departure}, 45000, 45000, 'Refundable Economy', true, true
          from public.profiles where lower(username) = lower(${username})`;
    }
  } finally {
    await sql.end();
  }
}

export async function logIn(page: Page, user: { username: string; password: string }) {
  await page.goto('/login');
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

export async function logOut(page: Page) {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/$/);
}

/*
 * Toasts close by themselves after 5 s (and pause while the pointer is over them), so a test must
 * neither look for one after a slow step nor expect one to still be there when it clicks it. On a
 * loaded machine even polling for one can miss it: the page may show it and close it between two
 * looks. So the page reports every toast the moment it is rendered, and tests assert on that record.
 */

/** A toast as rendered: its title and description text. */
export interface ShownToast {
  title: string;
  description: string;
}

/** What a toast must say: each given text exactly, or matching the pattern; one not given: anything. */
export interface ToastText {
  title?: string | RegExp;
  description?: string | RegExp;
}

const toastRecords = new WeakMap<Page, Promise<ShownToast[]>>();

/**
 * Runs in the page (and in every document it loads later): a MutationObserver reports each toast
 * root once, synchronously after the render that inserts it, so no toast can come and go unseen.
 */
function reportToasts() {
  const w = window as unknown as {
    __e2eToastsReported?: boolean;
    __e2eToastShown: (toast: ShownToast) => Promise<void>;
  };
  if (w.__e2eToastsReported) return;
  w.__e2eToastsReported = true;
  const reported = new WeakSet<Element>();
  const text = (root: Element, part: string) =>
    (root.querySelector(`[data-scope="toast"][data-part="${part}"]`)?.textContent ?? '').replace(/\s+/g, ' ').trim();
  const report = () => {
    document.querySelectorAll('[data-scope="toast"][data-part="root"]').forEach((root) => {
      if (reported.has(root)) return;
      reported.add(root);
      void w.__e2eToastShown({ title: text(root, 'title'), description: text(root, 'description') });
    });
  };
  new MutationObserver(report).observe(document, { childList: true, subtree: true });
  report();
}

/** Every toast `page` has rendered since the first call, in order; starts the reporting on first use. */
function shownToasts(page: Page): Promise<ShownToast[]> {
  let record = toastRecords.get(page);
  if (!record) {
    const toasts: ShownToast[] = [];
    record = (async () => {
      await page.exposeBinding('__e2eToastShown', (_source, toast: ShownToast) => void toasts.push(toast));
      await page.addInitScript(reportToasts);
      await page.evaluate(reportToasts);
      return toasts;
    })();
    toastRecords.set(page, record);
  }
  return record;
}

/**
 * Runs `action` and asserts that the page rendered a toast saying `expected` after the action
 * began: while it ran, or within the expect timeout after it. However briefly it stayed, and
 * whether or not it is still open, it counts; earlier toasts do not.
 */
export async function expectToast(page: Page, expected: ToastText, action: () => Promise<unknown>) {
  const toasts = await shownToasts(page);
  const before = toasts.length;
  await action();
  const text = (t: string | RegExp | undefined) =>
    t === undefined ? expect.any(String) : typeof t === 'string' ? t : expect.stringMatching(t);
  await expect
    .poll(() => toasts.slice(before), { message: 'the toasts shown since the action began include it' })
    .toContainEqual({ title: text(expected.title), description: text(expected.description) });
}

/**
 * Runs `action` and asserts that each locator (a short-lived page state, such as a message shown
 * for a second or two before the page moves on) is visible at some moment while the action runs or
 * within the expect timeout after it. The wait starts before the action, so a state shown briefly
 * counts even when the action returns after it has gone.
 */
export async function expectShownDuring(locators: Locator | Locator[], action: () => Promise<unknown>) {
  const list = Array.isArray(locators) ? locators : [locators];
  const seen = list.map(() => false);
  let failure: unknown;
  // timeout 0: no limit of their own; the limit is the expect timeout below, counted from the action's end
  list.forEach((locator, i) => {
    void locator.waitFor({ state: 'visible', timeout: 0 }).then(
      () => (seen[i] = true),
      (error: unknown) => (failure ??= error),
    );
  });
  await action();
  await expect
    .poll(
      () => {
        if (failure) throw failure;
        return list.filter((_, i) => !seen[i]).map(String);
      },
      { message: 'shown during the action or after it', intervals: [100] },
    )
    .toEqual([]);
}

/**
 * Closes every open toast: clicks the first Dismiss button while there is one, tolerating a toast
 * that closes by itself in the meantime (its button is detached and the short click times out,
 * and the loop looks again), until no toast is left. With a dialog open it clicks nothing and
 * waits for the toasts to time out.
 */
export async function dismissToasts(page: Page) {
  const dismiss = page.getByRole('button', { name: 'Dismiss notification' });
  const dialogs = page.getByRole('dialog').or(page.getByRole('alertdialog'));
  if ((await dialogs.count()) > 0) {
    // Over an open dialog a click that misses a toast closing at that moment lands outside the
    // dialog and closes it: let the toasts time out by themselves instead (5 s each).
    await expect(dismiss, 'every toast is closed').toHaveCount(0, { timeout: 60_000 });
    return;
  }
  await expect(async () => {
    if ((await dismiss.count()) > 0) {
      try {
        await dismiss.first().click({ timeout: 5_000 });
      } catch (error) {
        if (!(error instanceof errors.TimeoutError)) throw error;
      }
    }
    await expect(dismiss).toHaveCount(0, { timeout: 5_000 });
  }, 'every toast is closed').toPass({ timeout: 60_000 });
}

/**
 * A screenshot under e2e/screenshots/<name>-desktop|mobile.png (from the viewport's width), the
 * whole page or only the viewport (an open dialog), and the no-sideways-scroll check. Toasts are
 * closed first (they sit over the content; the checks before have read them) and animations are
 * let settle.
 */
export async function capture(page: Page, name: string, options: { fullPage?: boolean } = {}) {
  await dismissToasts(page);
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({
    path: `e2e/screenshots/${name}-${width >= 1000 ? 'desktop' : 'mobile'}.png`,
    fullPage: options.fullPage ?? true,
  });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${name} at ${width} px must not scroll sideways`).toBeLessThanOrEqual(0);
}

/** `capture` at 1280 and at 375 px in one test (the page is left at 1280 px). */
export async function captureAtBothWidths(page: Page, name: string) {
  for (const size of [
    { width: 375, height: 812 },
    { width: 1280, height: 800 },
  ]) {
    await page.setViewportSize(size);
    await capture(page, name);
  }
}

/** Picks an airline in the manual entry form's searchable picker, by typing part of its name. */
export async function chooseAirline(page: Page, airline: string) {
  const picker = page.getByRole('combobox', { name: 'Airline' });
  await picker.fill(airline.slice(0, 5));
  await page.getByRole('option', { name: new RegExp(`^${airline} \\([A-Z0-9]{2}\\)`) }).click();
  await expect(picker).toHaveValue(airline);
}
