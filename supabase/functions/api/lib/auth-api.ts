// Supabase Auth (GoTrue) over HTTP: the project's Auth on Supabase, the local auth server in the
// dev stack (same paths and shapes, docs/architecture.md). Calls time out after 10 s; an
// unreachable Auth throws AuthUnavailableError (answered 503), while Auth's own refusals come
// back as `{ ok: false, status, code, message }` for the caller to word for the user.
//
// Auth limits password sign-ins per client address, and every call from here comes from the
// function's address, so the password grant names the client in `Sb-Forwarded-For` (and
// `X-Forwarded-For`), with the service-role key: Supabase Auth honours the header only from a
// caller holding a secret key and with IP address forwarding on (Authentication > Rate Limits),
// and ignores it otherwise; the local auth server (dev/auth) does the same.
import type { AuthSession } from '../../_shared/types/auth.ts';

export interface AuthUser {
  id: string;
  email: string;
}

export interface AuthFailure {
  ok: false;
  status: number;
  /** GoTrue's error_code (email_exists, invalid_credentials, weak_password, otp_expired...). */
  code: string;
  message: string;
}
export type AuthResult<T> = { ok: true; value: T } | AuthFailure;

export interface AuthApi {
  createUser(input: { email: string; password: string; username: string }): Promise<AuthResult<AuthUser>>;
  /**
   * The password grant. `clientIp` is the address the request came from, forwarded so Auth's own
   * limits count the client rather than this function (see the header comment).
   */
  signInWithPassword(email: string, password: string, clientIp?: string | null): Promise<AuthResult<AuthSession>>;
  signOut(accessToken: string, scope: 'local' | 'global'): Promise<AuthResult<null>>;
  recover(email: string, redirectTo: string): Promise<AuthResult<null>>;
  verifyRecovery(tokenHash: string): Promise<AuthResult<AuthSession>>;
  updatePassword(accessToken: string, password: string): Promise<AuthResult<null>>;
  /** PUT /user {email}: Auth mails a confirmation link to the new address; nothing changes until it is opened. */
  requestEmailChange(accessToken: string, email: string): Promise<AuthResult<null>>;
  /** Spends the link of an email-change confirmation; the address is changed and a session issued. */
  verifyEmailChange(tokenHash: string): Promise<AuthResult<AuthSession>>;
}

export class AuthUnavailableError extends Error {
  constructor(cause: unknown) {
    super('Supabase Auth is unreachable', { cause });
    this.name = 'AuthUnavailableError';
  }
}

export interface AuthApiOptions {
  supabaseUrl: string;
  anonKey: string;
  serviceRoleKey: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function toSession(body: unknown): AuthSession | null {
  if (!isRecord(body)) return null;
  const accessToken = str(body.access_token);
  const refreshToken = str(body.refresh_token);
  const expiresIn = typeof body.expires_in === 'number' ? body.expires_in : 3600;
  if (!accessToken || !refreshToken) return null;
  const expiresAt = typeof body.expires_at === 'number' ? body.expires_at : Math.floor(Date.now() / 1000) + expiresIn;
  return {
    access_token: accessToken,
    refresh_token: refreshToken,
    expires_at: expiresAt,
    expires_in: expiresIn,
    token_type: str(body.token_type) ?? 'bearer',
  };
}

export function createAuthApi(options: AuthApiOptions): AuthApi {
  const base = `${options.supabaseUrl}/auth/v1`;
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 10_000;

  async function call(
    method: string,
    path: string,
    {
      body,
      bearer,
      apikey = options.anonKey,
      clientIp,
    }: { body?: unknown; bearer?: string; apikey?: string; clientIp?: string | null } = {},
  ): Promise<{ ok: true; body: unknown } | AuthFailure> {
    const headers: Record<string, string> = { apikey, Accept: 'application/json' };
    if (bearer) headers.Authorization = `Bearer ${bearer}`;
    if (clientIp) {
      headers['X-Forwarded-For'] = clientIp;
      headers['Sb-Forwarded-For'] = clientIp;
    }
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let response: Response;
    try {
      response = await doFetch(`${base}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new AuthUnavailableError(error);
    }
    const text = await response.text();
    let parsed: unknown = null;
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    if (response.ok) return { ok: true, body: parsed };
    const error = isRecord(parsed) ? parsed : {};
    return {
      ok: false,
      status: response.status,
      code: str(error.error_code) ?? str(error.code) ?? str(error.error) ?? 'unknown',
      message: str(error.msg) ?? str(error.message) ?? str(error.error_description) ?? response.statusText,
    };
  }

  function sessionResult(result: { ok: true; body: unknown } | AuthFailure): AuthResult<AuthSession> {
    if (!result.ok) return result;
    const session = toSession(result.body);
    if (!session) return { ok: false, status: 502, code: 'bad_response', message: 'Auth returned no session' };
    return { ok: true, value: session };
  }

  function emptyResult(result: { ok: true; body: unknown } | AuthFailure): AuthResult<null> {
    return result.ok ? { ok: true, value: null } : result;
  }

  return {
    async createUser({ email, password, username }) {
      const result = await call('POST', '/admin/users', {
        apikey: options.serviceRoleKey,
        bearer: options.serviceRoleKey,
        body: { email, password, email_confirm: true, user_metadata: { username } },
      });
      if (!result.ok) return result;
      const user = isRecord(result.body) ? result.body : {};
      const id = str(user.id);
      if (!id) return { ok: false, status: 502, code: 'bad_response', message: 'Auth returned no user' };
      return { ok: true, value: { id, email: str(user.email) ?? email } };
    },
    async signInWithPassword(email, password, clientIp) {
      const forwarded = clientIp
        ? { clientIp, apikey: options.serviceRoleKey, bearer: options.serviceRoleKey }
        : { clientIp: null };
      return sessionResult(
        await call('POST', '/token?grant_type=password', { body: { email, password }, ...forwarded }),
      );
    },
    async signOut(accessToken, scope) {
      return emptyResult(await call('POST', `/logout?scope=${scope}`, { bearer: accessToken }));
    },
    async recover(email, redirectTo) {
      return emptyResult(
        await call('POST', `/recover?redirect_to=${encodeURIComponent(redirectTo)}`, { body: { email } }),
      );
    },
    async verifyRecovery(tokenHash) {
      return sessionResult(await call('POST', '/verify', { body: { type: 'recovery', token_hash: tokenHash } }));
    },
    async updatePassword(accessToken, password) {
      return emptyResult(await call('PUT', '/user', { bearer: accessToken, body: { password } }));
    },
    async requestEmailChange(accessToken, email) {
      return emptyResult(await call('PUT', '/user', { bearer: accessToken, body: { email } }));
    },
    async verifyEmailChange(tokenHash) {
      return sessionResult(await call('POST', '/verify', { body: { type: 'email_change', token_hash: tokenHash } }));
    },
  };
}
