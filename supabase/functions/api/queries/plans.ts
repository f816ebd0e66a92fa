// Subscription plans (public.subscription_plans). Run as anon or as a user, the table's policies
// show active plans only (admins see every plan).
import type { SubscriptionPlan } from '../../_shared/types/plans.ts';
import type { Tx } from '../db.ts';

/**
 * A plan row's fields in the API's names (SubscriptionPlan), for a json_build_object: the one
 * shape of a plan in the plan list, a subscription and the admin area. A plan without a
 * commission rate reads 0.
 */
export const planJsonFields = (alias: string): string => `
  'id', ${alias}.id, 'name', ${alias}.name, 'tier', ${alias}.tier, 'price', ${alias}.price,
  'flightLimit', ${alias}.flight_limit, 'autoRebookingEnabled', ${alias}.auto_rebooking_enabled,
  'commissionRate', coalesce(${alias}.commission_rate, 0), 'description', ${alias}.description`;

/** A plan row as a SubscriptionPlan JSON object. */
export const planJson = (alias: string): string => `json_build_object(${planJsonFields(alias)})`;

/**
 * The plans on offer (active ones; retired plans are kept for the subscriptions and bills that
 * name them), cheapest first, then by id so equal prices keep one order. Postgres builds the JSON.
 */
export async function activePlans(tx: Tx): Promise<SubscriptionPlan[]> {
  const [row] = await tx<{ plans: SubscriptionPlan[] }[]>`
    select coalesce(json_agg(${tx.unsafe(planJson('p'))} order by p.price, p.id), '[]'::json) as plans
      from public.subscription_plans p
     where p.is_active
  `;
  return row?.plans ?? [];
}
