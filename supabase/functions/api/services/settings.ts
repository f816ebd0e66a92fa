// The traveller's settings: automatic rebooking on or off, rebooking thresholds, notification
// preferences and price-alert thresholds. Rules: turning automatic rebooking on and changing the
// rebooking thresholds need a plan of the premium tier (the plan row's tier, the same rule the
// database's triggers apply); turning it off, the notification preferences and the price-alert
// thresholds are every traveller's. The plan is checked and the row written in one transaction on
// the caller's own connection, so a refusal changes nothing; the request body was validated
// against the stored limits before any of this (shared schemas, `_shared/schemas/settings.ts`).
import {
  type NotificationPreferences,
  type PriceAlertThresholdsInput,
  type RebookingThresholdsInput,
  SETTINGS_MESSAGES,
  type SettingsResponse,
} from '../../_shared/schemas/settings.ts';
import type { AppDeps } from '../context.ts';
import type { AuthClaims, Tx } from '../db.ts';
import { HttpError } from '../errors.ts';
import {
  ownPlanTier,
  setAutoRebooking,
  setNotificationPreferences,
  setPriceAlertThresholds,
  setRebookingThresholds,
} from '../queries/settings.ts';

const PROFILE_MISSING = 'Your profile could not be found. Please sign in again.';

async function requirePremium(tx: Tx, message: string): Promise<void> {
  const tier = await ownPlanTier(tx);
  if (tier === null) throw new HttpError(404, PROFILE_MISSING);
  if (tier !== 'premium') throw new HttpError(403, message);
}

function written(found: boolean): void {
  if (!found) throw new HttpError(404, PROFILE_MISSING);
}

export function toggleAutoRebooking(deps: AppDeps, claims: AuthClaims, enabled: boolean): Promise<SettingsResponse> {
  return deps.db.asUser(claims, async (tx) => {
    if (enabled) await requirePremium(tx, SETTINGS_MESSAGES.premiumRequiredToEnable);
    written(await setAutoRebooking(tx, enabled));
    return {
      message: enabled ? SETTINGS_MESSAGES.autoRebookingEnabled : SETTINGS_MESSAGES.autoRebookingDisabled,
    };
  });
}

export function updateRebookingThresholds(
  deps: AppDeps,
  claims: AuthClaims,
  input: RebookingThresholdsInput,
): Promise<SettingsResponse> {
  return deps.db.asUser(claims, async (tx) => {
    await requirePremium(tx, SETTINGS_MESSAGES.premiumRequiredForThresholds);
    written(await setRebookingThresholds(tx, input));
    return { message: SETTINGS_MESSAGES.rebookingThresholdsUpdated };
  });
}

export function updateNotificationPreferences(
  deps: AppDeps,
  claims: AuthClaims,
  input: NotificationPreferences,
): Promise<SettingsResponse> {
  return deps.db.asUser(claims, async (tx) => {
    written(await setNotificationPreferences(tx, input));
    return { message: SETTINGS_MESSAGES.preferencesUpdated };
  });
}

export function updatePriceAlertThresholds(
  deps: AppDeps,
  claims: AuthClaims,
  input: PriceAlertThresholdsInput,
): Promise<SettingsResponse> {
  return deps.db.asUser(claims, async (tx) => {
    written(await setPriceAlertThresholds(tx, input));
    return { message: SETTINGS_MESSAGES.priceAlertThresholdsUpdated };
  });
}
