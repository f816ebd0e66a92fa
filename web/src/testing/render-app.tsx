import { render } from '@testing-library/react';
import { AppProvider } from '@/app/provider';
import { AppRouter, createAppMemoryHistory } from '@/app/router';
import { AppRoutes } from '@/app/routes';
import { createQueryClient } from '@/lib/query-client';

/**
 * The whole app (providers, router, guards, lazy pages) at `path`, against a mocked fetch.
 * `router.state.location` is where the app's history is now.
 */
export function renderApp(path: string) {
  const history = createAppMemoryHistory(path);
  const queryClient = createQueryClient();
  const utils = render(
    <AppProvider queryClient={queryClient}>
      <AppRouter history={history}>
        <AppRoutes />
      </AppRouter>
    </AppProvider>,
  );
  const router = {
    history,
    state: {
      get location() {
        return history.location;
      },
    },
  };
  return { ...utils, router, queryClient };
}
