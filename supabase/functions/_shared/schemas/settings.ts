// Request bodies of the settings calls (auto-rebooking toggle and thresholds, notification
// preferences, price-alert thresholds). The Settings tab's forms validate with these same schemas.
//
// The bounds are the stored limits: the CHECK constraints of public.profiles (migration
// 20261122000300_profiles_and_plans.sql). supabase/tests/
// settings-limits.test.ts reads those constraints from pg_constraint and compares them with
// SETTINGS_LIMITS, so the api refuses with a message naming the field and the bound before the
// database ever could. The sliders of the Rebooking Thresholds card cover a narrower range inside
// these limits (REBOOKING_SLIDERS); any value within the stored limits is accepted from the api.
import { z } from 'zod';
import { NOTIFICATION_FREQUENCIES, THRESHOLD_CONDITIONS } from '../constants.ts';

/** The stored limits, inclusive. Percent is integer percent; amounts are integer cents. */
export const SETTINGS_LIMITS = {
  minSavingsPercent: { min: 1, max: 90 },
  minSavingsAmount: { min: 100, max: 100_000 },
  internationalMinSavingsPercent: { min: 1, max: 90 },
  internationalMinSavingsAmount: { min: 100, max: 100_000 },
  minPriceDrop: { min: 0, max: 10_000_000 },
  minPriceDropPercent: { min: 0, max: 100 },
} as const;

/** Time of day as HH:MM, 24-hour (the pattern of profiles_notification_time_format). */
export const NOTIFICATION_TIME_PATTERN = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;
export const DEFAULT_NOTIFICATION_TIME = '09:00';
export const DEFAULT_NOTIFICATION_FREQUENCY = 'instant';
/** IANA names are short ('America/Argentina/ComodRivadavia' is among the longest). */
export const TIME_ZONE_MAX_LENGTH = 64;

/**
 * The Rebooking Thresholds card's sliders: range, step and default of each (spec: percent 5-50,
 * amount $5-$250 in $5 steps, international percent 10-60, international amount $20-$500 in $10
 * steps). Each range lies inside the stored limits above.
 */
export const REBOOKING_SLIDERS = {
  minSavingsPercent: { min: 5, max: 50, step: 1, default: 15 },
  minSavingsAmount: { min: 500, max: 25_000, step: 500, default: 5000 },
  internationalMinSavingsPercent: { min: 10, max: 60, step: 1, default: 20 },
  internationalMinSavingsAmount: { min: 2000, max: 50_000, step: 1000, default: 10_000 },
} as const;

/** The Price Alert Thresholds card's inputs: dollars in steps of 5, percent 0-100 in steps of 1. */
export const PRICE_ALERT_INPUTS = {
  minPriceDropDollars: { min: 0, step: 5 },
  minPriceDropPercent: { min: 0, max: 100, step: 1 },
} as const;

const dollars = (cents: number) =>
  `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 0, maximumFractionDigits: 2 })}`;

function flag(label: string) {
  return z.boolean({
    error: (issue) => (issue.input === undefined ? `${label} is required` : `${label} must be true or false`),
  });
}

/** A whole number within [min, max]; every message names the field and the bounds. */
function wholeNumber(label: string, { min, max }: { min: number; max: number }, unit: 'percent' | 'cents') {
  const bound =
    unit === 'percent'
      ? `${label} must be a whole percent from ${min} to ${max}`
      : `${label} must be a whole number of cents from ${min} to ${max} (${dollars(min)} to ${dollars(max)})`;
  return z
    .number({ error: (issue) => (issue.input === undefined ? `${label} is required` : bound) })
    .int({ error: bound })
    .min(min, { error: bound })
    .max(max, { error: bound });
}

export const SETTINGS_MESSAGES = {
  premiumRequiredToEnable: 'Premium subscription required for automatic rebooking.',
  premiumRequiredForThresholds: 'Premium subscription required to customize rebooking thresholds.',
  autoRebookingEnabled: 'Auto-rebooking enabled',
  autoRebookingDisabled: 'Auto-rebooking disabled',
  rebookingThresholdsUpdated: 'Auto-rebooking thresholds updated',
  preferencesUpdated: 'Preferences Updated',
  priceAlertThresholdsUpdated: 'Thresholds updated',
  timeZone: 'Time zone must be an IANA time zone name, such as America/New_York',
  notificationTime: 'Notification time must be a time of day as HH:MM (00:00 to 23:59)',
} as const;

/** `POST /api/auto-rebooking/toggle` */
export const autoRebookingToggleSchema = z.strictObject({
  enabled: flag('Enabled'),
});
export type AutoRebookingToggleInput = z.input<typeof autoRebookingToggleSchema>;

/** `POST /api/auto-rebooking/thresholds` (premium only) */
export const rebookingThresholdsSchema = z.strictObject({
  minSavingsPercent: wholeNumber('Minimum savings percent', SETTINGS_LIMITS.minSavingsPercent, 'percent'),
  minSavingsAmount: wholeNumber('Minimum savings amount', SETTINGS_LIMITS.minSavingsAmount, 'cents'),
  thresholdCondition: z.enum(THRESHOLD_CONDITIONS, {
    error: `Threshold condition must be one of: ${THRESHOLD_CONDITIONS.join(', ')}`,
  }),
  useSeparateInternationalThresholds: flag('Use separate international thresholds'),
  internationalMinSavingsPercent: wholeNumber(
    'International minimum savings percent',
    SETTINGS_LIMITS.internationalMinSavingsPercent,
    'percent',
  ),
  internationalMinSavingsAmount: wholeNumber(
    'International minimum savings amount',
    SETTINGS_LIMITS.internationalMinSavingsAmount,
    'cents',
  ),
});
export type RebookingThresholdsInput = z.input<typeof rebookingThresholdsSchema>;

/**
 * An IANA zone name as profiles_time_zone_check (private.is_time_zone) accepts it: 'UTC' or
 * Area/Location; abbreviations and offsets ('EST', 'UTC+5') are not places.
 */
export const TIME_ZONE_PATTERN = /^(UTC|[A-Z][A-Za-z_]+(\/[A-Za-z0-9_+-]+){1,2})$/;

/** Whether the name has that shape and this runtime knows it (Deno, Node and browsers ship the tz database). */
export function isKnownTimeZone(name: string): boolean {
  if (!TIME_ZONE_PATTERN.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * `POST /api/notifications/preferences`. The three switches are required (the spec's body);
 * frequency, time of day and time zone are optional and left as stored when omitted (a new
 * account starts at 'instant', '09:00').
 */
export const notificationPreferencesSchema = z.strictObject({
  notifyPriceDrops: flag('Notify price drops'),
  notifyRebookings: flag('Notify rebookings'),
  notifyCancellations: flag('Notify cancellations'),
  notificationFrequency: z
    .enum(NOTIFICATION_FREQUENCIES, {
      error: `Notification frequency must be one of: ${NOTIFICATION_FREQUENCIES.join(', ')}`,
    })
    .optional(),
  notificationTime: z
    .string({ error: SETTINGS_MESSAGES.notificationTime })
    .regex(NOTIFICATION_TIME_PATTERN, { error: SETTINGS_MESSAGES.notificationTime })
    .optional(),
  timeZone: z
    .string({ error: SETTINGS_MESSAGES.timeZone })
    .max(TIME_ZONE_MAX_LENGTH, { error: SETTINGS_MESSAGES.timeZone, abort: true })
    .refine(isKnownTimeZone, { error: SETTINGS_MESSAGES.timeZone })
    .optional(),
});
export type NotificationPreferencesInput = z.input<typeof notificationPreferencesSchema>;
export type NotificationPreferences = z.output<typeof notificationPreferencesSchema>;

/** `POST /api/price-alerts/thresholds` (every plan): cents and percent; an alert fires when either is met. */
export const priceAlertThresholdsSchema = z.strictObject({
  minPriceDrop: wholeNumber('Minimum price drop', SETTINGS_LIMITS.minPriceDrop, 'cents'),
  minPriceDropPercent: wholeNumber('Minimum price drop percent', SETTINGS_LIMITS.minPriceDropPercent, 'percent'),
});
export type PriceAlertThresholdsInput = z.input<typeof priceAlertThresholdsSchema>;

/** What every settings call answers with 200. */
export interface SettingsResponse {
  message: string;
}
