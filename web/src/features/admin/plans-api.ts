import { queryOptions, useMutation } from '@tanstack/react-query';
import type { SubscriptionPlanBody } from '@shared/schemas/admin.ts';
import type { AdminSubscriptionPlanResponse, AdminSubscriptionPlansResponse } from '@shared/types/admin.ts';
import { notify } from '@/components/ui/toaster';
import { apiRequest } from '@/lib/api-client';
import { planKeys } from '@/lib/plans';
import { adminKeys } from './api';

/** GET /api/admin/subscription-plans: every plan, inactive ones too, by id. */
export const adminPlansQueryOptions = () =>
  queryOptions({
    queryKey: adminKeys.plans(),
    queryFn: async () => (await apiRequest<AdminSubscriptionPlansResponse>('GET', '/admin/subscription-plans')).plans,
  });

/*
 * What a plan change can change: the plans (the admin's list and the public one the landing page,
 * checkout and the Subscription tab read), the users (their plan's name), the flights (their
 * commission, at the plan's rate) and the audit log (each change is a row).
 */
const AFTER_PLAN_CHANGE = [
  adminKeys.plans(),
  adminKeys.users(),
  adminKeys.flights(),
  adminKeys.audit(),
  planKeys.all,
] as const;

/** POST /api/admin/subscription-plans. */
export function useCreatePlan() {
  return useMutation({
    mutationFn: (body: SubscriptionPlanBody) =>
      apiRequest<AdminSubscriptionPlanResponse>('POST', '/admin/subscription-plans', body),
    meta: {
      invalidates: AFTER_PLAN_CHANGE,
      errorTitle: 'Creation Failed',
      errorFallback: 'Failed to create the subscription plan.',
    },
    onSuccess: ({ plan }) =>
      notify({ title: 'Plan Created', description: `${plan.name} has been added.`, status: 'success' }),
  });
}

/** PUT /api/admin/subscription-plans/{id}. */
export function useUpdatePlan() {
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: SubscriptionPlanBody }) =>
      apiRequest<AdminSubscriptionPlanResponse>('PUT', `/admin/subscription-plans/${id}`, body),
    meta: {
      invalidates: AFTER_PLAN_CHANGE,
      errorTitle: 'Update Failed',
      errorFallback: 'Failed to update the subscription plan.',
    },
    onSuccess: ({ plan }) =>
      notify({ title: 'Plan Updated', description: `${plan.name} has been saved.`, status: 'success' }),
  });
}
