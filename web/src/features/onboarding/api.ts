import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MessageResponse } from '@shared/types/auth.ts';
import { apiRequest } from '@/lib/api-client';
import { authKeys, type CurrentUser } from '@/lib/auth';

/**
 * Finishing or skipping onboarding: remembered on the account, so /dashboard no longer sends the
 * user here. The cached user is updated at once, before the caller navigates to /dashboard.
 */
export function useCompleteOnboarding() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<MessageResponse>('POST', '/onboarding/complete'),
    meta: { errorTitle: 'Error', errorFallback: 'Could not save your progress. Please try again.' },
    onSuccess: () =>
      queryClient.setQueryData<CurrentUser | null>(authKeys.me(), (user) =>
        user ? { ...user, onboardingCompleted: true } : user,
      ),
  });
}
