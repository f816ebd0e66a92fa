// Google sign-in through the local account chooser: supabase-js builds the authorize URL, the
// chooser posts the choice with the one-time state the authorize call issued, and the redirect
// carries a working session (implicit flow) or GoTrue's error parameters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAuth, uniqueEmail, type TestAuth, type TestAuthVariant } from './test-support.ts';

let auth: TestAuth;
/** The same server on a clock that can be moved forward. */
let later: TestAuthVariant;
let clockOffsetMs = 0;

beforeAll(async () => {
  auth = await startTestAuth();
  later = await auth.variant({ now: () => Date.now() + clockOffsetMs });
});

afterAll(async () => {
  await auth?.stop();
});

/** The authorize URL exactly as supabase-js's signInWithOAuth builds it. */
async function authorizeUrl(redirectTo: string, url = auth.url): Promise<string> {
  const { data, error } = await auth
    .client()
    .auth.signInWithOAuth({ provider: 'google', options: { redirectTo, skipBrowserRedirect: true } });
  expect(error).toBeNull();
  return data.url!.replace(auth.url, url);
}

/** Opens the chooser for `redirectTo` and returns the state its forms carry. */
async function openChooser(redirectTo: string, url = auth.url): Promise<string> {
  const page = await fetch(await authorizeUrl(redirectTo, url));
  expect(page.status).toBe(200);
  const state = /name="state" value="([^"]+)"/.exec(await page.text())?.[1];
  expect(state).toMatch(/^[\w-]{40,}$/);
  return state!;
}

/** Posts a chooser choice the way the page's form does; returns the redirect location. */
async function choose(fields: Record<string, string>, url = auth.url): Promise<URL> {
  const res = await fetch(`${url}/auth/v1/callback`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
  expect(res.status).toBe(302);
  return new URL(res.headers.get('location')!);
}

function fragmentOf(location: URL): URLSearchParams {
  return new URLSearchParams(location.hash.slice(1));
}

async function userCount(email: string): Promise<number> {
  const [row] = await auth.sql<{ n: number }[]>`select count(*)::int as n from auth.users where email = ${email}`;
  return row?.n ?? 0;
}

describe('Google sign-in (local chooser)', () => {
  it('shows the chooser, creates the user on a new choice and redirects with working tokens', async () => {
    const redirectTo = `${auth.siteUrl}/auth/callback`;
    const page = await fetch(await authorizeUrl(redirectTo));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('cache-control')).toBe('no-store');
    const html = await page.text();
    expect(html).toContain('Choose an account');
    expect(html).toContain('to continue to <strong>FareBack</strong>');
    expect(html).toContain('Local development stand-in for Google');
    expect(html).toContain('Use another account');
    expect(html).toContain('action="/auth/v1/callback"');
    const state = /name="state" value="([^"]+)"/.exec(html)?.[1];
    expect(state).toBeTruthy();

    const email = uniqueEmail('google');
    const location = await choose({ state: state!, email, name: 'Gail Oogle' });
    expect(location.origin + location.pathname).toBe(redirectTo);
    const fragment = fragmentOf(location);
    expect(fragment.get('token_type')).toBe('bearer');
    expect(fragment.get('expires_in')).toBe('3600');
    expect(fragment.get('type')).toBe('signup');
    expect(Number(fragment.get('expires_at'))).toBeGreaterThan(Date.now() / 1000);

    const client = auth.client();
    const { data, error } = await client.auth.setSession({
      access_token: fragment.get('access_token')!,
      refresh_token: fragment.get('refresh_token')!,
    });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({
      email,
      app_metadata: { provider: 'google', providers: ['google'] },
      user_metadata: { full_name: 'Gail Oogle', email, email_verified: true },
    });
    expect(data.user?.identities?.map((identity) => identity.provider)).toEqual(['google']);
    expect((await client.auth.refreshSession()).error).toBeNull();

    const [row] = await auth.sql<{ provider_id: string; email: string }[]>`
      select provider_id, email from auth.identities where user_id = ${data.user!.id} and provider = 'google'`;
    expect(row?.email).toBe(email);
    expect(row?.provider_id).toMatch(/^\d{21}$/);
    const [profile] = await auth.sql<{ id: string }[]>`select id from public.profiles where id = ${data.user!.id}`;
    expect(profile?.id).toBe(data.user!.id);

    // Next time the account is offered, and choosing it signs in to the same user.
    const again = await (await fetch(await authorizeUrl(redirectTo))).text();
    expect(again).toContain(email);
    expect(again).toContain('Gail Oogle');
    const second = fragmentOf(await choose({ state: await openChooser(redirectTo), email, name: 'Gail Oogle' }));
    const { data: secondUser } = await auth.client().auth.getUser(second.get('access_token')!);
    expect(secondUser.user?.id).toBe(data.user!.id);
  });

  it('refuses a choice without a state the authorize call issued, and a state used twice (finding 5)', async () => {
    const email = uniqueEmail('forged');
    const forged: Record<string, string>[] = [{ email }, { email, state: 'made-up' }, { email, state: '' }];
    for (const fields of forged) {
      const location = await choose(fields);
      expect(location.origin + location.pathname).toBe(`${auth.siteUrl}/`);
      const fragment = fragmentOf(location);
      expect(fragment.get('access_token')).toBeNull();
      expect(fragment.get('error')).toBe('invalid_request');
      expect(fragment.get('error_code')).toBe('bad_oauth_state');
      expect(fragment.get('error_description')).toBe('OAuth state is invalid or has expired');
    }
    expect(await userCount(email)).toBe(0);

    const state = await openChooser(auth.siteUrl);
    expect(fragmentOf(await choose({ state, email })).get('access_token')).toBeTruthy();
    const replayed = fragmentOf(await choose({ state, email }));
    expect(replayed.get('access_token')).toBeNull();
    expect(replayed.get('error_code')).toBe('bad_oauth_state');
  });

  it('refuses a state older than 10 minutes', async () => {
    clockOffsetMs = 0;
    const state = await openChooser(auth.siteUrl, later.url);
    clockOffsetMs = 10 * 60 * 1000 + 1000;
    const email = uniqueEmail('expired');
    const location = await choose({ state, email }, later.url);
    expect(fragmentOf(location).get('error_code')).toBe('bad_oauth_state');
    expect(await userCount(email)).toBe(0);
    clockOffsetMs = 0;
  });

  it("never signs in to an existing account: not an admin's, not any password account's (finding 5)", async () => {
    const email = uniqueEmail('admin');
    const admin = auth.client(auth.serviceRoleKey);
    const { data: created, error } = await admin.auth.admin.createUser({
      email,
      password: 'Admin-pass-1',
      email_confirm: true,
      user_metadata: { username: `adm_${Date.now().toString(36)}` },
    });
    expect(error).toBeNull();
    await auth.sql`select private.make_admin(${email})`;

    const redirectTo = `${auth.siteUrl}/dashboard`;
    const location = await choose({
      state: await openChooser(redirectTo),
      email: email.toUpperCase(),
      name: 'Mallory',
    });
    expect(location.origin + location.pathname).toBe(redirectTo);
    const fragment = fragmentOf(location);
    expect(fragment.get('access_token')).toBeNull();
    expect(fragment.get('refresh_token')).toBeNull();
    // GoTrue's error parameters, in the fragment, where the web app looks for them.
    expect(fragment.get('error')).toBe('access_denied');
    expect(fragment.get('error_code')).toBe('email_exists');
    expect(fragment.get('error_description')).toMatch(/already exists/);

    const [sessions] = await auth.sql<{ n: number }[]>`
      select count(*)::int as n from auth.sessions where user_id = ${created.user!.id}`;
    expect(sessions?.n).toBe(0);
    const identities = await auth.sql<{ provider: string }[]>`
      select provider from auth.identities where user_id = ${created.user!.id}`;
    expect(identities.map((identity) => identity.provider)).toEqual(['email']);
    // The owner's password still works, and the account is not offered in the chooser.
    expect((await auth.client().auth.signInWithPassword({ email, password: 'Admin-pass-1' })).error).toBeNull();
    expect(await (await fetch(await authorizeUrl(redirectTo))).text()).not.toContain(email);
  });

  it('returns only where the authorize call named, and only to the site or the gateway', async () => {
    // Bound at authorize: a target the form names instead is ignored.
    const state = await openChooser(`${auth.siteUrl}/dashboard`);
    const swapped = await choose({ state, email: uniqueEmail('redirect'), redirect_to: 'https://evil.example/steal' });
    expect(swapped.origin + swapped.pathname).toBe(`${auth.siteUrl}/dashboard`);

    const outside = await choose({ state: await openChooser('https://evil.example/steal'), email: uniqueEmail('r') });
    expect(outside.origin).toBe(auth.siteUrl);
    const lookalike = await choose({
      state: await openChooser(`${auth.siteUrl}.evil.example/x`),
      email: uniqueEmail('r'),
    });
    expect(lookalike.origin).toBe(auth.siteUrl);
    const gateway = await choose({ state: await openChooser(`${auth.url}/dashboard?x=1`), email: uniqueEmail('r') });
    expect(gateway.origin + gateway.pathname + gateway.search).toBe(`${auth.url}/dashboard?x=1`);
    expect(fragmentOf(gateway).get('access_token')).toBeTruthy();
  });

  it('refuses other providers, a choice without a valid email, and malformed form data', async () => {
    const github = await fetch(
      `${auth.authUrl}/authorize?provider=github&redirect_to=${encodeURIComponent(auth.siteUrl)}`,
    );
    expect(github.status).toBe(400);
    expect(((await github.json()) as { error_code: string }).error_code).toBe('provider_disabled');

    const res = await fetch(`${auth.authUrl}/callback`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: 'nope', state: await openChooser(auth.siteUrl) }).toString(),
      redirect: 'manual',
    });
    expect(res.status).toBe(400);

    // Finding 6: a multipart body that does not parse is the client's error, not a 500.
    for (const [contentType, body] of [
      ['multipart/form-data; boundary=xyz', '--xyz\r\nContent-Disposition: form-data; name="email"\r\n\r\nbroken'],
      ['multipart/form-data', 'no boundary at all'],
    ] as const) {
      const malformed = await fetch(`${auth.authUrl}/callback`, {
        method: 'POST',
        headers: { 'content-type': contentType },
        body,
        redirect: 'manual',
      });
      expect(malformed.status, contentType).toBe(400);
      expect(await malformed.json()).toEqual({
        code: 400,
        error_code: 'validation_failed',
        msg: 'Could not parse request body as form data',
      });
    }
  });
});
