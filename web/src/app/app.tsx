import { useState } from 'react';
import { AppProvider } from './provider';
import { AppRouter, createAppBrowserHistory } from './router';
import { AppRoutes } from './routes';

export function App() {
  const [history] = useState(createAppBrowserHistory);
  return (
    <AppProvider>
      <AppRouter history={history}>
        <AppRoutes />
      </AppRouter>
    </AppProvider>
  );
}
