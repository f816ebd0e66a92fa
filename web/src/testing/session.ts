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
