// Which plan of the plan list (`GET /api/subscription/plans`: active plans, cheapest first, then
// by id) is which, shared by the api (checkout's default plan) and the web app (checkout, the
// landing page's prices, upgrade prompts), so both pick the same plan. By tier, never by name:
// an admin may rename any plan.
import type { SubscriptionPlan } from '../types/plans.ts';

/** What checkout sells when no plan is named: the cheapest premium plan with a price. */
export function premiumOffer<P extends SubscriptionPlan>(plans: readonly P[]): P | undefined {
  return plans.find((plan) => plan.tier === 'premium' && plan.price > 0);
}

/** The free plan a new traveller gets and a downgrade moves to (private.default_plan_id: the first by id). */
export function freeOffer<P extends SubscriptionPlan>(plans: readonly P[]): P | undefined {
  return plans.find((plan) => plan.tier === 'free');
}
