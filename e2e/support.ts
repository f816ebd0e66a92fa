import { expect, type Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';

export const mailUrl = () => process.env.E2E_MAIL_URL ?? '';

/** A new traveller's credentials, unique per call. */
export function newTraveller() {
  const id = randomBytes(4).toString('hex');
  return { username: `trav_${id}`, email: `trav_${id}@example.com`, password: 'Voyage@2027x' };
}

export const demoTraveller = { username: 'traveller', password: 'Travel@2026!' };
export const demoAdmin = { username: 'admin', password: 'Admin@2026!' };

interface CaughtEmail {
  subject: string;
  html?: string;
  text?: string;
  to: Array<{ address: string }>;
  date: string;
}

/** Waits for the newest email to `address` in the mail catcher. */
export async function waitForEmail(address: string, timeoutMs = 15_000): Promise<CaughtEmail> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const res = await fetch(`${mailUrl()}/email`);
    const emails = (await res.json()) as CaughtEmail[];
    const mine = emails.filter((e) => e.to.some((t) => t.address.toLowerCase() === address.toLowerCase()));
    const newest = mine.sort((a, b) => Date.parse(b.date) - Date.parse(a.date))[0];
    if (newest) return newest;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no email to ${address} arrived`);
}

export async function signUp(page: Page, user: { username: string; email: string; password: string }) {
  await page.goto('/sign-up');
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
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
