// Access tokens as Supabase Auth issues them: ES256 JWTs (header kid) with GoTrue's claim set,
// living one hour; and the verification the user-facing endpoints apply to a bearer token.
import { SignJWT, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import { AuthError } from './errors.ts';
import { SIGNING_ALG, type SigningKey } from './keys.ts';
import type { UserRow } from './store.ts';

export const ACCESS_TOKEN_SECONDS = 3600;

/** GoTrue's authentication methods, as they appear in the `amr` claim. */
export type AuthMethod = 'password' | 'oauth' | 'recovery' | 'otp';

export interface AmrEntry {
  method: AuthMethod;
  timestamp: number;
}

export interface AccessTokenClaims extends JWTPayload {
  sub: string;
  aud: string;
  role: string;
  email: string;
  exp: number;
  iat: number;
  iss: string;
  session_id: string;
  aal: string;
  amr: AmrEntry[];
  app_metadata: Record<string, unknown>;
  user_metadata: Record<string, unknown>;
  is_anonymous: boolean;
}

export async function signAccessToken(
  key: SigningKey,
  issuer: string,
  user: UserRow,
  sessionId: string,
  amr: AmrEntry[],
): Promise<{ token: string; expiresAt: number }> {
  const iat = Math.floor(Date.now() / 1000);
  const exp = iat + ACCESS_TOKEN_SECONDS;
  const claims: AccessTokenClaims = {
    sub: user.id,
    aud: user.aud ?? 'authenticated',
    role: user.role ?? 'authenticated',
    email: user.email ?? '',
    exp,
    iat,
    iss: issuer,
    session_id: sessionId,
    aal: 'aal1',
    amr,
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    is_anonymous: user.is_anonymous,
  };
  const token = await new SignJWT(claims)
    .setProtectedHeader({ alg: SIGNING_ALG, kid: key.kid, typ: 'JWT' })
    .sign(key.privateKey);
  return { token, expiresAt: exp };
}

/** The bearer token of a request, or a 401 as GoTrue sends when there is none. */
export function bearerToken(authorization: string | undefined): string {
  const match = authorization ? /^bearer\s+(\S+)\s*$/i.exec(authorization) : null;
  if (!match?.[1]) throw new AuthError(401, 'no_authorization', 'This endpoint requires a valid Bearer token');
  return match[1];
}

/** Verifies signature and expiry; the caller checks that the session still exists. */
export async function verifyJwt(key: SigningKey, token: string): Promise<JWTPayload> {
  try {
    const { payload } = await jwtVerify(token, key.publicKey, { algorithms: [SIGNING_ALG] });
    return payload;
  } catch (error) {
    const reason =
      error instanceof joseErrors.JWTExpired
        ? 'token has invalid claims: token is expired'
        : error instanceof Error
          ? error.message
          : String(error);
    throw new AuthError(403, 'bad_jwt', `invalid JWT: unable to parse or verify signature, ${reason}`);
  }
}
