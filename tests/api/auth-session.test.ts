import { decodeJwt, generateKeyPair, SignJWT } from 'jose';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { apiClient, databaseClient, signWithStackKey } from './client.ts';
import { newIp, registerUser } from './factories.ts';

const api = apiClient();
const sql = databaseClient();

describe('GET /api/auth/me', () => {
  it("answers the signed-in user's profile", async () => {
    const user = await registerUser(api);
    const res = await api.get<{ user: Record<string, unknown> }>('/auth/me', { token: user.session.access_token });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ id: user.id, username: user.username, email: user.email, isAdmin: false });
  });

  it('is 401 without a token', async () => {
    const res = await api.get('/auth/me');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'Not authenticated' });
  });

  it('is 401 for a malformed token or another scheme', async () => {
    for (const authorization of ['Bearer not.a.jwt', 'Bearer abc', 'Basic dXNlcjpwYXNz', 'Bearer ']) {
      const res = await api.get('/auth/me', { headers: { Authorization: authorization } });
      expect(res.status, authorization).toBe(401);
      expect(res.body).toEqual({ message: 'Not authenticated' });
    }
  });

  it('is 401 for a token signed by another key, even under the real key id', async () => {
    const user = await registerUser(api);
    const realKid = (JSON.parse(await readFile(api.stack.signingKeyPath, 'utf8')) as { kid: string }).kid;
    const { privateKey } = await generateKeyPair('ES256');
    const forged = await new SignJWT({ sub: user.id, aud: 'authenticated', role: 'authenticated', email: user.email })
      .setProtectedHeader({ alg: 'ES256', kid: realKid, typ: 'JWT' })
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);
    const res = await api.get('/auth/me', { token: forged });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'Not authenticated' });

    // an HS256 token signed with a guessable secret (the anon key) is refused as well
    const hs = await new SignJWT({ sub: user.id, aud: 'authenticated', role: 'authenticated' })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(api.stack.anonKey));
    expect((await api.get('/auth/me', { token: hs })).status).toBe(401);

    // an unsigned token
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const payload = Buffer.from(
      JSON.stringify({ sub: user.id, aud: 'authenticated', role: 'authenticated', exp: 9_999_999_999 }),
    ).toString('base64url');
    expect((await api.get('/auth/me', { token: `${header}.${payload}.` })).status).toBe(401);
  });

  it('is 401 for an expired token signed by the real key (and 200 for the same token unexpired)', async () => {
    const user = await registerUser(api);
    const { session_id } = decodeJwt(user.session.access_token);
    const claims = { sub: user.id, email: user.email, session_id };
    expect((await api.get('/auth/me', { token: await signWithStackKey(claims) })).status).toBe(200);
    const expired = await signWithStackKey(claims, { expiresIn: -60 });
    const res = await api.get('/auth/me', { token: expired });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'Not authenticated' });
  });

  it('is 401 for a token signed by the real key that names no live session', async () => {
    const user = await registerUser(api);
    for (const session_id of [undefined, crypto.randomUUID()]) {
      const token = await signWithStackKey({ sub: user.id, email: user.email, ...(session_id ? { session_id } : {}) });
      expect((await api.get('/auth/me', { token })).status).toBe(401);
    }
  });

  it('is 401 for real tokens that are not a user session: the anon key, the wrong audience', async () => {
    expect((await api.get('/auth/me', { token: api.stack.anonKey })).status).toBe(401);
    const user = await registerUser(api);
    const otherAudience = await signWithStackKey({ sub: user.id, aud: 'some-other-service' });
    expect((await api.get('/auth/me', { token: otherAudience })).status).toBe(401);
  });

  it('is 401 for a valid token whose account no longer exists', async () => {
    const user = await registerUser(api);
    await sql`delete from auth.users where id = ${user.id}`;
    const res = await api.get('/auth/me', { token: user.session.access_token });
    expect(res.status).toBe(401);
  });
});

describe('POST /api/auth/logout', () => {
  it('revokes the session: its refresh token no longer works', async () => {
    const user = await registerUser(api);
    const res = await api.post('/auth/logout', undefined, { token: user.session.access_token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Logged out' });
    const refresh = await fetch(`${api.stack.authUrl}/token?grant_type=refresh_token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', apikey: api.stack.anonKey },
      body: JSON.stringify({ refresh_token: user.session.refresh_token }),
    });
    expect(refresh.status).toBe(400);
  });

  it('ends the session at once: its access token is refused, other sessions go on', async () => {
    const user = await registerUser(api);
    const other = await api.post('/auth/login', { username: user.username, password: user.password });
    expect(other.status).toBe(200);
    const otherToken = (other.body as { session: { access_token: string } }).session.access_token;
    expect((await api.get('/auth/me', { token: user.session.access_token })).status).toBe(200);
    await api.post('/auth/logout', undefined, { token: user.session.access_token });
    expect((await api.get('/auth/me', { token: user.session.access_token })).status).toBe(401);
    expect((await api.get('/auth/me', { token: otherToken })).status).toBe(200);
  });

  it('is 200 without a session, with a bad token, and when repeated', async () => {
    const user = await registerUser(api);
    for (const token of [undefined, 'garbage', user.session.access_token, user.session.access_token]) {
      const res = await api.post('/auth/logout', undefined, token ? { token } : {});
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'Logged out' });
    }
  });
});

describe('GET /api/auth/google', () => {
  it("redirects to Supabase Auth's Google provider, returning to the dashboard", async () => {
    const res = await api.get('/auth/google', { ip: newIp() });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(
      `${api.stack.url}/auth/v1/authorize?provider=google&redirect_to=${encodeURIComponent(`${api.stack.url}/dashboard`)}`,
    );
    // the local auth server answers it with the account chooser
    const chooser = await fetch(res.headers.get('location') ?? '', { redirect: 'manual' });
    expect(chooser.status).toBeLessThan(400);
  });
});
