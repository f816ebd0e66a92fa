// The admin area's plans (public.subscription_plans), run as the admin: the plans' policies let
// admins see every plan and write the granted columns, the audit triggers see the actor, and the
// guards of migration 20261126110000 refuse an edit that would break sign-up or checkout (FB409).
import type { SubscriptionTier } from '../../_shared/constants.ts';
import type { SubscriptionPlanBody } from '../../_shared/schemas/admin.ts';
import type { AdminSubscriptionPlan } from '../../_shared/types/admin.ts';
import type { Tx } from '../db.ts';
import { planJsonFields } from './plans.ts';

/** A plan row as the admin API answers it; subscriberCount counts the profiles on it. */
const adminPlanJson = (alias: string) => `json_build_object(${planJsonFields(alias)}, 'isActive', ${alias}.is_active,
  'subscriberCount', (select count(*)::int from public.profiles pr where pr.plan_id = ${alias}.id),
  'createdAt', ${alias}.created_at, 'updatedAt', ${alias}.updated_at)`;

/** The columns a plan body writes, with the tier the service derived from it. */
function planColumns(body: SubscriptionPlanBody, tier: SubscriptionTier) {
  return {
    name: body.name,
    price: body.price,
    flight_limit: body.flightLimit,
    auto_rebooking_enabled: body.autoRebookingEnabled,
    commission_rate: body.commissionRate,
    description: body.description,
    is_active: body.isActive,
    tier,
  };
}

/** Every plan, retired ones too, by id. */
export async function adminPlans(tx: Tx): Promise<AdminSubscriptionPlan[]> {
  const [row] = await tx<{ plans: AdminSubscriptionPlan[] }[]>`
    select coalesce(json_agg(${tx.unsafe(adminPlanJson('sp'))} order by sp.id), '[]'::json) as plans
      from public.subscription_plans sp
  `;
  return row?.plans ?? [];
}

export async function insertPlan(
  tx: Tx,
  body: SubscriptionPlanBody,
  tier: SubscriptionTier,
): Promise<AdminSubscriptionPlan> {
  const columns = planColumns(body, tier);
  const [row] = await tx<{ plan: AdminSubscriptionPlan }[]>`
    with sp as (
      insert into public.subscription_plans ${tx(columns)} returning *
    )
    select ${tx.unsafe(adminPlanJson('sp'))} as plan from sp
  `;
  if (!row) throw new Error('the plan insert returned no row');
  return row.plan;
}

/** The plan as written, or null when no plan has this id. */
export async function updatePlan(
  tx: Tx,
  id: number,
  body: SubscriptionPlanBody,
  tier: SubscriptionTier,
): Promise<AdminSubscriptionPlan | null> {
  const columns = planColumns(body, tier);
  const [row] = await tx<{ plan: AdminSubscriptionPlan }[]>`
    with sp as (
      update public.subscription_plans set ${tx(columns)} where id = ${id} returning *
    )
    select ${tx.unsafe(adminPlanJson('sp'))} as plan from sp
  `;
  return row?.plan ?? null;
}

/** The unique index on lower(name) refused the name. */
export function isDuplicatePlanName(error: unknown): boolean {
  return (
    error instanceof Error &&
    error.name === 'PostgresError' &&
    (error as Error & { code?: string }).code === '23505' &&
    (error as Error & { constraint_name?: string }).constraint_name === 'subscription_plans_name_lower_key'
  );
}
