import { useState } from 'react';
import { AppProvider } from './provider';
import { AppRouter, createAppBrowserHistory, type AppHistory } from './router';
import { AppRoutes } from './routes';

/** The whole app, on the browser's history unless given one (prerendering gives the page's path). */
export function App({ history: given }: { history?: AppHistory }) {
  const [history] = useState(() => given ?? createAppBrowserHistory());
  return (
    <AppProvider>
      <AppRouter history={history}>
        <AppRoutes />
      </AppRouter>
    </AppProvider>
  );
}
