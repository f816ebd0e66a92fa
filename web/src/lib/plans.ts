import { queryOptions } from '@tanstack/react-query';
import { freeOffer, premiumOffer } from '@shared/plans/offer.ts';
import type { SubscriptionPlan, SubscriptionPlansResponse } from '@shared/types/plans.ts';
import { apiRequest } from './api-client';

/*
 * The subscription plans, read by the landing page's pricing, checkout, the dashboard's
 * Subscription tab and the admin area. Several features need them and features never import
 * each other, so the one query lives here in shared code, as the current user's does (auth.ts).
 * The admin area's own list of every plan (inactive ones too) belongs under `planKeys.all`, so
 * that invalidating it after an edit refreshes this list as well.
 */

export type { SubscriptionPlan };

export const planKeys = {
  all: ['plans'] as const,
  list: () => [...planKeys.all, 'list'] as const,
};

/** GET /api/subscription/plans (public): the active plans, cheapest first. */
export async function getSubscriptionPlans(): Promise<SubscriptionPlan[]> {
  const { plans } = await apiRequest<SubscriptionPlansResponse>('GET', '/subscription/plans');
  return plans;
}

export const plansQueryOptions = () => queryOptions({ queryKey: planKeys.list(), queryFn: getSubscriptionPlans });

/**
 * What checkout sells and the landing page prices: the premium offer, found by tier (an admin may
 * rename the plan), the one the api's checkout picks too.
 */
export function premiumPlan(plans: readonly SubscriptionPlan[]): SubscriptionPlan | undefined {
  return premiumOffer(plans);
}

/** The free plan, found by tier: the landing page's flight limit, a free traveller's plan card. */
export function freePlan(plans: readonly SubscriptionPlan[] | undefined): SubscriptionPlan | undefined {
  return plans ? freeOffer(plans) : undefined;
}
