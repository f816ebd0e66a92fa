import { describe, expect, it } from 'vitest';
import { apiClient, databaseClient } from './client.ts';
import { newCredentials, newIp, registerUser, type Session } from './factories.ts';

const api = apiClient();
const sql = databaseClient();

type LoginBody = { user: { id: string; username: string; email: string }; session: Session };

describe('POST /api/auth/login', () => {
  it('signs in by username, in any case, answering { user, session }', async () => {
    const user = await registerUser(api);
    const res = await api.post<LoginBody>(
      '/auth/login',
      { username: user.username.toUpperCase(), password: user.password },
      { ip: newIp() },
    );
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ id: user.id, username: user.username, email: user.email });
    expect(res.body.session.access_token).toBeTruthy();
    expect(res.body.session.refresh_token).toBeTruthy();
    expect(res.body.session.expires_at).toBeGreaterThan(Date.now() / 1000);
    const me = await api.get<{ user: { id: string } }>('/auth/me', { token: res.body.session.access_token });
    expect(me.body.user.id).toBe(user.id);
  });

  it('signs in by email, in any case', async () => {
    const user = await registerUser(api);
    const res = await api.post<LoginBody>(
      '/auth/login',
      { username: ` ${user.email.toUpperCase()} `, password: user.password },
      { ip: newIp() },
    );
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(user.id);
  });

  it('answers a wrong password and an unknown account with the same 401', async () => {
    const user = await registerUser(api);
    const ip = newIp();
    const wrong = await api.post('/auth/login', { username: user.username, password: 'Wrong@12345' }, { ip });
    const unknown = await api.post(
      '/auth/login',
      { username: `nobody_${user.username}`, password: user.password },
      { ip },
    );
    const unknownEmail = await api.post('/auth/login', { username: `x${user.email}`, password: user.password }, { ip });
    for (const res of [wrong, unknown, unknownEmail]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: 'Invalid username or password' });
    }
  });

  it('slows repeated failures for one account: 429 with Retry-After, even with the right password', async () => {
    const user = await registerUser(api);
    for (let attempt = 1; attempt <= 5; attempt++) {
      // from different addresses, so only the account limit applies
      const res = await api.post(
        '/auth/login',
        { username: user.username, password: `Wrong@${attempt}abc` },
        { ip: newIp() },
      );
      expect(res.status, `attempt ${attempt}`).toBe(401);
    }
    const locked = await api.post<{ message: string }>(
      '/auth/login',
      { username: user.email, password: user.password },
      { ip: newIp() },
    );
    expect(locked.status).toBe(429);
    expect(locked.body.message).toMatch(
      /^Too many failed login attempts\. Please wait (\d+) minutes? and try again\.$/,
    );
    const retryAfter = Number(locked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(locked.body.message).toContain(`wait ${Math.ceil(retryAfter / 60)} minute`);

    // other accounts are unaffected
    const other = await registerUser(api);
    const ok = await api.post('/auth/login', { username: other.username, password: other.password }, { ip: newIp() });
    expect(ok.status).toBe(200);
  });

  it('slows repeated failures from one address across accounts', async () => {
    const ip = newIp();
    for (let attempt = 1; attempt <= 20; attempt++) {
      const res = await api.post('/auth/login', { username: `ghost_${attempt}_${ip}`, password: 'Wrong@123a' }, { ip });
      expect(res.status, `attempt ${attempt}`).toBe(401);
    }
    const user = await registerUser(api);
    const locked = await api.post('/auth/login', { username: user.username, password: user.password }, { ip });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    // the same account from another address is fine
    const elsewhere = await api.post(
      '/auth/login',
      { username: user.username, password: user.password },
      { ip: newIp() },
    );
    expect(elsewhere.status).toBe(200);
  });

  it('records attempts without the password', async () => {
    const user = await registerUser(api);
    const ip = newIp();
    await api.post('/auth/login', { username: user.username, password: 'Wrong@123a' }, { ip });
    await api.post('/auth/login', { username: user.username, password: user.password }, { ip });
    const rows = await sql<{ ip: string; account: string; succeeded: boolean }[]>`
      select ip, account, succeeded from private.login_attempts where ip = ${ip} order by id`;
    expect(rows).toEqual([
      { ip, account: user.email, succeeded: false },
      { ip, account: user.email, succeeded: true },
    ]);
  });

  const invalid: Array<[string, Record<string, unknown>, string]> = [
    ['missing username', { password: 'x' }, 'Username is required'],
    ['empty username', { username: '   ', password: 'x' }, 'Username is required'],
    ['username not text', { username: 42, password: 'x' }, 'Username must be text'],
    ['missing password', { username: 'someone' }, 'Password is required'],
    ['empty password', { username: 'someone', password: '' }, 'Password is required'],
    ['password not text', { username: 'someone', password: true }, 'Password must be text'],
  ];
  it.each(invalid)('refuses a %s with 400 naming the field, recording no attempt', async (_case, body, message) => {
    const ip = newIp();
    const res = await api.post('/auth/login', body, { ip });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message });
    const [row] = await sql<{ n: number }[]>`select count(*)::int as n from private.login_attempts where ip = ${ip}`;
    expect(row?.n).toBe(0);
  });

  it('refuses malformed JSON with 400', async () => {
    const res = await api.request('POST', '/auth/login', undefined, { raw: '{"username":' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'Request body must be valid JSON' });
  });

  it('never answers 500 to odd input', async () => {
    const odd: unknown[] = [
      { username: 'x'.repeat(60_000), password: 'y' },
      { username: "' or 1=1 --", password: "' or 1=1 --" },
      { username: 'a@b', password: 'x'.repeat(2000) },
      { username: null, password: null },
      { username: { $ne: null }, password: ['x'] },
      { username: 'someone', password: 'x', extra: { nested: [1, 2, 3] } },
    ];
    for (const body of odd) {
      const res = await api.post('/auth/login', body, { ip: newIp() });
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
    expect(newCredentials().username).toBeTruthy();
  });
});
