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

  it('refuses one address after 5 failures on one account: 429 with Retry-After for that pair only', async () => {
    const user = await registerUser(api);
    const ip = newIp();
    for (let attempt = 1; attempt <= 5; attempt++) {
      const res = await api.post('/auth/login', { username: user.username, password: `Wrong@${attempt}abc` }, { ip });
      expect(res.status, `attempt ${attempt}`).toBe(401);
    }
    const refused = await api.post<{ message: string }>(
      '/auth/login',
      { username: user.email, password: user.password },
      { ip },
    );
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(
      /^Too many failed login attempts\. Please wait (\d+) minutes? and try again\.$/,
    );
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(refused.body.message).toContain(`wait ${Math.ceil(retryAfter / 60)} minute`);

    // the same address may still sign in to another account, and the owner from elsewhere
    const other = await registerUser(api);
    expect((await api.post('/auth/login', { username: other.username, password: other.password }, { ip })).status).toBe(
      200,
    );
    expect(
      (await api.post('/auth/login', { username: user.username, password: user.password }, { ip: newIp() })).status,
    ).toBe(200);
  });

  it("someone else's failures cannot lock the owner out: the right password from the owner's address works", async () => {
    const owner = await registerUser(api);
    const attacker = newIp();
    const statuses: number[] = [];
    for (let attempt = 1; attempt <= 10; attempt++) {
      const res = await api.post(
        '/auth/login',
        { username: owner.username, password: `Guess@${attempt}abc` },
        { ip: attacker },
      );
      statuses.push(res.status);
    }
    // five wrong passwords, then that address is refused for this account
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429, 429, 429]);

    const res = await api.post<LoginBody>(
      '/auth/login',
      { username: owner.username, password: owner.password },
      { ip: newIp() },
    );
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(owner.id);
  });

  it('an account failing from many addresses is slowed, never locked: the owner still gets in', async () => {
    const owner = await registerUser(api);
    // twelve failures from three addresses: past the point where every attempt on the account waits
    for (const ip of [newIp(), newIp(), newIp()]) {
      for (let attempt = 1; attempt <= 4; attempt++) {
        const res = await api.post('/auth/login', { username: owner.email, password: `Guess@${attempt}abc` }, { ip });
        expect(res.status).toBe(401);
      }
    }
    const [row] = await sql<{ n: number }[]>`
      select count(*)::int as n from private.login_attempts where account = ${owner.email} and not succeeded`;
    expect(row?.n).toBe(12);
    const res = await api.post('/auth/login', { username: owner.username, password: owner.password }, { ip: newIp() });
    expect(res.status).toBe(200);
  });

  it('counts the address the trusted proxy appended: a forged first X-Forwarded-For entry changes nothing', async () => {
    // The attack: a fresh made-up address at the front of X-Forwarded-For on every request. The
    // test stands in for the trusted proxy, which appends the real client address after it.
    const ip = newIp();
    const forwardedFor = () => ({ 'X-Forwarded-For': `${newIp()}, ${ip}` });
    for (let attempt = 1; attempt <= 20; attempt++) {
      const res = await api.post(
        '/auth/login',
        { username: `ghost_${attempt}_${ip}`, password: 'Wrong@123a' },
        { headers: forwardedFor() },
      );
      expect(res.status, `attempt ${attempt}`).toBe(401);
    }
    const user = await registerUser(api);
    const refused = await api.post(
      '/auth/login',
      { username: user.username, password: user.password },
      { headers: forwardedFor() },
    );
    expect(refused.status).toBe(429);
    const rows = await sql<{ ip: string }[]>`
      select distinct ip from private.login_attempts where account like ${`ghost%${ip}`}`;
    expect(rows).toEqual([{ ip }]);
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
