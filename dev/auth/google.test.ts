// Google sign-in through the local account chooser: supabase-js builds the authorize URL, the
// chooser posts the choice, and the redirect carries a working session (implicit flow).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAuth, uniqueEmail, type TestAuth } from './test-support.ts';

let auth: TestAuth;

beforeAll(async () => {
  auth = await startTestAuth();
});

afterAll(async () => {
  await auth?.stop();
});

/** The authorize URL exactly as supabase-js's signInWithOAuth builds it. */
async function authorizeUrl(redirectTo: string): Promise<string> {
  const { data, error } = await auth
    .client()
    .auth.signInWithOAuth({ provider: 'google', options: { redirectTo, skipBrowserRedirect: true } });
  expect(error).toBeNull();
  return data.url!;
}

/** Posts a chooser choice the way the page's form does; returns the redirect location. */
async function choose(fields: Record<string, string>): Promise<URL> {
  const res = await fetch(`${auth.authUrl}/callback`, {
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

describe('Google sign-in (local chooser)', () => {
  it('shows the chooser, creates the user on a new choice and redirects with working tokens', async () => {
    const redirectTo = `${auth.siteUrl}/auth/callback`;
    const page = await fetch(await authorizeUrl(redirectTo));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain('Choose an account');
    expect(html).toContain('to continue to <strong>FareBack</strong>');
    expect(html).toContain('Local development stand-in for Google');
    expect(html).toContain('Use another account');
    expect(html).toContain('action="/auth/v1/callback"');
    expect(html).toContain(`name="redirect_to" value="${redirectTo}"`);

    const email = uniqueEmail('google');
    const location = await choose({ email, name: 'Gail Oogle', redirect_to: redirectTo });
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
    const second = fragmentOf(await choose({ email, name: 'Gail Oogle', redirect_to: redirectTo }));
    const { data: secondUser } = await auth.client().auth.getUser(second.get('access_token')!);
    expect(secondUser.user?.id).toBe(data.user!.id);
  });

  it('links Google to an existing password account with the same email', async () => {
    const email = uniqueEmail('linked');
    const signUp = await auth
      .client()
      .auth.signUp({ email, password: 'password-123', options: { data: { username: 'linky' } } });
    expect(signUp.error).toBeNull();

    const fragment = fragmentOf(await choose({ email, name: 'Linda Linked', redirect_to: auth.siteUrl }));
    const { data } = await auth.client().auth.getUser(fragment.get('access_token')!);
    expect(data.user?.id).toBe(signUp.data.user!.id);
    expect(data.user?.app_metadata.providers).toEqual(['email', 'google']);
    expect(data.user?.user_metadata).toMatchObject({ username: 'linky', full_name: 'Linda Linked' });
    expect(data.user?.identities?.map((identity) => identity.provider).sort()).toEqual(['email', 'google']);
    // The password still works.
    expect((await auth.client().auth.signInWithPassword({ email, password: 'password-123' })).error).toBeNull();
  });

  it('redirects only to the site or the gateway', async () => {
    const outside = await choose({ email: uniqueEmail('redirect'), redirect_to: 'https://evil.example/steal' });
    expect(outside.origin).toBe(auth.siteUrl);
    const lookalike = await choose({ email: uniqueEmail('redirect'), redirect_to: `${auth.siteUrl}.evil.example/x` });
    expect(lookalike.origin).toBe(auth.siteUrl);
    const gateway = await choose({ email: uniqueEmail('redirect'), redirect_to: `${auth.url}/dashboard?x=1` });
    expect(gateway.origin + gateway.pathname + gateway.search).toBe(`${auth.url}/dashboard?x=1`);
    expect(fragmentOf(gateway).get('access_token')).toBeTruthy();
  });

  it('refuses other providers and a choice without a valid email', async () => {
    const github = await fetch(
      `${auth.authUrl}/authorize?provider=github&redirect_to=${encodeURIComponent(auth.siteUrl)}`,
    );
    expect(github.status).toBe(400);
    expect(((await github.json()) as { error_code: string }).error_code).toBe('provider_disabled');

    const res = await fetch(`${auth.authUrl}/callback`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: 'nope', redirect_to: auth.siteUrl }).toString(),
      redirect: 'manual',
    });
    expect(res.status).toBe(400);
  });
});
