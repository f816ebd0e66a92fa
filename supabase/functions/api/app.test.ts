import assert from 'node:assert/strict';
import { MESSAGES } from './services/accounts.ts';
import { MAX_BODY_BYTES } from './app.ts';
import { afterResponseSettled } from './lib/after-response.ts';
import { AuthUnavailableError } from './lib/auth-api.ts';
import { profileRow, recordingAuthApi, recordingMailer, ScriptedDb, SITE_URL, testApp, testKeys } from './testing.ts';

async function body(response: Response): Promise<Record<string, unknown>> {
  return (await response.json()) as Record<string, unknown>;
}

const validRegistration = { username: 'alice', email: 'alice@example.com', password: 'Secret@123' };

// ---------------------------------------------------------------- health, routing, errors

Deno.test('health reports the database', async () => {
  const db = new ScriptedDb();
  const { request } = testApp({ db });
  let res = await request('/api/health');
  assert.equal(res.status, 200);
  assert.deepEqual(await body(res), { status: 'ok', database: 'ok' });
  db.reachable = false;
  res = await request('/api/health');
  assert.equal(res.status, 503);
  assert.deepEqual(await body(res), { status: 'ok', database: 'unreachable' });
});

Deno.test('unknown paths answer JSON 404 (with a session) and routes live under /api only', async () => {
  const keys = await testKeys();
  const { request } = testApp({ verifyAccessToken: keys.verifier });
  const token = await keys.sign({ sub: crypto.randomUUID() });
  const res = await request('/api/nothing-here', { headers: { Authorization: `Bearer ${token}` } });
  assert.equal(res.status, 404);
  assert.deepEqual(await body(res), { message: 'Not found' });
  assert.equal((await request('/health')).status, 404);
});

Deno.test('every response carries a request id, and one JSON log line is written per request', async () => {
  const { request, logs } = testApp();
  const res = await request('/api/health', { headers: { 'X-Request-Id': 'abc-123' } });
  assert.equal(res.headers.get('X-Request-Id'), 'abc-123');
  const generated = (await request('/api/health')).headers.get('X-Request-Id');
  assert.ok(generated && generated.length >= 16);
  const lines = logs.filter((entry) => entry.msg === 'request');
  assert.equal(lines.length, 2);
  const first = lines[0];
  assert.ok(first);
  assert.equal(first.method, 'GET');
  assert.equal(first.path, '/api/health');
  assert.equal(first.status, 200);
  assert.equal(first.requestId, 'abc-123');
  assert.equal(first.userId, null);
  assert.equal(typeof first.ms, 'number');
  // CPU time and peak memory against the hosted Edge Functions' budget (issue 27 item 5)
  for (const figure of ['cpuMs', 'rssMb', 'heapMb', 'heapGrowthMb']) {
    assert.equal(typeof first[figure], 'number', figure);
    assert.ok((first[figure] as number) >= 0, figure);
  }
  assert.ok((first.rssMb as number) > 0);
  assert.equal(first.concurrent, 0);
});

Deno.test('CORS allows the site origin with credentials, and no other origin', async () => {
  const { request } = testApp();
  const preflight = await request('/api/auth/login', {
    method: 'OPTIONS',
    headers: {
      Origin: SITE_URL,
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': 'content-type,authorization',
    },
  });
  assert.equal(preflight.status, 204);
  assert.equal(preflight.headers.get('Access-Control-Allow-Origin'), SITE_URL);
  assert.equal(preflight.headers.get('Access-Control-Allow-Credentials'), 'true');
  assert.match(preflight.headers.get('Access-Control-Allow-Headers') ?? '', /Authorization/i);

  const other = await request('/api/health', { headers: { Origin: 'http://evil.test' } });
  assert.equal(other.headers.get('Access-Control-Allow-Origin'), null);

  // later requests, errors included, answer the site the same (the middleware is made once)
  const refused = await request('/api/flights', { headers: { Origin: SITE_URL } });
  assert.equal(refused.status, 401);
  assert.equal(refused.headers.get('Access-Control-Allow-Origin'), SITE_URL);
  assert.equal(refused.headers.get('Access-Control-Allow-Credentials'), 'true');
  assert.match(refused.headers.get('Access-Control-Expose-Headers') ?? '', /Retry-After/);
  assert.match(refused.headers.get('Vary') ?? '', /Origin/);
});

Deno.test('malformed JSON is a 400 that says so, and touches nothing', async () => {
  const db = new ScriptedDb();
  const authApi = recordingAuthApi();
  const { request } = testApp({ db, authApi });
  for (const path of [
    '/api/auth/register',
    '/api/auth/login',
    '/api/auth/forgot-password',
    '/api/auth/reset-password',
  ]) {
    for (const raw of ['{"username": ', '', 'undefined', "{'a':1}"]) {
      const res = await request(path, { method: 'POST', body: raw, headers: { 'Content-Type': 'application/json' } });
      assert.equal(res.status, 400, `${path} ${raw}`);
      assert.deepEqual(await body(res), { message: 'Request body must be valid JSON' });
    }
    for (const raw of ['[]', '"text"', '42', 'null', 'true']) {
      const res = await request(path, { method: 'POST', body: raw });
      assert.equal(res.status, 400, `${path} ${raw}`);
      assert.deepEqual(await body(res), { message: 'Request body must be a JSON object' });
    }
  }
  assert.equal(db.touched, false);
  assert.deepEqual(authApi.calls, []);
});

Deno.test('bodies over the size cap are refused with 413', async () => {
  const db = new ScriptedDb();
  const { request } = testApp({ db });
  const res = await request('/api/auth/register', {
    method: 'POST',
    json: { ...validRegistration, username: 'x'.repeat(MAX_BODY_BYTES) },
  });
  assert.equal(res.status, 413);
  assert.match(String((await body(res)).message), /too large/);
  assert.equal(db.touched, false);
});

Deno.test('a NUL character anywhere in a request is a 400 naming where, before any route reads it', async () => {
  const db = new ScriptedDb();
  const authApi = recordingAuthApi();
  const { request } = testApp({ db, authApi });
  const post = (path: string, raw: string) =>
    request(path, { method: 'POST', body: raw, headers: { 'Content-Type': 'application/json' } });
  // [what, request, field named in errors (null: a message only), the message]
  const cases: Array<[string, () => Response | Promise<Response>, string | null, string]> = [
    [
      'an escaped NUL in a JSON string',
      () => post('/api/auth/login', '{"username":"alice\\u0000","password":"x"}'),
      'username',
      'Username must not contain a NUL character (U+0000)',
    ],
    [
      'a raw NUL in a JSON string',
      () => post('/api/auth/login', '{"username":"alice","password":"x\0y"}'),
      'password',
      'Password must not contain a NUL character (U+0000)',
    ],
    [
      'a NUL in a nested string',
      () => post('/api/flights/manual', '{"extra":{"list":["ok","\\u0000"]}}'),
      'extra.list.1',
      'List must not contain a NUL character (U+0000)',
    ],
    [
      'a NUL in a key',
      () => post('/api/auth/register', '{"user\\u0000name":"alice"}'),
      'user\\u0000name',
      'User\\u0000name must not contain a NUL character (U+0000)',
    ],
    [
      'a raw NUL outside any string',
      () => post('/api/auth/login', '{"username":"alice"}\0'),
      null,
      'The request body must not contain a NUL character (U+0000)',
    ],
    [
      'a NUL in a query parameter',
      () => request('/api/admin/users?q=ab%00cd'),
      'q',
      'Parameter q must not contain a NUL character (U+0000)',
    ],
    [
      'a NUL in a query parameter name',
      () => request('/api/admin/users?q%00=1'),
      'q\\u0000',
      'Parameter q\\u0000 must not contain a NUL character (U+0000)',
    ],
    [
      'a NUL in a path segment',
      () => request('/api/admin/subscription-plans/1%00', { method: 'PUT', body: '{}' }),
      null,
      'The address must not contain a NUL character (U+0000)',
    ],
  ];
  for (const [what, send, field, message] of cases) {
    const res = await send();
    assert.equal(res.status, 400, what);
    const answer = await body(res);
    assert.equal(answer.message, message, what);
    assert.deepEqual(answer.errors, field === null ? undefined : [{ field, message }], what);
  }
  // nothing was read, written or sent on: no database, no auth server
  assert.equal(db.touched, false);
  assert.deepEqual(authApi.calls, []);

  // the escape written out as text (a backslash, then u0000) is no NUL, and a body is still read
  // by its route after the check (login answers as usual)
  const literal = await post('/api/auth/login', '{"username":"a\\\\u0000","password":"x"}');
  assert.notEqual(literal.status, 400);
  assert.equal(authApi.calls.length, 1);

  // Stripe's signed events are Stripe's: the webhook route judges them (here: no signature), the
  // NUL check does not (a 400 from it would only make Stripe deliver the event again for days)
  const event = await request('/api/stripe/webhook', { method: 'POST', body: '{"id":"evt_1","note":"\\u0000"}' });
  assert.notEqual((await body(event)).message, 'Note must not contain a NUL character (U+0000)');
});

Deno.test('invalid fields are a 400 naming each field and rule; nothing is called', async () => {
  const db = new ScriptedDb();
  const authApi = recordingAuthApi();
  const { request } = testApp({ db, authApi });
  const cases: Array<[string, unknown, string]> = [
    ['/api/auth/register', { ...validRegistration, username: 'ab' }, 'Username must be at least 3 characters'],
    ['/api/auth/register', { ...validRegistration, username: 7 }, 'Username must be text'],
    ['/api/auth/register', { ...validRegistration, email: 'nope' }, 'Please enter a valid email address'],
    ['/api/auth/register', { ...validRegistration, password: 'short' }, 'Password must be at least 8 characters long'],
    ['/api/auth/register', { ...validRegistration, password: 'alllowercase1@' }, 'Password must contain'],
    ['/api/auth/register', {}, 'Username is required; Email is required; Password is required'],
    ['/api/auth/login', { password: 'x' }, 'Username is required'],
    ['/api/auth/login', { username: 'alice', password: '' }, 'Password is required'],
    ['/api/auth/login', { username: ['alice'], password: 'x' }, 'Username must be text'],
    ['/api/auth/forgot-password', { email: 'x' }, 'Please enter a valid email address'],
    ['/api/auth/reset-password', { password: 'Secret@123' }, 'Reset token is required'],
    [
      '/api/auth/reset-password',
      { token: 't', password: 'x'.repeat(101) },
      'Password must be less than 100 characters',
    ],
  ];
  for (const [path, json, message] of cases) {
    const res = await request(path, { method: 'POST', json });
    assert.equal(res.status, 400, `${path} ${JSON.stringify(json)}`);
    const answer = await body(res);
    assert.ok(String(answer.message).startsWith(message), `${answer.message} should start with ${message}`);
    assert.ok(Array.isArray(answer.errors));
  }
  assert.equal(db.touched, false);
  assert.deepEqual(authApi.calls, []);
});

Deno.test('an unexpected failure is a logged 500 with a generic message', async () => {
  const db = new ScriptedDb([new Error('connection reset')]);
  const { request, logs } = testApp({ db });
  const res = await request('/api/auth/login', { method: 'POST', json: { username: 'alice', password: 'x' } });
  assert.equal(res.status, 500);
  assert.deepEqual(await body(res), { message: 'Internal server error' });
  const error = logs.find((entry) => entry.msg === 'unhandled error');
  assert.ok(error);
  assert.match(String(error.error), /connection reset/);
  assert.equal(logs.find((entry) => entry.msg === 'request')?.level, 'error');
});

Deno.test('Auth being unreachable is a 503, not a 500', async () => {
  const db = new ScriptedDb([[{ username_taken: false, email_taken: false }]]);
  const authApi = recordingAuthApi({
    createUser: () => Promise.reject(new AuthUnavailableError(new TypeError('refused'))),
  });
  const { request } = testApp({ db, authApi });
  const res = await request('/api/auth/register', { method: 'POST', json: validRegistration });
  assert.equal(res.status, 503);
});

// ---------------------------------------------------------------- me and tokens

Deno.test('me: missing, malformed, forged, expired and non-user tokens are 401', async () => {
  const keys = await testKeys();
  const other = await testKeys();
  const db = new ScriptedDb();
  const { request } = testApp({ db, verifyAccessToken: keys.verifier });
  const sub = crypto.randomUUID();
  const tokens: Array<string | null> = [
    null,
    'not-a-jwt',
    await other.sign({ sub }), // signed by another key under the same key id
    await keys.sign({ sub }, { expiresIn: -60 }),
    await keys.sign({ sub, role: 'service_role' }),
    await keys.sign({ sub, aud: 'someone-else' }),
    await keys.sign({ sub: '' }),
  ];
  for (const token of tokens) {
    const res = await request('/api/auth/me', token ? { headers: { Authorization: `Bearer ${token}` } } : {});
    assert.equal(res.status, 401, String(token));
    assert.deepEqual(await body(res), { message: 'Not authenticated' });
  }
  const basic = await request('/api/auth/me', { headers: { Authorization: 'Basic abc' } });
  assert.equal(basic.status, 401);
  assert.equal(db.touched, false);
});

Deno.test('me: the profile is read as the user, with their claims', async () => {
  const keys = await testKeys();
  const sub = '00000000-0000-4000-8000-000000000001';
  const db = new ScriptedDb([
    [profileRow({ id: sub, is_admin: true, subscription_tier: 'premium', min_price_drop: 2500 })],
  ]);
  const { request, logs } = testApp({ db, verifyAccessToken: keys.verifier });
  const token = await keys.sign({ sub, email: 'alice@example.com' });
  const res = await request('/api/auth/me', { headers: { Authorization: `Bearer ${token}` } });
  assert.equal(res.status, 200);
  const { user } = (await res.json()) as { user: Record<string, unknown> };
  assert.equal(user.id, sub);
  assert.equal(user.username, 'alice');
  assert.equal(user.isAdmin, true);
  assert.equal(user.subscriptionTier, 'premium');
  assert.equal(user.minPriceDrop, 2500);
  assert.equal(user.createdAt, '2026-01-02T03:04:05.000Z');
  assert.equal(db.userTransactions.length, 1);
  assert.equal(db.userTransactions[0]?.sub, sub);
  assert.equal(db.serviceTransactions, 0);
  assert.equal(logs.find((entry) => entry.msg === 'request')?.userId, sub);
});

Deno.test('me: a valid token without a profile is 401', async () => {
  const keys = await testKeys();
  const { request } = testApp({ db: new ScriptedDb([[]]), verifyAccessToken: keys.verifier });
  const token = await keys.sign({ sub: crypto.randomUUID() });
  const res = await request('/api/auth/me', { headers: { Authorization: `Bearer ${token}` } });
  assert.equal(res.status, 401);
});

// ---------------------------------------------------------------- register and login

Deno.test('register: a taken username or email is a 409 naming which; Auth is not called', async () => {
  for (const [taken, message] of [
    [{ username_taken: true, email_taken: true }, MESSAGES.usernameTaken],
    [{ username_taken: false, email_taken: true }, MESSAGES.emailTaken],
  ] as const) {
    const authApi = recordingAuthApi();
    const { request } = testApp({ db: new ScriptedDb([[taken]]), authApi });
    const res = await request('/api/auth/register', { method: 'POST', json: validRegistration });
    assert.equal(res.status, 409);
    assert.deepEqual(await body(res), { message });
    assert.deepEqual(authApi.calls, []);
  }
});

Deno.test('register: losing the race for the username at insert is a 409 and the account is removed', async () => {
  const db = new ScriptedDb([
    [{ username_taken: false, email_taken: false }], // our check
    [{ username: 'alice1' }], // the trigger had to pick another name
    [], // delete profile
    [], // delete user
  ]);
  const authApi = recordingAuthApi();
  const { request } = testApp({ db, authApi });
  const res = await request('/api/auth/register', { method: 'POST', json: validRegistration });
  assert.equal(res.status, 409);
  assert.deepEqual(await body(res), { message: MESSAGES.usernameTaken });
  assert.ok(db.queries.some((q) => q.startsWith('delete from auth.users')));
  assert.deepEqual(
    authApi.calls.map((c) => c.method),
    ['createUser'],
  );
});

Deno.test('register: losing the race for the email at Auth is a 409', async () => {
  const db = new ScriptedDb([
    [{ username_taken: false, email_taken: false }],
    [{ username_taken: false, email_taken: true }],
  ]);
  const authApi = recordingAuthApi({
    createUser: () => Promise.resolve({ ok: false, status: 422, code: 'email_exists', message: 'taken' }),
  });
  const { request } = testApp({ db, authApi });
  const res = await request('/api/auth/register', { method: 'POST', json: validRegistration });
  assert.equal(res.status, 409);
  assert.deepEqual(await body(res), { message: MESSAGES.emailTaken });
});

Deno.test(
  'register: creates the user confirmed with its username, signs in, answers 201 { user, session }',
  async () => {
    const keys = await testKeys();
    const sub = '00000000-0000-4000-8000-000000000001';
    const token = await keys.sign({ sub });
    const db = new ScriptedDb([
      [{ username_taken: false, email_taken: false }],
      [{ username: 'Alice' }],
      [profileRow({ id: sub, username: 'Alice' })],
    ]);
    const authApi = recordingAuthApi({
      createUser: (input) => Promise.resolve({ ok: true, value: { id: sub, email: input.email } }),
      signInWithPassword: () =>
        Promise.resolve({
          ok: true,
          value: { access_token: token, refresh_token: 'r', expires_at: 1, expires_in: 3600, token_type: 'bearer' },
        }),
    });
    const mailer = recordingMailer();
    const { request } = testApp({ db, authApi, mailer });
    const res = await request('/api/auth/register', {
      method: 'POST',
      json: { ...validRegistration, username: 'Alice', email: 'ALICE@example.com', extra: 'ignored' },
    });
    assert.equal(res.status, 201);
    // after the answer: the address confirmation email, and no other
    await afterResponseSettled();
    assert.deepEqual(
      mailer.sent.map((mail) => [mail.to, mail.subject]),
      [['alice@example.com', 'Confirm your email address for FareBack']],
    );
    const answer = (await res.json()) as { user: { id: string; username: string }; session: { access_token: string } };
    assert.equal(answer.user.id, sub);
    assert.equal(answer.user.username, 'Alice');
    assert.equal(answer.session.access_token, token);
    assert.deepEqual(authApi.calls[0], {
      method: 'createUser',
      args: [{ username: 'Alice', email: 'alice@example.com', password: 'Secret@123' }],
    });
    assert.deepEqual(authApi.calls[1]?.args, ['alice@example.com', 'Secret@123']);
    assert.equal(db.userTransactions[0]?.sub, sub);
  },
);

Deno.test('login: a refused address is answered 429 with Retry-After before the password is checked', async () => {
  const now = new Date();
  const db = new ScriptedDb([
    [{ email: 'alice@example.com' }],
    [{ pair_until: new Date(now.getTime() + 10 * 60_000 + 5000), ip_until: null, account_failures: 5, now }],
  ]);
  const authApi = recordingAuthApi();
  const { request } = testApp({ db, authApi });
  const res = await request('/api/auth/login', {
    method: 'POST',
    json: { username: 'alice', password: 'Secret@123' },
    headers: { 'X-Forwarded-For': '203.0.113.7, 10.0.0.1' },
  });
  assert.equal(res.status, 429);
  assert.equal(res.headers.get('Retry-After'), '605');
  assert.deepEqual(await body(res), {
    message: 'Too many failed login attempts. Please wait 11 minutes and try again.',
  });
  assert.deepEqual(authApi.calls, []);
});

Deno.test('login: wrong credentials and unknown accounts are the same 401, and are recorded', async () => {
  for (const known of [true, false]) {
    const db = new ScriptedDb([
      known ? [{ email: 'alice@example.com' }] : [],
      [{ pair_until: null, ip_until: null, account_failures: 0, now: new Date() }],
      [],
    ]);
    const authApi = recordingAuthApi({
      signInWithPassword: () =>
        Promise.resolve({ ok: false, status: 400, code: 'invalid_credentials', message: 'Invalid login credentials' }),
    });
    const { request } = testApp({ db, authApi });
    const res = await request('/api/auth/login', {
      method: 'POST',
      json: { username: 'alice', password: 'Wrong@123' },
    });
    assert.equal(res.status, 401);
    assert.deepEqual(await body(res), { message: 'Invalid username or password' });
    assert.ok(db.queries.at(-1)?.startsWith('insert into private.login_attempts'));
    // an unknown account is asked of Auth too (under an address no account has): same work, same time
    assert.equal(authApi.calls.length, 1);
  }
});

// ---------------------------------------------------------------- logout, recovery, google

Deno.test('logout: revokes the session when there is one; always 200', async () => {
  const authApi = recordingAuthApi({ signOut: () => Promise.reject(new AuthUnavailableError('down')) });
  const { request } = testApp({ authApi });
  let res = await request('/api/auth/logout', { method: 'POST' });
  assert.equal(res.status, 200);
  assert.deepEqual(await body(res), { message: 'Logged out' });
  res = await request('/api/auth/logout', { method: 'POST', headers: { Authorization: 'Bearer tok' } });
  assert.equal(res.status, 200);
  assert.deepEqual(authApi.calls, [{ method: 'signOut', args: ['tok', 'local'] }]);
});

Deno.test('forgot password: the same answer whatever Auth says; Auth is asked after the answer', async () => {
  const outcomes = [
    () => Promise.resolve({ ok: true as const, value: null }),
    () =>
      Promise.resolve({ ok: false as const, status: 429, code: 'over_email_send_rate_limit', message: 'slow down' }),
    () => Promise.reject(new AuthUnavailableError('down')),
  ];
  for (const recover of outcomes) {
    const authApi = recordingAuthApi({ recover });
    const db = new ScriptedDb([[{ id: 'u1', email: 'who@example.com', confirmed: true }]]);
    const { request } = testApp({ authApi, db });
    const res = await request('/api/auth/forgot-password', { method: 'POST', json: { email: 'Who@Example.com' } });
    assert.equal(res.status, 200);
    assert.deepEqual(await body(res), { message: MESSAGES.forgotPassword });
    await afterResponseSettled();
    assert.deepEqual(authApi.calls[0]?.args, ['who@example.com', `${SITE_URL}/reset-password`]);
  }
});

Deno.test(
  'reset password: verifies the token, sets the password with the recovery session, ends sessions',
  async () => {
    const authApi = recordingAuthApi();
    const { request } = testApp({ authApi });
    const res = await request('/api/auth/reset-password', {
      method: 'POST',
      json: { token: 'hash', password: 'Newer@123' },
    });
    assert.equal(res.status, 200);
    assert.deepEqual(await body(res), { message: 'Password has been reset' });
    assert.deepEqual(
      authApi.calls.map((c) => [c.method, c.args[0]]),
      [
        ['verifyRecovery', 'hash'],
        ['updatePassword', 'header.eyJzdWIiOiJ1In0.sig'],
        ['signOut', 'header.eyJzdWIiOiJ1In0.sig'],
      ],
    );
  },
);

Deno.test('reset password: an invalid, expired or used token is a 400 with the reset-link message', async () => {
  const authApi = recordingAuthApi({
    verifyRecovery: () =>
      Promise.resolve({ ok: false, status: 403, code: 'otp_expired', message: 'Email link is invalid or has expired' }),
  });
  const { request } = testApp({ authApi });
  const res = await request('/api/auth/reset-password', {
    method: 'POST',
    json: { token: 'used', password: 'Newer@123' },
  });
  assert.equal(res.status, 400);
  assert.deepEqual(await body(res), {
    message: 'This password reset link is invalid or has expired. Please request a new one.',
  });
  assert.equal(authApi.calls.length, 1);
});

Deno.test('google sign-in redirects to Auth with the dashboard as the return address', async () => {
  const { request } = testApp();
  const res = await request('/api/auth/google');
  assert.equal(res.status, 302);
  assert.equal(
    res.headers.get('Location'),
    `http://supabase.test/auth/v1/authorize?provider=google&redirect_to=${encodeURIComponent(`${SITE_URL}/dashboard`)}`,
  );
});

Deno.test(
  'database refusals of client input map to 4xx; trigger messages pass, Postgres wording does not',
  async () => {
    const keys = await testKeys();
    const pgError = (code: string, message: string) =>
      Object.assign(new Error(message), { name: 'PostgresError', code });
    const cases: Array<[Error, number, string]> = [
      [pgError('22P02', 'invalid input syntax for type uuid: "x"'), 400, 'Invalid input: a value has the wrong format'],
      [pgError('23505', 'duplicate key value violates unique constraint "x"'), 409, 'This already exists'],
      [
        pgError('42501', 'new row violates row-level security policy for table "flights"'),
        403,
        'You are not allowed to do that',
      ],
      [
        pgError('42501', 'Premium subscription required for automatic rebooking.'),
        403,
        'Premium subscription required for automatic rebooking.',
      ],
      [
        pgError('FB409', 'Flight limit reached: your plan monitors up to 5 flights.'),
        409,
        'Flight limit reached: your plan monitors up to 5 flights.',
      ],
      [pgError('XX000', 'internal error'), 500, 'Internal server error'],
    ];
    for (const [error, status, message] of cases) {
      const { request } = testApp({ db: new ScriptedDb([error]), verifyAccessToken: keys.verifier });
      const token = await keys.sign({ sub: crypto.randomUUID() });
      const res = await request('/api/auth/me', { headers: { Authorization: `Bearer ${token}` } });
      assert.equal(res.status, status, error.message);
      assert.deepEqual(await body(res), { message });
    }
  },
);
