import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Plugin, ResolvedConfig } from 'vite';
import { pruneGlobalStyles } from './prune-styles.ts';

/*
 * `vite build` prerenders the public pages. With this plugin the build is Vite's app build: the
 * browser bundle first (index.html and assets, as before), then a server bundle of
 * src/entry-server.tsx, which renders each public page to HTML with its styles; the pages are
 * written into the build beside the assets and the server bundle is deleted.
 *
 *   index.html    /          (the landing page)
 *   contact.html  /contact   help.html, privacy.html, terms.html likewise
 *   spa.html      the app's shell, an empty #root: every other path (the single-page fallback)
 *
 * A static server serves `<path>.html` for a path when it exists and spa.html otherwise
 * (dev/gateway.ts `serveWeb`; on a static host, its fallback or 200 page set to spa.html).
 */

const SERVER_ENTRY = 'src/entry-server.tsx';
/** The shell the single-page fallback serves: what index.html was before prerendering. */
const SPA_FALLBACK = 'spa.html';

interface RenderedPage {
  html: string;
  styles: string;
}

interface ServerEntry {
  PRERENDERED_PATHS: readonly string[];
  renderPage(path: string): Promise<RenderedPage>;
}

/** The file a static server serves for `pagePath`. */
function pageFile(pagePath: string): string {
  return pagePath === '/' ? 'index.html' : `${pagePath.slice(1)}.html`;
}

/*
 * In the head of a prerendered page, before its first paint, until the app takes over (main.tsx
 * removes both attributes then):
 * - `data-session`: a browser that may hold a Supabase session (supabase-js keeps it under
 *   `sb-<project ref>-auth-token`, or a Google sign-in brings it in the URL fragment) hides the
 *   page, because the app will render its own instead. A guess that errs towards hiding: the app
 *   shows the page again whichever way it decides;
 * - `data-before-app`: no form submits natively. The app's forms post through the api; one sent
 *   before the app has loaded would reload the page with what the visitor typed in its URL.
 */
const BEFORE_THE_APP = `<script>(function(){var html=document.documentElement;html.setAttribute('data-before-app','');try{if(/[#&]access_token=/.test(location.hash)||Object.keys(localStorage).some(function(k){return /^sb-.+-auth-token$/.test(k)}))html.setAttribute('data-session','')}catch(e){}document.addEventListener('submit',function(e){if(html.hasAttribute('data-before-app'))e.preventDefault()},true)})()</script><style>html[data-session] #root{visibility:hidden}</style>`;

const EMPTY_ROOT = '<div id="root"></div>';
/*
 * Vite's <link rel="modulepreload"> for each chunk the entry imports. A public page paints from its
 * HTML and needs none of them to do so; preloaded, they would take a phone's bandwidth from what
 * the page shows (its LCP) at the highest priority. The entry script still imports them, after.
 */
const MODULE_PRELOAD = /\s*<link rel="modulepreload"[^>]*>/g;
const TITLE = /<title>[^<]*<\/title>/;

/**
 * The shell with a rendered page in it, without the shell's module preloads, and with only the
 * global styles the page uses (./prune-styles.ts). React renders a page's <title> first, outside any <head>
 * (there is none in what it renders); it takes the shell's place, where hydration looks for it.
 */
export function pageHtml(shell: string, pagePath: string, page: RenderedPage): string {
  if (!shell.includes('</head>') || !shell.includes(EMPTY_ROOT)) {
    throw new Error(`index.html needs a </head> and an empty root, ${EMPTY_ROOT}`);
  }
  const title = page.html.match(new RegExp(`^${TITLE.source}`))?.[0];
  const body = title ? page.html.slice(title.length) : page.html;
  return shell
    .replace(MODULE_PRELOAD, '')
    .replace(TITLE, (shellTitle) => title ?? shellTitle)
    .replace('</head>', () => `${BEFORE_THE_APP}${pruneGlobalStyles(page.styles, body)}</head>`)
    .replace(EMPTY_ROOT, () => `<div id="root" data-prerendered="${pagePath}">${body}</div>`);
}

/** Renders one page in a fresh thread (./render-page-worker.mjs). */
function renderInThread(entry: string, pagePath: string): Promise<RenderedPage> {
  const worker = new Worker(new URL('./render-page-worker.mjs', import.meta.url), {
    workerData: { entry, path: pagePath },
  });
  return new Promise<RenderedPage>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`rendering ${pagePath} stopped with exit code ${code}`)));
  }).finally(() => void worker.terminate());
}

async function writePages(client: ResolvedConfig, serverOutDir: string): Promise<void> {
  const outDir = path.resolve(client.root, client.build.outDir);
  const shell = readFileSync(path.join(outDir, 'index.html'), 'utf8');
  writeFileSync(path.join(outDir, SPA_FALLBACK), shell);
  const entry = pathToFileURL(path.join(serverOutDir, 'entry-server.mjs')).href;
  const { PRERENDERED_PATHS } = (await import(entry)) as ServerEntry;
  for (const pagePath of PRERENDERED_PATHS) {
    const page = await renderInThread(entry, pagePath);
    writeFileSync(path.join(outDir, pageFile(pagePath)), pageHtml(shell, pagePath, page));
  }
  client.logger.info(`prerendered ${PRERENDERED_PATHS.join(', ')}; other paths: ${SPA_FALLBACK}`);
}

export function prerender(): Plugin {
  return {
    name: 'fareback:prerender',
    apply: 'build',
    config: (config) => ({
      environments: {
        ssr: {
          build: {
            // beside the browser build; deleted once the pages are written
            outDir: path.join(config.build?.outDir ?? 'dist', '.vite', 'server'),
            emptyOutDir: true,
            ssr: SERVER_ENTRY,
            copyPublicDir: false,
            manifest: false,
            rolldownOptions: { output: { entryFileNames: '[name].mjs', chunkFileNames: '[name]-[hash].mjs' } },
          },
        },
      },
      // One self-contained bundle: it is run from inside the build's output directory, wherever
      // that is (bench/web.ts builds into a temporary directory), so it cannot rely on finding
      // node_modules from there. It also holds one copy of each library, aliases included.
      ssr: { noExternal: true },
      builder: {
        async buildApp(builder) {
          const { client, ssr } = builder.environments;
          if (!client || !ssr) throw new Error('the build has no client or ssr environment');
          await builder.build(client);
          await builder.build(ssr);
          const serverOutDir = path.resolve(ssr.config.root, ssr.config.build.outDir);
          try {
            await writePages(client.config, serverOutDir);
          } finally {
            rmSync(serverOutDir, { recursive: true, force: true });
          }
        },
      },
    }),
  };
}
