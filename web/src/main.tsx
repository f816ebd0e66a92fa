import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app';
import { preloadRoute } from './app/routes';
import { sessionMayExist } from './lib/supabase';

/*
 * A public page arrives prerendered (entry-server.tsx): #root holds the page as a visitor sees it,
 * and `data-prerendered` names its path. A visitor's browser hydrates it once the page's code has
 * loaded. A browser that may hold a session renders the app itself, as for every other path (the
 * shell's #root is empty): a signed-in user is sent from / to /dashboard and sees their own
 * header, never a visitor's page. Until the app takes over, the prerendered page's inline script
 * (scripts/prerender.ts) has hidden it from such a browser (`data-session`) and kept its forms
 * from submitting natively (`data-before-app`).
 */

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

const app = (
  <StrictMode>
    <App />
  </StrictMode>
);

function appTakesOver() {
  document.documentElement.removeAttribute('data-session');
  document.documentElement.removeAttribute('data-before-app');
}

if (root.dataset.prerendered === window.location.pathname && !sessionMayExist()) {
  // A page whose code failed to load hydrates anyway and shows the route's error.
  void preloadRoute(window.location.pathname)
    .catch(() => undefined)
    .then(() => {
      hydrateRoot(root, app);
      appTakesOver();
    });
} else {
  root.replaceChildren();
  appTakesOver();
  createRoot(root).render(app);
}
