import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { AppProvider } from '@/app/provider';
import { createQueryClient } from '@/lib/query-client';

/** One component with the app's providers (Chakra, query client, toasts) and a router, for component tests. */
export function renderWithProviders(ui: ReactNode) {
  const queryClient = createQueryClient();
  const utils = render(
    <AppProvider queryClient={queryClient}>
      <MemoryRouter>{ui}</MemoryRouter>
    </AppProvider>,
  );
  return { ...utils, queryClient };
}
