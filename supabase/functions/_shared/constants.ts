// Business constants of the specification (section 9, with the bounds of section 5). Shared by
// the api function and the web app, so this file imports nothing.

// ---- plans and money (integer cents everywhere) ----
export const FREE_FLIGHT_LIMIT = 5;
/** A plan's flightLimit of -1 means unlimited monitoring. */
export const UNLIMITED_FLIGHTS = -1;
/** Commission taken on successful rebookings: 25% of the savings (airline credit). */
export const COMMISSION_RATE_PERCENT = 25;
/** Premium price shown on the landing page and checkout; the plan row's price governs billing. */
export const PREMIUM_PRICE_CENTS = 2499;
export const SUBSCRIPTION_TIERS = ['free', 'premium'] as const;
export type SubscriptionTier = (typeof SUBSCRIPTION_TIERS)[number];
/** Airline credit is typically valid for one year after rebooking. */
export const AIRLINE_CREDIT_VALIDITY_MONTHS = 12;

// ---- contact and support ----
export const DEFAULT_SUPPORT_EMAIL = 'support@fareback.app';
export const SUPPORT_HOURS = 'Monday to Friday 9am-5pm EST';
export const SUPPORT_RESPONSE_TIME = '24-48 business hours';

// ---- user alert and rebooking thresholds ----
export const THRESHOLD_TYPES = ['percent', 'absolute'] as const;
export type ThresholdType = (typeof THRESHOLD_TYPES)[number];
export const THRESHOLD_CONDITIONS = ['either', 'both'] as const;
export type ThresholdCondition = (typeof THRESHOLD_CONDITIONS)[number];

// ---- notifications ----
export const NOTIFICATION_FREQUENCIES = ['instant', 'daily', 'weekly'] as const;
export type NotificationFrequency = (typeof NOTIFICATION_FREQUENCIES)[number];

// ---- accounts ----
export const USERNAME_MIN_LENGTH = 3;
export const USERNAME_MAX_LENGTH = 30;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 100;
/*
 * Failed logins within the window are limited so that nobody else's failures can lock out the
 * right password: one address is refused (429) for one account after this many failures there,
 * and for every account after LOGIN_MAX_FAILURES_PER_IP; an account failing from many addresses
 * is only slowed: from LOGIN_DELAY_AFTER_ACCOUNT_FAILURES failures on, each attempt waits
 * LOGIN_DELAY_BASE_MS doubled per further failure, at most LOGIN_DELAY_MAX_MS, before the check.
 */
export const LOGIN_MAX_FAILURES_PER_ACCOUNT_AND_IP = 5;
export const LOGIN_MAX_FAILURES_PER_IP = 20;
export const LOGIN_DELAY_AFTER_ACCOUNT_FAILURES = 10;
export const LOGIN_DELAY_BASE_MS = 250;
export const LOGIN_DELAY_MAX_MS = 4000;
export const LOGIN_FAILURE_WINDOW_MINUTES = 15;
/*
 * Address confirmation: the link in the confirmation email works once, for this long; an account
 * is sent at most CONFIRMATION_EMAILS_PER_HOUR confirmation emails (sign-up's included).
 */
export const CONFIRMATION_LINK_VALID_HOURS = 24;
export const CONFIRMATION_EMAILS_PER_HOUR = 3;
export const CONFIRM_EMAIL_PATH = '/confirm-email';
export const RESET_PASSWORD_PATH = '/reset-password';
export const AFTER_LOGIN_PATH = '/dashboard';

// ---- contact form minimums ----
export const CONTACT_NAME_MIN_LENGTH = 2;
export const CONTACT_SUBJECT_MIN_LENGTH = 5;
export const CONTACT_MESSAGE_MIN_LENGTH = 10;

// ---- client timing (milliseconds) ----
export const CURRENT_USER_POLL_MS = 30_000;
export const QUERY_GC_MS = 5 * 60_000;
export const TOAST_LIMIT = 1;
export const TOAST_DURATION_MS = 5000;
export const TOAST_SWIPE_THRESHOLD_PX = 50;
export const TOAST_MAX_WIDTH_PX = 420;
export const MOBILE_BREAKPOINT_PX = 768;
export const MISSING_RESET_TOKEN_REDIRECT_MS = 2000;
export const RESET_SUCCESS_REDIRECT_MS = 2000;
export const RESET_VERIFY_DELAY_MS = 1000;

// ---- airlines and fares ----
export const LANDING_AIRLINES = [
  'American',
  'Delta',
  'United',
  'Southwest',
  'JetBlue',
  'Japan Airlines',
  'Lufthansa',
  'British Airways',
  'Air Canada',
  'Air France',
] as const;
export const DASHBOARD_SUPPORTED_AIRLINES = [
  'American',
  'United',
  'Delta',
  'Southwest',
  'JetBlue',
  'Alaska',
  'Air Canada',
  'British Airways',
  'Lufthansa',
  'Emirates',
  'Qatar',
  'Singapore',
] as const;
export const MANUAL_ENTRY_AIRLINES = [
  'United Airlines',
  'American Airlines',
  'Delta Air Lines',
  'Southwest Airlines',
  'JetBlue Airways',
  'Alaska Airlines',
  'Spirit Airlines',
  'Frontier Airlines',
  'Hawaiian Airlines',
  'Allegiant Air',
] as const;
export const SUPPORTED_FARE_TYPES = [
  'Refundable Economy',
  'Flexible Economy',
  'Premium Economy',
  'Business Class',
  'First Class',
] as const;
export const UNSUPPORTED_FARE_TYPES = ['Basic Economy'] as const;
/** The most travellers one reservation holds: public.flights.passenger_count's check (1 to 9). */
export const MAX_FLIGHT_PARTY = 9;
