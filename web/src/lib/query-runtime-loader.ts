import type { QueryClient, QueryObserverOptions, QueryObserverResult } from '@tanstack/react-query';
import { createContext } from 'react';

/*
 * TanStack Query loads after the landing page. A visitor reading `/` without a session needs no
 * query machinery (nobody is signed in, so the current user is known to be null), and the query
 * code is some 10 KB of gzipped JavaScript. Everything that does need it waits for it:
 * routes.tsx awaits `loadQueryRuntime()` in every lazy route but the landing page's, and the
 * provider loads it at once when a session may exist. The app's QueryClient lives in the runtime.
 *
 * Feature code is unchanged: `useQuery`, `useMutation` and `useQueryClient` read the client from
 * TanStack's own context, which the provider fills as soon as the runtime is there (see
 * app/provider.tsx). Only `useCurrentUser`, which the header and route guards call on every
 * page, goes through the runtime below instead of `useQuery`.
 */

export interface ExternalStore<T> {
  subscribe(onChange: () => void): () => void;
  getSnapshot(): T;
}

export interface QueryRuntime {
  client: QueryClient;
  /** A live view of one query, refetching as its options say (polling, focus). */
  observe<T, K extends readonly unknown[]>(
    options: QueryObserverOptions<T, Error, T, T, K>,
  ): ExternalStore<QueryObserverResult<T>>;
}

type RuntimeModule = typeof import('./query-runtime');

let loading: Promise<RuntimeModule> | null = null;
let loaded: RuntimeModule | null = null;
const loadedListeners = new Set<(module: RuntimeModule) => void>();

export function loadQueryRuntime(): Promise<RuntimeModule> {
  loading ??= import('./query-runtime').then((module) => {
    loaded = module;
    // Before the awaiting route resumes, so the provider has the client when its page renders.
    for (const listener of loadedListeners) listener(module);
    loadedListeners.clear();
    return module;
  });
  return loading;
}

/** Calls `listener` once the runtime module has loaded (at once if it has). */
export function onQueryRuntimeLoaded(listener: (module: RuntimeModule) => void): () => void {
  if (loaded) {
    listener(loaded);
    return () => undefined;
  }
  loadedListeners.add(listener);
  return () => loadedListeners.delete(listener);
}

/** The runtime module once loaded (tests load it up front), else null. */
export function loadedQueryRuntime(): RuntimeModule | null {
  return loaded;
}

/** The app's query runtime, or null until it has loaded. */
export const QueryRuntimeContext = createContext<QueryRuntime | null>(null);
