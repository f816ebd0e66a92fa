// Verifies `Authorization: Bearer <access token>` for every protected route: against the
// project's JWKS (fetched once and cached by jose, refetched when an unknown key id appears), or
// with the HS256 secret on projects that still sign with one. The token must be a user's access
// token: audience and role 'authenticated', a subject, and not expired.
import { createMiddleware } from 'hono/factory';
import * as jose from 'jose';
import type { AuthClaims } from '../db.ts';
import { HttpError, NOT_AUTHENTICATED } from '../errors.ts';
import type { AppEnv } from '../context.ts';

export type TokenVerifier = (token: string) => Promise<AuthClaims>;

export interface TokenVerifierOptions {
  supabaseUrl: string;
  jwtSecret?: string | null;
  /** Key set to verify asymmetric tokens with; defaults to the project's remote JWKS. */
  jwks?: jose.JWTVerifyGetKey;
  /** Clock tolerance in seconds. */
  clockTolerance?: number;
}

/** Failures that mean "this token is not acceptable"; anything else is Auth being unreachable. */
const TOKEN_REJECTIONS = new Set([
  'ERR_JWT_CLAIM_VALIDATION_FAILED',
  'ERR_JWT_EXPIRED',
  'ERR_JOSE_ALG_NOT_ALLOWED',
  'ERR_JOSE_NOT_SUPPORTED',
  'ERR_JWS_INVALID',
  'ERR_JWT_INVALID',
  'ERR_JWK_INVALID',
  'ERR_JWKS_NO_MATCHING_KEY',
  'ERR_JWKS_MULTIPLE_MATCHING_KEYS',
  'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
]);

export function createTokenVerifier(options: TokenVerifierOptions): TokenVerifier {
  const jwks =
    options.jwks ??
    jose.createRemoteJWKSet(new URL(`${options.supabaseUrl}/auth/v1/.well-known/jwks.json`), {
      timeoutDuration: 5000,
      cooldownDuration: 30_000,
      cacheMaxAge: 10 * 60_000,
    });
  const secret = options.jwtSecret ? new TextEncoder().encode(options.jwtSecret) : null;
  const verifyOptions: jose.JWTVerifyOptions = {
    audience: 'authenticated',
    requiredClaims: ['sub', 'exp'],
    clockTolerance: options.clockTolerance ?? 0,
  };

  return async (token) => {
    let alg: string | undefined;
    try {
      alg = jose.decodeProtectedHeader(token).alg;
    } catch {
      throw new HttpError(401, NOT_AUTHENTICATED);
    }
    let payload: jose.JWTPayload;
    try {
      if (alg === 'HS256') {
        if (!secret) throw new HttpError(401, NOT_AUTHENTICATED);
        ({ payload } = await jose.jwtVerify(token, secret, { ...verifyOptions, algorithms: ['HS256'] }));
      } else {
        ({ payload } = await jose.jwtVerify(token, jwks, {
          ...verifyOptions,
          algorithms: ['ES256', 'RS256', 'EdDSA'],
        }));
      }
    } catch (error) {
      if (error instanceof HttpError) throw error;
      if (error instanceof jose.errors.JOSEError && TOKEN_REJECTIONS.has(error.code)) {
        throw new HttpError(401, NOT_AUTHENTICATED);
      }
      // The key set could not be fetched (timeout, refused, not 200): not the caller's fault.
      throw new HttpError(503, 'Authentication service is unavailable. Please try again later.');
    }
    if (payload.role !== 'authenticated' || typeof payload.sub !== 'string' || payload.sub === '') {
      throw new HttpError(401, NOT_AUTHENTICATED);
    }
    return payload as AuthClaims;
  };
}

/**
 * Remembers tokens whose signature and claims checked out, so a client's next requests with the
 * same token skip the signature verification (a good part of a small request's CPU in
 * bench/api.ts). An entry lasts until the token expires, and at most as long as the key set is
 * cached (10 minutes), so a key removed from the JWKS stops working about as soon as it would
 * without this cache. The session check (withSessionCheck) still runs on every request.
 */
export function withVerifiedTokenCache(
  verify: TokenVerifier,
  { maxEntries = 5000, maxAgeMs = 10 * 60_000, now = () => Date.now() } = {},
): TokenVerifier {
  const cache = new Map<string, { claims: AuthClaims; until: number }>();
  return async (token) => {
    const hit = cache.get(token);
    if (hit) {
      if (hit.until > now()) return hit.claims;
      cache.delete(token);
    }
    const claims = await verify(token);
    if (cache.size >= maxEntries) {
      // Maps keep insertion order: the first key is the oldest entry
      const oldest = cache.keys().next().value;
      if (oldest !== undefined) cache.delete(oldest);
    }
    cache.set(token, { claims, until: Math.min(claims.exp * 1000, now() + maxAgeMs) });
    return claims;
  };
}

/**
 * A signed access token stays valid until it expires (up to an hour), even after its session is
 * signed out. Like Supabase Auth's own getUser(), the api also asks whether the token's session
 * still exists, so logging out (or a password reset, which ends every session) takes effect at
 * once. `sessionExists` answers from auth.sessions through the service connection.
 */
export function withSessionCheck(
  verify: TokenVerifier,
  sessionExists: (sessionId: string, userId: string) => Promise<boolean>,
): TokenVerifier {
  return async (token) => {
    const claims = await verify(token);
    if (typeof claims.session_id !== 'string' || claims.session_id === '') {
      throw new HttpError(401, NOT_AUTHENTICATED);
    }
    if (!(await sessionExists(claims.session_id, claims.sub))) throw new HttpError(401, NOT_AUTHENTICATED);
    return claims;
  };
}

/** The bearer token of a request, or null when there is none. */
export function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1] ?? null;
}

/** Guards every route mounted after it; handlers read `c.var.claims`. */
export const requireAuth = createMiddleware<AppEnv>(async (c, next) => {
  const token = bearerToken(c.req.header('Authorization'));
  if (!token) throw new HttpError(401, NOT_AUTHENTICATED);
  const claims = await c.var.deps.verifyAccessToken(token);
  c.set('claims', claims);
  c.set('userId', claims.sub);
  await next();
});
