// The traveller's own settings in public.profiles. Every statement runs as the user (`asUser`):
// the columns written here are the ones granted to authenticated (migration
// 20261122000300_profiles_and_plans.sql), the row is the caller's by `auth.uid()`, and the triggers of
// profiles refuse what only premium may do (automatic rebooking, rebooking thresholds).
import type {
  NotificationPreferences,
  PriceAlertThresholdsInput,
  RebookingThresholdsInput,
} from '../../_shared/schemas/settings.ts';
import type { SubscriptionTier } from '../../_shared/types/user.ts';
import type { Tx } from '../db.ts';

/** The tier of the plan the caller is on, or null when the caller has no profile. */
export async function ownPlanTier(tx: Tx): Promise<SubscriptionTier | null> {
  const rows = await tx<{ tier: SubscriptionTier }[]>`
    select sp.tier
      from public.profiles p
      join public.subscription_plans sp on sp.id = p.plan_id
     where p.id = (select auth.uid())
  `;
  return rows[0]?.tier ?? null;
}

/** Each write answers whether the caller's row was there to change. */
async function changed(rows: PromiseLike<readonly unknown[]>): Promise<boolean> {
  return (await rows).length === 1;
}

export function setAutoRebooking(tx: Tx, enabled: boolean): Promise<boolean> {
  return changed(tx`
    update public.profiles set auto_rebooking = ${enabled}
     where id = (select auth.uid())
    returning id
  `);
}

export function setRebookingThresholds(tx: Tx, input: RebookingThresholdsInput): Promise<boolean> {
  return changed(tx`
    update public.profiles
       set min_savings_percent = ${input.minSavingsPercent},
           min_savings_amount = ${input.minSavingsAmount},
           threshold_condition = ${input.thresholdCondition},
           use_separate_international_thresholds = ${input.useSeparateInternationalThresholds},
           international_min_savings_percent = ${input.internationalMinSavingsPercent},
           international_min_savings_amount = ${input.internationalMinSavingsAmount}
     where id = (select auth.uid())
    returning id
  `);
}

/** Frequency, time and time zone are left as stored when not given. */
export function setNotificationPreferences(tx: Tx, input: NotificationPreferences): Promise<boolean> {
  return changed(tx`
    update public.profiles
       set notify_price_drops = ${input.notifyPriceDrops},
           notify_rebookings = ${input.notifyRebookings},
           notify_cancellations = ${input.notifyCancellations},
           notification_frequency = coalesce(${input.notificationFrequency ?? null}::text, notification_frequency),
           notification_time = coalesce(${input.notificationTime ?? null}::text, notification_time),
           time_zone = coalesce(${input.timeZone ?? null}::text, time_zone)
     where id = (select auth.uid())
    returning id
  `);
}

export function setPriceAlertThresholds(tx: Tx, input: PriceAlertThresholdsInput): Promise<boolean> {
  return changed(tx`
    update public.profiles
       set min_price_drop = ${input.minPriceDrop},
           min_price_drop_percent = ${input.minPriceDropPercent}
     where id = (select auth.uid())
    returning id
  `);
}
