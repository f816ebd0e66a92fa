// The traveller's subscription: what it is now; downgrading to Free now (the spec's downgrade) or at
// the end of the paid year (renewal off, Premium kept until then, nothing refunded); and renewal
// back on. Upgrading is a payment: checkout.ts.
import { FREE_FLIGHT_LIMIT } from '../../../_shared/constants.ts';
import type { UpdateSubscriptionBody } from '../../../_shared/schemas/billing.ts';
import type { CurrentSubscriptionResponse, UpdateSubscriptionResponse } from '../../../_shared/types/billing.ts';
import type { AppDeps } from '../../context.ts';
import { HttpError } from '../../errors.ts';
import { type BillingProfile, moveToFreePlan, setRenewal, toCurrentSubscription } from '../../queries/billing.ts';
import { loadProfile, provider } from './provider.ts';

export const UPGRADE_IS_A_PAYMENT = 'Upgrading is a payment: use checkout to upgrade to Premium.';
export const ALREADY_FREE = 'You are already on the Free plan.';
export const NO_PAID_PERIOD = 'Your Premium has no paid year left to run: downgrade now instead.';
export const NO_CARD_TO_RENEW = 'Add a card to renew: update your card on the Subscription tab first.';

export function dateLabel(date: Date): string {
  return date.toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
}

export async function currentSubscription(deps: AppDeps, userId: string): Promise<CurrentSubscriptionResponse> {
  return { subscription: toCurrentSubscription(await loadProfile(deps, userId), deps.payments.mode) };
}

/** The paid year's end when it is still ahead, else null. */
function paidThroughOf(profile: BillingProfile): Date | null {
  return profile.endDate && new Date(profile.endDate) > new Date() ? new Date(profile.endDate) : null;
}

export async function updateSubscription(
  deps: AppDeps,
  userId: string,
  body: UpdateSubscriptionBody,
): Promise<UpdateSubscriptionResponse> {
  const profile = await loadProfile(deps, userId);
  if (body.tier === 'premium') return await resumeRenewal(deps, profile);
  if (profile.tier === 'free') throw new HttpError(409, ALREADY_FREE);
  if (body.at === 'period_end') return await downgradeAtPeriodEnd(deps, profile);
  return await downgradeNow(deps, profile);
}

/** Renewal off: Stripe's subscription cancels at its period end, FareBack's renewal is off. */
async function stopRenewal(deps: AppDeps, profile: BillingProfile): Promise<void> {
  if (profile.subscriptionId && profile.renews) {
    const subscriptionId = profile.subscriptionId;
    await provider(() => deps.payments.cancelSubscriptionAtPeriodEnd(subscriptionId));
  }
  await deps.db.asService((tx) => setRenewal(tx, profile.userId, false));
}

/** `{tier: 'free', at: 'period_end'}`: Premium until the paid year ends, then the daily pass moves them. */
async function downgradeAtPeriodEnd(deps: AppDeps, profile: BillingProfile): Promise<UpdateSubscriptionResponse> {
  const paidThrough = paidThroughOf(profile);
  if (!paidThrough) throw new HttpError(409, NO_PAID_PERIOD);
  await stopRenewal(deps, profile);
  const after = await loadProfile(deps, profile.userId);
  return {
    success: true,
    message:
      `Your Premium subscription will not renew. You keep Premium until ${dateLabel(paidThrough)}; ` +
      'then you move to the Free plan. Nothing is refunded and nothing is deleted.',
    subscription: toCurrentSubscription(after, deps.payments.mode),
    flightsOverLimit: 0,
    flightLimit: FREE_FLIGHT_LIMIT,
    paidThrough: paidThrough.toISOString(),
  };
}

/** `{tier: 'free'}`: the spec's downgrade, at once (auto-rebooking off, the free limit), no refund. */
async function downgradeNow(deps: AppDeps, profile: BillingProfile): Promise<UpdateSubscriptionResponse> {
  await stopRenewal(deps, profile);
  const { watched, flightLimit: limit, room } = await deps.db.asService((tx) => moveToFreePlan(tx, profile.userId));
  const after = await loadProfile(deps, profile.userId);
  const paidThrough = paidThroughOf(profile);
  const flightsOverLimit = Math.max(0, -room);
  let message = 'Your subscription has been downgraded. Auto-rebooking has been disabled.';
  if (paidThrough) {
    message +=
      ` Premium ended today, before the paid year's end on ${dateLabel(paidThrough)}; ` +
      'nothing is refunded and it will not renew.';
  }
  if (flightsOverLimit > 0) {
    message +=
      ` You are watching ${watched} flights and the Free plan monitors up to ${limit}: ` +
      `remove ${flightsOverLimit} to add new flights. No flight has been deleted.`;
  }
  return {
    success: true,
    message,
    subscription: toCurrentSubscription(after, deps.payments.mode),
    flightsOverLimit,
    flightLimit: limit,
    paidThrough: paidThrough?.toISOString() ?? null,
  };
}

/** `{tier: 'premium'}` by a Premium traveller with a downgrade scheduled: renewal back on. */
async function resumeRenewal(deps: AppDeps, profile: BillingProfile): Promise<UpdateSubscriptionResponse> {
  const current = toCurrentSubscription(profile, deps.payments.mode);
  if (profile.tier !== 'premium' || !current.scheduledChange) throw new HttpError(400, UPGRADE_IS_A_PAYMENT);
  const paidThrough = new Date(current.scheduledChange.at);
  if (profile.subscriptionId) {
    const subscriptionId = profile.subscriptionId;
    await provider(() => deps.payments.resumeSubscription(subscriptionId));
  } else if (!profile.paymentMethodId) {
    throw new HttpError(409, NO_CARD_TO_RENEW);
  }
  await deps.db.asService((tx) => setRenewal(tx, profile.userId, true));
  const after = await loadProfile(deps, profile.userId);
  return {
    success: true,
    message: `Your Premium subscription will renew on ${dateLabel(paidThrough)}. The downgrade is cancelled.`,
    subscription: toCurrentSubscription(after, deps.payments.mode),
    flightsOverLimit: 0,
    flightLimit: profile.plan.flightLimit,
    paidThrough: paidThrough.toISOString(),
  };
}
