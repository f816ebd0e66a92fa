// Subscription plans (public.subscription_plans). Run as anon or as a user, the table's policies
// show active plans only (admins see every plan).
import type { SubscriptionPlan } from '../../_shared/types/plans.ts';
import type { Tx } from '../db.ts';

/**
 * The plans on offer (active ones; retired plans are kept for the subscriptions and bills that
 * name them), cheapest first, then by id so equal prices keep one order. Postgres builds the JSON
 * in the API's field names; a plan without a commission rate reads 0.
 */
export async function activePlans(tx: Tx): Promise<SubscriptionPlan[]> {
  const [row] = await tx<{ plans: SubscriptionPlan[] }[]>`
    select coalesce(
             json_agg(
               json_build_object(
                 'id', p.id,
                 'name', p.name,
                 'price', p.price,
                 'flightLimit', p.flight_limit,
                 'autoRebookingEnabled', p.auto_rebooking_enabled,
                 'commissionRate', coalesce(p.commission_rate, 0),
                 'description', p.description
               )
               order by p.price, p.id
             ),
             '[]'::json
           ) as plans
      from public.subscription_plans p
     where p.is_active
  `;
  return row?.plans ?? [];
}
