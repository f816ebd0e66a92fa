import { COMMISSION_RATE_PERCENT, FREE_FLIGHT_LIMIT, PREMIUM_PRICE_CENTS } from '@shared/constants.ts';
import { useContext, useEffect, useState } from 'react';
import { freePlan, getSubscriptionPlans, plansQueryOptions, premiumPlan, type SubscriptionPlan } from '@/lib/plans';
import { QueryRuntimeContext } from '@/lib/query-runtime-loader';

/*
 * The landing page's pricing comes from the active plans (the admin's plan list governs them),
 * read with the app's one plans query (lib/plans.ts): Premium's price and commission rate from
 * the premium offer, the free plan's flight limit from the free plan, each found by tier (an
 * admin may rename them). Until the call answers, or when it fails, the published figures show
 * ($24.99 a year, 25%, 5 flights; PREMIUM_PRICE_CENTS and friends), without an error state: a
 * pricing table that flickers into an error is worse than the published price. A figure a plan
 * does not give keeps its default.
 *
 * The landing page loads no query code of its own (lib/query-runtime-loader.ts): when the query
 * runtime is there (the visitor came from another page), the plans go through the query cache
 * that checkout and the Subscription tab share; otherwise the same fetcher runs in an effect.
 */

export interface PublishedPricing {
  premiumPriceCents: number;
  commissionRate: number;
  freeFlightLimit: number;
}

export const PUBLISHED_PRICING: PublishedPricing = {
  premiumPriceCents: PREMIUM_PRICE_CENTS,
  commissionRate: COMMISSION_RATE_PERCENT,
  freeFlightLimit: FREE_FLIGHT_LIMIT,
};

const wholeNumber = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0;

export function premiumPriceFrom(plans: readonly SubscriptionPlan[]): number | null {
  const price = premiumPlan(plans)?.price;
  return wholeNumber(price) ? price : null;
}

/** The published figures with whatever the plans give in their place. */
export function pricingFrom(plans: readonly SubscriptionPlan[]): PublishedPricing {
  const premium = premiumPlan(plans);
  const free = freePlan(plans);
  const price = premiumPriceFrom(plans);
  return {
    premiumPriceCents: price ?? PUBLISHED_PRICING.premiumPriceCents,
    commissionRate:
      wholeNumber(premium?.commissionRate) && premium.commissionRate > 0
        ? premium.commissionRate
        : PUBLISHED_PRICING.commissionRate,
    freeFlightLimit:
      wholeNumber(free?.flightLimit) && free.flightLimit > 0 ? free.flightLimit : PUBLISHED_PRICING.freeFlightLimit,
  };
}

export function usePublishedPricing(): PublishedPricing {
  const runtime = useContext(QueryRuntimeContext);
  const [pricing, setPricing] = useState(PUBLISHED_PRICING);
  useEffect(() => {
    let cancelled = false;
    const plans = runtime ? runtime.client.fetchQuery(plansQueryOptions()) : getSubscriptionPlans();
    plans
      .then((list) => {
        if (!cancelled) setPricing(pricingFrom(list));
      })
      .catch(() => {
        // keep the published figures (see above)
      });
    return () => {
      cancelled = true;
    };
  }, [runtime]);
  return pricing;
}
