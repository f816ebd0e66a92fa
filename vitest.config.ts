import { defineConfig } from 'vitest/config';

// One vitest run covers every Node-side suite; the web app has its own project (jsdom).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'dev',
          environment: 'node',
          include: ['dev/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'db',
          environment: 'node',
          include: ['supabase/tests/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'api',
          environment: 'node',
          include: ['tests/api/**/*.test.ts'],
          globalSetup: ['tests/api/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
      {
        // Flight rules and the fare source (also run under deno test, through the extraction harness).
        test: {
          name: 'flights',
          environment: 'node',
          include: [
            'supabase/functions/_shared/flights/**/*.test.ts',
            'supabase/functions/_shared/fare-source/**/*.test.ts',
          ],
        },
      },
      {
        test: {
          name: 'extraction',
          environment: 'node',
          include: ['supabase/functions/_shared/extraction/**/*.test.ts'],
        },
      },
      'web/vitest.config.ts',
    ],
  },
});
