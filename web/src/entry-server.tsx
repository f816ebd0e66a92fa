import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import createEmotionServer from '@emotion/server/create-instance';
import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { App } from './app/app';
import { createAppMemoryHistory } from './app/router';
import { preloadRoute } from './app/routes';

/*
 * The public pages rendered at build time (scripts/prerender.ts writes them into the build), so
 * their first response paints the page, styled, before any JavaScript runs; main.tsx hydrates
 * them. Each is the page as a visitor sees it on arrival: nobody signed in (the current user
 * unknown, as on the client until the api answers), the published Premium price. A browser
 * holding a session renders the app itself instead (main.tsx), so it never sees a visitor's page.
 */

/** The public pages prerendered; every other path is the app's shell, rendered in the browser. */
export const PRERENDERED_PATHS = ['/', '/contact', '/help', '/privacy', '/terms'] as const;

export interface RenderedPage {
  /** What goes inside #root. */
  html: string;
  /** <style> elements for <head>: every rule the page uses, in the form emotion adopts on hydration. */
  styles: string;
}

export async function renderPage(path: string): Promise<RenderedPage> {
  // The page's code and what it needs (the query runtime, slot recipes) are loaded before the
  // first render, as main.tsx does before hydrating, so both render the same tree.
  await preloadRoute(path);
  // 'css' is the key of the cache emotion makes in the browser, which then takes these rules as
  // already inserted rather than adding them again.
  const cache = createCache({ key: 'css' });
  const { extractCriticalToChunks, constructStyleTagsFromChunks } = createEmotionServer(cache);
  // prerender (not renderToString) waits for every lazy part to load rather than leaving its
  // Suspense fallback in the HTML. Without a chunk size limit it writes each part in place; with
  // one, a large part would come last, put in place by an inline script once it arrived.
  const { prelude } = await prerender(
    <StrictMode>
      <CacheProvider value={cache}>
        <App history={createAppMemoryHistory(path)} />
      </CacheProvider>
    </StrictMode>,
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  const html = await new Response(prelude).text();
  return { html, styles: constructStyleTagsFromChunks(extractCriticalToChunks(html)) };
}
