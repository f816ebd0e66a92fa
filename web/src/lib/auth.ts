import { queryOptions } from '@tanstack/react-query';
import { useContext, useMemo, useSyncExternalStore } from 'react';
import type { CurrentUser, CurrentUserResponse } from '@shared/types/user.ts';
import { CURRENT_USER_POLL_MS } from '@shared/constants.ts';
import { ApiError, apiRequest } from './api-client';
import { getAccessToken } from './supabase';
import { QueryRuntimeContext } from './query-runtime-loader';

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

/**
 * GET /api/auth/me; a 401 means nobody is signed in, which is data (null), not an error. Without
 * a session in this browser nobody is signed in: the api is not asked (its 401 would reach the
 * console of every signed-out page).
 */
export async function getCurrentUser(): Promise<CurrentUser | null> {
  if (!(await getAccessToken())) return null;
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
    // Polled every 30 s and refetched whenever the window regains focus.
    refetchInterval: CURRENT_USER_POLL_MS,
    refetchOnWindowFocus: 'always',
  });

export interface CurrentUserState {
  /** The user, null when nobody is signed in, undefined while unknown. */
  data: CurrentUser | null | undefined;
  isPending: boolean;
}

/** Until the query runtime has loaded the user is unknown (see ./query-runtime-loader.ts). */
const UNKNOWN: CurrentUserState = { data: undefined, isPending: true };
const unknownStore = { subscribe: () => () => undefined, getSnapshot: () => UNKNOWN };

/**
 * The signed-in user, as `useQuery(currentUserQueryOptions())` would give it (same cache entry,
 * polling and focus refetch), but callable before TanStack Query has loaded: the header and the
 * guards render on the landing page, which does not load it. A prerendered page is a visitor's
 * page with the user unknown (entry-server.tsx), and hydrating it starts from the same.
 */
export function useCurrentUser(): CurrentUserState {
  const runtime = useContext(QueryRuntimeContext);
  const store = useMemo(() => runtime?.observe(currentUserQueryOptions()) ?? unknownStore, [runtime]);
  return useSyncExternalStore(store.subscribe, store.getSnapshot, unknownStore.getSnapshot);
}

export function isPremium(user: Pick<CurrentUser, 'subscriptionTier'> | null | undefined): boolean {
  return user?.subscriptionTier?.toLowerCase() === 'premium';
}
