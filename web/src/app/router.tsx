import { createContext, use, useLayoutEffect, useState, useTransition, type ReactNode } from 'react';
import { Router, UNSAFE_createBrowserHistory, UNSAFE_createMemoryHistory } from 'react-router';

/*
 * React Router in declarative mode (<Routes>, React.lazy pages): its data router (loaders,
 * actions, fetchers, revalidation) is some 17 KB gzipped the app never used. What the app did
 * use from it, a "navigation pending" state, comes from rendering each new location in a
 * transition: while a lazily loaded page arrives, the current page stays and `useIsNavigating()`
 * is true.
 */

export type AppHistory = ReturnType<typeof UNSAFE_createBrowserHistory>;

/** The browser's history, as <BrowserRouter> keeps it. */
export function createAppBrowserHistory(): AppHistory {
  return UNSAFE_createBrowserHistory({ v5Compat: true });
}

/** History in memory at `path`, for tests. */
export function createAppMemoryHistory(path: string): AppHistory {
  return UNSAFE_createMemoryHistory({ initialEntries: [path], v5Compat: true });
}

const NavigatingContext = createContext(false);

/** True while a navigation renders in the background (e.g. a lazy page's code is loading). */
export function useIsNavigating(): boolean {
  return use(NavigatingContext);
}

export function AppRouter({ history, children }: { history: AppHistory; children: ReactNode }) {
  const [state, setState] = useState({ action: history.action, location: history.location });
  const [navigating, startTransition] = useTransition();
  useLayoutEffect(
    () =>
      history.listen(({ action, location }) => {
        startTransition(() => setState({ action, location }));
      }),
    [history],
  );
  return (
    <NavigatingContext value={navigating}>
      <Router location={state.location} navigationType={state.action} navigator={history}>
        {children}
      </Router>
    </NavigatingContext>
  );
}
