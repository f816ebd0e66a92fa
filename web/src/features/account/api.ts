import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChangeEmailInput, ChangePasswordInput, DeleteAccountInput } from '@shared/schemas/auth.ts';
import type { AuthSession, MessageResponse } from '@shared/types/auth.ts';
import { notify } from '@/components/ui/toaster';
import { apiRequest } from '@/lib/api-client';
import { authKeys } from '@/lib/auth';
import { useNavigate } from 'react-router';
import { adoptSession, forgetSession } from '@/lib/supabase';

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

/** 'Download my data': everything FareBack holds on the traveller, saved as a JSON file. */
export async function downloadMyData(): Promise<void> {
  const data = await apiRequest<Record<string, unknown>>('GET', '/account/export');
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = 'fareback-my-data.json';
  link.click();
  URL.revokeObjectURL(url);
}

export function useDownloadMyData() {
  return useMutation({
    mutationFn: downloadMyData,
    meta: { errorTitle: 'Download failed', errorFallback: 'Could not export your data. Please try again.' },
  });
}

/**
 * 'Delete account': the api re-checks the owner and deletes; this browser then forgets the
 * session and everything cached, and goes to the landing page, as signing out does.
 */
export function useDeleteAccount() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: async (input: DeleteAccountInput) => {
      const answer = await apiRequest<MessageResponse>('POST', '/account/delete', input);
      await forgetSession();
      return answer;
    },
    meta: { errorTitle: 'Account not deleted', errorFallback: 'Could not delete your account. Please try again.' },
    onSuccess: (answer) => {
      void navigate('/', { flushSync: true, state: { signedOut: true } });
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== authKeys.all[0] });
      queryClient.setQueryData(authKeys.me(), null);
      notify({ title: 'Account deleted', description: answer.message, status: 'success' });
    },
  });
}
