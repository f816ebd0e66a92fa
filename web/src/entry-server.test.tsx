import { act } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { StrictMode } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { prerender } from 'react-dom/static';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { pageHtml } from '../scripts/prerender';
import { pruneGlobalStyles } from '../scripts/prune-styles';
import { App } from './app/app';
import { preloadRoute } from './app/routes';
import { PRERENDERED_PATHS, renderPage } from './entry-server';
import { meRoute, mockApi } from './testing/mock-api';

// The development build of React reports every difference between server HTML and the first
// client render (text, attributes, elements), which production builds leave silent: each public
// page is rendered as the build does and hydrated here, and must hydrate without a word.
//
// Here server and client share one process, as the build and the browser never do. React's server
// renderer leaves the last context values it rendered in place until its next render, which
// starts from none: an empty render after the pages clears them. It also leaves its mark on each
// context, so the client says 'multiple renderers' of each: that one message is not the page's.
const SAME_PROCESS = 'Detected multiple renderers concurrently rendering the same context provider';

const shell = readFileSync(join(__dirname, '../index.html'), 'utf8');

const headings: Record<(typeof PRERENDERED_PATHS)[number], string> = {
  '/': 'Airlines Owe You Money',
  '/contact': 'Contact Us',
  '/help': 'Help Center',
  '/privacy': 'Privacy Policy',
  '/terms': 'Terms of Service',
};

const rendered = new Map<string, string>();
beforeAll(async () => {
  for (const path of PRERENDERED_PATHS) rendered.set(path, pageHtml(shell, path, await renderPage(path)));
  await prerender(null);
}, 120_000);

let root: Root | null = null;
afterEach(() => {
  act(() => root?.unmount());
  root = null;
});

describe('prerendered public pages', () => {
  for (const path of PRERENDERED_PATHS) {
    it(`${path}: the heading and title are in the HTML, and it hydrates without a mismatch`, async () => {
      mockApi({ 'GET /api/auth/me': meRoute(null), 'GET /api/subscription/plans': { body: { plans: [] } } });
      const document = new DOMParser().parseFromString(rendered.get(path)!, 'text/html');
      const h1 = document.querySelector('#root h1');
      expect(h1?.textContent).toBe(headings[path]);
      expect(document.title).toContain(path === '/' ? 'Airlines Owe You Money' : headings[path]);
      expect(document.querySelectorAll('title')).toHaveLength(1);
      expect(document.getElementById('root')?.dataset.prerendered).toBe(path);
      // the page's own rules arrive with it, in emotion's form
      expect(document.head.querySelector('style[data-emotion^="css "]')).not.toBeNull();

      window.history.replaceState(null, '', path);
      window.document.title = document.title;
      window.document.body.innerHTML = document.body.innerHTML;
      const container = window.document.getElementById('root')!;
      const errors = vi.spyOn(console, 'error');
      const recoverable = vi.fn();
      await preloadRoute(path);
      await act(async () => {
        root = hydrateRoot(
          container,
          <StrictMode>
            <App />
          </StrictMode>,
          { onRecoverableError: recoverable },
        );
      });
      expect(errors.mock.calls.filter(([message]) => !String(message).includes(SAME_PROCESS))).toEqual([]);
      expect(recoverable).not.toHaveBeenCalled();
      expect(container.querySelector('h1')?.textContent).toBe(headings[path]);
      expect(window.document.querySelectorAll('title')).toHaveLength(1);
    });
  }
});

describe('pageHtml', () => {
  it("leaves out the built shell's module preloads and keeps its entry script", () => {
    const built = shell
      .replace('<script type="module" src="/src/main.tsx"></script>', '')
      .replace(
        '</head>',
        '<script type="module" crossorigin src="/assets/index-abc.js"></script>\n' +
          '    <link rel="modulepreload" crossorigin href="/assets/factory-abc.js">\n' +
          '    <link rel="modulepreload" crossorigin href="/assets/supabase-abc.js">\n  </head>',
      );
    const html = pageHtml(built, '/', { html: '<h1>Airlines Owe You Money</h1>', styles: '' });
    const document = new DOMParser().parseFromString(html, 'text/html');
    expect(document.querySelectorAll('link[rel="modulepreload"]')).toHaveLength(0);
    expect(document.querySelector('script[type="module"]')?.getAttribute('src')).toBe('/assets/index-abc.js');
    expect(document.querySelector('link[rel="icon"]')).not.toBeNull();
  });
});

describe('pruneGlobalStyles', () => {
  const global =
    '@layer tokens{:where(html){--colors-used:#111;--colors-indirect:#222;--colors-via:var(--colors-indirect);' +
    '--colors-unused:#333;--spacing-1\\.5:0.375rem;--spacing-1:0.25rem;--animations-spin:spin 1s linear infinite;--animations-ping:ping 1s infinite}}' +
    '@layer base{body{color:var(--colors-used)}}@keyframes spin{to{transform:rotate(1turn)}}' +
    '@keyframes ping{to{opacity:0}}@keyframes bounce{to{opacity:1}}';
  const styles =
    `<style data-emotion="css-global 1abc">${global}</style>` +
    '<style data-emotion="css x1 x2">.css-x1{background:var(--colors-via)}.css-x2{animation:var(--animations-spin);gap:var(--spacing-1\\.5)}</style>';

  it("keeps the theme's tokens and keyframes the page reads, through the tokens that read others, and drops the rest", () => {
    const pruned = pruneGlobalStyles(styles, '<div class="css-x1" style="border-color:var(--colors-inline)"></div>');
    const sheet = pruned.match(/<style data-prerendered-global>([\s\S]*?)<\/style>/)?.[1] ?? '';
    expect(sheet).toContain('--colors-used:#111');
    expect(sheet).toContain('--colors-via:var(--colors-indirect)');
    expect(sheet).toContain('--colors-indirect:#222');
    expect(sheet).toContain('--animations-spin:spin 1s linear infinite');
    expect(sheet).toContain('@keyframes spin');
    expect(sheet).toContain('--spacing-1\\.5:0.375rem');
    expect(sheet).not.toContain('--spacing-1:');
    expect(sheet).not.toContain('--colors-unused');
    expect(sheet).not.toContain('--animations-ping');
    expect(sheet).not.toContain('@keyframes ping');
    expect(sheet).not.toContain('@keyframes bounce');
    // the page's own rules as they were; the pruned sheet is not emotion's to adopt as the whole one
    expect(pruned).toContain('<style data-emotion="css x1 x2">.css-x1{background:var(--colors-via)}');
    expect(pruned).not.toContain('css-global');
  });
});
