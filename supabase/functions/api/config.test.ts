import assert from 'node:assert/strict';
import { loadConfig } from './config.ts';

const env = {
  SUPABASE_URL: 'http://127.0.0.1:54321/',
  SUPABASE_ANON_KEY: 'anon',
  SUPABASE_SERVICE_ROLE_KEY: 'service',
  SUPABASE_DB_URL: 'postgres://postgres@127.0.0.1:54322/postgres',
  SITE_URL: 'http://127.0.0.1:54321',
};

Deno.test('config: required settings, defaults for the optional ones', () => {
  const config = loadConfig(env);
  assert.equal(config.supabaseUrl, 'http://127.0.0.1:54321');
  assert.equal(config.supabasePublicUrl, 'http://127.0.0.1:54321');
  assert.equal(config.supportEmail, 'support@fareback.app');
  assert.equal(config.jwtSecret, null);
  assert.equal(config.dbSingleSession, false);
  assert.equal(config.port, 8000);
});

Deno.test('config: optional settings are read', () => {
  const config = loadConfig({
    ...env,
    SUPABASE_PUBLIC_URL: 'https://ref.supabase.co',
    SUPABASE_JWT_SECRET: 'secret',
    SUPPORT_EMAIL: 'help@example.com',
    DB_SINGLE_SESSION: 'true',
    PORT: '54332',
  });
  assert.equal(config.supabasePublicUrl, 'https://ref.supabase.co');
  assert.equal(config.jwtSecret, 'secret');
  assert.equal(config.supportEmail, 'help@example.com');
  assert.equal(config.dbSingleSession, true);
  assert.equal(config.port, 54332);
});

Deno.test('config: missing settings are named', () => {
  assert.throws(
    () => loadConfig({ ...env, SUPABASE_DB_URL: '', SITE_URL: undefined }),
    /Missing environment variables: SUPABASE_DB_URL, SITE_URL/,
  );
  assert.throws(() => loadConfig({ ...env, PORT: 'eighty' }), /PORT must be a port number/);
});

Deno.test('config: payments test mode is an explicit opt-in, refused beside a Stripe key', () => {
  // no key and no opt-in: no payments at all, never the test mode
  assert.deepEqual(loadConfig(env).payments, {
    stripeSecretKey: null,
    stripeWebhookSecret: null,
    stripeApiUrl: null,
    testMode: false,
  });
  assert.equal(loadConfig({ ...env, PAYMENTS_TEST_MODE: 'true' }).payments.testMode, true);
  assert.equal(loadConfig({ ...env, PAYMENTS_TEST_MODE: 'false' }).payments.testMode, false);
  assert.throws(
    () =>
      loadConfig({
        ...env,
        PAYMENTS_TEST_MODE: 'true',
        STRIPE_SECRET_KEY: 'sk_test_x',
        STRIPE_WEBHOOK_SECRET: 'whsec_x',
      }),
    /PAYMENTS_TEST_MODE=true and STRIPE_SECRET_KEY are both set/,
  );
});
