import { PREMIUM_PRICE_CENTS } from '@shared/constants.ts';
import { useEffect, useState } from 'react';
import { apiRequest } from '@/lib/api-client';

/*
 * The landing page's Premium price comes from the active plan named 'premium' (the admin's plan
 * list governs the price, spec section 1), read from GET /api/subscription/plans. That call is
 * built with the subscription area; until it answers (or when it fails, or for a visitor it
 * refuses), the spec's $24.99 (PREMIUM_PRICE_CENTS) shows, without an error state: a pricing
 * table that flickers into an error is worse than the published price.
 *
 * A plain effect rather than a TanStack query: the landing route loads no query code of its own
 * and this one number is fetched once per visit.
 */

interface PlanSummary {
  name?: unknown;
  price?: unknown;
  isActive?: unknown;
}

export function premiumPriceFrom(body: unknown): number | null {
  const plans: unknown = Array.isArray(body) ? body : (body as { plans?: unknown } | null)?.plans;
  if (!Array.isArray(plans)) return null;
  const premium = (plans as PlanSummary[]).find(
    (plan) => typeof plan?.name === 'string' && plan.name.trim().toLowerCase() === 'premium' && plan.isActive !== false,
  );
  const price = premium?.price;
  return typeof price === 'number' && Number.isInteger(price) && price >= 0 ? price : null;
}

export function usePremiumPriceCents(): number {
  const [cents, setCents] = useState(PREMIUM_PRICE_CENTS);
  useEffect(() => {
    let cancelled = false;
    apiRequest<unknown>('GET', '/subscription/plans')
      .then((body) => {
        const price = premiumPriceFrom(body);
        if (!cancelled && price !== null) setCents(price);
      })
      .catch(() => {
        // keep the published price (see above)
      });
    return () => {
      cancelled = true;
    };
  }, []);
  return cents;
}
