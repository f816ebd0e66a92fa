import { MutationCache, QueryClient, type QueryKey } from '@tanstack/react-query';
import { QUERY_GC_MS } from '@shared/constants.ts';
import { notify } from '@/components/ui/toaster';
import { errorMessage } from './api-client';

/*
 * What a mutation declares about itself instead of handling it in every hook (TkDodo,
 * "Automatic Query Invalidation after Mutations"):
 * - invalidates: query keys (prefixes) to refetch once it succeeds;
 * - errorTitle / errorFallback: the error toast (title; description is the server's message,
 *   else the fallback). Mutations without errorTitle handle their own errors.
 * - errorDescription instead of errorFallback: a fixed sentence the specification gives for the
 *   toast ('Failed to update user admin status'), always shown, with the server's reason after it
 *   when there is one ('... The last admin cannot be removed').
 */
export interface FareBackMutationMeta extends Record<string, unknown> {
  invalidates?: readonly QueryKey[];
  errorTitle?: string;
  /** No toast for these errors: the form answers them itself (e.g. a 422 asking for more). */
  quietWhen?: (error: unknown) => boolean;
  errorFallback?: string;
  errorDescription?: string;
}

/** The error toast's description: see FareBackMutationMeta. */
export function errorDescriptionOf(error: unknown, meta: FareBackMutationMeta | undefined): string {
  const fixed = meta?.errorDescription;
  if (!fixed) return errorMessage(error, meta?.errorFallback ?? 'Something went wrong. Please try again.');
  const reason = errorMessage(error, '').trim();
  if (!reason || reason === fixed) return fixed;
  return `${/[.!?]$/.test(fixed) ? fixed : `${fixed}.`} ${reason}`;
}

declare module '@tanstack/react-query' {
  interface Register {
    mutationMeta: FareBackMutationMeta;
  }
}

/** Nothing retried, cached data never stale by default, gc after 5 minutes. */
export function createQueryClient(): QueryClient {
  const queryClient: QueryClient = new QueryClient({
    defaultOptions: {
      queries: {
        retry: false,
        staleTime: Infinity,
        gcTime: QUERY_GC_MS,
        refetchOnWindowFocus: false,
        refetchOnReconnect: false,
      },
      mutations: { retry: false },
    },
    mutationCache: new MutationCache({
      onSuccess: async (_data, _variables, _context, mutation) => {
        const keys = mutation.meta?.invalidates ?? [];
        await Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      },
      onError: (error, _variables, _context, mutation) => {
        const title = mutation.meta?.errorTitle;
        if (!title || mutation.meta?.quietWhen?.(error)) return;
        notify({ title, description: errorDescriptionOf(error, mutation.meta), status: 'error' });
      },
    }),
  });
  return queryClient;
}
