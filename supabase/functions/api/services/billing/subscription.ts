// The traveller's subscription: what it is now, and downgrading to Free (no refund: a paid year
// runs to its end). Upgrading is a payment: checkout.ts.
import { UNLIMITED_FLIGHTS } from '../../../_shared/constants.ts';
import type { UpdateSubscriptionBody } from '../../../_shared/schemas/billing.ts';
import type { CurrentSubscriptionResponse, UpdateSubscriptionResponse } from '../../../_shared/types/billing.ts';
import type { AppDeps } from '../../context.ts';
import { HttpError } from '../../errors.ts';
import { moveToFreePlan, toCurrentSubscription } from '../../queries/billing.ts';
import { loadProfile, provider } from './provider.ts';

export const UPGRADE_IS_A_PAYMENT = 'Upgrading is a payment: use checkout to upgrade to Premium.';
export const ALREADY_FREE = 'You are already on the Free plan.';

function dateLabel(date: Date): string {
  return date.toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
}

export async function currentSubscription(deps: AppDeps, userId: string): Promise<CurrentSubscriptionResponse> {
  return { subscription: toCurrentSubscription(await loadProfile(deps, userId), deps.payments.mode) };
}

export async function updateSubscription(
  deps: AppDeps,
  userId: string,
  body: UpdateSubscriptionBody,
): Promise<UpdateSubscriptionResponse> {
  if (body.tier === 'premium') throw new HttpError(400, UPGRADE_IS_A_PAYMENT);
  const profile = await loadProfile(deps, userId);
  if (profile.tier === 'free') throw new HttpError(409, ALREADY_FREE);
  // no renewal: a Stripe subscription ends at its period's end, nothing is refunded
  if (profile.subscriptionId && profile.renews) {
    const subscriptionId = profile.subscriptionId;
    await provider(() => deps.payments.cancelSubscriptionAtPeriodEnd(subscriptionId));
  }
  const { watched, limit } = await deps.db.asService((tx) => moveToFreePlan(tx, userId));
  const after = await loadProfile(deps, userId);
  const paidThrough = profile.endDate && new Date(profile.endDate) > new Date() ? new Date(profile.endDate) : null;
  const flightsOverLimit = limit === UNLIMITED_FLIGHTS ? 0 : Math.max(0, watched - limit);
  let message = 'Your subscription has been downgraded. Auto-rebooking has been disabled.';
  if (paidThrough) {
    message += ` Your Premium subscription will not renew; the paid year ends on ${dateLabel(paidThrough)}.`;
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
