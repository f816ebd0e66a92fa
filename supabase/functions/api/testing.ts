// Test doubles for the api's unit tests (Deno): an app wired to a scripted database, a recording
// Auth client and a token verifier backed by a key pair made for the test.
import * as jose from 'jose';
import { createApp } from './app.ts';
import { type Config, loadConfig } from './config.ts';
import type { AppDeps, LogEntry } from './context.ts';
import type { AuthClaims, Db, Tx } from './db.ts';
import type { AuthApi, AuthResult } from './lib/auth-api.ts';
import { createTokenVerifier } from './middleware/auth.ts';
import type { ContactInput } from '../_shared/schemas/contact.ts';
import type { ProfileRow } from './queries/profiles.ts';
import type { AuthSession } from '../_shared/types/auth.ts';
import { type Mailer, MailerError, type OutgoingEmail } from '../_shared/mailer/index.ts';

export const SITE_URL = 'http://site.test';

const defaults = loadConfig({
  SUPABASE_URL: 'http://supabase.internal',
  SUPABASE_ANON_KEY: 'anon-key',
  SUPABASE_SERVICE_ROLE_KEY: 'service-key',
  SUPABASE_DB_URL: 'postgres://unused',
  SITE_URL: SITE_URL,
});

export const testConfig: Config = {
  ...defaults,
  supabaseUrl: 'http://supabase.internal',
  supabasePublicUrl: 'http://supabase.test',
  anonKey: 'anon-key',
  serviceRoleKey: 'service-key',
  databaseUrl: 'postgres://unused',
  jwtSecret: null,
  siteUrl: SITE_URL,
  supportEmail: 'support@fareback.app',
  dbSingleSession: true,
  port: 0,
};

/**
 * A database whose queries answer from a script, in order. Each awaited query takes the next
 * answer (rows, or an Error to throw); query fragments that are never awaited take none.
 */
export class ScriptedDb implements Db {
  readonly queries: string[] = [];
  /** The values each awaited query was given, in the order of `queries`. */
  readonly parameters: unknown[][] = [];
  readonly userTransactions: AuthClaims[] = [];
  anonTransactions = 0;
  serviceTransactions = 0;
  reachable = true;

  constructor(private readonly answers: Array<unknown[] | Error> = []) {}

  private tx(): Tx {
    const run = (strings: TemplateStringsArray, ...values: unknown[]) => ({
      then: (resolve: (rows: unknown[]) => unknown, reject: (error: unknown) => unknown) => {
        this.queries.push(strings.join('?').replace(/\s+/g, ' ').trim());
        this.parameters.push(values);
        const answer = this.answers.shift();
        if (answer instanceof Error) return Promise.reject(answer).then(resolve, reject);
        return Promise.resolve(answer ?? []).then(resolve, reject);
      },
    });
    // a stand-in for postgres.js's tagged-template transaction; only the call shape is used
    // (tx.json(value) and tx.unsafe(text), a fragment such as queries/plans.ts planJson, pass the
    // value on, as a parameter)
    return Object.assign(run, { json: (value: unknown) => value, unsafe: (text: string) => text }) as unknown as Tx;
  }

  asUser<T>(claims: AuthClaims, fn: (tx: Tx) => Promise<T>): Promise<T> {
    this.userTransactions.push(claims);
    return fn(this.tx());
  }
  asAnon<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    this.anonTransactions += 1;
    return fn(this.tx());
  }
  asService<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    this.serviceTransactions += 1;
    return fn(this.tx());
  }
  serviceStatement<T>(fn: (sql: Tx) => Promise<T>): Promise<T> {
    this.serviceTransactions += 1;
    return fn(this.tx());
  }
  ping(): Promise<boolean> {
    return Promise.resolve(this.reachable);
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
  get touched(): boolean {
    return (
      this.queries.length > 0 ||
      this.userTransactions.length > 0 ||
      this.anonTransactions > 0 ||
      this.serviceTransactions > 0
    );
  }
}

type AuthCall = { method: keyof AuthApi; args: unknown[] };

/** Records every call; each method answers with the override given, else success. */
export function recordingAuthApi(overrides: Partial<AuthApi> = {}): AuthApi & { calls: AuthCall[] } {
  const calls: AuthCall[] = [];
  const ok = <T>(value: T): Promise<AuthResult<T>> => Promise.resolve({ ok: true, value });
  const defaults: AuthApi = {
    createUser: (input) => ok({ id: crypto.randomUUID(), email: input.email }),
    signInWithPassword: () => ok(fakeSession()),
    signOut: () => ok(null),
    recover: () => ok(null),
    verifyRecovery: () => ok(fakeSession()),
    updatePassword: () => ok(null),
    requestEmailChange: () => ok(null),
    verifyEmailChange: () => ok(fakeSession()),
  };
  const api = { ...defaults, ...overrides };
  const recorded = {} as AuthApi;
  for (const method of Object.keys(api) as Array<keyof AuthApi>) {
    const impl = api[method] as (...args: unknown[]) => Promise<unknown>;
    (recorded as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
      calls.push({ method, args });
      return impl(...args);
    };
  }
  return Object.assign(recorded, { calls });
}

export function fakeSession(accessToken = 'header.eyJzdWIiOiJ1In0.sig'): AuthSession {
  return {
    access_token: accessToken,
    refresh_token: 'refresh',
    expires_at: Math.floor(Date.now() / 1000) + 3600,
    expires_in: 3600,
    token_type: 'bearer',
  };
}

/** A signing key pair and a verifier that trusts only it, as the JWKS would. */
export async function testKeys() {
  const { privateKey, publicKey } = await jose.generateKeyPair('ES256', { extractable: true });
  const publicJwk = { ...(await jose.exportJWK(publicKey)), kid: 'test-key', alg: 'ES256' };
  const jwks = jose.createLocalJWKSet({ keys: [publicJwk] });
  const sign = (claims: Partial<AuthClaims>, options: { expiresIn?: number; key?: CryptoKey; kid?: string } = {}) => {
    const now = Math.floor(Date.now() / 1000);
    return new jose.SignJWT({ aud: 'authenticated', role: 'authenticated', email: 'a@example.com', ...claims })
      .setProtectedHeader({ alg: 'ES256', kid: options.kid ?? 'test-key', typ: 'JWT' })
      .setIssuedAt(now)
      .setExpirationTime(now + (options.expiresIn ?? 3600))
      .sign(options.key ?? privateKey);
  };
  return { privateKey, jwks, sign, verifier: createTokenVerifier({ supabaseUrl: 'http://unused', jwks }) };
}

/** Records what would have been mailed; `fail` makes every send throw. */
export function recordingMailer(fail = false): Mailer & { sent: OutgoingEmail[] } {
  const sent: OutgoingEmail[] = [];
  return {
    sent,
    send(email: OutgoingEmail) {
      sent.push(email);
      return fail ? Promise.reject(new MailerError('SMTP 127.0.0.1:1 did not take the message')) : Promise.resolve();
    },
  };
}

export function testApp(deps: Partial<AppDeps> = {}) {
  const logs: LogEntry[] = [];
  const db = deps.db ?? new ScriptedDb();
  const authApi = deps.authApi ?? recordingAuthApi();
  const mailer = deps.mailer ?? recordingMailer();
  const app = createApp({
    config: testConfig,
    db,
    authApi,
    // never a real SMTP server: handlers, and the work they leave for after the answer, may send mail
    mailer,
    verifyAccessToken:
      deps.verifyAccessToken ?? (() => Promise.reject(new Error('this test expected no token verification'))),
    log: (entry) => logs.push(entry),
    ...deps,
  });
  const request = (path: string, init: RequestInit & { json?: unknown } = {}) => {
    const { json, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (json !== undefined) headers.set('Content-Type', 'application/json');
    return app.request(path, {
      ...rest,
      headers,
      ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
    });
  };
  return { app, request, logs, db, authApi, mailer };
}

/** Verified claims of a signed-in traveller, as the token verifier answers them. */
export function userClaims(overrides: Partial<AuthClaims> = {}): AuthClaims {
  return {
    sub: '00000000-0000-4000-8000-000000000007',
    role: 'authenticated',
    aud: 'authenticated',
    exp: Math.floor(Date.now() / 1000) + 3600,
    email: 'ada@example.com',
    ...overrides,
  };
}

/** A contact form message that passes validation. */
export function contactMessage(overrides: Partial<ContactInput> = {}): ContactInput {
  return {
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    subject: 'Refund question',
    message: 'My flight dropped by $80, can you rebook it?',
    ...overrides,
  };
}

/**
 * A database answering the contact service's statements in order (lock, limit check, record,
 * prune, insert): the sender is under the limits unless `until` says when they may send again.
 */
export function contactDb(until: { email?: Date; ip?: Date } = {}): ScriptedDb {
  const limits = { email_until: until.email ?? null, ip_until: until.ip ?? null, now: new Date() };
  return new ScriptedDb([[], [limits], [], [], []]);
}

/** A profile as `select p.* from public.profiles` returns it, with a new account's values. */
export function profileRow(overrides: Partial<ProfileRow> = {}): ProfileRow {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    username: 'alice',
    email: 'alice@example.com',
    is_admin: false,
    email_connected: false,
    email_connection_state: 'not_connected',
    subscription_tier: 'free',
    subscription_start_date: null,
    subscription_end_date: null,
    flight_limit: 5,
    auto_rebooking: false,
    threshold_type: 'percent',
    percent_threshold: 10,
    absolute_threshold: 2000,
    min_savings_percent: 15,
    min_savings_amount: 5000,
    threshold_condition: 'either',
    use_separate_international_thresholds: false,
    international_min_savings_percent: 20,
    international_min_savings_amount: 10000,
    notify_price_drops: true,
    notify_rebookings: true,
    notify_cancellations: true,
    min_price_drop: 2500,
    min_price_drop_percent: 10,
    notification_frequency: 'instant',
    notification_time: '09:00',
    time_zone: 'UTC',
    total_credits_earned: 0,
    commission_owed: 0,
    commission_paid: 0,
    plan_id: 1,
    plan_name: 'Free',
    commission_rate: 0,
    last_billing_date: null,
    created_at: new Date('2026-01-02T03:04:05Z'),
    onboarding_completed_at: null,
    email_confirmed_at: new Date('2026-01-01T00:00:00Z'),
    ...overrides,
  };
}
