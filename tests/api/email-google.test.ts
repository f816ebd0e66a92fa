// Gmail through OAuth, end to end against the local stand-in of Google (dev/google/server.ts): a
// stack of this file's own whose Google endpoints are the stand-in's base URL, configured as a
// deployment is (no sample mailbox). The browser's part is played by following redirects by hand:
// the authorization URL, the consent page, Google's redirect to /oauth2callback through the
// gateway, the api's redirect to /connect-email and that page's exchange under the browser's own
// session. Also the forwarding address, over HTTP with
// the inbound secret and through the mail catcher's SMTP port.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGoogleStandIn, type GoogleStandIn } from '../../dev/google/server.ts';
import type {
  ConfirmHeldBookingResponse,
  EmailConnectionResponse,
  EmailConnectResponse,
  HeldBookingsResponse,
  ImportedEmailsResponse,
  InboundEmailResponse,
  OAuthConfigResponse,
} from '../../supabase/functions/_shared/types/email.ts';
import type { Flight } from '../../supabase/functions/_shared/types/flights.ts';
import type { CurrentUserResponse } from '../../supabase/functions/_shared/types/user.ts';
import { SKIPPED } from '../../supabase/functions/_shared/extraction/budget.ts';
import {
  bcbp,
  buildPdf,
  buildWalletPass,
  pdfTable,
} from '../../supabase/functions/_shared/extraction/testing/attachment-factory.ts';
import { buildEmail } from '../../supabase/functions/_shared/extraction/testing/email-factory.ts';
import { newIp, registerUser, type RegisteredUser } from './factories.ts';
import { startOwnStack, type OwnStack } from './own-stack.ts';

const INBOUND_SECRET = 'inbound-test-secret-0123456789abcdef';
const mailbox = path.resolve(import.meta.dirname, '../../dev/mailbox');
let google: GoogleStandIn;
let own: OwnStack;

beforeAll(async () => {
  google = await startGoogleStandIn();
  own = await startOwnStack('email-google', {
    apiEnv: {
      GOOGLE_CLIENT_ID: google.clientId,
      GOOGLE_CLIENT_SECRET: google.clientSecret,
      GOOGLE_ACCOUNTS_URL: google.url,
      GOOGLE_OAUTH2_URL: google.url,
      GMAIL_API_URL: google.url,
      EMAIL_DEV_MAILBOX: 'false',
      INBOUND_EMAIL_SECRET: INBOUND_SECRET,
    },
  });
}, 180_000);

afterAll(async () => {
  await own?.stop();
  await google?.stop();
});

const auth = (user: RegisteredUser) => ({ token: user.session.access_token, ip: newIp() });

async function connectUrl(user: RegisteredUser): Promise<URL> {
  const res = await own.api.get<EmailConnectResponse>('/email/connect', auth(user));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return new URL(res.body.authUrl);
}

/** The consent page's choice: answers where Google sends the browser (the redirect URI with code or error). */
async function consent(authUrl: URL, email: string, choice: 'allow' | 'deny' = 'allow'): Promise<URL> {
  const page = await fetch(authUrl, { redirect: 'manual' });
  expect(page.status).toBe(200);
  const html = await page.text();
  const request = /name="state" value="([^"]+)"/.exec(html)?.[1] ?? '';
  const res =
    choice === 'allow'
      ? await fetch(`${google.url}/o/oauth2/v2/approve`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ state: request, email, name: 'Julia Harper' }).toString(),
          redirect: 'manual',
        })
      : await fetch(`${google.url}/o/oauth2/v2/deny?request=${request}`, { redirect: 'manual' });
  expect(res.status).toBe(302);
  return new URL(res.headers.get('location') ?? '');
}

/**
 * A browser arriving at /oauth2callback: the api sends it on to /connect-email, and that page,
 * when Google gave a code, finishes the connection with the session the browser holds
 * (`session`: its own sign-in, which may not be the one that started the attempt). Answers the
 * outcome as the page shows it: '?email_connected=true' or '?error=<code>' ('?status=<n>' when
 * the exchange is refused before the api looks at it, e.g. 401 without a live session).
 */
async function callback(url: URL | string, session: RegisteredUser | null = null): Promise<string> {
  const res = await fetch(url, { redirect: 'manual' });
  expect(res.status).toBe(302);
  expect(res.headers.get('set-cookie')).toBeNull();
  const location = new URL(res.headers.get('location') ?? '');
  expect(location.origin + location.pathname).toBe(`${own.stack.url}/connect-email`);
  const code = location.searchParams.get('code');
  if (code === null) return location.search;
  expect(session, 'a code reaches a page that needs a session to finish it').not.toBeNull();
  const exchanged = await own.api.post<{ error?: string }>(
    '/email/oauth-exchange',
    { code, state: location.searchParams.get('state') },
    auth(session as RegisteredUser),
  );
  if (exchanged.status === 200) return '?email_connected=true';
  return exchanged.body.error ? `?error=${exchanged.body.error}` : `?status=${exchanged.status}`;
}

async function connection(user: RegisteredUser): Promise<EmailConnectionResponse['connection']> {
  return (await own.api.get<EmailConnectionResponse>('/email/connection', auth(user))).body.connection;
}

/** Runs queued work as the scheduler does until the user's scan has ended. */
async function scanEnded(user: RegisteredUser): Promise<EmailConnectionResponse['connection']> {
  let last: EmailConnectionResponse['connection'] | undefined;
  await expect
    .poll(
      async () => {
        await own.api.post('/internal/jobs', undefined, {
          headers: { Authorization: `Bearer ${own.stack.cronSecret}` },
        });
        last = await connection(user);
        return last.scan?.status;
      },
      { timeout: 60_000, interval: 300 },
    )
    .toMatch(/^(done|failed)$/);
  return last as EmailConnectionResponse['connection'];
}

async function flights(user: RegisteredUser): Promise<Flight[]> {
  return (await own.api.get<{ flights: Flight[] }>('/flights', auth(user))).body.flights;
}

async function connected(user: RegisteredUser, email: string): Promise<void> {
  const back = await callback(await consent(await connectUrl(user), email), user);
  expect(back).toBe('?email_connected=true');
}

function sample(name: string, to?: string): string {
  const raw = readFileSync(path.join(mailbox, name), 'utf8');
  return to ? raw.replace(/^To: .*$/m, `To: ${to}`) : raw;
}

describe('Gmail configured (a deployment)', () => {
  it('reports the client as available and offers no development mailbox', async () => {
    const user = await registerUser(own.api);
    const config = await own.api.get<OAuthConfigResponse>('/oauth/config', auth(user));
    expect(config.body).toMatchObject({
      clientIdAvailable: true,
      clientSecretAvailable: true,
      devConnectAvailable: false,
    });
    const dev = await own.api.get<{ message: string }>('/email/connect-dev', auth(user));
    expect(dev.status).toBe(404);
    expect(dev.body.message).toBe('The development mailbox is not available on this server.');
  });

  it("builds Google's authorization URL: read-only Gmail, offline access, a state and PKCE S256", async () => {
    const user = await registerUser(own.api);
    const url = await connectUrl(user);
    expect(url.origin + url.pathname).toBe(`${google.url}/o/oauth2/v2/auth`);
    const p = url.searchParams;
    expect(p.get('client_id')).toBe(google.clientId);
    expect(p.get('redirect_uri')).toBe(`${own.stack.url}/oauth2callback`);
    expect(p.get('scope')).toBe('https://www.googleapis.com/auth/gmail.readonly');
    expect(p.get('access_type')).toBe('offline');
    expect(p.get('code_challenge_method')).toBe('S256');
    expect(p.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(p.get('state')).toMatch(/^[\w-]{43}$/);
    const second = await connectUrl(user);
    expect(second.searchParams.get('state')).not.toBe(p.get('state'));
  });
});

describe('GET /oauth2callback', () => {
  it('connects: tokens stored encrypted, the Gmail address kept, the inbox scanned into flights', async () => {
    const user = await registerUser(own.api);
    const email = `julia.${user.id.slice(0, 8)}@gmail.com`;
    await connected(user, email);

    const me = await own.api.get<CurrentUserResponse>('/auth/me', auth(user));
    expect(me.body.user).toMatchObject({ emailConnected: true, emailConnectionState: 'connected' });
    const [row] = await own.sql`
      select provider, provider_account_email, access_token_encrypted, refresh_token_encrypted
        from public.email_connections where user_id = ${user.id}`;
    expect(row).toMatchObject({ provider: 'gmail', provider_account_email: email });
    expect(row?.access_token_encrypted).toMatch(/^v1\./);
    expect(row?.access_token_encrypted).not.toContain('ya29');
    expect(row?.refresh_token_encrypted).toMatch(/^v1\./);

    const done = await scanEnded(user);
    expect(done.scan).toMatchObject({
      status: 'done',
      mode: 'full',
      scanned: 11,
      total: 11,
      flightsFound: 5,
      flightsHeld: 1,
    });
    expect(done.accountEmail).toBe(email);
    const found = await flights(user);
    expect(found.map((f) => f.bookingCode).sort()).toEqual(['5TQ8ZL', 'GHT4WR', 'K7PQ2M', 'QWMBXA', 'X4NR9B']);
    expect(found.find((f) => f.bookingCode === 'K7PQ2M')?.emailSource).toMatchObject({ via: 'gmail' });

    // after the first scan, only what Gmail's history adds is read
    google.deliver(email, sample('05-british-airways-return.eml').replace(/X4NR9B|X4NR=\r?\n9B/g, 'Y7RT2C'));
    const again = await own.api.post('/email/scan', {}, auth(user));
    expect(again.status).toBe(202);
    const incremental = await scanEnded(user);
    expect(incremental.scan).toMatchObject({
      status: 'done',
      mode: 'incremental',
      total: 1,
      scanned: 1,
      flightsFound: 1,
    });
    expect((await flights(user)).map((f) => f.bookingCode)).toContain('Y7RT2C');

    // the callback cannot be replayed: its state was spent
    expect(await callback(`${own.stack.url}/oauth2callback?code=anything&state=anything`, user)).toBe(
      '?error=oauth_invalid',
    );
  });

  it('answers oauth_invalid for a wrong, missing, reused or expired state; a session that ended cannot exchange (401)', async () => {
    const user = await registerUser(own.api);
    const email = `w.${user.id.slice(0, 8)}@gmail.com`;
    const redirect = await consent(await connectUrl(user), email);
    const code = redirect.searchParams.get('code') ?? '';
    expect(await callback(`${own.stack.url}/oauth2callback?code=${code}&state=not-the-state`, user)).toBe(
      '?error=oauth_invalid',
    );
    expect(await callback(`${own.stack.url}/oauth2callback?state=${redirect.searchParams.get('state')}`)).toBe(
      '?error=oauth_invalid',
    );
    expect(await callback(`${own.stack.url}/oauth2callback`)).toBe('?error=oauth_invalid');

    const late = await consent(await connectUrl(user), email);
    await own.sql`update private.email_oauth_attempts set expires_at = now() - interval '1 second'
                   where user_id = ${user.id} and used_at is null`;
    expect(await callback(late, user)).toBe('?error=oauth_invalid');

    const ended = await consent(await connectUrl(user), email);
    await own.api.post('/auth/logout', undefined, { token: user.session.access_token });
    expect(await callback(ended, user)).toBe('?status=401');
    const [row] = await own.sql`select count(*)::int as n from public.email_connections where user_id = ${user.id}`;
    expect(row?.n).toBe(0);
  });

  it('answers oauth_token_failed when Google refuses the code: reused, or a verifier that does not match', async () => {
    const user = await registerUser(own.api);
    const email = `t.${user.id.slice(0, 8)}@gmail.com`;
    const first = await consent(await connectUrl(user), email);
    expect(await callback(first, user)).toBe('?email_connected=true');
    // the same code again, under a fresh state of the same session
    const fresh = await connectUrl(user);
    const reused = new URL(first);
    reused.searchParams.set('state', fresh.searchParams.get('state') ?? '');
    expect(await callback(reused, user)).toBe('?error=oauth_token_failed');

    const other = await consent(await connectUrl(user), email);
    await own.sql`update private.email_oauth_attempts set code_verifier = 'not-the-verifier'
                   where user_id = ${user.id} and used_at is null`;
    expect(await callback(other, user)).toBe('?error=oauth_token_failed');
  });

  it('refuses a token request without the PKCE verifier, and an authorization without a challenge (the stand-in keeps the rule)', async () => {
    const user = await registerUser(own.api);
    const redirect = await consent(await connectUrl(user), `v.${user.id.slice(0, 8)}@gmail.com`);
    const res = await fetch(`${google.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: redirect.searchParams.get('code') ?? '',
        client_id: google.clientId,
        client_secret: google.clientSecret,
        redirect_uri: `${own.stack.url}/oauth2callback`,
      }).toString(),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_grant', error_description: 'Missing code verifier.' });

    const noChallenge = await connectUrl(user);
    noChallenge.searchParams.delete('code_challenge');
    const refused = await fetch(noChallenge, { redirect: 'manual' });
    expect(new URL(refused.headers.get('location') ?? '').searchParams.get('error')).toBe('invalid_request');
  });

  it('answers oauth_failed when the traveller denies consent', async () => {
    const user = await registerUser(own.api);
    const denied = await consent(await connectUrl(user), 'x@gmail.com', 'deny');
    expect(denied.searchParams.get('error')).toBe('access_denied');
    expect(await callback(denied)).toBe('?error=oauth_failed');
  });

  it('connects nothing when the account went before Google returned (its session went with it)', async () => {
    const user = await registerUser(own.api);
    const redirect = await consent(await connectUrl(user), `gone.${user.id.slice(0, 8)}@gmail.com`);
    await own.sql`delete from auth.users where id = ${user.id}`;
    expect(await callback(redirect, user)).toBe('?status=401');
    const [row] = await own.sql`select count(*)::int as n from public.email_connections where user_id = ${user.id}`;
    expect(row?.n).toBe(0);
  });

  it("refuses a victim's consent to a connect link the attacker started; the browser that started it connects", async () => {
    const attacker = await registerUser(own.api);
    const victim = await registerUser(own.api);
    const victimGmail = `victim.${victim.id.slice(0, 8)}@gmail.com`;
    // the attacker starts a connection and gets the victim to open its authorization URL; the
    // victim consents, and Google returns the victim's browser (the victim's own session) to us
    const lure = await connectUrl(attacker);
    const landed = await consent(lure, victimGmail);
    expect(await callback(landed, victim)).toBe('?error=oauth_invalid');
    const stored = await own.sql`
      select user_id from public.email_connections where user_id in (${attacker.id}, ${victim.id})`;
    expect(stored).toHaveLength(0);
    // the victim's refusal left the attacker's attempt unspent, and it still connects nobody
    // else: a second session of the attacker's account is another browser, refused too
    const otherBrowser = await own.api.post<{ session: RegisteredUser['session'] }>(
      '/auth/login',
      { username: attacker.username, password: attacker.password },
      { ip: newIp() },
    );
    expect(otherBrowser.status, JSON.stringify(otherBrowser.body)).toBe(200);
    const second = { ...attacker, session: otherBrowser.body.session };
    expect(await callback(landed, second)).toBe('?error=oauth_invalid');
    expect((await connection(attacker)).state).toBe('not_connected');

    // the same browser that started it: connected (to the account it consented with)
    const mine = `owner.${attacker.id.slice(0, 8)}@gmail.com`;
    expect(await callback(await consent(await connectUrl(attacker), mine), attacker)).toBe('?email_connected=true');
    expect(await connection(attacker)).toMatchObject({ state: 'connected', accountEmail: mine });
    expect((await connection(victim)).state).toBe('not_connected');
  });
});

/** The United sample as another booking: its code replaced, sent by `from`, dated `date`, with extra headers. */
function unitedBooking(code: string, from: string, date: string, headers: string[] = []): string {
  return [
    ...headers,
    ...sample('01-united-confirmation.eml')
      .replace(/K7PQ2M/g, code)
      .replace(/^From: .*$/m, `From: ${from}`)
      .replace(/^Date: .*$/m, `Date: ${date}`)
      .split('\n'),
  ].join('\n');
}

/** The JetBlue cancellation, naming `code`, sent by `from`, with extra headers. */
function cancellationOf(code: string, from: string, headers: string[] = []): string {
  return [
    ...headers,
    ...sample('07-jetblue-cancellation.eml')
      .replace(/QWMBXA/g, code)
      .replace(/^From: .*$/m, `From: ${from}`)
      .replace(/^Date: .*$/m, 'Date: Fri, 27 Nov 2026 09:00:00 +0000')
      .split('\n'),
  ].join('\n');
}

describe('Mail from outsiders in a connected Gmail', () => {
  it('holds fake confirmations (not counted), watches the real one, and ignores cancellations from other domains', async () => {
    const user = await registerUser(own.api);
    const email = `o.${user.id.slice(0, 8)}@gmail.com`;
    // five fake confirmations from an outsider, then the real booking from United
    const fakes = ['FKQA01', 'FKQA02', 'FKQA03', 'FKQA04', 'FKQA05'];
    for (const [i, code] of fakes.entries()) {
      google.deliver(
        email,
        unitedBooking(
          code,
          'United Airlines <unitedairlines@united-deals.example>',
          `Wed, 25 Nov 2026 0${i}:00:00 +0000`,
        ),
      );
    }
    google.deliver(
      email,
      unitedBooking('R3ALBK', 'United Airlines <unitedairlines@united.com>', 'Thu, 26 Nov 2026 10:00:00 +0000'),
    );
    // a cancellation of the real booking from another domain, and one claiming United's address
    // that Gmail's own check (the topmost Authentication-Results) failed
    google.deliver(email, cancellationOf('R3ALBK', 'United Airlines <notifications@united-alerts.example>'));
    google.deliver(
      email,
      cancellationOf('R3ALBK', 'United Airlines <notifications@united.com>', [
        'Authentication-Results: mx.google.com;',
        '       spf=pass (google.com: domain of x@united-alerts.example designates 192.0.2.7 as permitted sender) smtp.mailfrom=x@united-alerts.example;',
        '       dmarc=fail (p=REJECT sp=REJECT dis=REJECT) header.from=united.com',
      ]),
    );
    await connected(user, email);
    const done = await scanEnded(user);
    // the sample's five (four watched, one cancelled), the real one; six held (the fakes and the
    // sample's forwarded Air Canada booking)
    expect(done.scan).toMatchObject({ status: 'done', flightsFound: 6, flightsNotWatched: 0, flightsHeld: 6 });

    const list = await flights(user);
    expect(list.map((f) => f.bookingCode)).not.toEqual(expect.arrayContaining([expect.stringMatching(/^FKQA/)]));
    const real = list.find((f) => f.bookingCode === 'R3ALBK');
    expect(real?.isWatched).toBe(true);
    expect(real?.status).not.toBe('cancelled');
    expect(real?.emailSource).toMatchObject({ senderDomain: 'united.com' });
    // the free plan's five: four from the sample and the real booking
    expect(list.filter((f) => f.isWatched)).toHaveLength(5);

    const read = await own.api.get<ImportedEmailsResponse>('/email/messages?pageSize=50&q=cancelled', auth(user));
    const outcomes = read.body.items.filter((m) => m.bookings.some((b) => b.bookingCode === 'R3ALBK'));
    expect(outcomes.map((m) => m.outcome)).toEqual(['not_trusted', 'not_trusted']);

    const held = await own.api.get<HeldBookingsResponse>('/email/held', auth(user));
    expect(held.status).toBe(200);
    expect(held.body.held.map((h) => h.bookingCode).sort()).toEqual([...fakes, 'PJ7KQD']);
    const fake1 = held.body.held.find((h) => h.bookingCode === 'FKQA01');
    const fake2 = held.body.held.find((h) => h.bookingCode === 'FKQA02');
    expect(fake1).toMatchObject({ from: expect.stringContaining('united-deals.example'), departureAirport: 'SFO' });

    // another traveller can neither confirm nor dismiss them, nor see them
    const stranger = await registerUser(own.api);
    for (const action of ['confirm', 'dismiss']) {
      const refused = await own.api.post<{ message: string }>(`/email/held/${fake1?.id}/${action}`, {}, auth(stranger));
      expect(refused.status).toBe(404);
      expect(refused.body.message).toBe('No held booking with this id.');
    }
    expect((await own.api.get<HeldBookingsResponse>('/email/held', auth(stranger))).body.held).toEqual([]);
    expect((await own.api.post('/email/held/abc/confirm', {}, auth(user))).status).toBe(404);

    // the traveller confirms one: a flight now, under the plan's limit (full: kept, not watched)
    const confirmed = await own.api.post<ConfirmHeldBookingResponse>(
      `/email/held/${fake1?.id}/confirm`,
      {},
      auth(user),
    );
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(confirmed.body).toMatchObject({ watched: false });
    expect(confirmed.body.message).toContain("not watched: your plan's limit is reached");
    const made = (await flights(user)).find((f) => f.id === confirmed.body.flightId);
    expect(made).toMatchObject({ bookingCode: 'FKQA01', isWatched: false });
    // and dismisses another: gone, no flight
    const dismissed = await own.api.post<{ message: string }>(`/email/held/${fake2?.id}/dismiss`, {}, auth(user));
    expect(dismissed.status).toBe(200);
    expect(dismissed.body.message).toBe('Booking dismissed.');
    const after = (await own.api.get<HeldBookingsResponse>('/email/held', auth(user))).body.held;
    expect(after.map((h) => h.bookingCode).sort()).toEqual(['FKQA03', 'FKQA04', 'FKQA05', 'PJ7KQD']);
    expect((await flights(user)).some((f) => f.bookingCode === 'FKQA02')).toBe(false);
    expect((await own.api.post(`/email/held/${fake2?.id}/dismiss`, {}, auth(user))).status).toBe(404);

    // a cancellation from the domain that sent the booking still applies
    google.deliver(email, cancellationOf('R3ALBK', 'United Airlines <notifications@united.com>'));
    await own.api.post('/email/scan', {}, auth(user));
    expect((await scanEnded(user)).scan).toMatchObject({ status: 'done', flightsCancelled: 1 });
    expect((await flights(user)).find((f) => f.bookingCode === 'R3ALBK')?.status).toBe('cancelled');
  });
});

describe('POST /api/email/manual-token-exchange', () => {
  it("connects with a pasted code under the caller's open attempt, and refuses a bad or unasked-for code", async () => {
    const user = await registerUser(own.api);
    const none = await own.api.post<{ message: string }>('/email/manual-token-exchange', { code: '4/x' }, auth(user));
    expect(none.status).toBe(400);
    expect(none.body.message).toBe('Start the Gmail connection again: the authorization has expired.');

    await connectUrl(user);
    const bad = await own.api.post<{ message: string }>(
      '/email/manual-token-exchange',
      { code: '4/forged' },
      auth(user),
    );
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Google did not accept this authorization code. Start the connection again.');

    const redirect = await consent(await connectUrl(user), `m.${user.id.slice(0, 8)}@gmail.com`);
    const ok = await own.api.post<{ message: string; connection: { state: string } }>(
      '/email/manual-token-exchange',
      { code: ` ${redirect.searchParams.get('code')} ` },
      auth(user),
    );
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({ message: 'Email connected successfully', connection: { state: 'connected' } });
  });
});

describe('Gmail answers', () => {
  it('a 429 puts the scan in waiting until the time Gmail asked, then it finishes', async () => {
    const user = await registerUser(own.api);
    const email = `r.${user.id.slice(0, 8)}@gmail.com`;
    google.failGmail(429, 1, { only: 'messages', account: email });
    await connected(user, email);
    const done = await scanEnded(user);
    expect(done.scan).toMatchObject({ status: 'done', scanned: 11, flightsFound: 5 });
    const [job] = await own.sql`
      select attempts from public.jobs where kind = 'email_scan' and payload ->> 'userId' = ${user.id} order by id limit 1`;
    expect(Number(job?.attempts)).toBeGreaterThanOrEqual(2);
  });

  it('a revoked grant marks the connection needs reconnect, tells the traveller once, and stops scanning', async () => {
    const user = await registerUser(own.api);
    await own.sql`select private.confirm_email_address(${user.email})`;
    const email = `rv.${user.id.slice(0, 8)}@gmail.com`;
    await connected(user, email);
    await scanEnded(user);

    google.revokeByUser(email);
    google.expireAccessTokens(email);
    await own.api.post('/email/scan', {}, auth(user));
    await scanEnded(user);
    // read once the scan has ended: a poll's reads of the connection and of the scan are two
    // statements, which may straddle the scan's end
    const ended = await connection(user);
    expect(ended.state).toBe('needs_reconnect');
    expect(ended.scan).toMatchObject({ status: 'failed' });
    expect(ended.scan?.error).toContain('Connect your Gmail again');
    const me = await own.api.get<CurrentUserResponse>('/auth/me', auth(user));
    expect(me.body.user).toMatchObject({ emailConnected: false, emailConnectionState: 'needs_reconnect' });
    const notices = await own.sql`
      select data from public.notification_history where user_id = ${user.id} and type = 'email_reconnect'`;
    expect(notices).toHaveLength(1);
    expect(notices[0]?.data).toMatchObject({ provider: 'gmail' });
    const [open] = await own.sql`
      select count(*)::int as n from public.jobs
       where kind = 'email_scan' and payload ->> 'userId' = ${user.id} and status in ('queued', 'running')`;
    expect(open?.n).toBe(0);
    const [tokens] = await own.sql`
      select access_token_encrypted, refresh_token_encrypted from public.email_connections where user_id = ${user.id}`;
    expect(tokens).toEqual({ access_token_encrypted: null, refresh_token_encrypted: null });
    const refused = await own.api.post('/email/scan', {}, auth(user));
    expect(refused.status).toBe(409);

    // connecting again clears it
    await connected(user, email);
    expect((await connection(user)).state).toBe('connected');
  });
});

describe('POST /api/email/disconnect', () => {
  it('revokes the grant at Google and deletes the tokens; the flights found stay', async () => {
    const user = await registerUser(own.api);
    const email = `d.${user.id.slice(0, 8)}@gmail.com`;
    await connected(user, email);
    await scanEnded(user);
    const revocations = google.requests.filter((r) => r.path === '/revoke').length;
    const res = await own.api.post<{ message: string }>('/email/disconnect', {}, auth(user));
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(
      'Email disconnected. FareBack no longer reads your inbox; flights already found stay.',
    );
    expect(google.requests.filter((r) => r.path === '/revoke')).toHaveLength(revocations + 1);
    const [row] = await own.sql`select count(*)::int as n from public.email_connections where user_id = ${user.id}`;
    expect(row?.n).toBe(0);
    expect((await own.api.get<CurrentUserResponse>('/auth/me', auth(user))).body.user.emailConnected).toBe(false);
    expect(await flights(user)).toHaveLength(5);
  });
});

describe('POST /api/account/delete with Gmail connected', () => {
  it('revokes the Gmail grant at Google and leaves no tokens or flights behind', async () => {
    const user = await registerUser(own.api);
    const email = `del.${user.id.slice(0, 8)}@gmail.com`;
    await connected(user, email);
    await scanEnded(user);
    const revocations = google.requests.filter((r) => r.path === '/revoke').length;
    const res = await own.api.post('/account/delete', { password: user.password }, auth(user));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(google.requests.filter((r) => r.path === '/revoke')).toHaveLength(revocations + 1);
    const [row] = await own.sql`
      select (select count(*)::int from public.email_connections where user_id = ${user.id})
           + (select count(*)::int from public.flights where user_id = ${user.id}) as n`;
    expect(row?.n).toBe(0);
  });
});

describe('the forwarding address (POST /api/email/inbound)', () => {
  async function address(user: RegisteredUser): Promise<string> {
    const value = (await connection(user)).forwardingAddress ?? '';
    expect(value).toMatch(/^trips\+[a-z0-9]{20}@inbound\.fareback\.test$/);
    return value;
  }
  const inbound = (raw: string | Uint8Array<ArrayBuffer>, secret: string | null, recipient?: string) =>
    fetch(`${own.stack.apiUrl}/email/inbound${recipient ? `?recipient=${encodeURIComponent(recipient)}` : ''}`, {
      method: 'POST',
      headers: { 'content-type': 'message/rfc822', ...(secret ? { authorization: `Bearer ${secret}` } : {}) },
      body: raw,
    });

  /** The traveller's emails read, as the traveller sees them. */
  const imports = async (user: RegisteredUser) =>
    (await own.api.get<ImportedEmailsResponse>('/email/messages', auth(user))).body.items;
  /** Raw messages still waiting for their job (server only). */
  const waiting = async (user: RegisteredUser) =>
    Number((await own.sql`select count(*)::int as n from private.inbound_emails where user_id = ${user.id}`)[0]?.n);

  it('keeps a forwarded confirmation, answers 202 and imports it in the job worker, once; refuses a bad secret or an unknown address', async () => {
    const user = await registerUser(own.api);
    const to = await address(user);
    expect(await address(user)).toBe(to);
    const raw = sample('04-jetblue-confirmation.eml', to);

    expect((await inbound(raw, null, to)).status).toBe(401);
    expect((await inbound(raw, 'wrong-secret', to)).status).toBe(401);
    expect(await waiting(user)).toBe(0);

    const res = await inbound(raw, INBOUND_SECRET, to);
    expect(res.status).toBe(202);
    expect((await res.json()) as InboundEmailResponse).toEqual({
      message: 'Email received: it will be read shortly',
      queued: true,
    });
    await expect.poll(async () => (await flights(user)).length, { timeout: 30_000, interval: 250 }).toBe(1);
    const [flight] = await flights(user);
    expect(flight).toMatchObject({ bookingCode: 'QWMBXA', flightNumber: 'B6623', emailSource: { via: 'forwarded' } });
    await expect.poll(() => waiting(user), { timeout: 30_000, interval: 250 }).toBe(0);
    expect(await imports(user)).toMatchObject([{ outcome: 'created', outcomeReason: null }]);

    // the same message again: read once per traveller
    expect((await inbound(raw, INBOUND_SECRET, to)).status).toBe(202);
    await expect.poll(() => waiting(user), { timeout: 30_000, interval: 250 }).toBe(0);
    expect(await flights(user)).toHaveLength(1);
    expect(await imports(user)).toHaveLength(1);

    const stranger = await inbound(raw, INBOUND_SECRET, 'trips+aaaaaaaaaaaaaaaaaaaa@inbound.fareback.test');
    expect(stranger.status).toBe(404);
    expect((await inbound('not an email', INBOUND_SECRET, to)).status).toBe(400);
  });

  it('routes by the envelope recipient alone: without one 400 and nothing kept, whatever the headers name (issue 21, finding 8)', async () => {
    const victim = await registerUser(own.api);
    const victimAddress = await address(victim);
    const owner = await registerUser(own.api);
    const ownerAddress = await address(owner);
    // every header names the victim's address
    const raw = sample('04-jetblue-confirmation.eml', victimAddress)
      .replace(/^From: .*$/m, `From: ${victimAddress}`)
      .replace(/^To: /m, `Delivered-To: ${victimAddress}\r\nX-Original-To: ${victimAddress}\r\nTo: `);
    expect(raw).toContain(`Delivered-To: ${victimAddress}`);

    const res = await inbound(raw, INBOUND_SECRET);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      message: 'The envelope recipient is required: pass it as the recipient query parameter',
    });
    expect(await waiting(victim)).toBe(0);
    expect(await imports(victim)).toEqual([]);

    // with a recipient, it goes to the recipient's traveller only (read as any email: a sender
    // the extractor does not know, so no booking)
    expect((await inbound(raw, INBOUND_SECRET, ownerAddress)).status).toBe(202);
    await expect.poll(async () => (await imports(owner)).length, { timeout: 30_000, interval: 250 }).toBe(1);
    expect((await imports(owner))[0]?.from).toBe(victimAddress);
    expect(await waiting(victim)).toBe(0);
    expect(await imports(victim)).toEqual([]);
    expect(await flights(victim)).toEqual([]);
  });

  it('reads a hostile 800 KB email in the job worker while the api goes on answering, and records its outcome (issue 21, finding 3)', async () => {
    const user = await registerUser(own.api);
    const to = await address(user);
    // the shapes that were quadratic: a long space run after a <br> in a cell, and unclosed tags
    const html = `<table><tr><td>Your flight<br>${' '.repeat(400_000)}x</td></tr></table>${'<a'.repeat(200_000)}`;
    const raw = [
      'From: Delta Air Lines <DeltaAirLines@t.delta.com>',
      `To: ${to}`,
      'Subject: Your flight confirmation',
      'Message-ID: <hostile-800k@example.com>',
      'MIME-Version: 1.0',
      'Content-Type: text/html; charset=utf-8',
      'Content-Transfer-Encoding: 8bit',
      '',
      html,
    ].join('\r\n');
    expect(raw.length).toBeGreaterThan(800_000);

    const res = await inbound(raw, INBOUND_SECRET, to);
    expect(res.status).toBe(202);
    // the api answers while the message is read (before the fix one such message held it for minutes)
    const [health] = await Promise.all([
      own.api.get('/health'),
      expect.poll(async () => (await imports(user))[0]?.outcome, { timeout: 30_000, interval: 100 }).toBeDefined(),
    ]);
    expect(health.status).toBe(200);
    const [recorded] = await imports(user);
    expect(recorded?.messageId).toBe('<hostile-800k@example.com>');
    expect(['not_read', 'not_a_booking']).toContain(recorded?.outcome);
    if (recorded?.outcome === 'not_read')
      expect(recorded.outcomeReason).toMatch(/^Reading the email took longer than 500 ms/);
    await expect.poll(() => waiting(user), { timeout: 30_000, interval: 250 }).toBe(0);

    // over the size cap: not read, and the reason recorded
    const large = raw
      .replace('<hostile-800k@example.com>', '<over-the-cap@example.com>')
      .replace(/\r\n\r\n[\s\S]*$/, `\r\n\r\n<p>${'x'.repeat(1_000_001)}</p>`);
    expect((await inbound(large, INBOUND_SECRET, to)).status).toBe(202);
    await expect.poll(async () => (await imports(user)).length, { timeout: 30_000, interval: 250 }).toBe(2);
    expect((await imports(user)).find((email) => email.messageId === '<over-the-cap@example.com>')).toMatchObject({
      outcome: 'not_read',
      outcomeReason: "The email's HTML is longer than 1,000,000 characters",
      bookings: [],
    });
  });

  /** Rows waiting for a job that is never queued: they stay until the test is done (the queue's state, deterministically). */
  const fillWaiting = async (user: RegisteredUser, count: number, prefix: string) => {
    await own.sql`
      insert into private.inbound_emails (user_id, message_id, raw)
      select ${user.id}, ${prefix} || g || '@example.com>', convert_to('From: a@example.com', 'UTF8')
        from generate_series(1, ${count}) g
    `;
  };
  const forwarded = (to: string, messageId: string) =>
    [
      'From: Julia <julia.harper@example.com>',
      `To: ${to}`,
      'Subject: Hello',
      `Message-ID: ${messageId}`,
      '',
      'Hi',
    ].join('\r\n');

  it('refuses the 51st waiting message for a traveller with 429, keeps nothing; another traveller is unaffected (issue 21, finding 3)', async () => {
    const user = await registerUser(own.api);
    const to = await address(user);
    const other = await registerUser(own.api);
    const otherTo = await address(other);
    await fillWaiting(user, 50, '<filler-');
    expect(await waiting(user)).toBe(50);

    const res = await inbound(forwarded(to, '<the-51st@example.com>'), INBOUND_SECRET, to);
    expect(res.status).toBe(429);
    expect(await res.json()).toEqual({
      message: '50 emails are already waiting to be read for this address; send this one again later',
    });
    expect(await waiting(user)).toBe(50);
    const [stored] = await own.sql`
      select count(*)::int as n from private.inbound_emails where user_id = ${user.id} and message_id = '<the-51st@example.com>'
    `;
    expect(stored?.n).toBe(0);

    // the other traveller's address still takes mail, and it is read
    const accepted = await inbound(forwarded(otherTo, '<the-51st@example.com>'), INBOUND_SECRET, otherTo);
    expect(accepted.status).toBe(202);
    expect(((await accepted.json()) as InboundEmailResponse).queued).toBe(true);
    await expect.poll(async () => (await imports(other)).length, { timeout: 30_000, interval: 250 }).toBe(1);
    expect(await waiting(user)).toBe(50);
  });

  it('answers queued false for a Message-ID already waiting, and keeps one row (issue 21, finding 3)', async () => {
    const user = await registerUser(own.api);
    const to = await address(user);
    // the first copy waits (no job runs it): as a message does between the answer and its job
    await fillWaiting(user, 1, '<twice-');
    const raw = forwarded(to, '<twice-1@example.com>');
    for (let i = 0; i < 2; i++) {
      const res = await inbound(raw, INBOUND_SECRET, to);
      expect(res.status).toBe(202);
      expect(await res.json()).toEqual({ message: 'This email is already waiting to be read', queued: false });
    }
    const rows = await own.sql`select message_id from private.inbound_emails where user_id = ${user.id}`;
    expect(rows.map((row) => row.message_id)).toEqual(['<twice-1@example.com>']);
    expect(await imports(user)).toEqual([]);
  });

  it('imports the booking of a forwarded e-ticket PDF, and records the attachment it did not read and why (issue 28)', async () => {
    const user = await registerUser(own.api);
    const to = await address(user);
    const ticket = await buildPdf([
      [
        'Booking code: 5TQH9L',
        'Passenger: HUBER/LUKAS MR',
        ...pdfTable(
          [40, 100, 200, 300, 380, 440],
          [
            ['Flight', 'From', 'To', 'Date', 'Departs', 'Arrives'],
            ['OS 411', 'Vienna (VIE)', 'Paris (CDG)', '03 Jun 2027', '07:10', '09:20'],
          ],
        ),
      ],
    ]);
    const brokenPass = await buildWalletPass({
      barcode: bcbp({
        name: 'HUBER/LUKAS MR',
        code: '5TQH9L',
        from: 'VIE',
        to: 'CDG',
        carrier: 'OS',
        flight: '411',
        dayOfYear: 154,
        compartment: 'Y',
        seat: '12A',
        sequence: 3,
      }),
      breakSignature: true,
    });
    const raw = buildEmail({
      from: 'Austrian Airlines <noreply@austrian.com>',
      to,
      subject: 'Your e-ticket',
      text: 'Your e-ticket receipt and boarding pass are attached.',
      attachments: [
        { filename: 'eticket.pdf', contentType: 'application/pdf', content: ticket },
        { filename: 'pass.pkpass', contentType: 'application/vnd.apple.pkpass', content: brokenPass },
      ],
    });

    expect((await inbound(raw, INBOUND_SECRET, to)).status).toBe(202);
    await expect.poll(async () => (await imports(user)).length, { timeout: 30_000, interval: 250 }).toBe(1);
    expect((await imports(user))[0]).toMatchObject({
      outcome: 'created',
      outcomeReason: `Not read: pass.pkpass ${SKIPPED.brokenSignature}`,
      bookings: [{ bookingCode: '5TQH9L', passengerLastName: 'Huber' }],
    });
    expect(await flights(user)).toMatchObject([{ bookingCode: '5TQH9L', flightNumber: 'OS411' }]);
  });

  it('keeps and reads a message with NUL bytes and invalid UTF-8 in its headers and body, without a 500 (issue 21, finding 3)', async () => {
    const user = await registerUser(own.api);
    const to = await address(user);
    const head = Buffer.from(
      [
        'From: Julia\0 Harper <julia.harper@example.com>',
        `To: ${to}`,
        'Subject: Trip\0 to \xff\xfe Rome',
        'Message-ID: <nul\0byte@example.com>',
        'Content-Type: text/plain; charset=utf-8',
        '',
        'Booking\0 ',
      ].join('\r\n'),
      'latin1',
    );
    const raw = new Uint8Array(Buffer.concat([head, Buffer.from([0xff, 0xc3, 0x28, 0x00, 0x80, 0x0a])]));
    expect(raw.includes(0)).toBe(true);

    const res = await inbound(raw, INBOUND_SECRET, to);
    expect(res.status).toBe(202);
    expect(((await res.json()) as InboundEmailResponse).queued).toBe(true);
    await expect.poll(async () => (await imports(user)).length, { timeout: 30_000, interval: 250 }).toBe(1);
    const [recorded] = await imports(user);
    expect(recorded).toMatchObject({ outcome: 'not_a_booking', bookings: [] });
    expect(recorded?.messageId).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(recorded?.subject).not.toContain('\0');
    expect(recorded?.from).not.toContain('\0');
    await expect.poll(() => waiting(user), { timeout: 30_000, interval: 250 }).toBe(0);
  });

  it('takes the envelope recipient, and mail sent to the catcher arrives the same way', async () => {
    const user = await registerUser(own.api);
    const to = await address(user);
    // Bcc'd: the address is only on the envelope
    const viaEnvelope = await inbound(sample('03-lufthansa-jsonld.eml'), INBOUND_SECRET, to);
    expect(viaEnvelope.status).toBe(202);
    await expect
      .poll(async () => (await flights(user)).map((f) => f.bookingCode), { timeout: 30_000, interval: 250 })
      .toEqual(['5TQ8ZL']);

    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: own.stack.mailSmtpPort, secure: false });
    await transport.sendMail({
      envelope: { from: 'julia.harper@example.com', to: [to] },
      raw: sample('11-air-canada-forwarded.eml'),
    });
    await expect
      .poll(async () => (await flights(user)).map((f) => f.bookingCode).sort(), { timeout: 30_000, interval: 250 })
      .toEqual(['5TQ8ZL', 'PJ7KQD']);
  });
});
