// Test harness for the auth server: a fresh migrated database, a maildev catcher on free ports, a
// fresh signing key, and the server itself; plus official supabase-js clients pointed at it.
import { createServer } from 'node:net';
import { createClient, type SupabaseClient, type SupabaseClientOptions } from '@supabase/supabase-js';
import postgres from 'postgres';
import { createTestDatabase } from '../db/test-db.ts';
import { startMailCatcher } from '../mail.ts';
import { loadOrCreateSigningKey, mintApiKey, type SigningKey } from './keys.ts';
import { startAuthServer, type AuthServerOptions } from './server.ts';

/** What a test may set on its auth server; the rest (database, keys, ports, mail) is the harness's. */
export type TestAuthOptions = Partial<
  Pick<
    AuthServerOptions,
    | 'enableSignup'
    | 'allowedOrigins'
    | 'trustedProxyHops'
    | 'passwordPolicy'
    | 'securePasswordChange'
    | 'refreshTokenReuseIntervalSeconds'
    | 'loginLimits'
    | 'maxBodyBytes'
    | 'passwords'
    | 'sleep'
    | 'now'
    | 'wrapMailer'
  >
>;

/** Another auth server on the same database, keys and mail catcher, with its own options. */
export interface TestAuthVariant {
  url: string;
  authUrl: string;
  client(key?: string): SupabaseClient;
}

type RealtimeTransport = NonNullable<NonNullable<SupabaseClientOptions<'public'>['realtime']>['transport']>;

export interface TestAuth {
  /** The server's base URL (what supabase-js is given; it appends /auth/v1). */
  url: string;
  authUrl: string;
  siteUrl: string;
  anonKey: string;
  serviceRoleKey: string;
  signingKey: SigningKey;
  /** Direct database access, for assertions on auth.* and public.profiles. */
  sql: postgres.Sql;
  mailUrl: string;
  /** A fresh supabase-js client with its own in-memory session. */
  client(key?: string): SupabaseClient;
  /** Starts another server sharing everything but `options` (stopped with this one). */
  variant(options: TestAuthOptions): Promise<TestAuthVariant>;
  stop(): Promise<void>;
}

export interface CaughtEmail {
  id: string;
  subject: string;
  html: string;
  text?: string;
  to: { address: string; name?: string }[];
}

/**
 * supabase-js builds a Realtime client eagerly and, on Node 20, refuses to without a WebSocket
 * implementation. These tests never open a channel, so a transport that cannot connect will do.
 */
class NoRealtimeTransport {
  constructor() {
    throw new Error('Realtime is not available in the auth server tests');
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

let counter = 0;
/** A unique address per call, so tests never collide on auth.users' unique email. */
export function uniqueEmail(label: string): string {
  counter += 1;
  return `${label}-${Date.now().toString(36)}-${counter}@example.com`;
}

function supabaseClient(url: string, key: string): SupabaseClient {
  return createClient(url, key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: NoRealtimeTransport as unknown as RealtimeTransport },
  });
}

/** The site URL every test server uses. */
export const TEST_SITE_URL = 'http://localhost:4173';

export async function startTestAuth(options: TestAuthOptions = {}): Promise<TestAuth> {
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const fn of stops.reverse()) await fn().catch(() => {});
  };
  try {
    const database = await createTestDatabase();
    stops.push(() => database.close());
    const sql = postgres(database.url, {
      max: 1,
      prepare: !database.singleSession,
      onnotice: () => {},
    });
    stops.push(() => sql.end({ timeout: 1 }));

    const mail = await startMailCatcher({ webPort: await freePort(), smtpPort: await freePort() });
    stops.push(() => mail.stop());

    const signingKey = await loadOrCreateSigningKey();
    const anonKey = await mintApiKey(signingKey, 'anon');
    const serviceRoleKey = await mintApiKey(signingKey, 'service_role');
    const siteUrl = TEST_SITE_URL;
    const startServer = async (serverOptions: TestAuthOptions) => {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const server = await startAuthServer({
        databaseUrl: database.url,
        port,
        publicUrl: url,
        siteUrl,
        signingKey,
        serviceRoleKey,
        smtp: { host: '127.0.0.1', port: mail.smtpPort },
        mailFrom: 'FareBack <no-reply@fareback.test>',
        singleSession: database.singleSession,
        ...serverOptions,
      });
      stops.push(() => server.stop());
      return url;
    };
    const url = await startServer(options);

    return {
      url,
      authUrl: `${url}/auth/v1`,
      siteUrl,
      anonKey,
      serviceRoleKey,
      signingKey,
      sql,
      mailUrl: mail.url,
      client: (key = anonKey) => supabaseClient(url, key),
      async variant(variantOptions) {
        const variantUrl = await startServer(variantOptions);
        return {
          url: variantUrl,
          authUrl: `${variantUrl}/auth/v1`,
          client: (key = anonKey) => supabaseClient(variantUrl, key),
        };
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Waits for the catcher to hold an email to `address` and returns the newest one. */
export async function waitForEmail(mailUrl: string, address: string, timeoutMs = 10_000): Promise<CaughtEmail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const emails = (await (await fetch(`${mailUrl}/email`)).json()) as CaughtEmail[];
    const matching = emails.filter((email) =>
      email.to.some((to) => to.address.toLowerCase() === address.toLowerCase()),
    );
    const newest = matching.at(-1);
    if (newest) return newest;
    if (Date.now() > deadline) throw new Error(`no email to ${address} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function emailsTo(mailUrl: string, address: string): Promise<CaughtEmail[]> {
  const emails = (await (await fetch(`${mailUrl}/email`)).json()) as CaughtEmail[];
  return emails.filter((email) => email.to.some((to) => to.address.toLowerCase() === address.toLowerCase()));
}
