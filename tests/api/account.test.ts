// Account Settings' calls (issue 13): onboarding remembered, 'Update Email' through a link to the
// new address, 'Change Password' with the current password.
import { describe, expect, it } from 'vitest';
import { apiClient, databaseClient, emailsTo, type CaughtEmail } from './client.ts';
import { newCredentials, newIp, registerUser, type Session } from './factories.ts';

const api = apiClient();
const sql = databaseClient();

interface Me {
  user: { email: string; onboardingCompleted: boolean };
}

function emailChangeTokenOf(mail: CaughtEmail): string {
  const match = /\/account\?email_change_token=([A-Za-z0-9_-]+)/.exec(`${mail.text ?? ''} ${mail.html ?? ''}`);
  if (!match?.[1]) throw new Error(`no email change link in '${mail.subject}'`);
  return match[1];
}

describe('onboarding', () => {
  it('is due for a new account until finished or skipped, then remembered', async () => {
    const user = await registerUser(api);
    const token = user.session.access_token;
    expect((await api.get<Me>('/auth/me', { token })).body.user.onboardingCompleted).toBe(false);

    const done = await api.post('/onboarding/complete', undefined, { token });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ message: 'Onboarding complete' });
    expect((await api.get<Me>('/auth/me', { token })).body.user.onboardingCompleted).toBe(true);

    const [first] = await sql<
      { at: Date }[]
    >`select onboarding_completed_at as at from public.profiles where id = ${user.id}`;
    expect(first?.at).toBeInstanceOf(Date);
    // again (skipping after finishing, a second tab): the first time is kept
    expect((await api.post('/onboarding/complete', {}, { token })).status).toBe(200);
    const [second] = await sql<
      { at: Date }[]
    >`select onboarding_completed_at as at from public.profiles where id = ${user.id}`;
    expect(second?.at.getTime()).toBe(first?.at.getTime());
  });

  it('needs a session', async () => {
    expect((await api.post('/onboarding/complete')).status).toBe(401);
  });
});

describe('POST /api/auth/change-password', () => {
  it('refuses a wrong current password, a weak or too long new one, with 400 and nothing changed', async () => {
    const user = await registerUser(api);
    const token = user.session.access_token;
    const ip = newIp();
    const cases: Array<[unknown, string]> = [
      [{ currentPassword: 'Wrong@1234', newPassword: 'Brand@New123' }, 'Current password is incorrect'],
      [{ currentPassword: user.password, newPassword: 'short' }, 'Password must be at least 8 characters long'],
      [
        { currentPassword: user.password, newPassword: 'alllowercase1@' },
        'Password must contain an uppercase letter, a lowercase letter, a number and a special character (@$!%*?&)',
      ],
      [
        { currentPassword: user.password, newPassword: `Ab1@${'é'.repeat(40)}` },
        'Password must be at most 72 bytes (letters with accents and symbols count as 2 to 4)',
      ],
      [{ newPassword: 'Brand@New123' }, 'Current password is required'],
      [
        { currentPassword: user.password, newPassword: user.password },
        'New password must be different from your current password',
      ],
    ];
    for (const [body, message] of cases) {
      const res = await api.post<{ message: string }>('/auth/change-password', body, { token, ip });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toBe(message);
    }
    // the password is what it was, and the session still works
    expect((await api.get('/auth/me', { token })).status).toBe(200);
    const login = await api.post('/auth/login', { username: user.username, password: user.password }, { ip: newIp() });
    expect(login.status).toBe(200);
  });

  it('changes the password, hands back a new session and ends the others', async () => {
    const user = await registerUser(api);
    const oldToken = user.session.access_token;
    const newPassword = 'Changed@Pass42';
    const res = await api.post<{ message: string; session: Session }>(
      '/auth/change-password',
      { currentPassword: user.password, newPassword },
      { token: oldToken, ip: newIp() },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.message).toBe('Your password has been changed.');
    expect((await api.get('/auth/me', { token: res.body.session.access_token })).status).toBe(200);
    expect((await api.get('/auth/me', { token: oldToken })).status).toBe(401);

    const withOld = await api.post(
      '/auth/login',
      { username: user.username, password: user.password },
      { ip: newIp() },
    );
    expect(withOld.status).toBe(401);
    const withNew = await api.post('/auth/login', { username: user.username, password: newPassword }, { ip: newIp() });
    expect(withNew.status).toBe(200);
  });

  it('needs a session', async () => {
    const res = await api.post('/auth/change-password', { currentPassword: 'x', newPassword: 'Brand@New123' });
    expect(res.status).toBe(401);
  });
});

describe('POST /api/auth/change-email', () => {
  it('mails a link to the new address only; the address changes when it is opened', async () => {
    const user = await registerUser(api);
    const token = user.session.access_token;
    const newEmail = newCredentials().email;
    const res = await api.post<{ message: string }>('/auth/change-email', { email: newEmail.toUpperCase() }, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.message).toBe(
      `We sent a confirmation link to ${newEmail}. Your email address changes when you open it.`,
    );
    // nothing changes before the link is opened
    expect((await api.get<Me>('/auth/me', { token })).body.user.email).toBe(user.email);

    const [mail] = await emailsTo(newEmail);
    expect(mail?.subject).toBe('Confirm your new FareBack email address');
    const linkToken = emailChangeTokenOf(mail!);
    expect(mail?.text ?? mail?.html).toContain(`${api.stack.url}/account?email_change_token=`);

    const confirmed = await api.post('/auth/confirm-email-change', { token: linkToken });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(confirmed.body).toEqual({ message: 'Your email address has been updated.' });
    expect((await api.get<Me>('/auth/me', { token })).body.user.email).toBe(newEmail);
    const [row] = await sql<{ confirmed: boolean }[]>`
      select email_confirmed_at is not null as confirmed from public.profiles where id = ${user.id}`;
    expect(row?.confirmed).toBe(true);

    // the new address signs in; the old one no longer does
    const login = await api.post('/auth/login', { username: newEmail, password: user.password }, { ip: newIp() });
    expect(login.status).toBe(200);
    const old = await api.post('/auth/login', { username: user.email, password: user.password }, { ip: newIp() });
    expect(old.status).toBe(401);

    // the link works once
    const again = await api.post<{ message: string }>('/auth/confirm-email-change', { token: linkToken });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe('This email change link is invalid or has expired. Please ask for a new one.');
  });

  it('refuses the same address, a taken one and an invalid one, and sends nothing', async () => {
    const user = await registerUser(api);
    const other = await registerUser(api);
    const token = user.session.access_token;
    const cases: Array<[unknown, number, string]> = [
      [{ email: user.email }, 400, 'That is already your email address'],
      [{ email: other.email.toUpperCase() }, 409, 'An account with this email already exists'],
      [{ email: 'not-an-address' }, 400, 'Please enter a valid email address'],
      [{}, 400, 'Email is required'],
    ];
    for (const [body, status, message] of cases) {
      const res = await api.post<{ message: string }>('/auth/change-email', body, { token });
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.message).toBe(message);
    }
    const mails = await emailsTo(other.email, { atLeast: 0, timeoutMs: 300 });
    expect(mails.filter((mail) => /new FareBack email/.test(mail.subject))).toHaveLength(0);
  });

  it('refuses a made-up link with 400 and a change without a session with 401', async () => {
    const bad = await api.post<{ message: string }>('/auth/confirm-email-change', { token: 'a'.repeat(56) });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('This email change link is invalid or has expired. Please ask for a new one.');
    expect((await api.post('/auth/confirm-email-change', {})).status).toBe(400);
    expect((await api.post('/auth/change-email', { email: newCredentials().email })).status).toBe(401);
  });
});
