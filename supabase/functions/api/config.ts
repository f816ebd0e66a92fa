// The function's settings, read once from the environment (names as on Supabase; see
// docs/architecture.md). Missing required settings fail at the first request with a message
// that names them, rather than as an obscure fetch or connection error later.
import { DEFAULT_SUPPORT_EMAIL } from '../_shared/constants.ts';
import type { GoogleConfig } from '../_shared/mailbox/types.ts';
import type { PaymentsConfig } from '../_shared/payments/index.ts';

export interface Config {
  /** Project URL the function calls Auth through (and fetches the JWKS from). */
  supabaseUrl: string;
  /** Browser-facing project URL, for redirects such as Google sign-in. */
  supabasePublicUrl: string;
  anonKey: string;
  serviceRoleKey: string;
  databaseUrl: string;
  /** HS256 secret of projects that still sign with one; tokens are otherwise checked against the JWKS. */
  jwtSecret: string | null;
  /** Web origin, without a trailing slash. */
  siteUrl: string;
  supportEmail: string;
  /** The database is one PGlite session: hold one connection and never prepare statements. */
  dbSingleSession: boolean;
  port: number;
  fareSource: FareSourceConfig;
  mail: MailConfig;
  /**
   * STRIPE_SECRET_KEY (sk_...), STRIPE_WEBHOOK_SECRET (whsec_..., required with a key),
   * STRIPE_API_URL (another API address; the tests' stand-in), PAYMENTS_TEST_MODE=true (the
   * local test mode: local stack and tests only; refused beside a key). With neither a key nor
   * the test mode, payments are unavailable (503).
   */
  payments: PaymentsConfig;
  sweep: SweepConfig;
  travellerLimits: TravellerLimitsConfig;
  /** Shared secret the scheduler (pg_cron + pg_net, or the dev ticker) sends to /api/internal/*. */
  cronSecret: string | null;
  /**
   * UNSUBSCRIBE_SECRET: the HMAC key of the one-click unsubscribe links in notification emails
   * (services/unsubscribe.ts). Optional: without it a key derived from the service role key is
   * used. Changing it invalidates the links in emails already sent.
   */
  unsubscribeSecret: string | null;
  /**
   * TRUSTED_PROXY_HOPS: how many proxies in front of the function append to X-Forwarded-For
   * (default 1, the platform's gateway). The client address is that many entries from the right;
   * entries further left are written by the client and never trusted (lib/client-ip.ts).
   */
  trustedProxyHops: number;
  email: EmailImportConfig;
}

/** Email import: Gmail through OAuth, the local sample mailbox, the forwarding address. */
export interface EmailImportConfig extends GoogleConfig {
  /** EMAIL_TOKEN_KEY: 32 bytes, base64; the AES-GCM key the stored Gmail tokens are encrypted with. */
  tokenKey: string | null;
  /** EMAIL_DEV_MAILBOX=true: offer the sample mailbox (GET /api/email/connect-dev); local stack only. */
  devMailbox: boolean;
  /** EMAIL_DEV_MAILBOX_DIR: where the sample mailbox's .eml files are (default: the repository's dev/mailbox). */
  devMailboxDir: string | null;
  /** INBOUND_EMAIL_DOMAIN: the forwarding addresses' domain (trips+<token>@domain); none: no address. */
  inboundDomain: string | null;
  /** INBOUND_EMAIL_SECRET: what the inbound mail provider sends as `Authorization: Bearer <secret>`. */
  inboundSecret: string | null;
  /** EMAIL_SCAN_MAX_MESSAGES: a full scan reads at most this many of the newest matches (default 500). */
  scanMaxMessages: number;
}

export interface FareSourceConfig {
  /** FARE_SOURCE: 'simulated' (default) or 'duffel'. */
  kind: 'simulated' | 'duffel';
  /** DUFFEL_ACCESS_TOKEN, required when kind is 'duffel'. */
  duffelAccessToken: string | null;
  /** DUFFEL_API_URL (default https://api.duffel.com); tests point it at a local stub. */
  duffelApiUrl: string;
  /** FARE_SOURCE_TIMEOUT_MS: per attempt (default 10000). */
  timeoutMs: number;
  /** FARE_SOURCE_MAX_RETRIES: retries after the first attempt on 429/5xx/timeouts (default 3). */
  maxRetries: number;
  /**
   * FARE_SOURCE_RATE_PER_SECOND: calls per second this process makes to the source. Default 50
   * for Duffel (its search endpoints are rate limited per token) and 10,000 for the simulated
   * source, which costs nothing and must not be what limits a benchmark.
   */
  ratePerSecond: number;
  /** SIMULATED_FARE_LATENCY_MS: added latency of the simulated source (default 0). */
  simulatedLatencyMs: number;
}

/**
 * What one traveller may spend at the fare source, which bills FareBack per search: a manual
 * add and a Check Now each make one call. Refusals answer 429 with Retry-After.
 */
export interface TravellerLimitsConfig {
  /** PRICE_CHECK_MIN_INTERVAL_SECONDS: between two Check Now calls on one flight (default 60; 0 = off). */
  checkMinIntervalSeconds: number;
  /** FARE_SOURCE_CALLS_PER_TRAVELLER_PER_HOUR: manual adds and checks together (default 60). */
  fareCallsPerHour: number;
}

export interface MailConfig {
  /** MAILER: 'smtp' (default; the local mail catcher) or 'resend'. */
  kind: 'smtp' | 'resend';
  /** MAIL_FROM (default 'FareBack <no-reply@fareback.app>'). */
  from: string;
  /** SMTP_HOST / SMTP_PORT / SMTP_USER / SMTP_PASS; SMTP_SECURE=true for implicit TLS on 465. */
  smtpHost: string;
  smtpPort: number;
  smtpUser: string | null;
  smtpPass: string | null;
  smtpSecure: boolean;
  /** RESEND_API_KEY, required when kind is 'resend'. */
  resendApiKey: string | null;
}

export interface SweepConfig {
  /** PRICE_CHECK_INTERVAL_MINUTES: a flight is due when not checked for this long (default 360). */
  checkIntervalMinutes: number;
  /** SWEEP_CONCURRENCY: quotes in flight at once (default 8). */
  concurrency: number;
  /** SWEEP_BATCH_SIZE: flights claimed per job (default 500). */
  batchSize: number;
  /** SWEEP_LEASE_SECONDS: a claimed batch returns to the queue after this long (default 120). */
  leaseSeconds: number;
}

export type Env = Record<string, string | undefined>;

const REQUIRED = [
  'SUPABASE_URL',
  'SUPABASE_ANON_KEY',
  'SUPABASE_SERVICE_ROLE_KEY',
  'SUPABASE_DB_URL',
  'SITE_URL',
] as const;

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

function positiveInt(env: Env, name: string, fallback: number, min = 1): number {
  const raw = nonEmpty(env[name]);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new Error(`${name} must be a whole number of at least ${min}, got '${raw}'`);
  }
  return value;
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = nonEmpty(env[name])?.toLowerCase();
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new Error(`${name} must be one of ${allowed.join(', ')}, got '${raw}'`);
  }
  return raw as T;
}

export function loadConfig(env: Env): Config {
  const missing = REQUIRED.filter((name) => !nonEmpty(env[name]));
  if (missing.length > 0) {
    throw new Error(`Missing environment variable${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`);
  }
  const get = (name: (typeof REQUIRED)[number]): string => nonEmpty(env[name]) as string;
  const supabaseUrl = trimSlash(get('SUPABASE_URL'));
  const port = Number(nonEmpty(env.PORT) ?? 8000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT must be a port number, got '${env.PORT}'`);
  }
  return {
    supabaseUrl,
    supabasePublicUrl: trimSlash(nonEmpty(env.SUPABASE_PUBLIC_URL) ?? supabaseUrl),
    anonKey: get('SUPABASE_ANON_KEY'),
    serviceRoleKey: get('SUPABASE_SERVICE_ROLE_KEY'),
    databaseUrl: get('SUPABASE_DB_URL'),
    jwtSecret: nonEmpty(env.SUPABASE_JWT_SECRET) ?? null,
    siteUrl: trimSlash(get('SITE_URL')),
    supportEmail: nonEmpty(env.SUPPORT_EMAIL) ?? DEFAULT_SUPPORT_EMAIL,
    dbSingleSession: nonEmpty(env.DB_SINGLE_SESSION)?.toLowerCase() === 'true',
    port,
    fareSource: loadFareSourceConfig(env),
    mail: loadMailConfig(env),
    payments: loadPaymentsConfig(env),
    sweep: {
      checkIntervalMinutes: positiveInt(env, 'PRICE_CHECK_INTERVAL_MINUTES', 360, 0),
      concurrency: positiveInt(env, 'SWEEP_CONCURRENCY', 8),
      batchSize: positiveInt(env, 'SWEEP_BATCH_SIZE', 500),
      leaseSeconds: positiveInt(env, 'SWEEP_LEASE_SECONDS', 120),
    },
    travellerLimits: {
      checkMinIntervalSeconds: positiveInt(env, 'PRICE_CHECK_MIN_INTERVAL_SECONDS', 60, 0),
      fareCallsPerHour: positiveInt(env, 'FARE_SOURCE_CALLS_PER_TRAVELLER_PER_HOUR', 60),
    },
    cronSecret: nonEmpty(env.CRON_SECRET) ?? null,
    unsubscribeSecret: nonEmpty(env.UNSUBSCRIBE_SECRET) ?? null,
    trustedProxyHops: positiveInt(env, 'TRUSTED_PROXY_HOPS', 1),
    email: loadEmailConfig(env, trimSlash(get('SITE_URL'))),
  };
}

function loadEmailConfig(env: Env, siteUrl: string): EmailImportConfig {
  return {
    googleClientId: nonEmpty(env.GOOGLE_CLIENT_ID) ?? null,
    googleClientSecret: nonEmpty(env.GOOGLE_CLIENT_SECRET) ?? null,
    redirectUri: nonEmpty(env.GOOGLE_REDIRECT_URI) ?? `${siteUrl}/oauth2callback`,
    accountsUrl: trimSlash(nonEmpty(env.GOOGLE_ACCOUNTS_URL) ?? 'https://accounts.google.com'),
    oauth2Url: trimSlash(nonEmpty(env.GOOGLE_OAUTH2_URL) ?? 'https://oauth2.googleapis.com'),
    gmailApiUrl: trimSlash(nonEmpty(env.GMAIL_API_URL) ?? 'https://gmail.googleapis.com'),
    tokenKey: nonEmpty(env.EMAIL_TOKEN_KEY) ?? null,
    devMailbox: nonEmpty(env.EMAIL_DEV_MAILBOX)?.toLowerCase() === 'true',
    devMailboxDir: nonEmpty(env.EMAIL_DEV_MAILBOX_DIR) ?? null,
    inboundDomain: nonEmpty(env.INBOUND_EMAIL_DOMAIN)?.toLowerCase() ?? null,
    inboundSecret: nonEmpty(env.INBOUND_EMAIL_SECRET) ?? null,
    scanMaxMessages: positiveInt(env, 'EMAIL_SCAN_MAX_MESSAGES', 500),
  };
}

function loadFareSourceConfig(env: Env): FareSourceConfig {
  const kind = oneOf(env, 'FARE_SOURCE', ['simulated', 'duffel'] as const, 'simulated');
  const duffelAccessToken = nonEmpty(env.DUFFEL_ACCESS_TOKEN) ?? null;
  if (kind === 'duffel' && !duffelAccessToken) {
    throw new Error('Missing environment variable: DUFFEL_ACCESS_TOKEN (FARE_SOURCE is duffel)');
  }
  return {
    kind,
    duffelAccessToken,
    duffelApiUrl: trimSlash(nonEmpty(env.DUFFEL_API_URL) ?? 'https://api.duffel.com'),
    timeoutMs: positiveInt(env, 'FARE_SOURCE_TIMEOUT_MS', 10_000),
    maxRetries: positiveInt(env, 'FARE_SOURCE_MAX_RETRIES', 3, 0),
    ratePerSecond: positiveInt(env, 'FARE_SOURCE_RATE_PER_SECOND', kind === 'duffel' ? 50 : 10_000),
    simulatedLatencyMs: positiveInt(env, 'SIMULATED_FARE_LATENCY_MS', 0, 0),
  };
}

function loadMailConfig(env: Env): MailConfig {
  const kind = oneOf(env, 'MAILER', ['smtp', 'resend'] as const, 'smtp');
  const resendApiKey = nonEmpty(env.RESEND_API_KEY) ?? null;
  if (kind === 'resend' && !resendApiKey) {
    throw new Error('Missing environment variable: RESEND_API_KEY (MAILER is resend)');
  }
  return {
    kind,
    from: nonEmpty(env.MAIL_FROM) ?? 'FareBack <no-reply@fareback.app>',
    smtpHost: nonEmpty(env.SMTP_HOST) ?? '127.0.0.1',
    smtpPort: positiveInt(env, 'SMTP_PORT', 54325),
    smtpUser: nonEmpty(env.SMTP_USER) ?? null,
    smtpPass: nonEmpty(env.SMTP_PASS) ?? null,
    smtpSecure: nonEmpty(env.SMTP_SECURE)?.toLowerCase() === 'true',
    resendApiKey,
  };
}

function loadPaymentsConfig(env: Env): PaymentsConfig {
  const stripeSecretKey = nonEmpty(env.STRIPE_SECRET_KEY) ?? null;
  const stripeWebhookSecret = nonEmpty(env.STRIPE_WEBHOOK_SECRET) ?? null;
  if (stripeSecretKey && !stripeWebhookSecret) {
    throw new Error('Missing environment variable: STRIPE_WEBHOOK_SECRET (STRIPE_SECRET_KEY is set)');
  }
  const stripeApiUrl = nonEmpty(env.STRIPE_API_URL) ?? null;
  if (stripeApiUrl && !URL.canParse(stripeApiUrl)) {
    throw new Error(`STRIPE_API_URL must be a URL, got '${stripeApiUrl}'`);
  }
  // named like EMAIL_DEV_MAILBOX: an explicit opt-in of the local stack, never a fallback
  const testMode = nonEmpty(env.PAYMENTS_TEST_MODE)?.toLowerCase() === 'true';
  if (testMode && stripeSecretKey) {
    // which one a deployment meant cannot be guessed: a real key beside a fake-payment switch is a mistake
    throw new Error(
      'PAYMENTS_TEST_MODE=true and STRIPE_SECRET_KEY are both set: unset one (test mode is for the local stack)',
    );
  }
  return { stripeSecretKey, stripeWebhookSecret, stripeApiUrl, testMode };
}
