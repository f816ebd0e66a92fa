// public.profiles: one row per auth.users row, created by the sign-up trigger.
import type { CurrentUser } from '../../_shared/types/user.ts';
import type { Tx } from '../db.ts';

/**
 * The columns `GET /api/auth/me` reads: the profile's, and the tier and flight limit of the plan it
 * points at. Every one is NOT NULL with its default in the migrations (the one source of those
 * defaults) except the dates and the email.
 */
export interface ProfileRow {
  id: string;
  username: string;
  email: string | null;
  is_admin: boolean;
  email_connected: boolean;
  email_connection_state: CurrentUser['emailConnectionState'];
  subscription_tier: CurrentUser['subscriptionTier'];
  subscription_start_date: Date | null;
  subscription_end_date: Date | null;
  flight_limit: number;
  auto_rebooking: boolean;
  threshold_type: CurrentUser['thresholdType'];
  percent_threshold: number;
  absolute_threshold: number;
  min_savings_percent: number;
  min_savings_amount: number;
  threshold_condition: CurrentUser['thresholdCondition'];
  use_separate_international_thresholds: boolean;
  international_min_savings_percent: number;
  international_min_savings_amount: number;
  notify_price_drops: boolean;
  notify_rebookings: boolean;
  notify_cancellations: boolean;
  min_price_drop: number;
  min_price_drop_percent: number;
  notification_frequency: CurrentUser['notificationFrequency'];
  notification_time: string;
  time_zone: string;
  total_credits_earned: number;
  commission_owed: number;
  commission_paid: number;
  plan_id: number;
  plan_name: string;
  commission_rate: number;
  last_billing_date: Date | null;
  created_at: Date;
  onboarding_completed_at: Date | null;
  email_confirmed_at: Date | null;
}

const iso = (value: Date | null): string | null => (value === null ? null : new Date(value).toISOString());

/** `fallbackEmail` (the token's email claim) serves when the profile row carries none. */
export function toCurrentUser(row: ProfileRow, fallbackEmail = ''): CurrentUser {
  return {
    id: row.id,
    username: row.username,
    email: row.email || fallbackEmail,
    isAdmin: row.is_admin,
    emailConnected: row.email_connected,
    emailConnectionState: row.email_connection_state,
    subscriptionTier: row.subscription_tier,
    subscriptionStartDate: iso(row.subscription_start_date),
    subscriptionEndDate: iso(row.subscription_end_date),
    flightLimit: row.flight_limit,
    autoRebooking: row.auto_rebooking,
    thresholdType: row.threshold_type,
    percentThreshold: row.percent_threshold,
    absoluteThreshold: row.absolute_threshold,
    minSavingsPercent: row.min_savings_percent,
    minSavingsAmount: row.min_savings_amount,
    thresholdCondition: row.threshold_condition,
    useSeparateInternationalThresholds: row.use_separate_international_thresholds,
    internationalMinSavingsPercent: row.international_min_savings_percent,
    internationalMinSavingsAmount: row.international_min_savings_amount,
    notifyPriceDrops: row.notify_price_drops,
    notifyRebookings: row.notify_rebookings,
    notifyCancellations: row.notify_cancellations,
    minPriceDrop: row.min_price_drop,
    minPriceDropPercent: row.min_price_drop_percent,
    notificationFrequency: row.notification_frequency,
    notificationTime: row.notification_time,
    timeZone: row.time_zone,
    totalCreditsEarned: row.total_credits_earned,
    commissionOwed: row.commission_owed,
    commissionPaid: row.commission_paid,
    planId: Number(row.plan_id),
    planName: row.plan_name,
    commissionRate: row.commission_rate,
    lastBillingDate: iso(row.last_billing_date),
    createdAt: new Date(row.created_at).toISOString(),
    onboardingCompleted: row.onboarding_completed_at !== null,
    emailConfirmed: row.email_confirmed_at !== null,
  };
}

/** The signed-in user's own profile, read as that user (row-level security applies). */
export async function getCurrentUser(tx: Tx, fallbackEmail?: string): Promise<CurrentUser | null> {
  const rows = await tx<ProfileRow[]>`
    select p.*, sp.tier as subscription_tier, sp.flight_limit, sp.name as plan_name,
      coalesce(sp.commission_rate, 0) as commission_rate,
      case
        when ec.status in ('expired', 'revoked', 'error') then 'needs_reconnect'
        when p.email_connected then 'connected'
        else 'not_connected'
      end as email_connection_state
      from public.profiles p
      join public.subscription_plans sp on sp.id = p.plan_id
      left join public.email_connections ec on ec.user_id = p.id
     where p.id = (select auth.uid())
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

/** Records that the owner finished or skipped onboarding; the first time is kept. */
export async function completeOnboarding(tx: Tx, userId: string): Promise<void> {
  await tx`
    update public.profiles
       set onboarding_completed_at = coalesce(onboarding_completed_at, now())
     where id = ${userId}
  `;
}

/** The address the account signs in with (auth.users), which a token's email claim may predate. */
export async function getSignInEmail(tx: Tx, userId: string): Promise<string | null> {
  const rows = await tx<{ email: string | null }[]>`select email from auth.users where id = ${userId}`;
  return rows[0]?.email ?? null;
}
