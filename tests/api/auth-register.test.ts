import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { accountRows, apiClient, databaseClient } from './client.ts';
import { newCredentials, newIp, registerUser, type Session } from './factories.ts';

const api = apiClient();
const sql = databaseClient();

const CURRENT_USER_FIELDS = [
  'id',
  'username',
  'email',
  'emailConfirmed',
  'isAdmin',
  'emailConnected',
  'emailConnectionState',
  'subscriptionTier',
  'subscriptionStartDate',
  'subscriptionEndDate',
  'flightLimit',
  'autoRebooking',
  'thresholdType',
  'percentThreshold',
  'absoluteThreshold',
  'minSavingsPercent',
  'minSavingsAmount',
  'thresholdCondition',
  'useSeparateInternationalThresholds',
  'internationalMinSavingsPercent',
  'internationalMinSavingsAmount',
  'notifyPriceDrops',
  'notifyRebookings',
  'notifyCancellations',
  'minPriceDrop',
  'minPriceDropPercent',
  'notificationFrequency',
  'notificationTime',
  'timeZone',
  'totalCreditsEarned',
  'commissionOwed',
  'commissionPaid',
  'planId',
  'planName',
  'commissionRate',
  'lastBillingDate',
  'createdAt',
  'onboardingCompleted',
];

describe('POST /api/auth/register', () => {
  it('creates the account and answers 201 with the user and a working session', async () => {
    const credentials = newCredentials({ username: `Mixed_${Date.now().toString(36)}` });
    const res = await api.post<{ user: Record<string, unknown>; session: Session }>(
      '/auth/register',
      { ...credentials, email: credentials.email.toUpperCase() },
      { ip: newIp() },
    );
    expect(res.status).toBe(201);
    const { user, session } = res.body;
    for (const field of CURRENT_USER_FIELDS) expect(user, field).toHaveProperty(field);
    expect(user).toMatchObject({
      username: credentials.username,
      email: credentials.email,
      isAdmin: false,
      emailConnected: false,
      subscriptionTier: 'free',
      autoRebooking: false,
      minSavingsPercent: 15,
      minSavingsAmount: 5000,
      thresholdCondition: 'either',
      internationalMinSavingsPercent: 20,
      internationalMinSavingsAmount: 10000,
      notifyPriceDrops: true,
      flightLimit: 5,
    });
    expect(session).toMatchObject({ token_type: 'bearer', expires_in: 3600 });
    expect(session.access_token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(session.refresh_token).toBeTruthy();
    expect(session.expires_at).toBeGreaterThan(Date.now() / 1000);

    const me = await api.get<{ user: { id: string } }>('/auth/me', { token: session.access_token });
    expect(me.status).toBe(200);
    expect(me.body.user.id).toBe(user.id);

    const [row] = await sql<{ username: string; confirmed: boolean }[]>`
      select p.username, u.email_confirmed_at is not null as confirmed
      from public.profiles p join auth.users u on u.id = p.id where p.id = ${String(user.id)}`;
    expect(row).toEqual({ username: credentials.username, confirmed: true });
  });

  it('refuses a taken username, in any case, with 409 naming it and stores nothing', async () => {
    const existing = await registerUser(api);
    const attempt = newCredentials({ username: existing.username.toUpperCase() });
    const res = await api.post('/auth/register', attempt, { ip: newIp() });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: 'Username is already taken' });
    expect(await accountRows(sql, { email: attempt.email })).toEqual({ users: 0, profiles: 0 });
  });

  it('refuses a registered email, in any case, with 409 naming it and stores nothing', async () => {
    const existing = await registerUser(api);
    const attempt = newCredentials({ email: existing.email.toUpperCase() });
    const res = await api.post('/auth/register', attempt, { ip: newIp() });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: 'An account with this email already exists' });
    expect(await accountRows(sql, { username: attempt.username })).toEqual({ users: 0, profiles: 0 });
    expect(await accountRows(sql, { email: existing.email })).toEqual({ users: 1, profiles: 1 });
  });

  it('lets exactly one of two simultaneous sign-ups for one username win', async () => {
    const username = newCredentials().username;
    const attempts = [newCredentials({ username }), newCredentials({ username: username.toUpperCase() })];
    const results = await Promise.all(attempts.map((a) => api.post('/auth/register', a, { ip: newIp() })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(results.find((r) => r.status === 409)?.body).toEqual({ message: 'Username is already taken' });
    const [count] = await sql<{ n: number }[]>`
      select count(*)::int as n from public.profiles where lower(username) = lower(${username})`;
    expect(count?.n).toBe(1);
    const loser = attempts[results.findIndex((r) => r.status === 409)];
    expect(await accountRows(sql, { email: loser?.email ?? '' })).toEqual({ users: 0, profiles: 0 });
  });

  it('lets exactly one of two simultaneous sign-ups for one email win', async () => {
    const email = newCredentials().email;
    const attempts = [newCredentials({ email }), newCredentials({ email: email.toUpperCase() })];
    const results = await Promise.all(attempts.map((a) => api.post('/auth/register', a, { ip: newIp() })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(results.find((r) => r.status === 409)?.body).toEqual({
      message: 'An account with this email already exists',
    });
    expect(await accountRows(sql, { email })).toEqual({ users: 1, profiles: 1 });
  });

  const invalid: Array<[string, Record<string, unknown>, string]> = [
    ['missing username', { username: undefined }, 'Username is required'],
    ['short username', { username: 'ab' }, 'Username must be at least 3 characters'],
    ['long username', { username: 'a'.repeat(31) }, 'Username must be at most 30 characters'],
    [
      'username with spaces',
      { username: 'two words' },
      'Username may only contain letters, numbers, underscores, dots and hyphens',
    ],
    ['username not text', { username: 12345 }, 'Username must be text'],
    ['missing email', { email: undefined }, 'Email is required'],
    ['invalid email', { email: 'not-an-email' }, 'Please enter a valid email address'],
    ['email not text', { email: { address: 'a@b.c' } }, 'Email must be text'],
    ['missing password', { password: undefined }, 'Password is required'],
    ['short password', { password: 'Ab1@' }, 'Password must be at least 8 characters long'],
    ['long password', { password: `Ab1@${'x'.repeat(100)}` }, 'Password must be less than 100 characters'],
    [
      'password longer than Auth can store (73 bytes)',
      { password: `Ab1@${'x'.repeat(69)}` },
      'Password must be at most 72 bytes',
    ],
    [
      'password of 39 characters but 74 bytes (accented letters)',
      { password: `Ab1@${'é'.repeat(35)}` },
      'Password must be at most 72 bytes',
    ],
    [
      'password without a special character',
      { password: 'Password123' },
      'Password must contain an uppercase letter, a lowercase letter, a number and a special character (@$!%*?&)',
    ],
    ['password without an uppercase letter', { password: 'password@123' }, 'Password must contain an uppercase letter'],
    ['password without a digit', { password: 'Password@abc' }, 'Password must contain an uppercase letter'],
  ];
  it.each(invalid)('refuses a %s with 400 naming the field, and stores nothing', async (_case, change, message) => {
    const credentials = { ...newCredentials(), ...change };
    const res = await api.post<{ message: string }>('/auth/register', credentials, { ip: newIp() });
    expect(res.status).toBe(400);
    expect(res.body.message.startsWith(message), res.body.message).toBe(true);
    const email = typeof credentials.email === 'string' ? credentials.email : '';
    const username = typeof credentials.username === 'string' ? credentials.username : '';
    expect(await accountRows(sql, { email, username })).toEqual({ users: 0, profiles: 0 });
  });

  it('refuses malformed JSON, non-object bodies and oversized bodies without a 500', async () => {
    for (const raw of ['{"username": "x", ', 'null', '[1,2]', '"string"', '']) {
      const res = await api.request('POST', '/auth/register', undefined, { raw });
      expect(res.status, raw).toBe(400);
      expect(['Request body must be valid JSON', 'Request body must be a JSON object']).toContain(
        (res.body as { message: string }).message,
      );
    }
    const big = await api.post('/auth/register', { ...newCredentials(), username: 'x'.repeat(70_000) });
    expect(big.status).toBe(413);
  });
});

describe('GET /api/auth/me', () => {
  it("reads the tier and flight limit from the traveller's plan, renamed or retired", async () => {
    const traveller = await registerUser(api);
    const name = `Gold ${randomBytes(4).toString('hex')}`;
    const [plan] = await sql<{ id: string }[]>`
      insert into public.subscription_plans (name, tier, price, flight_limit, auto_rebooking_enabled, commission_rate)
      values (${name}, 'premium', 4999, 12, true, 20) returning id`;
    await sql`update public.profiles set plan_id = ${plan?.id ?? 0} where id = ${traveller.id}`;
    await sql`update public.subscription_plans set name = ${`${name} (2027)`}, is_active = false where id = ${plan?.id ?? 0}`;

    const me = await api.get<{ user: Record<string, unknown> }>('/auth/me', { token: traveller.session.access_token });
    expect(me.status).toBe(200);
    expect(Object.keys(me.body.user).sort()).toEqual([...CURRENT_USER_FIELDS].sort());
    expect(me.body.user).toMatchObject({ subscriptionTier: 'premium', flightLimit: 12 });
  });
});
