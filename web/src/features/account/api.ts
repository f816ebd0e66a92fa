import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChangeEmailInput, ChangePasswordInput } from '@shared/schemas/auth.ts';
import type { AuthSession, MessageResponse } from '@shared/types/auth.ts';
import { notify } from '@/components/ui/toaster';
import { apiRequest } from '@/lib/api-client';
import { authKeys } from '@/lib/auth';
import { adoptSession } from '@/lib/supabase';

/** 'Update Email': Auth mails a link to the new address; the address changes when it is opened. */
export function useChangeEmail() {
  return useMutation({
    mutationFn: (input: ChangeEmailInput) => apiRequest<MessageResponse>('POST', '/auth/change-email', input),
    meta: { errorTitle: 'Email update failed', errorFallback: 'Could not update your email. Please try again.' },
    onSuccess: (answer) => notify({ title: 'Check your new inbox', description: answer.message, status: 'success' }),
  });
}

/** The link from that email (`/account?email_change_token=...`). */
export function useConfirmEmailChange() {
  return useMutation({
    mutationFn: (token: string) => apiRequest<MessageResponse>('POST', '/auth/confirm-email-change', { token }),
    meta: {
      invalidates: [authKeys.me()],
      errorTitle: 'Email update failed',
      errorFallback: 'This email change link is invalid or has expired. Please ask for a new one.',
    },
    onSuccess: (answer) => notify({ title: 'Email Updated', description: answer.message, status: 'success' }),
  });
}

/**
 * 'Change Password': the api checks the current password, sets the new one and ends every other
 * session, this browser's included, handing over a new one that this browser carries on with.
 */
export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: ChangePasswordInput) => {
      const answer = await apiRequest<MessageResponse & { session: AuthSession }>(
        'POST',
        '/auth/change-password',
        input,
      );
      await adoptSession(answer.session);
      return answer;
    },
    meta: { errorTitle: 'Password change failed', errorFallback: 'Could not change your password. Please try again.' },
    onSuccess: async (answer) => {
      notify({ title: 'Password Changed', description: answer.message, status: 'success' });
      await queryClient.invalidateQueries({ queryKey: authKeys.me() });
    },
  });
}
