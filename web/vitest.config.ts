import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

const reactRouter = (file: string) =>
  fileURLToPath(new URL(`../node_modules/react-router/dist/development/${file}`, import.meta.url));

export default defineProject({
  resolve: {
    alias: [
      { find: /^@\//, replacement: `${fileURLToPath(new URL('./src', import.meta.url))}/` },
      {
        find: /^@shared\//,
        replacement: `${fileURLToPath(new URL('../supabase/functions/_shared', import.meta.url))}/`,
      },
      {
        find: /^@tanstack\/react-query\/client-context$/,
        replacement: fileURLToPath(
          new URL('../node_modules/@tanstack/react-query/build/modern/QueryClientProvider.js', import.meta.url),
        ),
      },
      // Under Node, `react-router` resolves to its CommonJS build and `react-router/dom` to its
      // ES build, which then hold separate router contexts; pin both to the ES build.
      { find: /^react-router$/, replacement: reactRouter('index.mjs') },
      { find: /^react-router\/dom$/, replacement: reactRouter('dom-export.mjs') },
    ],
  },
  oxc: { jsx: { runtime: 'automatic' } },
  test: {
    name: 'web',
    root: fileURLToPath(new URL('.', import.meta.url)),
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/testing/setup.ts'],
    restoreMocks: true,
    // generous for a loaded machine; a passing test never waits for it
    testTimeout: 60_000,
  },
});
