import { ChakraProvider } from '@chakra-ui/react';
import type { QueryClient } from '@tanstack/react-query';
// TanStack's context alone (a few hundred bytes), not the library: see lib/query-runtime-loader.ts.
import { QueryClientContext } from '@tanstack/react-query/client-context';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { ToasterHost } from '@/components/ui/toaster-host';
import { notify } from '@/components/ui/toaster';
import { authKeys } from '@/lib/auth';
import {
  loadedQueryRuntime,
  loadQueryRuntime,
  onQueryRuntimeLoaded,
  QueryRuntimeContext,
  type QueryRuntime,
} from '@/lib/query-runtime-loader';
import { loadSupabase, onAuthEvent, sessionMayExist, takeUrlAuthError } from '@/lib/supabase';
import { loadSlotRecipes, system } from './theme';

/**
 * The query runtime (TanStack Query and the app's QueryClient) once it has loaded: at once when
 * it already has (tests preload it), else when a session may exist or a route other than the
 * landing page asks for it (routes.tsx). A client given by a test is used from the first render.
 */
function useQueryRuntime(givenClient: QueryClient | undefined) {
  const [runtime, setRuntime] = useState<QueryRuntime | null>(
    () => loadedQueryRuntime()?.createQueryRuntime(givenClient) ?? null,
  );
  useEffect(() => {
    if (runtime) return;
    return onQueryRuntimeLoaded((module) => setRuntime(module.createQueryRuntime(givenClient)));
  }, [runtime, givenClient]);
  const client = runtime?.client ?? givenClient;
  useEffect(() => {
    // What QueryClientProvider does on mount: follow window focus and the network.
    if (!client) return;
    client.mount();
    return () => client.unmount();
  }, [client]);
  return { runtime, client };
}

/**
 * When supabase-js signs in on its own (the Google return: the session arrives in the URL
 * fragment) or loses the session (refresh failed, signed out in another tab), ask the api who
 * the user is now. A Google return carrying an error instead is reported once.
 */
function useSessionSync(runtime: QueryRuntime | null) {
  const runtimeRef = useRef(runtime);
  runtimeRef.current = runtime;
  useEffect(() => {
    const unsubscribe = onAuthEvent((event) => {
      if (event !== 'SIGNED_IN' && event !== 'SIGNED_OUT') return;
      const current = runtimeRef.current;
      if (current) void current.client.invalidateQueries({ queryKey: authKeys.me() });
      else void loadQueryRuntime();
    });
    if (takeUrlAuthError()) {
      notify({
        title: 'OAuth Error',
        description: 'There was an error connecting with Google',
        status: 'error',
      });
    }
    // Start restoring a stored session (or reading one from the URL) right away.
    if (sessionMayExist()) {
      void loadSupabase();
      void loadQueryRuntime();
    }
    return unsubscribe;
  }, []);
}

export function AppProvider({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const { runtime, client } = useQueryRuntime(queryClient);
  useSessionSync(runtime);
  return (
    <ChakraProvider value={system}>
      <QueryRuntimeContext.Provider value={runtime}>
        <QueryClientContext.Provider value={client}>
          {children}
          <ToasterHost prepare={loadSlotRecipes} />
        </QueryClientContext.Provider>
      </QueryRuntimeContext.Provider>
    </ChakraProvider>
  );
}
