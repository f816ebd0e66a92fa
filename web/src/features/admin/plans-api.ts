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
 * What a plan change can change: every admin read (the plans, the users' plan names, the flights'
 * commission at the plan's rate, the audit log) and the public plans the landing page, checkout
 * and the Subscription tab read.
 */
const AFTER_PLAN_CHANGE = [adminKeys.all, planKeys.all] as const;

/** POST /api/admin/subscription-plans. */
export function useCreatePlan() {
  return useMutation({
    mutationFn: (body: SubscriptionPlanBody) =>
      apiRequest<AdminSubscriptionPlanResponse>('POST', '/admin/subscription-plans', body),
    meta: {
      invalidates: AFTER_PLAN_CHANGE,
      errorTitle: 'Creation Failed',
      errorDescription: 'Failed to create the subscription plan.',
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
      errorDescription: 'Failed to update the subscription plan.',
    },
    onSuccess: ({ plan }) =>
      notify({ title: 'Plan Updated', description: `${plan.name} has been saved.`, status: 'success' }),
  });
}
