import { sessionStorageKey } from '@/lib/supabase';

/** A syntactically valid JWT (not signed): supabase-js reads its claims, never its signature. */
export function fakeJwt(payload: Record<string, unknown>): string {
  const encode = (part: object) =>
    btoa(JSON.stringify(part)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${encode({ alg: 'ES256', typ: 'JWT' })}.${encode(payload)}.c2lnbmF0dXJl`;
}

/** The Supabase Auth session register and login answer with, for `userId`, valid one hour. */
export function buildSession(userId: string) {
  const exp = Math.floor(Date.now() / 1000) + 3600;
  return {
    access_token: fakeJwt({ sub: userId, exp, aud: 'authenticated', role: 'authenticated' }),
    refresh_token: 'refresh-token',
    expires_at: exp,
    expires_in: 3600,
    token_type: 'bearer',
  };
}

/**
 * Saves a session for `userId` where supabase-js keeps it, as after a sign-in: the app asks the
 * api who is signed in (GET /api/auth/me) only when this browser holds a session.
 */
export function storeSession(userId: string): void {
  const session = buildSession(userId);
  const user = { id: userId, aud: 'authenticated', role: 'authenticated', app_metadata: {}, user_metadata: {} };
  window.localStorage.setItem(sessionStorageKey(), JSON.stringify({ ...session, user }));
}
