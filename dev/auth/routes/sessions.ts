// Starting and ending sessions: sign-up (off unless enabled), the token grants (password, with the
// login limiter in front; refresh, with GoTrue's reuse interval) and logout.
import { Hono } from 'hono';
import type { AuthContext, Env } from '../context.ts';
import { AuthError, rateLimitError } from '../errors.ts';
import { LoginLimiter } from '../login-limiter.ts';
import { createPasswordVerifier } from '../passwords.ts';
import { isUniqueViolation, objectField, readJson, requireValidEmail, stringField } from '../request.ts';
import {
  activeRefreshToken,
  deleteSession,
  deleteSessions,
  findRefreshToken,
  findSession,
  findUserByEmail,
  insertUser,
  rotateRefreshToken,
} from '../store.ts';

const LOGOUT_SCOPES = ['global', 'local', 'others'] as const;

export function sessionRoutes(ctx: AuthContext): Hono<Env> {
  const { deps, sql, sessionMethods, clientInfo, hashNewPassword, issueSession, sessionResponse, authenticate } = ctx;
  const routes = new Hono<Env>();
  const limiter = new LoginLimiter(deps.loginLimits, deps.now);
  const verifyPassword = createPasswordVerifier(deps.passwords);

  routes.post('/signup', async (c) => {
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

  routes.post('/token', async (c) => {
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

  routes.post('/logout', async (c) => {
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

  return routes;
}
