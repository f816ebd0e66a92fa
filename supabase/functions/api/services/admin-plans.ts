// The admin area's subscription plans (docs/architecture.md "Admin API: plans and commission
// payments"). Writes run as the admin (asUser): the plans' policies and grants decide, the audit
// triggers record who changed what, and the database's guards refuse an edit that would leave
// sign-up or checkout without a plan (409 with their message, through app.ts).
import type { SubscriptionTier } from '../../_shared/constants.ts';
import type { SubscriptionPlanBody } from '../../_shared/schemas/admin.ts';
import type { AdminSubscriptionPlanResponse, AdminSubscriptionPlansResponse } from '../../_shared/types/admin.ts';
import type { AppDeps } from '../context.ts';
import type { AuthClaims } from '../db.ts';
import { FieldValidationError, HttpError } from '../errors.ts';
import { adminPlans, insertPlan, isDuplicatePlanName, updatePlan } from '../queries/admin-plans.ts';

export const PLAN_MESSAGES = {
  notFound: 'Plan not found',
  duplicateName: 'A plan with this name already exists',
} as const;

/**
 * The tier a plan gives follows from what it offers: a price or automatic rebooking is Premium
 * (checkout sells it, automatic rebooking needs it); a plan with neither is free. The form has
 * no tier field, so no plan can say "free" and charge, or offer automatic rebooking it cannot run.
 */
export function planTier(body: Pick<SubscriptionPlanBody, 'price' | 'autoRebookingEnabled'>): SubscriptionTier {
  return body.price > 0 || body.autoRebookingEnabled ? 'premium' : 'free';
}

/** The name is the only field the database judges against other rows: its unique index. */
async function namingPlan<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (isDuplicatePlanName(error)) {
      throw new FieldValidationError([{ field: 'name', message: PLAN_MESSAGES.duplicateName }]);
    }
    throw error;
  }
}

export async function listPlans(deps: AppDeps, claims: AuthClaims): Promise<AdminSubscriptionPlansResponse> {
  return { plans: await deps.db.asUser(claims, adminPlans) };
}

export async function createPlan(
  deps: AppDeps,
  claims: AuthClaims,
  body: SubscriptionPlanBody,
): Promise<AdminSubscriptionPlanResponse> {
  const plan = await namingPlan(deps.db.asUser(claims, (tx) => insertPlan(tx, body, planTier(body))));
  return { plan };
}

export async function editPlan(
  deps: AppDeps,
  claims: AuthClaims,
  id: number,
  body: SubscriptionPlanBody,
): Promise<AdminSubscriptionPlanResponse> {
  const plan = await namingPlan(deps.db.asUser(claims, (tx) => updatePlan(tx, id, body, planTier(body))));
  if (!plan) throw new HttpError(404, PLAN_MESSAGES.notFound);
  return { plan };
}
