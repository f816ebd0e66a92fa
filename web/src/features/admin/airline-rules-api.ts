import { queryOptions, useMutation } from '@tanstack/react-query';
import type { AirlineRuleBody } from '@shared/schemas/airline-rules.ts';
import type {
  AirlineAutomationResponse,
  AirlineRuleResponse,
  AirlineRulesResponse,
} from '@shared/types/airline-rules.ts';
import { notify } from '@/components/ui/toaster';
import { apiRequest } from '@/lib/api-client';
import { adminKeys } from './api';

/** GET /api/admin/airline-rules: the rulebook and the paused airlines. */
export const airlineRulesQueryOptions = () =>
  queryOptions({
    queryKey: adminKeys.airlineRules(),
    queryFn: () => apiRequest<AirlineRulesResponse>('GET', '/admin/airline-rules'),
  });

// a rule or a pause changes the admin's lists and the audit log
const AFTER_RULE_CHANGE = [adminKeys.all] as const;

/** PUT /api/admin/airline-rules/{id}. */
export function useUpdateAirlineRule() {
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: AirlineRuleBody }) =>
      apiRequest<AirlineRuleResponse>('PUT', `/admin/airline-rules/${id}`, body),
    meta: {
      invalidates: AFTER_RULE_CHANGE,
      errorTitle: 'Update Failed',
      errorDescription: 'Failed to update the airline rule.',
    },
    onSuccess: ({ rule }) =>
      notify({ title: 'Rule Updated', description: `${rule.airlineName} ${rule.fareLabel} saved.`, status: 'success' }),
  });
}

/** PUT /api/admin/airline-rules/airlines/{code}/automation: the kill switch. */
export function useAirlineAutomation() {
  return useMutation({
    mutationFn: ({ code, enabled }: { code: string; enabled: boolean }) =>
      apiRequest<AirlineAutomationResponse>('PUT', `/admin/airline-rules/airlines/${code}/automation`, { enabled }),
    meta: {
      invalidates: AFTER_RULE_CHANGE,
      errorTitle: 'Update Failed',
      errorDescription: 'Failed to switch the airline automation.',
    },
    onSuccess: (r) =>
      notify({
        title: r.enabled ? 'Automation Resumed' : 'Automation Paused',
        description: r.enabled
          ? `${r.airlineCode} bookings may be changed automatically again.`
          : `${r.airlineCode}: automatic changes off; ${r.droppedFlights} queued flight(s) dropped.`,
        status: 'success',
      }),
  });
}
