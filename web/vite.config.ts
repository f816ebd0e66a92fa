import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { prerender } from './scripts/prerender.ts';

const gateway = 'http://127.0.0.1:54321';

export const alias = {
  '@': fileURLToPath(new URL('./src', import.meta.url)),
  // Schemas and constants shared with the api function (Deno); they import bare `zod`,
  // which resolves to the root workspace's copy.
  '@shared': fileURLToPath(new URL('../supabase/functions/_shared', import.meta.url)),
  // TanStack Query's context module on its own, so the app shell can provide the client without
  // the library (src/lib/query-runtime-loader.ts). The library's index imports this same file,
  // so there is still one context.
  '@tanstack/react-query/client-context': fileURLToPath(
    new URL('../node_modules/@tanstack/react-query/build/modern/QueryClientProvider.js', import.meta.url),
  ),
};

// react-router's package exports name only its development build (dev warnings on); the
// production build is the same code with them off. Builds use it.
const reactRouterProduction = (file: string) =>
  fileURLToPath(new URL(`../node_modules/react-router/dist/production/${file}`, import.meta.url));

export default defineConfig(({ command }) => ({
  // prerender(): `vite build` also renders the public pages to HTML (scripts/prerender.ts).
  plugins: [react(), prerender()],
  resolve: {
    alias: [
      ...Object.entries(alias).map(([find, replacement]) => ({ find, replacement })),
      ...(command === 'build'
        ? [
            { find: /^react-router$/, replacement: reactRouterProduction('index.mjs') },
            { find: /^react-router\/dom$/, replacement: reactRouterProduction('dom-export.mjs') },
          ]
        : []),
    ],
  },
  server: {
    proxy: {
      '/api': gateway,
      '/auth/v1': gateway,
      '/functions/v1': gateway,
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Every browser the app supports has <link rel="modulepreload">; the polyfill would ride in
    // the entry chunk of every page.
    modulePreload: { polyfill: false },
    // Read by scripts/route-size.mjs to report what each route loads.
    manifest: true,
    rolldownOptions: {
      treeshake: {
        // Chakra's theme module builds `defaultThemeConfig` from every recipe with these identity
        // helpers; marked pure, the unused config and the recipes we do not register drop out.
        manualPureFunctions: ['defineConfig', 'defineRecipe', 'defineSlotRecipe'],
      },
    },
  },
}));
