// The routes of the local auth server: the part of Supabase Auth's (GoTrue's) HTTP API that
// supabase-js and the api function use, with GoTrue's paths, bodies, status codes and error
// codes. Storage is GoTrue's own auth.* tables (store.ts); tokens are ES256 (tokens.ts).
// The settings supabase/config.toml gives the real one are mirrored (config.test.ts compares
// them): password rules, secure password change, the refresh-token reuse interval; sign-up at
// /signup is off unless enabled (the api creates accounts with the admin call). Beyond GoTrue:
// failed password sign-ins are limited per account and client address (login-limiter.ts).
// Deliberate simplifications: e-mail sign-ups are confirmed at once (mailer_autoconfirm), and
// Google sign-in is a local account chooser that never links to an existing account.
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { HttpBindings } from '@hono/node-server';
import postgres from 'postgres';
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { clientAddress, SB_FORWARDED_FOR } from './client-address.ts';
import { corsFor, originsOf } from './cors.ts';
import { AuthError, errorResponse, rateLimitError } from './errors.ts';
import { renderGoogleChooser } from './google-chooser.ts';
import { publicJwks, type SigningKey } from './keys.ts';
import { LoginLimiter, type LoginLimits } from './login-limiter.ts';
import type { Mailer } from './mailer.ts';
import { OAuthStates } from './oauth-state.ts';
import {
  BCRYPT_COST,
  checkPasswordStrength,
  createPasswordVerifier,
  type PasswordHasher,
  type PasswordPolicy,
} from './passwords.ts';
import {
  activeRefreshToken,
  createSession,
  deleteSession,
  deleteSessions,
  deleteUser,
  findIdentity,
  findRefreshToken,
  findSession,
  findUserByEmail,
  findUserById,
  findUserByRecoveryTokenHash,
  identitiesOf,
  insertUser,
  jsonb,
  loadUserJson,
  rotateRefreshToken,
  sha256Hex,
  userJson,
  usersWithProvider,
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

/** GOTRUE_MAILER_OTP_EXP default: recovery links and reauthentication codes live one hour. */
const RECOVERY_TOKEN_SECONDS = 3600;
const REAUTHENTICATION_CODE_SECONDS = 3600;
/** GoTrue's secure password change: a session younger than this may change the password without a nonce. */
const RECENT_SIGN_IN_SECONDS = 24 * 60 * 60;
/** GOTRUE_SMTP_MAX_FREQUENCY default: one auth email per address per minute. */
const EMAIL_MIN_INTERVAL_SECONDS = 60;
const ADMIN_ROLES = new Set(['service_role', 'supabase_admin']);
const LOGOUT_SCOPES = ['global', 'local', 'others'] as const;
const VERIFY_TYPES = new Set(['signup', 'invite', 'magiclink', 'recovery', 'email_change', 'email']);
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

type Json = Record<string, unknown>;

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

export interface AuthApp {
  app: Hono<Env>;
  /** Resolves once the emails being sent in the background have gone (or failed). */
  drain(): Promise<void>;
}

export interface SessionJson {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: UserJson;
}

type Env = { Bindings: Partial<HttpBindings> };

// ---------------------------------------------------------------------------------------------
// Request helpers
// ---------------------------------------------------------------------------------------------

async function readJson(c: Context<Env>): Promise<Json> {
  const text = await c.req.text();
  if (!text.trim()) return {};
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Json;
  } catch (error) {
    throw new AuthError(400, 'bad_json', `Could not parse request body as JSON: ${(error as Error).message}`);
  }
  throw new AuthError(400, 'bad_json', 'Could not parse request body as JSON: expected an object');
}

function stringField(body: Json, key: string): string | undefined {
  const value = body[key];
  return typeof value === 'string' ? value : undefined;
}

function objectField(body: Json, key: string): Json | undefined {
  const value = body[key];
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof postgres.PostgresError && error.code === '23505';
}

function requireValidEmail(email: string | undefined): string {
  const trimmed = email?.trim() ?? '';
  if (!EMAIL_PATTERN.test(trimmed) || trimmed.length > 255) {
    throw new AuthError(400, 'email_address_invalid', 'Unable to validate email address: invalid format');
  }
  return trimmed.toLowerCase();
}

/** GoTrue merges metadata updates key by key; a null value removes the key. */
function mergeMetadata(current: Json, update: Json): Json {
  const merged: Json = { ...current };
  for (const [key, value] of Object.entries(update)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

/** A stable 21-digit stand-in for a Google account's `sub`, derived from the address. */
function localGoogleSub(email: string): string {
  const digits = BigInt(`0x${sha256Hex(`google:${email}`).slice(0, 24)}`)
    .toString()
    .padStart(21, '1');
  return `1${digits.slice(0, 20)}`;
}

// ---------------------------------------------------------------------------------------------
// The app
// ---------------------------------------------------------------------------------------------

export function createAuthApp(deps: AuthAppDeps): AuthApp {
  const { sql, signingKey } = deps;
  const issuer = `${deps.publicUrl.replace(/\/+$/, '')}/auth/v1`;
  const siteUrl = deps.siteUrl.replace(/\/+$/, '');
  const limiter = new LoginLimiter(deps.loginLimits, deps.now);
  const verifyPassword = createPasswordVerifier(deps.passwords);
  const oauthStates = new OAuthStates(undefined, deps.now);
  // GET /reauthenticate's codes, by user id: the hash of address and code, and when it was sent.
  const reauthentications = new Map<string, { hash: string; sentAt: number }>();
  const backgroundWork = new Set<Promise<void>>();

  /** Runs `work` (a mail send) after the answer; a failure is logged, never answered. */
  function inBackground(work: () => Promise<void>, what: string): void {
    const running: Promise<void> = work()
      .catch((error: unknown) => console.error(`[auth] could not send the ${what}`, error))
      .finally(() => backgroundWork.delete(running));
    backgroundWork.add(running);
  }

  function isServiceRoleKey(token: string | undefined): boolean {
    return token !== undefined && token === deps.serviceRoleKey;
  }

  function clientInfo(c: Context<Env>): { userAgent: string | null; ip: string | null } {
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

  /** GoTrue's password checks for a password being set: strength, then bcrypt. */
  async function hashNewPassword(password: string): Promise<string> {
    checkPasswordStrength(password, deps.passwordPolicy);
    return deps.passwords.hash(password, BCRYPT_COST);
  }

  /** The redirect target with GoTrue's error parameters in the fragment, where the web app reads them. */
  function errorRedirect(target: string, error: string, errorCode: string, description: string): string {
    const fragment = new URLSearchParams({ error, error_code: errorCode, error_description: description });
    return `${target.split('#')[0]}#${fragment.toString()}`;
  }

  // auth.sessions has no column for how a session was established (GoTrue keeps it in
  // auth.mfa_amr_claims), so the `amr` claim's method is remembered here; after a restart a
  // session's refreshed tokens report `password`.
  const sessionMethods = new Map<string, AmrEntry>();

  /** redirect_to when it points at the site or the gateway, else the site URL (GoTrue's allow list). */
  function allowedRedirect(target: string | undefined): string {
    if (target) {
      for (const base of [siteUrl, deps.publicUrl.replace(/\/+$/, '')]) {
        const next = target.charAt(base.length);
        if (target.startsWith(base) && (next === '' || next === '/' || next === '?' || next === '#')) return target;
      }
    }
    return siteUrl;
  }

  async function issueSession(
    db: Db,
    userId: string,
    method: AuthMethod,
    client: { userAgent: string | null; ip: string | null },
  ): Promise<SessionJson> {
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

  /** The user and session behind the request's access token (GoTrue's requireAuthentication). */
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

  /** The reauthentication code's hash, as GoTrue stores it: sha224 of the address and the code. */
  function reauthenticationHash(email: string, code: string): string {
    return createHash('sha224').update(`${email}${code}`).digest('hex');
  }

  /**
   * GoTrue's secure password change: a session signed in within the last 24 hours may change the
   * password; an older one (or a token without a session) needs the nonce GET /reauthenticate
   * mailed. Returns whether a code was used, to be spent once the change is made.
   */
  function requireRecentSignInOrNonce(
    user: UserRow,
    sessionCreatedAt: Date | null,
    nonce: string | undefined,
  ): boolean {
    if (!deps.securePasswordChange) return false;
    const recent =
      sessionCreatedAt !== null && Date.now() - sessionCreatedAt.getTime() <= RECENT_SIGN_IN_SECONDS * 1000;
    if (recent) return false;
    if (!nonce) throw new AuthError(400, 'reauthentication_needed', 'Password update requires reauthentication');
    const pending = reauthentications.get(user.id);
    const valid =
      pending !== undefined &&
      Date.now() - pending.sentAt <= REAUTHENTICATION_CODE_SECONDS * 1000 &&
      pending.hash === reauthenticationHash(user.email ?? '', nonce);
    if (!valid) throw new AuthError(422, 'reauthentication_not_valid', 'Nonce has expired or is invalid');
    return true;
  }

  /** GoTrue's requireAdmin: a JWT whose role is an admin role (the service-role key). */
  async function requireAdmin(c: Context<Env>): Promise<void> {
    const header = c.req.header('authorization');
    const token = header ? bearerToken(header) : c.req.header('apikey');
    if (!token) throw new AuthError(401, 'no_authorization', 'This endpoint requires a valid Bearer token');
    if (token === deps.serviceRoleKey) return;
    const claims = await verifyJwt(signingKey, token);
    if (typeof claims.role !== 'string' || !ADMIN_ROLES.has(claims.role)) {
      throw new AuthError(403, 'not_admin', 'User not allowed');
    }
  }

  const app = new Hono<Env>().basePath('/auth/v1');

  app.use('*', async (c, next) => {
    const started = performance.now();
    await next();
    if (process.env.AUTH_LOG === '1') {
      const line = {
        time: new Date().toISOString(),
        component: 'auth',
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
      };
      process.stdout.write(`${JSON.stringify(line)}\n`);
    }
  });

  app.use('*', corsFor(originsOf(deps.allowedOrigins)));

  // Every body is read through this: past the limit (declared or streamed), 413 before any parsing.
  app.use(
    '*',
    bodyLimit({
      maxSize: deps.maxBodyBytes,
      onError: () => {
        throw new AuthError(
          413,
          'request_too_large',
          `Request body is larger than ${deps.maxBodyBytes} bytes`,
          {},
          {
            Connection: 'close',
          },
        );
      },
    }),
  );

  app.onError((error, c) => {
    let authError: AuthError;
    if (error instanceof AuthError) {
      authError = error;
    } else {
      console.error('[auth] unexpected failure', c.req.method, c.req.path, error);
      authError = new AuthError(
        500,
        'unexpected_failure',
        'Unexpected failure, please check server logs for more information',
      );
    }
    const { status, body, headers } = errorResponse(authError, c.req.raw.headers);
    for (const [name, value] of Object.entries(headers)) c.header(name, value);
    return c.json(body, status as 400);
  });

  app.notFound((c) => {
    const { status, body } = errorResponse(new AuthError(404, 'not_found', 'Not Found'), c.req.raw.headers);
    return c.json(body, status as 404);
  });

  // --- Service ------------------------------------------------------------------------------

  app.get('/health', (c) =>
    c.json({ version: 'local', name: 'GoTrue', description: 'GoTrue is a user registration and authentication API' }),
  );

  app.get('/settings', (c) =>
    c.json({
      external: {
        anonymous_users: false,
        apple: false,
        azure: false,
        bitbucket: false,
        discord: false,
        facebook: false,
        figma: false,
        github: false,
        gitlab: false,
        google: true,
        keycloak: false,
        kakao: false,
        linkedin_oidc: false,
        notion: false,
        slack_oidc: false,
        spotify: false,
        twitch: false,
        twitter: false,
        workos: false,
        zoom: false,
        email: true,
        phone: false,
      },
      disable_signup: !deps.enableSignup,
      mailer_autoconfirm: true,
      phone_autoconfirm: false,
      sms_provider: '',
      saml_enabled: false,
    }),
  );

  app.get('/.well-known/jwks.json', (c) => {
    c.header('cache-control', 'public, max-age=600');
    return c.json(publicJwks(signingKey));
  });

  // --- Sign-up and sign-in ------------------------------------------------------------------

  app.post('/signup', async (c) => {
    // GoTrue's answer with enable_signup = false: accounts come from the api's admin call, which
    // applies FareBack's username and password rules first.
    if (!deps.enableSignup) throw new AuthError(422, 'signup_disabled', 'Signups not allowed for this instance');
    const body = await readJson(c);
    const rawEmail = stringField(body, 'email');
    if (!rawEmail) throw new AuthError(422, 'validation_failed', 'To signup, please provide your email');
    const email = requireValidEmail(rawEmail);
    const password = stringField(body, 'password');
    if (!password) throw new AuthError(422, 'validation_failed', 'Signup requires a valid password');
    const passwordHash = await hashNewPassword(password);
    const client = clientInfo(c);
    try {
      const session = await sql.begin(async (tx) => {
        if (await findUserByEmail(tx, email)) {
          throw new AuthError(422, 'user_already_exists', 'User already registered');
        }
        const userId = await insertUser(tx, {
          email,
          passwordHash,
          emailConfirmed: true,
          userMetadata: objectField(body, 'data') ?? {},
          appMetadata: { provider: 'email', providers: ['email'] },
        });
        return issueSession(tx, userId, 'password', client);
      });
      return c.json(session);
    } catch (error) {
      if (isUniqueViolation(error)) throw new AuthError(422, 'user_already_exists', 'User already registered');
      throw error;
    }
  });

  app.post('/token', async (c) => {
    const grantType = c.req.query('grant_type');
    const body = await readJson(c);
    const client = clientInfo(c);

    if (grantType === 'password') {
      const email = stringField(body, 'email')?.trim();
      const password = stringField(body, 'password');
      if (!email || password === undefined) {
        throw new AuthError(400, 'validation_failed', 'missing email or phone');
      }
      // Limits first, so a refused pair or address gets no further guess; an unknown address is
      // counted like a known one, so the limits tell nothing about which accounts exist.
      const account = email.toLowerCase();
      const address = client.ip ?? 'unknown';
      const retryAfter = limiter.retryAfterSeconds(account, address);
      if (retryAfter > 0) throw rateLimitError(retryAfter);
      const delay = limiter.delayMs(account);
      const attempt = limiter.begin(account, address);
      if (delay > 0) await deps.sleep(delay);
      const user = await findUserByEmail(sql, email);
      // No user, or one without a password: compared with a dummy hash, so the answer takes as long.
      const matches = await verifyPassword(password, user?.encrypted_password ?? null);
      if (!user || !matches) throw new AuthError(400, 'invalid_credentials', 'Invalid login credentials');
      attempt.succeeded();
      if (!user.email_confirmed_at) throw new AuthError(400, 'email_not_confirmed', 'Email not confirmed');
      if (user.banned_until && user.banned_until.getTime() > Date.now()) {
        throw new AuthError(400, 'user_banned', 'User is banned');
      }
      return c.json(await sql.begin((tx) => issueSession(tx, user.id, 'password', client)));
    }

    if (grantType === 'refresh_token') {
      const refreshToken = stringField(body, 'refresh_token');
      if (!refreshToken) throw new AuthError(400, 'validation_failed', 'refresh_token required');
      const outcome = await sql.begin(async (tx) => {
        const token = await findRefreshToken(tx, refreshToken);
        const session = token?.session_id ? await findSession(tx, token.session_id, true) : undefined;
        if (!token || !session) return { kind: 'not_found' as const };
        let issued: string;
        if (token.revoked) {
          // Within the reuse interval of its revocation (two tabs refreshing at once, a client
          // that lost the answer), a revoked token yields the session's active token. Later it
          // can only be a replay: the session ends, with every token it issued.
          const active = await activeRefreshToken(tx, session.id);
          if (!active || token.revoked_seconds_ago > deps.refreshTokenReuseIntervalSeconds) {
            await deleteSession(tx, session.id);
            sessionMethods.delete(session.id);
            return { kind: 'reused' as const };
          }
          issued = active.token;
        } else {
          issued = await rotateRefreshToken(tx, token);
        }
        return { kind: 'ok' as const, session: await sessionResponse(tx, session.user_id, session.id, issued) };
      });
      if (outcome.kind === 'not_found') {
        throw new AuthError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
      }
      if (outcome.kind === 'reused') {
        throw new AuthError(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used');
      }
      return c.json(outcome.session);
    }

    throw new AuthError(400, 'unsupported_grant_type', 'unsupported_grant_type');
  });

  // --- The signed-in user -------------------------------------------------------------------

  app.get('/user', async (c) => {
    const user = await sql.begin(async (tx) => {
      const { user } = await authenticate(c, tx);
      return userJson(user, await identitiesOf(tx, user.id));
    });
    return c.json(user);
  });

  app.put('/user', async (c) => {
    const body = await readJson(c);
    const { user, sessionCreatedAt } = await sql.begin((tx) => authenticate(c, tx));
    // GoTrue's email change with double_confirm_changes off (config.toml): a link to the new
    // address only; the address changes when it is verified (POST /verify type email_change).
    const email = stringField(body, 'email');
    let newEmail: string | undefined;
    if (email !== undefined && email.trim().toLowerCase() !== (user.email ?? '').toLowerCase()) {
      newEmail = requireValidEmail(email);
    }
    const emailChangeToken = newEmail ? randomBytes(28).toString('hex') : undefined;
    const password = stringField(body, 'password');
    let passwordHash: string | undefined;
    let spendsNonce = false;
    if (password !== undefined) {
      // GoTrue's order: strength, then reauthentication, then "not the same password".
      checkPasswordStrength(password, deps.passwordPolicy);
      spendsNonce = requireRecentSignInOrNonce(user, sessionCreatedAt, stringField(body, 'nonce'));
      if (user.encrypted_password && (await deps.passwords.compare(password, user.encrypted_password))) {
        throw new AuthError(422, 'same_password', 'New password should be different from the old password.');
      }
      passwordHash = await deps.passwords.hash(password, BCRYPT_COST);
    }
    const data = objectField(body, 'data');
    const updated = await sql.begin(async (tx) => {
      // Re-check inside the transaction: the session may have ended meanwhile.
      const { user: current, sessionId } = await authenticate(c, tx);
      if (passwordHash) {
        await tx`update auth.users set encrypted_password = ${passwordHash}, updated_at = now() where id = ${current.id}`;
        // GoTrue's User.UpdatePassword: every other session of the user ends.
        await deleteSessions(tx, current.id, 'others', sessionId);
      }
      if (newEmail && emailChangeToken) {
        if (await findUserByEmail(tx, newEmail)) {
          throw new AuthError(422, 'email_exists', 'A user with this email address has already been registered');
        }
        const [sent] = await tx<{ email_change_sent_at: Date | null }[]>`
          select email_change_sent_at from auth.users where id = ${current.id}`;
        const elapsed = (Date.now() - (sent?.email_change_sent_at?.getTime() ?? 0)) / 1000;
        if (elapsed < EMAIL_MIN_INTERVAL_SECONDS) {
          throw new AuthError(
            429,
            'over_email_send_rate_limit',
            `For security purposes, you can only request this after ${Math.max(1, Math.ceil(EMAIL_MIN_INTERVAL_SECONDS - elapsed))} seconds.`,
          );
        }
        await tx`update auth.users set email_change = ${newEmail},
          email_change_token_new = ${sha256Hex(emailChangeToken)}, email_change_sent_at = now(), updated_at = now()
          where id = ${current.id}`;
      }
      if (data) {
        const metadata = mergeMetadata(current.raw_user_meta_data ?? {}, data);
        await tx`update auth.users set raw_user_meta_data = ${jsonb(tx, metadata)}, updated_at = now()
          where id = ${current.id}`;
      }
      return loadUserJson(tx, current.id);
    });
    if (spendsNonce) reauthentications.delete(user.id);
    if (newEmail && emailChangeToken) {
      const to = newEmail;
      const data = {
        SiteURL: siteUrl,
        TokenHash: emailChangeToken,
        Email: user.email ?? '',
        NewEmail: to,
        RedirectTo: siteUrl,
      };
      inBackground(() => deps.mailer.sendEmailChange(to, data), 'email change email');
    }
    return c.json(updated);
  });

  // GoTrue's GET /reauthenticate: mails a 6-digit code that PUT /user accepts as `nonce`.
  app.get('/reauthenticate', async (c) => {
    const { user } = await sql.begin((tx) => authenticate(c, tx));
    if (!user.email)
      throw new AuthError(422, 'validation_failed', 'Reauthentication requires an email or a phone number');
    if (!user.email_confirmed_at) throw new AuthError(422, 'email_not_confirmed', 'Please verify your email first.');
    const previous = reauthentications.get(user.id);
    if (previous && Date.now() - previous.sentAt < EMAIL_MIN_INTERVAL_SECONDS * 1000) {
      throw new AuthError(
        429,
        'over_email_send_rate_limit',
        `For security purposes, you can only request this once every ${EMAIL_MIN_INTERVAL_SECONDS} seconds`,
      );
    }
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    reauthentications.set(user.id, { hash: reauthenticationHash(user.email, code), sentAt: Date.now() });
    const to = user.email;
    inBackground(
      () => deps.mailer.sendReauthentication(to, { Token: code, Email: to, SiteURL: siteUrl }),
      'reauthentication email',
    );
    return c.json({});
  });

  app.post('/logout', async (c) => {
    const scope = c.req.query('scope') ?? 'global';
    if (!LOGOUT_SCOPES.includes(scope as (typeof LOGOUT_SCOPES)[number])) {
      throw new AuthError(400, 'validation_failed', 'Unsupported logout scope');
    }
    await sql.begin(async (tx) => {
      const { user, sessionId } = await authenticate(c, tx);
      await deleteSessions(tx, user.id, scope as (typeof LOGOUT_SCOPES)[number], sessionId);
      if (sessionId && scope !== 'others') sessionMethods.delete(sessionId);
    });
    return c.body(null, 204);
  });

  // --- Password recovery --------------------------------------------------------------------

  app.post('/recover', async (c) => {
    const body = await readJson(c);
    const rawEmail = stringField(body, 'email');
    if (!rawEmail) throw new AuthError(422, 'validation_failed', 'Password recovery requires an email');
    const email = requireValidEmail(rawEmail);
    const redirectTo = allowedRedirect(c.req.query('redirect_to') ?? stringField(body, 'redirect_to'));
    // The emailed value is the secret; only its hash is stored, so a database dump cannot be
    // replayed as a recovery link.
    const token = randomBytes(28).toString('hex');
    const outcome = await sql.begin(async (tx) => {
      const user = await findUserByEmail(tx, email, true);
      if (!user) return { kind: 'no_user' as const };
      if (user.recovery_sent_at) {
        const elapsed = (Date.now() - user.recovery_sent_at.getTime()) / 1000;
        if (elapsed < EMAIL_MIN_INTERVAL_SECONDS) {
          return { kind: 'too_soon' as const, wait: Math.max(1, Math.ceil(EMAIL_MIN_INTERVAL_SECONDS - elapsed)) };
        }
      }
      await tx`update auth.users set recovery_token = ${sha256Hex(token)}, recovery_sent_at = now(), updated_at = now()
        where id = ${user.id}`;
      return { kind: 'send' as const, email: user.email ?? email };
    });
    if (outcome.kind === 'too_soon') {
      throw new AuthError(
        429,
        'over_email_send_rate_limit',
        `For security purposes, you can only request this after ${outcome.wait} seconds.`,
      );
    }
    if (outcome.kind === 'send') {
      // Sent after the answer: how long SMTP takes must not tell whether the address has an account.
      const to = outcome.email;
      inBackground(
        () => deps.mailer.sendRecovery(to, { SiteURL: siteUrl, TokenHash: token, Email: to, RedirectTo: redirectTo }),
        'recovery email',
      );
    }
    return c.json({});
  });

  app.post('/verify', async (c) => {
    const body = await readJson(c);
    const type = stringField(body, 'type') ?? '';
    const tokenHash = stringField(body, 'token_hash');
    if (!VERIFY_TYPES.has(type)) throw new AuthError(400, 'validation_failed', 'Verify requires a verification type');
    if (!tokenHash) throw new AuthError(400, 'validation_failed', 'Verify requires a token or a token hash');
    const client = clientInfo(c);
    if (type === 'email_change') {
      const changed = await sql.begin(async (tx) => {
        const [user] = await tx<{ id: string; email_change: string; email_change_sent_at: Date | null }[]>`
          select id, email_change, email_change_sent_at from auth.users
           where email_change_token_new = ${sha256Hex(tokenHash)} and email_change_token_new <> ''
             and email_change <> '' for update`;
        const sentAt = user?.email_change_sent_at?.getTime() ?? 0;
        if (!user || Date.now() - sentAt > RECOVERY_TOKEN_SECONDS * 1000) return null;
        // someone may have taken the address since the link was sent
        if (await findUserByEmail(tx, user.email_change)) return null;
        await tx`update auth.users set email = ${user.email_change}, email_change = '', email_change_token_new = '',
          email_confirmed_at = now(), updated_at = now() where id = ${user.id}`;
        await tx`update auth.identities
            set identity_data = identity_data || jsonb_build_object('email', ${user.email_change}::text), updated_at = now()
          where user_id = ${user.id} and provider = 'email'`;
        return issueSession(tx, user.id, 'otp', client);
      });
      if (!changed) throw new AuthError(403, 'otp_expired', 'Email link is invalid or has expired');
      return c.json(changed);
    }
    const session = await sql.begin(async (tx) => {
      // Only recovery links are ever issued here, so any other type has no valid token.
      const user = type === 'recovery' ? await findUserByRecoveryTokenHash(tx, sha256Hex(tokenHash)) : undefined;
      const sentAt = user?.recovery_sent_at?.getTime() ?? 0;
      if (!user || Date.now() - sentAt > RECOVERY_TOKEN_SECONDS * 1000) return null;
      await tx`update auth.users set recovery_token = '',
        email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now() where id = ${user.id}`;
      return issueSession(tx, user.id, 'recovery', client);
    });
    if (!session) throw new AuthError(403, 'otp_expired', 'Email link is invalid or has expired');
    return c.json(session);
  });

  // --- Google, through the local account chooser ---------------------------------------------

  app.get('/authorize', async (c) => {
    const provider = c.req.query('provider');
    if (provider !== 'google')
      throw new AuthError(400, 'provider_disabled', 'Unsupported provider: provider is not enabled');
    const redirectTo = allowedRedirect(c.req.query('redirect_to')).split('#')[0] ?? siteUrl;
    const accounts = await usersWithProvider(sql, 'google');
    c.header('cache-control', 'no-store');
    return c.html(
      renderGoogleChooser({
        accounts,
        state: oauthStates.issue(redirectTo),
        callbackPath: '/auth/v1/callback',
        cancelUrl: errorRedirect(redirectTo, 'access_denied', 'access_denied', 'The user cancelled the Google sign-in'),
      }),
    );
  });

  app.post('/callback', async (c) => {
    let form: Record<string, unknown>;
    try {
      form = await c.req.parseBody();
    } catch {
      throw new AuthError(400, 'validation_failed', 'Could not parse request body as form data');
    }
    const field = (name: string): string | undefined => {
      const value = form[name];
      return typeof value === 'string' ? value : undefined;
    };
    c.header('cache-control', 'no-store');
    // Only a state /authorize issued, unexpired and unused; the redirect target is the one it was
    // issued for, whatever the form says. Without one there is no trusted target: the site.
    const pending = oauthStates.consume(field('state'));
    if (!pending) {
      return c.redirect(
        errorRedirect(siteUrl, 'invalid_request', 'bad_oauth_state', 'OAuth state is invalid or has expired'),
        302,
      );
    }
    const redirectTo = pending.redirectTo;
    const email = requireValidEmail(field('email'));
    const name = field('name')?.trim() || email.split('@')[0] || email;
    const sub = localGoogleSub(email);
    const identityData: Json = {
      iss: 'https://accounts.google.com',
      sub,
      provider_id: sub,
      email,
      email_verified: true,
      phone_verified: false,
      full_name: name,
      name,
    };
    const client = clientInfo(c);
    const outcome = await sql.begin(async (tx) => {
      const identity = await findIdentity(tx, 'google', sub);
      if (identity) {
        // A returning Google user; the user's metadata is refreshed from the provider each time.
        const existing = await findUserById(tx, identity.user_id, true);
        if (!existing) return { kind: 'no_user' as const };
        await tx`update auth.identities set identity_data = ${jsonb(tx, identityData)},
          last_sign_in_at = now(), updated_at = now() where id = ${identity.id}`;
        const userMetadata = mergeMetadata(existing.raw_user_meta_data ?? {}, identityData);
        await tx`update auth.users set raw_user_meta_data = ${jsonb(tx, userMetadata)}, updated_at = now()
          where id = ${existing.id}`;
        return { kind: 'session' as const, session: await issueSession(tx, existing.id, 'oauth', client) };
      }
      // The chooser proves nothing about the address (anyone can type any email), so it never
      // joins an account that exists already: that would be signing in as its owner.
      if (await findUserByEmail(tx, email, true)) return { kind: 'taken' as const };
      const userId = await insertUser(
        tx,
        {
          email,
          passwordHash: null,
          emailConfirmed: true,
          userMetadata: identityData,
          appMetadata: { provider: 'google', providers: ['google'] },
        },
        { provider: 'google', providerId: sub, identityData },
      );
      return { kind: 'session' as const, session: await issueSession(tx, userId, 'oauth', client) };
    });
    if (outcome.kind === 'taken') {
      return c.redirect(
        errorRedirect(
          redirectTo,
          'access_denied',
          'email_exists',
          'An account with this email address already exists. Sign in with its password.',
        ),
        302,
      );
    }
    if (outcome.kind === 'no_user') {
      return c.redirect(errorRedirect(redirectTo, 'server_error', 'user_not_found', 'User not found'), 302);
    }
    const { session } = outcome;
    const fragment = new URLSearchParams({
      access_token: session.access_token,
      expires_at: String(session.expires_at),
      expires_in: String(session.expires_in),
      refresh_token: session.refresh_token,
      token_type: 'bearer',
      type: 'signup',
    });
    return c.redirect(`${redirectTo}#${fragment.toString()}`, 302);
  });

  // --- Admin (service-role key) ---------------------------------------------------------------

  app.use('/admin/*', async (c, next) => {
    await requireAdmin(c);
    await next();
  });

  app.post('/admin/users', async (c) => {
    const body = await readJson(c);
    const email = requireValidEmail(stringField(body, 'email'));
    const password = stringField(body, 'password');
    const passwordHash = password === undefined ? null : await hashNewPassword(password);
    try {
      const user = await sql.begin(async (tx) => {
        if (await findUserByEmail(tx, email)) {
          throw new AuthError(422, 'email_exists', 'A user with this email address has already been registered');
        }
        const userId = await insertUser(tx, {
          email,
          passwordHash,
          emailConfirmed: body.email_confirm === true,
          userMetadata: objectField(body, 'user_metadata') ?? {},
          appMetadata: { provider: 'email', providers: ['email'], ...objectField(body, 'app_metadata') },
        });
        return loadUserJson(tx, userId);
      });
      return c.json(user);
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new AuthError(422, 'email_exists', 'A user with this email address has already been registered');
      }
      throw error;
    }
  });

  app.get('/admin/users', async (c) => {
    const page = Math.max(1, Number(c.req.query('page')) || 1);
    const perPage = Math.min(1000, Math.max(1, Number(c.req.query('per_page')) || 50));
    const users = await sql.begin(async (tx) => {
      const rows = await tx<{ id: string }[]>`
        select id from auth.users order by created_at desc, id limit ${perPage} offset ${(page - 1) * perPage}`;
      const list: UserJson[] = [];
      for (const row of rows) {
        const user = await loadUserJson(tx, row.id);
        if (user) list.push(user);
      }
      return list;
    });
    return c.json({ users, aud: 'authenticated' });
  });

  function userIdParam(c: Context<Env>): string {
    const id = c.req.param('id') ?? '';
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) {
      throw new AuthError(404, 'validation_failed', 'user_id must be an UUID');
    }
    return id;
  }

  app.get('/admin/users/:id', async (c) => {
    const id = userIdParam(c);
    const user = await sql.begin((tx) => loadUserJson(tx, id));
    if (!user) throw new AuthError(404, 'user_not_found', 'User not found');
    return c.json(user);
  });

  app.put('/admin/users/:id', async (c) => {
    const id = userIdParam(c);
    const body = await readJson(c);
    const password = stringField(body, 'password');
    const passwordHash = password === undefined ? undefined : await hashNewPassword(password);
    const userMetadata = objectField(body, 'user_metadata');
    const appMetadata = objectField(body, 'app_metadata');
    const user = await sql.begin(async (tx) => {
      const current = await findUserById(tx, id, true);
      if (!current) return undefined;
      if (passwordHash) await tx`update auth.users set encrypted_password = ${passwordHash} where id = ${id}`;
      if (body.email_confirm === true) {
        await tx`update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()) where id = ${id}`;
      }
      if (userMetadata) {
        const merged = mergeMetadata(current.raw_user_meta_data ?? {}, userMetadata);
        await tx`update auth.users set raw_user_meta_data = ${jsonb(tx, merged)} where id = ${id}`;
      }
      if (appMetadata) {
        const merged = mergeMetadata(current.raw_app_meta_data ?? {}, appMetadata);
        await tx`update auth.users set raw_app_meta_data = ${jsonb(tx, merged)} where id = ${id}`;
      }
      await tx`update auth.users set updated_at = now() where id = ${id}`;
      return loadUserJson(tx, id);
    });
    if (!user) throw new AuthError(404, 'user_not_found', 'User not found');
    return c.json(user);
  });

  app.delete('/admin/users/:id', async (c) => {
    const id = userIdParam(c);
    const found = await sql.begin(async (tx) => {
      if (!(await findUserById(tx, id, true))) return false;
      await deleteUser(tx, id);
      return true;
    });
    if (!found) throw new AuthError(404, 'user_not_found', 'User not found');
    return c.json({});
  });

  return {
    app,
    async drain() {
      while (backgroundWork.size > 0) await Promise.allSettled([...backgroundWork]);
    },
  };
}
