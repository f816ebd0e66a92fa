import { ChakraProvider } from '@chakra-ui/react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { ToasterHost } from '@/components/ui/toaster-host';
import { authKeys } from '@/lib/auth';
import { createQueryClient } from '@/lib/query-client';
import { notify } from '@/components/ui/toaster';
import { loadSupabase, onAuthEvent, sessionMayExist, takeUrlAuthError } from '@/lib/supabase';
import { system } from './theme';

/**
 * When supabase-js signs in on its own (the Google return: the session arrives in the URL
 * fragment) or loses the session (refresh failed, signed out in another tab), ask the api who
 * the user is now. A Google return carrying an error instead is reported once.
 */
function useSessionSync(queryClient: QueryClient) {
  useEffect(() => {
    const unsubscribe = onAuthEvent((event) => {
      if (event === 'SIGNED_IN' || event === 'SIGNED_OUT') {
        void queryClient.invalidateQueries({ queryKey: authKeys.me() });
      }
    });
    if (takeUrlAuthError()) {
      notify({
        title: 'OAuth Error',
        description: 'There was an error connecting with Google',
        status: 'error',
      });
    }
    // Start restoring a stored session (or reading one from the URL) right away.
    if (sessionMayExist()) void loadSupabase();
    return unsubscribe;
  }, [queryClient]);
}

export function AppProvider({
  children,
  queryClient: givenClient,
}: {
  children: ReactNode;
  queryClient?: QueryClient;
}) {
  const [queryClient] = useState(() => givenClient ?? createQueryClient());
  useSessionSync(queryClient);
  return (
    <ChakraProvider value={system}>
      <QueryClientProvider client={queryClient}>
        {children}
        <ToasterHost />
      </QueryClientProvider>
    </ChakraProvider>
  );
}
