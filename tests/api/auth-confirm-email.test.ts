// Address confirmation (so FareBack cannot be used as a mail relay): a new password account is
// mailed a single-use link and is sent nothing else until it is opened; the mail carries no
// user-written text. Price-drop alerts and their suppression are in price-alerts.test.ts.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiClient, databaseClient, emailsTo, resetTokenOf } from './client.ts';
import { CONFIRMATION_SUBJECT, confirmationEmails, confirmationTokenOf } from './confirmation.ts';
import { newIp, registerUser } from './factories.ts';

const api = apiClient();
const sql = databaseClient();

const CONFIRMED = { message: 'Your email address is confirmed. Price-drop alerts will now reach you there.' };
const LINK_INVALID = {
  message:
    'This confirmation link is invalid or has expired. To get a new one, use "Forgot password?" on the login page with your email address.',
};
const RESET_SENT = {
  message:
    'If an account exists for that email, you will receive a link shortly: a password reset link, or, if the address has not been confirmed yet, a confirmation link to open first.',
};

async function confirmedAt(userId: string): Promise<Date | null> {
  const [row] = await sql<{ email_confirmed_at: Date | null }[]>`
    select email_confirmed_at from public.profiles where id = ${userId}`;
  return row?.email_confirmed_at ?? null;
}

/** Waits until the api has logged this message for the user (work it does after answering). */
async function apiLogged(msg: string, userId: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  const file = path.join(api.stack.logDir, 'api.log');
  for (;;) {
    const lines = (await readFile(file, 'utf8')).split('\n');
    if (lines.some((line) => line.includes(msg) && line.includes(userId))) return;
    if (Date.now() > deadline) throw new Error(`the api never logged '${msg}' for ${userId}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('address confirmation', () => {
  it('sign-up mails a single-use confirmation link carrying no user-written text', async () => {
    const user = await registerUser(api, { username: `Relay_Subject_${Date.now().toString(36)}` });
    expect(await confirmedAt(user.id)).toBeNull();

    const [mail, ...more] = await confirmationEmails(user.email);
    expect(more).toHaveLength(0);
    expect(mail?.subject).toBe(CONFIRMATION_SUBJECT);
    const text = `${mail?.subject} ${mail?.text} ${mail?.html}`;
    expect(text).not.toContain(user.username);
    expect(text.toLowerCase()).not.toContain(user.username.toLowerCase());
    expect(mail?.text).toContain(`${api.stack.url}/confirm-email?token=`);

    // only the hash of the token is stored
    const token = confirmationTokenOf(mail!);
    const stored = await sql<{ token_hash: string; email: string }[]>`
      select token_hash, email from private.email_confirmations where user_id = ${user.id}`;
    expect(stored).toEqual([{ token_hash: createHash('sha256').update(token).digest('hex'), email: user.email }]);

    const res = await api.post('/auth/confirm-email', { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(CONFIRMED);
    expect(await confirmedAt(user.id)).toBeInstanceOf(Date);
    // a second click on the same link is answered the same; it changes nothing
    expect((await api.post('/auth/confirm-email', { token })).body).toEqual(CONFIRMED);
  });

  it('me says whether the address is confirmed; Resend confirmation mails a new link until it is', async () => {
    const user = await registerUser(api);
    const token = user.session.access_token;
    await confirmationEmails(user.email);
    expect((await api.get<{ user: { emailConfirmed: boolean } }>('/auth/me', { token })).body.user.emailConfirmed).toBe(
      false,
    );

    const resent = await api.post('/auth/resend-confirmation', {}, { token });
    expect(resent).toMatchObject({
      status: 200,
      body: { message: 'Confirmation email sent. Open the link in it to start receiving alerts.' },
    });
    const mails = await confirmationEmails(user.email, 2);
    expect(mails).toHaveLength(2);
    expect((await api.post('/auth/confirm-email', { token: confirmationTokenOf(mails[1]!) })).status).toBe(200);

    expect((await api.get<{ user: { emailConfirmed: boolean } }>('/auth/me', { token })).body.user.emailConfirmed).toBe(
      true,
    );
    expect((await api.post('/auth/resend-confirmation', {}, { token })).body).toEqual({
      message: 'Your email address is already confirmed.',
    });
    expect(await api.post('/auth/resend-confirmation', {})).toMatchObject({ status: 401 });
  });

  it('refuses unknown, expired and malformed links with 400, never 500', async () => {
    const user = await registerUser(api);
    const [mail] = await confirmationEmails(user.email);
    const token = confirmationTokenOf(mail!);
    await sql`update private.email_confirmations
                 set created_at = now() - interval '2 days', expires_at = now() - interval '1 day'
               where user_id = ${user.id}`;
    expect(await api.post('/auth/confirm-email', { token })).toMatchObject({ status: 400, body: LINK_INVALID });
    expect(await confirmedAt(user.id)).toBeNull();

    for (const odd of ['x', 'A'.repeat(43), "'; drop table profiles; --"]) {
      expect(await api.post('/auth/confirm-email', { token: odd })).toMatchObject({ status: 400, body: LINK_INVALID });
    }
    for (const [body, message] of [
      [{}, 'Confirmation token is required'],
      [{ token: '   ' }, 'Confirmation token is required'],
      [{ token: 42 }, 'Confirmation token must be text'],
      [{ token: 'x'.repeat(513) }, 'Confirmation token is invalid'],
    ] as const) {
      const res = await api.post('/auth/confirm-email', body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ message });
    }
    const malformed = await api.request('POST', '/auth/confirm-email', undefined, { raw: '{token' });
    expect(malformed.status).toBe(400);
  });

  it('a link only confirms the address it was sent to', async () => {
    const user = await registerUser(api);
    const [mail] = await confirmationEmails(user.email);
    const moved = `moved.${user.email}`;
    await sql`update auth.users set email = ${moved} where id = ${user.id}`;
    const res = await api.post('/auth/confirm-email', { token: confirmationTokenOf(mail!) });
    expect(res).toMatchObject({ status: 400, body: LINK_INVALID });
    expect(await confirmedAt(user.id)).toBeNull();
  });

  it('changing a confirmed address makes it unconfirmed again', async () => {
    const user = await registerUser(api);
    const [mail] = await confirmationEmails(user.email);
    await api.post('/auth/confirm-email', { token: confirmationTokenOf(mail!) });
    expect(await confirmedAt(user.id)).toBeInstanceOf(Date);
    await sql`update auth.users set email = ${`new.${user.email}`} where id = ${user.id}`;
    expect(await confirmedAt(user.id)).toBeNull();
  });
});

describe('forgot password and confirmation', () => {
  it('an unconfirmed account is sent the confirmation again, not a reset link; the answer is the same', async () => {
    const user = await registerUser(api);
    await confirmationEmails(user.email);
    const res = await api.post('/auth/forgot-password', { email: user.email }, { ip: newIp() });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(RESET_SENT);

    const confirmations = await confirmationEmails(user.email, 2);
    expect(confirmations).toHaveLength(2);
    const all = await emailsTo(user.email, { atLeast: 0, timeoutMs: 0 });
    expect(all.every((mail) => mail.subject === CONFIRMATION_SUBJECT)).toBe(true);
    // either link confirms the address
    const fresh = await api.post('/auth/confirm-email', { token: confirmationTokenOf(confirmations[1]!) });
    expect(fresh.status).toBe(200);
  });

  it('re-sending the confirmation is limited to 3 emails an hour per account', async () => {
    const user = await registerUser(api);
    // sign-up's email and four requests: two of the five are refused
    for (let i = 0; i < 4; i += 1) {
      const res = await api.post('/auth/forgot-password', { email: user.email }, { ip: newIp() });
      expect(res.body).toEqual(RESET_SENT);
    }
    await apiLogged('confirmation email not sent: hourly limit reached', user.id);
    // a link is recorded before its email is sent, so three rows mean three emails at most
    const [row] = await sql<{ n: number }[]>`
      select count(*)::int as n from private.email_confirmations where user_id = ${user.id}`;
    expect(row?.n).toBe(3);
    expect(await confirmationEmails(user.email, 3)).toHaveLength(3);
  });

  it('a password reset through the emailed link confirms the address (it proves the inbox)', async () => {
    const user = await registerUser(api);
    // Auth's own recovery endpoint, which mails a reset link to any account
    const recover = await fetch(`${api.stack.authUrl}/recover`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', apikey: api.stack.anonKey },
      body: JSON.stringify({ email: user.email }),
    });
    expect(recover.status).toBe(200);
    const [resetMail] = (await emailsTo(user.email, { atLeast: 2 })).filter((mail) => /password/i.test(mail.subject));
    expect(await confirmedAt(user.id)).toBeNull();
    const reset = await api.post('/auth/reset-password', {
      token: resetTokenOf(resetMail!),
      password: 'Renewed@2026q',
    });
    expect(reset.status).toBe(200);
    expect(await confirmedAt(user.id)).toBeInstanceOf(Date);
  });

  it('a confirmed account gets the reset link', async () => {
    const user = await registerUser(api);
    const [mail] = await confirmationEmails(user.email);
    await api.post('/auth/confirm-email', { token: confirmationTokenOf(mail!) });
    await api.post('/auth/forgot-password', { email: user.email }, { ip: newIp() });
    const mails = await emailsTo(user.email, { atLeast: 2 });
    expect(mails.filter((m) => /password/i.test(m.subject))).toHaveLength(1);
  });
});
