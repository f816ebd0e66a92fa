// The local auth server driven by the official supabase-js client, as the web app drives it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import {
  startTestAuth,
  uniqueEmail,
  waitForEmail,
  emailsTo,
  type TestAuth,
  type TestAuthVariant,
} from './test-support.ts';
import { sha256Hex } from './store.ts';

let auth: TestAuth;
/** The same server with POST /signup open (AUTH_ENABLE_SIGNUP=true). */
let openSignup: TestAuthVariant;
const PASSWORD = 'Correct-horse-1';

beforeAll(async () => {
  auth = await startTestAuth();
  openSignup = await auth.variant({ enableSignup: true });
});

afterAll(async () => {
  await auth?.stop();
});

/** An account as the api makes one (admin call, confirmed), signed in with its password. */
async function signUp(label: string, data: Record<string, unknown> = {}) {
  const email = uniqueEmail(label);
  const created = await auth
    .client(auth.serviceRoleKey)
    .auth.admin.createUser({ email, password: PASSWORD, email_confirm: true, user_metadata: data });
  expect(created.error).toBeNull();
  const client = auth.client();
  const { data: result, error } = await client.auth.signInWithPassword({ email, password: PASSWORD });
  expect(error).toBeNull();
  expect(result.session).not.toBeNull();
  return { email, client, session: result.session!, user: result.user! };
}

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${auth.authUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

describe('service endpoints', () => {
  it('answers health and settings like GoTrue', async () => {
    const health = await fetch(`${auth.authUrl}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ name: 'GoTrue' });

    const settings = (await (await fetch(`${auth.authUrl}/settings`)).json()) as Record<string, unknown>;
    expect(settings).toMatchObject({
      external: { email: true, google: true, phone: false },
      disable_signup: true,
      mailer_autoconfirm: true,
    });
    const open = (await (await fetch(`${openSignup.authUrl}/settings`)).json()) as Record<string, unknown>;
    expect(open.disable_signup).toBe(false);
  });

  it('publishes a JWKS that verifies the access tokens it issues', async () => {
    const { session, user, email } = await signUp('jwks', { username: 'jwks_user' });
    const jwks = (await (await fetch(`${auth.authUrl}/.well-known/jwks.json`)).json()) as {
      keys: { kid: string; alg: string; kty: string; d?: string }[];
    };
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: 'EC', alg: 'ES256', kid: auth.signingKey.kid });
    expect(jwks.keys[0]?.d).toBeUndefined();

    expect(decodeProtectedHeader(session.access_token)).toMatchObject({ alg: 'ES256', kid: auth.signingKey.kid });
    const { payload } = await jwtVerify(session.access_token, createLocalJWKSet(jwks as never), {
      issuer: `${auth.url}/auth/v1`,
      audience: 'authenticated',
    });
    expect(payload).toMatchObject({
      sub: user.id,
      aud: 'authenticated',
      role: 'authenticated',
      email,
      aal: 'aal1',
      is_anonymous: false,
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: { username: 'jwks_user' },
    });
    expect(typeof payload.session_id).toBe('string');
    expect(payload.amr).toEqual([{ method: 'password', timestamp: expect.any(Number) }]);
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(3600);
    expect(Object.keys(payload).sort()).toEqual(
      [
        'aal',
        'amr',
        'app_metadata',
        'aud',
        'email',
        'exp',
        'iat',
        'is_anonymous',
        'iss',
        'role',
        'session_id',
        'sub',
        'user_metadata',
      ].sort(),
    );
  });

  it('answers CORS preflights from the browser app', async () => {
    const res = await fetch(`${auth.authUrl}/token?grant_type=password`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:4173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, apikey, content-type, x-client-info, x-supabase-api-version',
      },
    });
    expect(res.status).toBeLessThan(300);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:4173');
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    const allowed = res.headers.get('access-control-allow-headers')?.toLowerCase() ?? '';
    for (const header of ['authorization', 'apikey', 'content-type', 'x-client-info', 'x-supabase-api-version']) {
      expect(allowed).toContain(header);
    }
  });
});

describe('CORS for other origins (finding 7)', () => {
  it('gives a page on another origin no CORS headers and no credentials, preflight or not', async () => {
    const { session } = await signUp('cors');
    for (const origin of ['https://evil.example', 'http://localhost:4173.evil.example', 'null']) {
      const preflight = await fetch(`${auth.authUrl}/user`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
      });
      expect(preflight.headers.get('access-control-allow-origin'), origin).toBeNull();
      expect(preflight.headers.get('access-control-allow-credentials'), origin).toBeNull();
      expect(preflight.headers.get('access-control-allow-headers'), origin).toBeNull();

      // The request a page could make without a preflight: answered, but not readable there.
      const read = await fetch(`${auth.authUrl}/user`, {
        headers: { origin, authorization: `Bearer ${session.access_token}` },
      });
      expect(read.headers.get('access-control-allow-origin'), origin).toBeNull();
      expect(read.headers.get('access-control-allow-credentials'), origin).toBeNull();
      expect(read.headers.get('vary')?.toLowerCase()).toContain('origin');
    }
    // The site and the gateway (the server's own public URL) are allowed.
    for (const origin of [auth.siteUrl, auth.url]) {
      const res = await fetch(`${auth.authUrl}/user`, {
        headers: { origin, authorization: `Bearer ${session.access_token}` },
      });
      expect(res.headers.get('access-control-allow-origin')).toBe(origin);
      expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    }
  });
});

describe('request bodies (finding 6)', () => {
  it("refuses a body over 1 MB with 413 in GoTrue's shape, declared or streamed", async () => {
    const big = JSON.stringify({ email: uniqueEmail('big'), password: 'x'.repeat(1024 * 1024) });
    const declared = await post('/token?grant_type=password', JSON.parse(big));
    expect(declared.status).toBe(413);
    expect(await declared.json()).toEqual({
      code: 413,
      error_code: 'request_too_large',
      msg: 'Request body is larger than 1048576 bytes',
    });

    // No Content-Length: the body arrives in chunks and is cut off once past the limit.
    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 20) return controller.close();
        sent += 1;
        controller.enqueue(chunk);
      },
    });
    const streamed = await fetch(`${auth.authUrl}/recover`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(((await streamed.json()) as { error_code: string }).error_code).toBe('request_too_large');

    // Just under the limit is read (and refused for what it says, not for its size).
    const under = await post('/recover', { email: 'not-an-email', padding: 'x'.repeat(1024 * 1024 - 100) });
    expect(under.status).toBe(400);
  });
});

describe('sign-up at /signup (finding 3)', () => {
  it('is refused as on a project with sign-ups off, creating nothing', async () => {
    const email = uniqueEmail('direct');
    const { data, error } = await auth
      .client()
      .auth.signUp({ email, password: PASSWORD, options: { data: { username: 'x' } } });
    expect(data.session).toBeNull();
    expect(error?.status).toBe(422);
    expect(error?.code).toBe('signup_disabled');
    expect(error?.message).toBe('Signups not allowed for this instance');
    const [count] = await auth.sql<{ n: number }[]>`select count(*)::int as n from auth.users where email = ${email}`;
    expect(count?.n).toBe(0);
  });
});

describe('sign-up, when enabled', () => {
  it('creates a confirmed user with a session, and its profile through the trigger', async () => {
    const email = uniqueEmail('signup');
    const { data: created, error: signUpError } = await openSignup
      .client()
      .auth.signUp({ email, password: PASSWORD, options: { data: { username: 'skyler_w' } } });
    expect(signUpError).toBeNull();
    const user = created.user!;
    const session = created.session!;
    expect(user).toMatchObject({
      email,
      aud: 'authenticated',
      role: 'authenticated',
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: { username: 'skyler_w' },
      is_anonymous: false,
    });
    expect(user.email_confirmed_at).toBeTruthy();
    expect(user.identities?.map((identity) => identity.provider)).toEqual(['email']);
    expect(session).toMatchObject({ token_type: 'bearer', expires_in: 3600 });
    expect(session.refresh_token).toBeTruthy();

    const [row] = await auth.sql<{ encrypted_password: string; raw_app_meta_data: unknown }[]>`
      select encrypted_password, raw_app_meta_data from auth.users where id = ${user.id}`;
    expect(row?.encrypted_password).toMatch(/^\$2[aby]\$10\$/);
    expect(row?.raw_app_meta_data).toEqual({ provider: 'email', providers: ['email'] });
    const [profile] = await auth.sql<
      { username: string }[]
    >`select username from public.profiles where id = ${user.id}`;
    expect(profile?.username).toBe('skyler_w');
  });

  it('refuses a taken email with 422 user_already_exists', async () => {
    const { email } = await signUp('taken');
    const { data, error } = await openSignup.client().auth.signUp({ email: email.toUpperCase(), password: PASSWORD });
    expect(data.session).toBeNull();
    expect(error?.status).toBe(422);
    expect(error?.code).toBe('user_already_exists');
  });

  it("refuses a password below config.toml's rules with 422 weak_password and its reasons", async () => {
    const { error } = await openSignup.client().auth.signUp({ email: uniqueEmail('weak'), password: 'Ab1!' });
    expect(error?.status).toBe(422);
    expect(error?.code).toBe('weak_password');
    expect(error?.message).toBe('Password should be at least 8 characters.');
    expect((error as { reasons?: string[] } | null)?.reasons).toEqual(['length']);
  });

  it('refuses an invalid email', async () => {
    const { error } = await openSignup.client().auth.signUp({ email: 'not-an-email', password: PASSWORD });
    expect(error?.status).toBe(400);
    expect(error?.code).toBe('email_address_invalid');
  });

  it('serves concurrent sign-ups and sign-ins (one shared session when the database is PGlite)', async () => {
    const emails = Array.from({ length: 8 }, (_, i) => uniqueEmail(`parallel${i}`));
    const signUps = await Promise.all(
      emails.map((email) => openSignup.client().auth.signUp({ email, password: PASSWORD })),
    );
    expect(signUps.map((result) => result.error)).toEqual(emails.map(() => null));
    const signIns = await Promise.all(
      emails.map((email) => auth.client().auth.signInWithPassword({ email, password: PASSWORD })),
    );
    expect(signIns.every((result) => result.data.session?.access_token)).toBe(true);
  });
});

describe('password sign-in', () => {
  it('signs in with the right password', async () => {
    const { email, user } = await signUp('login');
    const client = auth.client();
    const { data, error } = await client.auth.signInWithPassword({ email, password: PASSWORD });
    expect(error).toBeNull();
    expect(data.user?.id).toBe(user.id);
    expect(data.session?.access_token).toBeTruthy();
    expect(data.user?.last_sign_in_at).toBeTruthy();
  });

  it('refuses a wrong password and an unknown email alike', async () => {
    const { email } = await signUp('wrongpw');
    for (const credentials of [
      { email, password: 'not-the-password' },
      { email: uniqueEmail('nobody'), password: PASSWORD },
    ]) {
      const { data, error } = await auth.client().auth.signInWithPassword(credentials);
      expect(data.session).toBeNull();
      expect(error?.status).toBe(400);
      expect(error?.code).toBe('invalid_credentials');
      expect(error?.message).toBe('Invalid login credentials');
    }
  });

  it('answers errors in both GoTrue shapes, by API version header', async () => {
    const legacy = await post('/token?grant_type=password', { email: uniqueEmail('x'), password: 'nope-nope' });
    expect(legacy.status).toBe(400);
    expect(await legacy.json()).toEqual({
      code: 400,
      error_code: 'invalid_credentials',
      msg: 'Invalid login credentials',
    });

    const versioned = await post(
      '/token?grant_type=password',
      { email: uniqueEmail('x'), password: 'nope-nope' },
      { 'x-supabase-api-version': '2024-01-01' },
    );
    expect(versioned.headers.get('x-supabase-api-version')).toBe('2024-01-01');
    expect(await versioned.json()).toMatchObject({ code: 'invalid_credentials', msg: 'Invalid login credentials' });
  });
});

describe('refresh tokens', () => {
  async function refresh(token: string) {
    const res = await post('/token?grant_type=refresh_token', { refresh_token: token });
    return { status: res.status, body: (await res.json()) as { refresh_token?: string; error_code?: string } };
  }

  /** As if `token` had been revoked `seconds` ago (the database clock decides the reuse interval). */
  async function revokedAgo(token: string, seconds: number) {
    await auth.sql`update auth.refresh_tokens set updated_at = now() - make_interval(secs => ${seconds})
      where token = ${token}`;
  }

  it('rotates the refresh token; within the reuse interval a revoked one yields the active token', async () => {
    const { client, session: first } = await signUp('refresh');

    const { data: second, error } = await client.auth.refreshSession();
    expect(error).toBeNull();
    expect(second.session?.refresh_token).toBeTruthy();
    expect(second.session?.refresh_token).not.toBe(first.refresh_token);
    expect(second.session?.access_token).toBeTruthy();
    expect(second.user?.id).toBe(first.user.id);

    // A client that lost the refresh response, or a second tab refreshing with the same token:
    // the session's active token, not a new one.
    const retry = await refresh(first.refresh_token);
    expect(retry.status).toBe(200);
    expect(retry.body.refresh_token).toBe(second.session?.refresh_token);

    const { data: third, error: thirdError } = await client.auth.refreshSession();
    expect(thirdError).toBeNull();
    expect(third.session?.refresh_token).not.toBe(second.session?.refresh_token);
    // Any revoked token of the session, not only the active one's parent, within the interval.
    const older = await refresh(first.refresh_token);
    expect(older.status).toBe(200);
    expect(older.body.refresh_token).toBe(third.session?.refresh_token);
  });

  it('takes a revoked token presented after the reuse interval as a replay and ends the session (finding 4)', async () => {
    const { client, session: first } = await signUp('replay');
    const { data: second } = await client.auth.refreshSession();
    const current = second.session!;
    // The old token is still the active token's parent: before, that alone let it back in at any time.
    await revokedAgo(first.refresh_token, 11);

    const replay = await refresh(first.refresh_token);
    expect(replay.status).toBe(400);
    expect(replay.body.error_code).toBe('refresh_token_already_used');

    // The whole session is gone: its newest refresh token and its access token no longer work.
    const { error: familyError } = await auth.client().auth.refreshSession({ refresh_token: current.refresh_token });
    expect(familyError?.status).toBe(400);
    expect(familyError?.code).toBe('refresh_token_not_found');
    const { error: userError } = await auth.client().auth.getUser(current.access_token);
    expect(userError?.name).toBe('AuthSessionMissingError');
    const [row] = await auth.sql<{ n: number }[]>`
      select count(*)::int as n from auth.refresh_tokens where token in ${auth.sql([first.refresh_token, current.refresh_token])}`;
    expect(row?.n).toBe(0);

    // Just inside the interval is still a retry, not a replay.
    const { client: other, session: start } = await signUp('replay-edge');
    const { data: next } = await other.auth.refreshSession();
    await revokedAgo(start.refresh_token, 9);
    const retry = await refresh(start.refresh_token);
    expect(retry.status).toBe(200);
    expect(retry.body.refresh_token).toBe(next.session?.refresh_token);
  });

  it('rejects an unknown refresh token with refresh_token_not_found', async () => {
    const { error } = await auth.client().auth.refreshSession({ refresh_token: 'no-such-token' });
    expect(error?.status).toBe(400);
    expect(error?.code).toBe('refresh_token_not_found');
  });
});

describe('the signed-in user', () => {
  it('returns the user for a valid access token and refuses a forged one', async () => {
    const { session, user } = await signUp('getuser');
    const { data, error } = await auth.client().auth.getUser(session.access_token);
    expect(error).toBeNull();
    expect(data.user?.id).toBe(user.id);

    const [header, payload] = session.access_token.split('.');
    const forged = `${header}.${payload}.${'A'.repeat(86)}`;
    const { error: forgedError } = await auth.client().auth.getUser(forged);
    expect(forgedError?.status).toBe(403);
    expect(forgedError?.code).toBe('bad_jwt');

    const missing = await fetch(`${auth.authUrl}/user`);
    expect(missing.status).toBe(401);
    expect(((await missing.json()) as { error_code: string }).error_code).toBe('no_authorization');
  });

  it('updates metadata and the password; the other sessions end', async () => {
    const { client, email } = await signUp('update');
    const other = auth.client();
    const { data: otherLogin } = await other.auth.signInWithPassword({ email, password: PASSWORD });
    expect(otherLogin.session).not.toBeNull();

    const { error: sameError } = await client.auth.updateUser({ password: PASSWORD });
    expect(sameError?.status).toBe(422);
    expect(sameError?.code).toBe('same_password');

    const newPassword = 'Battery-staple-2';
    const { data, error } = await client.auth.updateUser({ password: newPassword, data: { theme: 'dark' } });
    expect(error).toBeNull();
    expect(data.user?.user_metadata).toMatchObject({ theme: 'dark' });

    // The session that changed the password lives on; the other one does not.
    expect((await client.auth.getUser()).error).toBeNull();
    const { error: otherError } = await auth.client().auth.getUser(otherLogin.session!.access_token);
    expect(otherError?.name).toBe('AuthSessionMissingError');

    expect((await auth.client().auth.signInWithPassword({ email, password: PASSWORD })).error?.code).toBe(
      'invalid_credentials',
    );
    expect((await auth.client().auth.signInWithPassword({ email, password: newPassword })).error).toBeNull();
  });

  it("holds a new password to config.toml's rules (finding 3)", async () => {
    const { client } = await signUp('rules');
    const characters = `Password should contain at least one character of each: abcdefghijklmnopqrstuvwxyz, ABCDEFGHIJKLMNOPQRSTUVWXYZ, 0123456789, !@#$%^&*()_+-=[]{};':"|<>?,./\`~.`;
    const cases: Array<[string, string[], string]> = [
      ['Sh0rt!', ['length'], 'Password should be at least 8 characters.'],
      ['alllowercase1!', ['characters'], characters],
      ['NoDigitsHere!', ['characters'], characters],
      ['NoSymbols123', ['characters'], characters],
      ['abc', ['length', 'characters'], `Password should be at least 8 characters. ${characters}`],
    ];
    for (const [password, reasons, message] of cases) {
      const { error } = await client.auth.updateUser({ password });
      expect(error?.status, password).toBe(422);
      expect(error?.code, password).toBe('weak_password');
      expect((error as { reasons?: string[] } | null)?.reasons, password).toEqual(reasons);
      expect(error?.message, password).toBe(message);
    }
    const tooLong = await client.auth.updateUser({ password: `Aa1!${'x'.repeat(69)}` });
    expect(tooLong.error?.status).toBe(400);
    expect(tooLong.error?.message).toBe('Password cannot be longer than 72 characters');
    // FareBack's own rule (one of @$!%*?&) passes.
    expect((await client.auth.updateUser({ password: 'Fareback@2026' })).error).toBeNull();
  });

  it('asks a session older than 24 hours to reauthenticate before changing the password (finding 3)', async () => {
    const { client, session, email } = await signUp('stale');
    // A session signed in long ago, say one stolen from a shared computer.
    const { session_id: sessionId } = decodeJwt<{ session_id: string }>(session.access_token);
    await auth.sql`update auth.sessions set created_at = now() - interval '25 hours' where id = ${sessionId}`;

    const { error } = await client.auth.updateUser({ password: 'Taken-over-1' });
    expect(error?.status).toBe(400);
    expect(error?.code).toBe('reauthentication_needed');
    expect(error?.message).toBe('Password update requires reauthentication');
    expect((await auth.client().auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();

    const { error: wrongNonce } = await client.auth.updateUser({ password: 'Taken-over-1', nonce: '000000' });
    expect(wrongNonce?.status).toBe(422);
    expect(wrongNonce?.code).toBe('reauthentication_not_valid');

    // The owner asks for a code, which is mailed to the account's address.
    expect((await client.auth.reauthenticate()).error).toBeNull();
    const mail = await waitForEmail(auth.mailUrl, email);
    expect(mail.subject).toBe('Confirm reauthentication');
    const code = /Enter the code: (\d{6})/.exec(mail.html)?.[1];
    expect(code).toMatch(/^\d{6}$/);
    const { error: tooSoon } = await client.auth.reauthenticate();
    expect(tooSoon?.status).toBe(429);
    expect(tooSoon?.code).toBe('over_email_send_rate_limit');

    const { error: changed } = await client.auth.updateUser({ password: 'Owner-chose-2', nonce: code! });
    expect(changed).toBeNull();
    expect((await auth.client().auth.signInWithPassword({ email, password: 'Owner-chose-2' })).error).toBeNull();
    // The code is spent.
    const { error: reused } = await client.auth.updateUser({ password: 'Owner-chose-3', nonce: code! });
    expect(reused?.code).toBe('reauthentication_not_valid');
  });
});

describe('sign-out', () => {
  it('ends every session of the user (scope global); the tokens stop working', async () => {
    const { client, session, email } = await signUp('logout');
    const other = auth.client();
    const { data: otherLogin } = await other.auth.signInWithPassword({ email, password: PASSWORD });

    const { error } = await client.auth.signOut();
    expect(error).toBeNull();

    for (const accessToken of [session.access_token, otherLogin.session!.access_token]) {
      const { data, error: userError } = await auth.client().auth.getUser(accessToken);
      expect(data.user).toBeNull();
      expect(userError?.name).toBe('AuthSessionMissingError');
    }
    const { error: refreshError } = await auth.client().auth.refreshSession({ refresh_token: session.refresh_token });
    expect(refreshError?.code).toBe('refresh_token_not_found');
  });

  it('ends only this session (local) or only the others (others)', async () => {
    const { client: first, email } = await signUp('scopes');
    const second = auth.client();
    await second.auth.signInWithPassword({ email, password: PASSWORD });
    const third = auth.client();
    await third.auth.signInWithPassword({ email, password: PASSWORD });
    const tokenOf = async (client: typeof first) => (await client.auth.getSession()).data.session!.access_token;
    const [firstToken, secondToken, thirdToken] = [await tokenOf(first), await tokenOf(second), await tokenOf(third)];

    expect((await first.auth.signOut({ scope: 'local' })).error).toBeNull();
    expect((await auth.client().auth.getUser(firstToken)).error?.name).toBe('AuthSessionMissingError');
    expect((await auth.client().auth.getUser(secondToken)).error).toBeNull();

    expect((await second.auth.signOut({ scope: 'others' })).error).toBeNull();
    expect((await auth.client().auth.getUser(secondToken)).error).toBeNull();
    expect((await auth.client().auth.getUser(thirdToken)).error?.name).toBe('AuthSessionMissingError');

    const bad = await fetch(`${auth.authUrl}/logout?scope=everything`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secondToken}` },
    });
    expect(bad.status).toBe(400);
  });
});

describe('password recovery', () => {
  it('emails a single-use link whose token signs in and lets the password change', async () => {
    const { email, user } = await signUp('recover');
    const client = auth.client();

    const { data, error } = await client.auth.resetPasswordForEmail(email, {
      redirectTo: `${auth.siteUrl}/reset-password`,
    });
    expect(error).toBeNull();
    expect(data).toEqual({});

    const mail = await waitForEmail(auth.mailUrl, email);
    expect(mail.subject).toBe('Reset your FareBack password');
    const link = /href="([^"]*reset-password[^"]*)"/.exec(mail.html)?.[1]?.replace(/&#38;|&amp;/g, '&');
    expect(link).toBeDefined();
    const url = new URL(link!);
    expect(url.origin + url.pathname).toBe(`${auth.siteUrl}/reset-password`);
    const token = url.searchParams.get('token')!;
    expect(token).toMatch(/^[0-9a-f]{56}$/);
    expect(mail.html).toContain(email);
    expect(mail.text).toContain(link!);

    // Only the token's hash is stored.
    const [row] = await auth.sql<{ recovery_token: string; recovery_sent_at: Date | null }[]>`
      select recovery_token, recovery_sent_at from auth.users where id = ${user.id}`;
    expect(row?.recovery_token).toBe(sha256Hex(token));
    expect(row?.recovery_sent_at).toBeInstanceOf(Date);

    // A second request within a minute is refused, as GoTrue's SMTP max frequency does.
    const { error: tooSoon } = await client.auth.resetPasswordForEmail(email);
    expect(tooSoon?.status).toBe(429);
    expect(tooSoon?.code).toBe('over_email_send_rate_limit');
    expect(await emailsTo(auth.mailUrl, email)).toHaveLength(1);

    const { data: verified, error: verifyError } = await client.auth.verifyOtp({ type: 'recovery', token_hash: token });
    expect(verifyError).toBeNull();
    expect(verified.session?.access_token).toBeTruthy();
    expect(verified.user?.id).toBe(user.id);

    const newPassword = 'New-secret-42';
    expect((await client.auth.updateUser({ password: newPassword })).error).toBeNull();
    expect((await auth.client().auth.signInWithPassword({ email, password: newPassword })).error).toBeNull();
    expect((await auth.client().auth.signInWithPassword({ email, password: PASSWORD })).error?.code).toBe(
      'invalid_credentials',
    );

    // Single use.
    const { error: reuse } = await auth.client().auth.verifyOtp({ type: 'recovery', token_hash: token });
    expect(reuse?.status).toBe(403);
    expect(reuse?.code).toBe('otp_expired');
    expect(reuse?.message).toBe('Email link is invalid or has expired');
  });

  it('answers 200 for an unknown address without sending anything', async () => {
    const email = uniqueEmail('ghost');
    const { data, error } = await auth.client().auth.resetPasswordForEmail(email);
    expect(error).toBeNull();
    expect(data).toEqual({});
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await emailsTo(auth.mailUrl, email)).toHaveLength(0);
  });

  it('refuses a recovery token older than an hour', async () => {
    const { user } = await signUp('expired');
    const token = 'f'.repeat(56);
    await auth.sql`update auth.users set recovery_token = ${sha256Hex(token)},
      recovery_sent_at = now() - interval '61 minutes' where id = ${user.id}`;
    const { error } = await auth.client().auth.verifyOtp({ type: 'recovery', token_hash: token });
    expect(error?.status).toBe(403);
    expect(error?.code).toBe('otp_expired');
  });
});

describe('admin API', () => {
  it('creates, reads and deletes users with the service-role key', async () => {
    const admin = auth.client(auth.serviceRoleKey);
    const email = uniqueEmail('admin-made');
    const { data, error } = await admin.auth.admin.createUser({
      email,
      password: PASSWORD,
      email_confirm: true,
      user_metadata: { username: 'made_by_admin' },
    });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({
      email,
      user_metadata: { username: 'made_by_admin' },
      app_metadata: { provider: 'email', providers: ['email'] },
    });
    const id = data.user!.id;
    const [profile] = await auth.sql<{ username: string }[]>`select username from public.profiles where id = ${id}`;
    expect(profile?.username).toBe('made_by_admin');

    expect((await auth.client().auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();

    const { data: fetched } = await admin.auth.admin.getUserById(id);
    expect(fetched.user?.email).toBe(email);

    const { error: duplicate } = await admin.auth.admin.createUser({ email, password: PASSWORD, email_confirm: true });
    expect(duplicate?.status).toBe(422);
    expect(duplicate?.code).toBe('email_exists');

    expect((await admin.auth.admin.deleteUser(id)).error).toBeNull();
    const { error: gone } = await admin.auth.admin.getUserById(id);
    expect(gone?.status).toBe(404);
    expect(gone?.code).toBe('user_not_found');
    expect((await auth.client().auth.signInWithPassword({ email, password: PASSWORD })).error?.code).toBe(
      'invalid_credentials',
    );
  });

  it("holds the admin call to config.toml's password rules too", async () => {
    const admin = auth.client(auth.serviceRoleKey);
    const email = uniqueEmail('admin-weak');
    const { error } = await admin.auth.admin.createUser({ email, password: 'password', email_confirm: true });
    expect(error?.status).toBe(422);
    expect(error?.code).toBe('weak_password');
    const [count] = await auth.sql<{ n: number }[]>`select count(*)::int as n from auth.users where email = ${email}`;
    expect(count?.n).toBe(0);

    const { data } = await admin.auth.admin.createUser({ email, password: PASSWORD, email_confirm: true });
    const { error: updateError } = await admin.auth.admin.updateUserById(data.user!.id, { password: 'weakweak' });
    expect(updateError?.code).toBe('weak_password');
  });

  it('keeps an unconfirmed admin-created user from signing in', async () => {
    const admin = auth.client(auth.serviceRoleKey);
    const email = uniqueEmail('unconfirmed');
    expect((await admin.auth.admin.createUser({ email, password: PASSWORD })).error).toBeNull();
    const { error } = await auth.client().auth.signInWithPassword({ email, password: PASSWORD });
    expect(error?.code).toBe('email_not_confirmed');
  });

  it('refuses the anon key, a user token and no key', async () => {
    const { session } = await signUp('not-admin');
    const body = { email: uniqueEmail('intruder'), password: PASSWORD, email_confirm: true };

    const { error: anonError } = await auth.client().auth.admin.createUser(body);
    expect(anonError?.status).toBe(403);
    expect(anonError?.code).toBe('not_admin');

    const asUser = await post('/admin/users', body, { authorization: `Bearer ${session.access_token}` });
    expect(asUser.status).toBe(403);

    const anonymous = await post('/admin/users', body);
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { error_code: string }).error_code).toBe('no_authorization');

    const [count] = await auth.sql<
      { n: number }[]
    >`select count(*)::int as n from auth.users where email = ${body.email}`;
    expect(count?.n).toBe(0);
  });
});
