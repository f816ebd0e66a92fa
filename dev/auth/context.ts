// What every group of endpoints shares: the server's dependencies (database, signing key, mailer,
// settings), the sessions' sign-in methods, mail sent after the answer, and the helpers that
// start a session and find the caller's. Created once per app by createAuthContext.
import type { Context } from 'hono';
import type { HttpBindings } from '@hono/node-server';
import type postgres from 'postgres';
import { clientAddress, SB_FORWARDED_FOR } from './client-address.ts';
import { AuthError } from './errors.ts';
import type { SigningKey } from './keys.ts';
import type { LoginLimits } from './login-limiter.ts';
import type { Mailer } from './mailer.ts';
import { BCRYPT_COST, checkPasswordStrength, type PasswordHasher, type PasswordPolicy } from './passwords.ts';
import {
  findSession,
  findUserById,
  identitiesOf,
  createSession,
  userJson,
  type Db,
  type UserJson,
  type UserRow,
} from './store.ts';
import {
  ACCESS_TOKEN_SECONDS,
  bearerToken,
  signAccessToken,
  verifyJwt,
  type AmrEntry,
  type AuthMethod,
} from './tokens.ts';

/** GOTRUE_SMTP_MAX_FREQUENCY default: one auth email per address per minute. */
export const EMAIL_MIN_INTERVAL_SECONDS = 60;

export type Json = Record<string, unknown>;

export interface AuthAppDeps {
  sql: postgres.Sql;
  signingKey: SigningKey;
  serviceRoleKey: string;
  publicUrl: string;
  siteUrl: string;
  mailer: Mailer;
  /** POST /signup creates accounts (GoTrue's enable_signup); off, it answers 422 signup_disabled. */
  enableSignup: boolean;
  /** Origins that get CORS headers (with credentials); every other origin gets none. */
  allowedOrigins: readonly string[];
  /** Proxies in front whose X-Forwarded-For entries are trusted (client-address.ts). */
  trustedProxyHops: number;
  passwordPolicy: PasswordPolicy;
  /** GoTrue's secure_password_change: PUT /user {password} needs a recent sign-in or a nonce. */
  securePasswordChange: boolean;
  /** Seconds a revoked refresh token may still be presented (GoTrue's refresh_token_reuse_interval). */
  refreshTokenReuseIntervalSeconds: number;
  loginLimits: LoginLimits;
  maxBodyBytes: number;
  passwords: PasswordHasher;
  /** Waits before answering a delayed sign-in; tests observe it. */
  sleep: (ms: number) => Promise<void>;
  /** The limiter's clock. */
  now: () => number;
}

export interface SessionJson {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: UserJson;
}

export type Env = { Bindings: Partial<HttpBindings> };

export interface ClientInfo {
  userAgent: string | null;
  ip: string | null;
}

export interface AuthContext {
  deps: AuthAppDeps;
  sql: postgres.Sql;
  signingKey: SigningKey;
  /** The tokens' `iss`: `${publicUrl}/auth/v1`. */
  issuer: string;
  siteUrl: string;
  /**
   * auth.sessions has no column for how a session was established (GoTrue keeps it in
   * auth.mfa_amr_claims), so the `amr` claim's method is remembered here; after a restart a
   * session's refreshed tokens report `password`.
   */
  sessionMethods: Map<string, AmrEntry>;
  /** Runs `work` (a mail send) after the answer; a failure is logged, never answered. */
  inBackground(work: () => Promise<void>, what: string): void;
  /** Resolves once the emails being sent in the background have gone (or failed). */
  drain(): Promise<void>;
  clientInfo(c: Context<Env>): ClientInfo;
  /** GoTrue's password checks for a password being set: strength, then bcrypt. */
  hashNewPassword(password: string): Promise<string>;
  /** redirect_to when it points at the site or the gateway, else the site URL (GoTrue's allow list). */
  allowedRedirect(target: string | undefined): string;
  issueSession(db: Db, userId: string, method: AuthMethod, client: ClientInfo): Promise<SessionJson>;
  sessionResponse(db: Db, userId: string, sessionId: string, refreshToken: string): Promise<SessionJson>;
  /** The user and session behind the request's access token (GoTrue's requireAuthentication). */
  authenticate(
    c: Context<Env>,
    db: Db,
  ): Promise<{ user: UserRow; sessionId: string | null; sessionCreatedAt: Date | null }>;
}

export function createAuthContext(deps: AuthAppDeps): AuthContext {
  const { sql, signingKey } = deps;
  const issuer = `${deps.publicUrl.replace(/\/+$/, '')}/auth/v1`;
  const siteUrl = deps.siteUrl.replace(/\/+$/, '');
  const sessionMethods = new Map<string, AmrEntry>();
  const backgroundWork = new Set<Promise<void>>();

  function inBackground(work: () => Promise<void>, what: string): void {
    const running: Promise<void> = work()
      .catch((error: unknown) => console.error(`[auth] could not send the ${what}`, error))
      .finally(() => backgroundWork.delete(running));
    backgroundWork.add(running);
  }

  function isServiceRoleKey(token: string | undefined): boolean {
    return token !== undefined && token === deps.serviceRoleKey;
  }

  function clientInfo(c: Context<Env>): ClientInfo {
    const authorization = c.req.header('authorization');
    const bearer = authorization ? /^bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] : undefined;
    return {
      userAgent: c.req.header('user-agent') ?? null,
      ip: clientAddress(
        {
          forwardedFor: c.req.header('x-forwarded-for'),
          sbForwardedFor: c.req.header(SB_FORWARDED_FOR),
          trustedCaller: isServiceRoleKey(c.req.header('apikey')) || isServiceRoleKey(bearer),
          socketAddress: c.env?.incoming?.socket.remoteAddress,
        },
        deps.trustedProxyHops,
      ),
    };
  }

  async function hashNewPassword(password: string): Promise<string> {
    checkPasswordStrength(password, deps.passwordPolicy);
    return deps.passwords.hash(password, BCRYPT_COST);
  }

  function allowedRedirect(target: string | undefined): string {
    if (target) {
      for (const base of [siteUrl, deps.publicUrl.replace(/\/+$/, '')]) {
        const next = target.charAt(base.length);
        if (target.startsWith(base) && (next === '' || next === '/' || next === '?' || next === '#')) return target;
      }
    }
    return siteUrl;
  }

  async function issueSession(db: Db, userId: string, method: AuthMethod, client: ClientInfo): Promise<SessionJson> {
    const { sessionId, refreshToken, createdAt } = await createSession(db, userId, client);
    sessionMethods.set(sessionId, { method, timestamp: Math.floor(createdAt.getTime() / 1000) });
    return sessionResponse(db, userId, sessionId, refreshToken);
  }

  async function sessionResponse(
    db: Db,
    userId: string,
    sessionId: string,
    refreshToken: string,
  ): Promise<SessionJson> {
    const user = await findUserById(db, userId);
    if (!user) throw new AuthError(403, 'user_not_found', 'User from sub claim in JWT does not exist');
    const amr = sessionMethods.get(sessionId) ?? { method: 'password', timestamp: Math.floor(Date.now() / 1000) };
    const { token, expiresAt } = await signAccessToken(signingKey, issuer, user, sessionId, [amr]);
    return {
      access_token: token,
      token_type: 'bearer',
      expires_in: ACCESS_TOKEN_SECONDS,
      expires_at: expiresAt,
      refresh_token: refreshToken,
      user: userJson(user, await identitiesOf(db, userId)),
    };
  }

  async function authenticate(
    c: Context<Env>,
    db: Db,
  ): Promise<{ user: UserRow; sessionId: string | null; sessionCreatedAt: Date | null }> {
    const claims = await verifyJwt(signingKey, bearerToken(c.req.header('authorization')));
    const sub = typeof claims.sub === 'string' ? claims.sub : '';
    if (!/^[0-9a-f-]{36}$/i.test(sub)) throw new AuthError(403, 'bad_jwt', 'invalid claim: missing sub claim');
    const sessionId = typeof claims.session_id === 'string' ? claims.session_id : null;
    let sessionCreatedAt: Date | null = null;
    if (sessionId) {
      const session = await findSession(db, sessionId);
      if (!session || session.user_id !== sub) {
        throw new AuthError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist');
      }
      sessionCreatedAt = session.created_at;
    }
    const user = await findUserById(db, sub);
    if (!user) throw new AuthError(403, 'user_not_found', 'User from sub claim in JWT does not exist');
    return { user, sessionId, sessionCreatedAt };
  }

  return {
    deps,
    sql,
    signingKey,
    issuer,
    siteUrl,
    sessionMethods,
    inBackground,
    async drain() {
      while (backgroundWork.size > 0) await Promise.allSettled([...backgroundWork]);
    },
    clientInfo,
    hashNewPassword,
    allowedRedirect,
    issueSession,
    sessionResponse,
    authenticate,
  };
}
