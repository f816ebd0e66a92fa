import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CurrentUser, CurrentUserResponse } from '@shared/types/user.ts';
import { CURRENT_USER_POLL_MS } from '@shared/constants.ts';
import { ApiError, apiRequest } from './api-client';

/*
 * The signed-in user is read by the header, the route guards and most features, so its query
 * lives here in shared code rather than in a feature (features never import each other). The
 * auth feature's mutations write this cache; the MutationCache invalidates it by key.
 */

export type { CurrentUser };

export const authKeys = {
  all: ['auth'] as const,
  me: () => [...authKeys.all, 'me'] as const,
};

/** GET /api/auth/me; a 401 means nobody is signed in, which is data (null), not an error. */
export async function getCurrentUser(): Promise<CurrentUser | null> {
  try {
    const { user } = await apiRequest<CurrentUserResponse>('GET', '/auth/me');
    return user;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export const currentUserQueryOptions = () =>
  queryOptions({
    queryKey: authKeys.me(),
    queryFn: getCurrentUser,
    // Spec sections 4 and 7: polled every 30 s and refetched whenever the window regains focus.
    refetchInterval: CURRENT_USER_POLL_MS,
    refetchOnWindowFocus: 'always',
  });

export function useCurrentUser() {
  return useQuery(currentUserQueryOptions());
}

export function isPremium(user: Pick<CurrentUser, 'subscriptionTier'> | null | undefined): boolean {
  return user?.subscriptionTier?.toLowerCase() === 'premium';
}
