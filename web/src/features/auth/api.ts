import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ForgotPasswordInput, LoginInput, RegisterInput, ResetPasswordInput } from '@shared/schemas/auth.ts';
import type { AuthResponse, MessageResponse } from '@shared/types/auth.ts';
import { AFTER_LOGIN_PATH } from '@shared/constants.ts';
import { useNavigate } from 'react-router';
import { notify } from '@/components/ui/toaster';
import { ApiError, apiRequest } from '@/lib/api-client';
import { authKeys, type CurrentUser } from '@/lib/auth';
import { adoptSession, forgetSession } from '@/lib/supabase';

/*
 * Account calls. The api function creates the Supabase Auth session and hands it
 * back; supabase-js stores and refreshes it from then on, and the api client reads the access
 * token from it. The me cache is written directly on login, register and logout, so the header
 * and guards switch at once instead of waiting for a refetch.
 */

export async function login(input: LoginInput): Promise<CurrentUser> {
  const { user, session } = await apiRequest<AuthResponse>('POST', '/auth/login', input);
  await adoptSession(session);
  return user;
}

export async function register(input: RegisterInput): Promise<CurrentUser> {
  const { user, session } = await apiRequest<AuthResponse>('POST', '/auth/register', input);
  await adoptSession(session);
  return user;
}

export async function logout(): Promise<void> {
  try {
    await apiRequest<MessageResponse>('POST', '/auth/logout');
  } catch (error) {
    // A 401 means the server holds no session for us any more: signed out already.
    if (!(error instanceof ApiError && error.status === 401)) throw error;
  }
  await forgetSession();
}

export function forgotPassword(input: ForgotPasswordInput): Promise<MessageResponse> {
  return apiRequest<MessageResponse>('POST', '/auth/forgot-password', input);
}

export function resetPassword(input: ResetPasswordInput): Promise<MessageResponse> {
  return apiRequest<MessageResponse>('POST', '/auth/reset-password', input);
}

/*
 * Sign-in and sign-out finish in the hooks, not in `mutate` callbacks: writing the me cache lets
 * the route guards navigate at once, which unmounts the form, and TanStack Query skips `mutate`
 * callbacks of an unmounted component.
 */

export function useLogin() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: login,
    meta: { errorTitle: 'Login failed', errorFallback: 'Invalid username or password' },
    onSuccess: (user) => {
      queryClient.setQueryData(authKeys.me(), user);
      notify({ title: 'Login successful', description: 'Welcome back to FareBack!', status: 'success' });
      void navigate(AFTER_LOGIN_PATH);
    },
  });
}

export function useRegister() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: register,
    meta: {
      errorTitle: 'Registration failed',
      errorFallback: 'Could not create your account. Please try again.',
    },
    onSuccess: (user) => {
      queryClient.setQueryData(authKeys.me(), user);
      notify({
        title: 'Registration successful',
        description: 'Welcome to FareBack! Now connect your email to start monitoring your flights.',
        status: 'success',
      });
      // A new account always starts with onboarding: straight there, not via /dashboard's redirect.
      void navigate(ONBOARDING_PATH);
    },
  });
}

/** Where a new account goes after sign-up (the /dashboard guard would send it there anyway). */
export const ONBOARDING_PATH = '/onboarding';

/** Router state that tells / not to send the user on to /dashboard: they are signing out. */
export const SIGNED_OUT_STATE = { signedOut: true } as const;

export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: logout,
    meta: { errorTitle: 'Logout failed', errorFallback: 'Please try again.' },
    onSuccess: () => {
      // Leave the signed-in page before forgetting the user, or its guard would send the
      // visitor to /login first; the state keeps / from bouncing back to /dashboard meanwhile.
      void navigate('/', { flushSync: true, state: SIGNED_OUT_STATE });
      // Forget everything cached for the previous user, then mark nobody signed in.
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== authKeys.all[0] });
      queryClient.setQueryData(authKeys.me(), null);
      notify({ title: 'Logged out successfully', status: 'success' });
    },
  });
}

export function useForgotPassword() {
  return useMutation({
    mutationFn: forgotPassword,
    meta: { errorTitle: 'Error', errorFallback: 'Failed to send password reset email' },
  });
}

export function useResetPassword() {
  return useMutation({
    mutationFn: resetPassword,
    meta: { errorTitle: 'Failed to reset password', errorFallback: 'Failed to reset password' },
  });
}
