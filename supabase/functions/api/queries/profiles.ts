// public.profiles: one row per auth.users row, created by the sign-up trigger.
import {
  DEFAULT_ABSOLUTE_THRESHOLD_CENTS,
  DEFAULT_INTERNATIONAL_MIN_SAVINGS_AMOUNT_CENTS,
  DEFAULT_INTERNATIONAL_MIN_SAVINGS_PERCENT,
  DEFAULT_MIN_PRICE_DROP_CENTS,
  DEFAULT_MIN_PRICE_DROP_PERCENT,
  DEFAULT_MIN_SAVINGS_AMOUNT_CENTS,
  DEFAULT_MIN_SAVINGS_PERCENT,
  DEFAULT_PERCENT_THRESHOLD,
  FREE_FLIGHT_LIMIT,
} from '../../_shared/constants.ts';
import type { CurrentUser } from '../../_shared/types/user.ts';
import type { Tx } from '../db.ts';

type Row = Record<string, unknown>;

function iso(value: unknown): string | null {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string') return new Date(value).toISOString();
  return null;
}

function num(value: unknown, fallback: number): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  if (typeof value === 'bigint') return Number(value);
  return fallback;
}

function bool(value: unknown, fallback: boolean): boolean {
  return typeof value === 'boolean' ? value : fallback;
}

/** `fallbackEmail` (the token's email claim) serves when the profile row carries none. */
export function toCurrentUser(row: Row, fallbackEmail = ''): CurrentUser {
  const tier = String(row.subscription_tier ?? 'free').toLowerCase() === 'premium' ? 'premium' : 'free';
  return {
    id: String(row.id),
    username: String(row.username ?? ''),
    email: typeof row.email === 'string' && row.email ? row.email : fallbackEmail,
    isAdmin: bool(row.is_admin, false),
    emailConnected: bool(row.email_connected, false),
    subscriptionTier: tier,
    subscriptionStartDate: iso(row.subscription_start_date),
    subscriptionEndDate: iso(row.subscription_end_date),
    flightLimit: num(row.flight_limit, FREE_FLIGHT_LIMIT),
    autoRebooking: bool(row.auto_rebooking, false),
    thresholdType: row.threshold_type === 'absolute' ? 'absolute' : 'percent',
    percentThreshold: num(row.percent_threshold, DEFAULT_PERCENT_THRESHOLD),
    absoluteThreshold: num(row.absolute_threshold, DEFAULT_ABSOLUTE_THRESHOLD_CENTS),
    minSavingsPercent: num(row.min_savings_percent, DEFAULT_MIN_SAVINGS_PERCENT),
    minSavingsAmount: num(row.min_savings_amount, DEFAULT_MIN_SAVINGS_AMOUNT_CENTS),
    thresholdCondition: row.threshold_condition === 'both' ? 'both' : 'either',
    useSeparateInternationalThresholds: bool(row.use_separate_international_thresholds, false),
    internationalMinSavingsPercent: num(
      row.international_min_savings_percent,
      DEFAULT_INTERNATIONAL_MIN_SAVINGS_PERCENT,
    ),
    internationalMinSavingsAmount: num(
      row.international_min_savings_amount,
      DEFAULT_INTERNATIONAL_MIN_SAVINGS_AMOUNT_CENTS,
    ),
    notifyPriceDrops: bool(row.notify_price_drops, true),
    notifyRebookings: bool(row.notify_rebookings, true),
    notifyCancellations: bool(row.notify_cancellations, true),
    minPriceDrop: num(row.min_price_drop, DEFAULT_MIN_PRICE_DROP_CENTS),
    minPriceDropPercent: num(row.min_price_drop_percent, DEFAULT_MIN_PRICE_DROP_PERCENT),
    totalCreditsEarned: num(row.total_credits_earned, 0),
    commissionOwed: num(row.commission_owed, 0),
    lastBillingDate: iso(row.last_billing_date),
    createdAt: iso(row.created_at) ?? new Date(0).toISOString(),
  };
}

/** The signed-in user's own profile, read as that user (row-level security applies). */
export async function getCurrentUser(tx: Tx, fallbackEmail?: string): Promise<CurrentUser | null> {
  const rows = await tx<Row[]>`
    select p.* from public.profiles p where p.id = (select auth.uid())
  `;
  const row = rows[0];
  return row ? toCurrentUser(row, fallbackEmail) : null;
}

/** Whether the caller (run as the user) is an admin, by the helper the admin policies use. */
export async function isAdmin(tx: Tx): Promise<boolean> {
  const [row] = await tx<{ is_admin: boolean }[]>`select private.is_admin() as is_admin`;
  return row?.is_admin === true;
}

// ---- service queries: run without a user role, each names the account it looks at ----

/** Which of a new account's username and email already belong to someone (case-insensitive). */
export async function findTakenIdentity(
  tx: Tx,
  { username, email }: { username: string; email: string },
): Promise<{ usernameTaken: boolean; emailTaken: boolean }> {
  const [row] = await tx<{ username_taken: boolean; email_taken: boolean }[]>`
    select
      exists (select 1 from public.profiles where lower(username) = lower(${username})) as username_taken,
      exists (select 1 from auth.users where lower(email) = lower(${email})) as email_taken
  `;
  return { usernameTaken: row?.username_taken ?? false, emailTaken: row?.email_taken ?? false };
}

/** The sign-in email of an account named by username or email, or null when there is none. */
export async function findLoginEmail(tx: Tx, usernameOrEmail: string): Promise<string | null> {
  const rows = usernameOrEmail.includes('@')
    ? await tx<{ email: string }[]>`
        select email from auth.users where lower(email) = lower(${usernameOrEmail}) limit 1
      `
    : await tx<{ email: string }[]>`
        select u.email from public.profiles p join auth.users u on u.id = p.id
        where lower(p.username) = lower(${usernameOrEmail}) limit 1
      `;
  return rows[0]?.email ?? null;
}

export async function getUsername(tx: Tx, userId: string): Promise<string | null> {
  const rows = await tx<{ username: string }[]>`select username from public.profiles where id = ${userId}`;
  return rows[0]?.username ?? null;
}

/** Undoes a sign-up that lost a race for its username; the profile goes with it (cascade). */
export async function deleteAccount(tx: Tx, userId: string): Promise<void> {
  await tx`delete from public.profiles where id = ${userId}`;
  await tx`delete from auth.users where id = ${userId}`;
}

export interface AccountAddress {
  userId: string;
  email: string;
  /** The owner has proved they read this address (profiles.email_confirmed_at). */
  emailConfirmed: boolean;
}

/** The account whose address this is (any case), with whether the address is confirmed. */
export async function findAccountByEmail(tx: Tx, email: string): Promise<AccountAddress | null> {
  const rows = await tx<{ id: string; email: string; confirmed: boolean }[]>`
    select id, email, email_confirmed_at is not null as confirmed
      from public.profiles where lower(email) = lower(${email}) limit 1
  `;
  const row = rows[0];
  return row ? { userId: row.id, email: row.email, emailConfirmed: row.confirmed } : null;
}
