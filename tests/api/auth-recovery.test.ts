import { describe, expect, it } from 'vitest';
import { apiClient, type CaughtEmail, emailsTo, resetTokenOf } from './client.ts';
import { confirmAddress } from './confirmation.ts';
import { newCredentials, newIp, registerUser, type RegisteredUser } from './factories.ts';

const api = apiClient();

/** A new account whose owner has confirmed the address (only those are sent reset links). */
async function confirmedUser(): Promise<RegisteredUser> {
  const user = await registerUser(api);
  await confirmAddress(api, user);
  return user;
}

/** The password reset emails to this address, waiting for the first. */
async function resetMails(address: string, timeoutMs = 10_000): Promise<CaughtEmail[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mails = (await emailsTo(address, { atLeast: 0, timeoutMs: 0 })).filter((mail) =>
      /password/i.test(mail.subject),
    );
    if (mails.length > 0 || Date.now() > deadline) return mails;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const SENT = {
  message:
    'If an account exists for that email, you will receive a link shortly: a password reset link, or, if the address has not been confirmed yet, a confirmation link to open first.',
};
const LINK_INVALID = { message: 'This password reset link is invalid or has expired. Please request a new one.' };

describe('POST /api/auth/forgot-password', () => {
  it('answers a known and an unknown address identically, and mails only the known one', async () => {
    const user = await confirmedUser();
    const stranger = newCredentials().email;
    const known = await api.post('/auth/forgot-password', { email: user.email.toUpperCase() }, { ip: newIp() });
    const unknown = await api.post('/auth/forgot-password', { email: stranger }, { ip: newIp() });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(known.status);
    expect(known.body).toEqual(SENT);
    expect(unknown.body).toEqual(known.body);

    const mails = await resetMails(user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toMatch(/password/i);
    expect(resetTokenOf(mails[0]!)).toMatch(/^[A-Za-z0-9_-]{16,}$/);
    expect(mails[0]?.text ?? mails[0]?.html).toContain(`${api.stack.url}/reset-password?token=`);
    expect(await emailsTo(stranger, { timeoutMs: 500 })).toHaveLength(0);

    // asking again at once is throttled by Auth, which the answer does not reveal
    const again = await api.post('/auth/forgot-password', { email: user.email }, { ip: newIp() });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(SENT);
  });

  it('refuses an invalid email with 400 naming the field', async () => {
    for (const body of [{ email: 'nope' }, { email: '' }, {}, { email: 7 }]) {
      const res = await api.post<{ message: string }>('/auth/forgot-password', body);
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/^(Please enter a valid email address|Email is required|Email must be text)$/);
    }
    const malformed = await api.request('POST', '/auth/forgot-password', undefined, { raw: '{email}' });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ message: 'Request body must be valid JSON' });
  });
});

describe('POST /api/auth/reset-password', () => {
  it('resets with the emailed token; the new password works, the old one and the token no longer do', async () => {
    const user = await confirmedUser();
    await api.post('/auth/forgot-password', { email: user.email }, { ip: newIp() });
    const [mail] = await resetMails(user.email);
    const token = resetTokenOf(mail!);
    const newPassword = 'Changed@2026x';

    const reset = await api.post('/auth/reset-password', { token, password: newPassword });
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ message: 'Password has been reset' });

    const withNew = await api.post('/auth/login', { username: user.username, password: newPassword }, { ip: newIp() });
    expect(withNew.status).toBe(200);
    const withOld = await api.post(
      '/auth/login',
      { username: user.username, password: user.password },
      { ip: newIp() },
    );
    expect(withOld.status).toBe(401);

    const reused = await api.post('/auth/reset-password', { token, password: 'Another@2026x' });
    expect(reused.status).toBe(400);
    expect(reused.body).toEqual(LINK_INVALID);
    const stillNew = await api.post('/auth/login', { username: user.email, password: newPassword }, { ip: newIp() });
    expect(stillNew.status).toBe(200);
  });

  it('ends the sessions the account had before the reset', async () => {
    const user = await confirmedUser();
    await api.post('/auth/forgot-password', { email: user.email }, { ip: newIp() });
    const [mail] = await resetMails(user.email);
    await api.post('/auth/reset-password', { token: resetTokenOf(mail!), password: 'Changed@2026y' });
    const refresh = await fetch(`${api.stack.authUrl}/token?grant_type=refresh_token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', apikey: api.stack.anonKey },
      body: JSON.stringify({ refresh_token: user.session.refresh_token }),
    });
    expect(refresh.status).toBe(400);
  });

  it('refuses an unknown token with the reset-link message', async () => {
    for (const token of ['0'.repeat(56), 'not-a-token', 'x']) {
      const res = await api.post('/auth/reset-password', { token, password: 'Changed@2026x' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(LINK_INVALID);
    }
  });

  it('checks the new password before spending the token', async () => {
    const user = await confirmedUser();
    await api.post('/auth/forgot-password', { email: user.email }, { ip: newIp() });
    const [mail] = await resetMails(user.email);
    const token = resetTokenOf(mail!);
    const cases: Array<[string, string]> = [
      ['short', 'Password must be at least 8 characters long'],
      ['x'.repeat(101), 'Password must be less than 100 characters'],
      ['weakpassword', 'Password must contain an uppercase letter'],
    ];
    for (const [password, message] of cases) {
      const res = await api.post<{ message: string }>('/auth/reset-password', { token, password });
      expect(res.status).toBe(400);
      expect(res.body.message.startsWith(message), res.body.message).toBe(true);
    }
    const missing = await api.post('/auth/reset-password', { password: 'Changed@2026x' });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ message: 'Reset token is required' });
    // the token is still good after all those refusals
    const ok = await api.post('/auth/reset-password', { token, password: 'Changed@2026z' });
    expect(ok.status).toBe(200);
  });
});
