import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { UNSAFE_createMemoryHistory } from 'react-router';
import { AppProvider } from '@/app/provider';
import { AppRouter } from '@/app/router';
import { loadSlotRecipes } from '@/app/theme';
import { createQueryClient } from '@/lib/query-client';

/**
 * One component with the app's providers and router at `path`: navigations render in a
 * transition, as in the app, and `history` says where they went (`location`, `index`: a push
 * adds an entry, a replace does not) and steps Back and Forward (`go`). Slot recipes (Table,
 * Tabs...) are registered first, as the app's routes do.
 */
export async function renderAtPath(ui: ReactNode, path = '/') {
  await loadSlotRecipes();
  const history = UNSAFE_createMemoryHistory({ initialEntries: [path], v5Compat: true });
  const queryClient = createQueryClient();
  const utils = render(
    <AppProvider queryClient={queryClient}>
      <AppRouter history={history}>{ui}</AppRouter>
    </AppProvider>,
  );
  return { ...utils, history, queryClient };
}
