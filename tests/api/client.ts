// What the HTTP API tests use to talk to the stack: the api over HTTP, the database (to check
// what was or was not stored), the mail catcher's JSON API, and the stack's signing key.
import { readFile } from 'node:fs/promises';
import { importJWK, SignJWT, type JWK } from 'jose';
import postgres from 'postgres';
import { afterAll, inject } from 'vitest';
import type { StackInfo } from './global-setup.ts';

export interface ApiResponse<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  token?: string;
  headers?: Record<string, string>;
  /** Raw request body, sent as is (for malformed JSON). */
  raw?: string;
  /** Client address the api sees (x-forwarded-for); each test uses its own so rate limits stay apart. */
  ip?: string;
}

export function apiClient(stack: StackInfo = inject('stack')) {
  async function request<T = Record<string, unknown>>(
    method: string,
    path: string,
    json?: unknown,
    options: RequestOptions = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.Authorization = `Bearer ${options.token}`;
    if (options.ip) headers['X-Forwarded-For'] = options.ip;
    let body: string | undefined = options.raw;
    if (json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(json);
    } else if (body !== undefined) {
      headers['Content-Type'] ??= 'application/json';
    }
    const res = await fetch(`${stack.apiUrl}${path}`, { method, headers, body, redirect: 'manual' });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, headers: res.headers, body: parsed as T };
  }
  return {
    stack,
    request,
    get: <T = Record<string, unknown>>(path: string, options?: RequestOptions) =>
      request<T>('GET', path, undefined, options),
    post: <T = Record<string, unknown>>(path: string, json?: unknown, options?: RequestOptions) =>
      request<T>('POST', path, json, options),
  };
}
export type ApiClient = ReturnType<typeof apiClient>;

/** A database connection for assertions, closed after the file's tests. */
export function databaseClient(stack: StackInfo = inject('stack')): postgres.Sql {
  const sql = postgres(stack.databaseUrl, {
    max: stack.singleSession ? 1 : 2,
    prepare: !stack.singleSession,
    onnotice: () => {},
  });
  afterAll(() => sql.end({ timeout: 5 }));
  return sql;
}

/** Rows an account occupies: auth users and profiles with this email or username (any case). */
export async function accountRows(
  sql: postgres.Sql,
  { email, username }: { email?: string; username?: string },
): Promise<{ users: number; profiles: number }> {
  const [row] = await sql<{ users: number; profiles: number }[]>`
    select
      (select count(*)::int from auth.users where lower(email) = lower(${email ?? ''})) as users,
      (select count(*)::int from public.profiles
        where lower(email) = lower(${email ?? ''}) or lower(username) = lower(${username ?? ''})) as profiles
  `;
  return row ?? { users: 0, profiles: 0 };
}

export interface CaughtEmail {
  id: string;
  subject: string;
  text?: string;
  html?: string;
  to: Array<{ address: string; name?: string }>;
}

/** Emails maildev caught for this address, waiting up to `timeoutMs` for at least `atLeast`. */
export async function emailsTo(
  address: string,
  {
    atLeast = 1,
    timeoutMs = 10_000,
    stack = inject('stack'),
  }: { atLeast?: number; timeoutMs?: number; stack?: StackInfo } = {},
): Promise<CaughtEmail[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(`${stack.mailUrl}/email`);
    const all = (await res.json()) as CaughtEmail[];
    const mine = all.filter((mail) => mail.to.some((to) => to.address.toLowerCase() === address.toLowerCase()));
    if (mine.length >= atLeast || Date.now() > deadline) return mine;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The token of the reset link in a recovery email. */
export function resetTokenOf(mail: CaughtEmail): string {
  const match = /\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(`${mail.text ?? ''} ${mail.html ?? ''}`);
  if (!match?.[1]) throw new Error(`no reset link in email '${mail.subject}'`);
  return match[1];
}

/** Signs an access token with the stack's own key (to make ones that are valid but expired). */
export async function signWithStackKey(
  claims: Record<string, unknown>,
  { expiresIn = 3600, stack = inject('stack') }: { expiresIn?: number; stack?: StackInfo } = {},
): Promise<string> {
  const jwk = JSON.parse(await readFile(stack.signingKeyPath, 'utf8')) as JWK;
  const key = await importJWK({ ...jwk, alg: 'ES256' }, 'ES256');
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ aud: 'authenticated', role: 'authenticated', ...claims })
    .setProtectedHeader({ alg: 'ES256', kid: jwk.kid ?? '', typ: 'JWT' })
    .setIssuedAt(now - 7200)
    .setExpirationTime(now + expiresIn)
    .sign(key);
}
