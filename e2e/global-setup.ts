// Starts one local stack for every browser test: a throwaway database (TEST_DATABASE_URL's server
// when set, else in-memory PGlite), free ports, the built web app. Workers read its URLs from the
// environment.
import { createTestDatabase } from '../dev/db/test-db.ts';
import { anyFreePorts, startStack } from '../dev/stack.ts';

export default async function globalSetup(): Promise<() => Promise<void>> {
  const useServer = Boolean(process.env.TEST_DATABASE_URL);
  const db = useServer ? await createTestDatabase() : null;
  const stack = await startStack({
    ...(db ? { databaseUrl: db.url } : {}),
    ports: anyFreePorts,
    seed: true,
    demoAccounts: true,
    // the tests click Check Now themselves; a scheduled sweep would change prices under them
    ticker: false,
  });
  process.env.E2E_BASE_URL = stack.url;
  process.env.E2E_MAIL_URL = stack.mailUrl;
  process.env.E2E_API_URL = stack.apiUrl;
  process.env.E2E_CRON_SECRET = stack.cronSecret;
  process.env.E2E_SMTP_PORT = String(stack.mailSmtpPort);
  // as a superuser, for arranging what no screen can (a plan change without a payment)
  process.env.E2E_DATABASE_URL = stack.databaseUrl;
  process.env.E2E_DATABASE_SINGLE_SESSION = String(stack.singleSession);
  return async () => {
    await stack.stop();
    await db?.close();
  };
}
