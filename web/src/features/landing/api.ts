import { PREMIUM_PRICE_CENTS } from '@shared/constants.ts';
import { useContext, useEffect, useState } from 'react';
import { getSubscriptionPlans, plansQueryOptions, premiumPlan, type SubscriptionPlan } from '@/lib/plans';
import { QueryRuntimeContext } from '@/lib/query-runtime-loader';

/*
 * The landing page's Premium price comes from the active plan named 'premium' (the admin's plan
 * list governs the price), read with the app's one plans query (lib/plans.ts). Until it answers,
 * or when it fails, the published $24.99 (PREMIUM_PRICE_CENTS) shows, without an error state: a
 * pricing table that flickers into an error is worse than the published price.
 *
 * The landing page loads no query code of its own (lib/query-runtime-loader.ts): when the query
 * runtime is there (the visitor came from another page), the price goes through the query cache
 * that checkout and the Subscription tab share; otherwise the same fetcher runs in an effect.
 */

export function premiumPriceFrom(plans: readonly SubscriptionPlan[]): number | null {
  const price = premiumPlan(plans)?.price;
  return typeof price === 'number' && Number.isInteger(price) && price >= 0 ? price : null;
}

export function usePremiumPriceCents(): number {
  const runtime = useContext(QueryRuntimeContext);
  const [cents, setCents] = useState(PREMIUM_PRICE_CENTS);
  useEffect(() => {
    let cancelled = false;
    const plans = runtime ? runtime.client.fetchQuery(plansQueryOptions()) : getSubscriptionPlans();
    plans
      .then((list) => {
        const price = premiumPriceFrom(list);
        if (!cancelled && price !== null) setCents(price);
      })
      .catch(() => {
        // keep the published price (see above)
      });
    return () => {
      cancelled = true;
    };
  }, [runtime]);
  return cents;
}
