import { defineConfig } from '@playwright/test';

// Browser tests run against one local stack (started in e2e/global-setup.ts on a throwaway
// database) in Debian's Chromium; nothing downloads a browser.
export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './e2e/global-setup.ts',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: true,
  // Ceilings, not waits: every step waits for its condition and goes on as soon as it holds. They
  // are wide because a loaded machine is slow: with other test suites beside it (load 20 on two
  // cores) a lazy page took over 15 s to render.
  timeout: 5 * 60_000,
  expect: { timeout: 60_000 },
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    baseURL: process.env.E2E_BASE_URL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
