// Login and password recovery decisions that the HTTP tests cannot see without timing them: the
// password check an unknown account still gets, the account-wide delay, and forgot-password
// answering before any mail is sent.
import assert from 'node:assert/strict';
import { afterResponseSettled } from '../lib/after-response.ts';
import type { AuthApi } from '../lib/auth-api.ts';
import { loginDelayMs } from '../queries/login-attempts.ts';
import { recordingAuthApi, recordingMailer, ScriptedDb, testApp, testConfig } from '../testing.ts';
import type { AppDeps } from '../context.ts';
import { type LoginHooks, logIn, MESSAGES, unknownAccountAddress } from './accounts.ts';

function deps(db: ScriptedDb, authApi: AuthApi): AppDeps {
  return {
    config: testConfig,
    db,
    authApi,
    mailer: recordingMailer(),
    log: () => {},
    verifyAccessToken: () => Promise.reject(new Error('unused')),
    fareSource: {} as AppDeps['fareSource'],
    payments: {} as AppDeps['payments'],
  };
}

function recordingHooks() {
  const calls: Array<[string, unknown]> = [];
  const hooks: LoginHooks = {
    sleep: (ms) => {
      calls.push(['sleep', ms]);
      return Promise.resolve();
    },
    checkUnknownAccountPassword: (password) => {
      calls.push(['checkUnknownAccountPassword', password]);
      return Promise.resolve(false);
    },
  };
  return { calls, hooks };
}

const throttleRow = (accountFailures: number) => [
  { pair_until: null, ip_until: null, account_failures: accountFailures, now: new Date() },
];
const invalidCredentials = () =>
  Promise.resolve({
    ok: false as const,
    status: 400,
    code: 'invalid_credentials',
    message: 'Invalid login credentials',
  });

Deno.test('login: an unknown account still gets the password checks a known one gets, and the same 401', async () => {
  const db = new ScriptedDb([[], throttleRow(0), []]);
  const authApi = recordingAuthApi({ signInWithPassword: invalidCredentials });
  const { calls, hooks } = recordingHooks();
  await assert.rejects(
    logIn(deps(db, authApi), { username: 'Nobody', password: 'Guess@123' }, '198.51.100.7', hooks),
    (error: Error) => error.message === MESSAGES.invalidCredentials,
  );
  // compared here against a bcrypt hash, and asked of Auth for an address no account can have
  assert.deepEqual(calls, [['checkUnknownAccountPassword', 'Guess@123']]);
  const address = await unknownAccountAddress('nobody');
  assert.match(address, /^no-account-[0-9a-f]{24}@fareback\.invalid$/);
  assert.deepEqual(authApi.calls, [{ method: 'signInWithPassword', args: [address, 'Guess@123', '198.51.100.7'] }]);
  assert.ok(db.queries.at(-1)?.startsWith('insert into private.login_attempts'));
});

Deno.test('login: for an unknown account even a password Auth accepted is refused', async () => {
  const db = new ScriptedDb([[], throttleRow(0), []]);
  const { hooks } = recordingHooks();
  await assert.rejects(
    logIn(deps(db, recordingAuthApi()), { username: 'nobody', password: 'Guess@123' }, null, hooks),
    (error: Error) => error.message === MESSAGES.invalidCredentials,
  );
});

Deno.test('login: a known account is checked by Auth, which is told the client address', async () => {
  const db = new ScriptedDb([[{ email: 'alice@example.com' }], throttleRow(0), []]);
  const authApi = recordingAuthApi({ signInWithPassword: invalidCredentials });
  const { calls, hooks } = recordingHooks();
  await assert.rejects(logIn(deps(db, authApi), { username: 'alice', password: 'Wrong@123' }, '198.51.100.7', hooks));
  assert.deepEqual(calls, []);
  assert.deepEqual(authApi.calls, [
    { method: 'signInWithPassword', args: ['alice@example.com', 'Wrong@123', '198.51.100.7'] },
  ]);
});

Deno.test('login: an account failing from many addresses waits before the check, never refused', async () => {
  for (const [failures, waited] of [
    [9, null],
    [10, 250],
    [12, 1000],
    [40, 4000],
  ] as const) {
    const db = new ScriptedDb([[{ email: 'alice@example.com' }], throttleRow(failures), []]);
    const authApi = recordingAuthApi({ signInWithPassword: invalidCredentials });
    const { calls, hooks } = recordingHooks();
    await assert.rejects(logIn(deps(db, authApi), { username: 'alice', password: 'Wrong@123' }, '203.0.113.9', hooks));
    assert.deepEqual(calls, waited === null ? [] : [['sleep', waited]], `${failures} failures`);
    assert.equal(authApi.calls.length, 1, 'the password is still checked');
  }
});

Deno.test('login delay: none below 10 failures, then 250 ms doubling to a 4 s cap', () => {
  assert.deepEqual(
    [0, 9, 10, 11, 12, 13, 14, 15, 100, 10_000].map(loginDelayMs),
    [0, 0, 250, 500, 1000, 2000, 4000, 4000, 4000, 4000],
  );
});

Deno.test('forgot password: answers before the mail is sent, then sends it', async () => {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const authApi = recordingAuthApi({
    recover: async () => {
      await released;
      return { ok: true, value: null };
    },
  });
  const db = new ScriptedDb([[{ id: 'u1', email: 'who@example.com', confirmed: true }]]);
  const { request } = testApp({ db, authApi });
  const res = await request('/api/auth/forgot-password', { method: 'POST', json: { email: 'who@example.com' } });
  // answered while Auth has not yet finished sending
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { message: MESSAGES.forgotPassword });
  release();
  await afterResponseSettled();
  assert.deepEqual(
    authApi.calls.map((call) => call.method),
    ['recover'],
  );
});

Deno.test('forgot password: an unconfirmed address gets the confirmation link, no reset link', async () => {
  const db = new ScriptedDb([[{ id: 'u1', email: 'who@example.com', confirmed: false }], [], [{ sent: 0 }]]);
  const authApi = recordingAuthApi();
  const mailer = recordingMailer();
  const { request } = testApp({ db, authApi, mailer });
  const res = await request('/api/auth/forgot-password', { method: 'POST', json: { email: 'who@example.com' } });
  assert.equal(res.status, 200);
  await afterResponseSettled();
  assert.deepEqual(authApi.calls, []);
  assert.equal(mailer.sent.length, 1);
  assert.equal(mailer.sent[0]?.to, 'who@example.com');
  assert.equal(mailer.sent[0]?.subject, 'Confirm your email address for FareBack');
  assert.match(mailer.sent[0]?.text ?? '', /http:\/\/site\.test\/confirm-email\?token=[A-Za-z0-9_-]{43}\n/);
});

Deno.test('forgot password: an unknown address: nothing is sent, the answer is the same', async () => {
  const authApi = recordingAuthApi();
  const mailer = recordingMailer();
  const { request } = testApp({ db: new ScriptedDb([[]]), authApi, mailer });
  const res = await request('/api/auth/forgot-password', { method: 'POST', json: { email: 'nobody@example.com' } });
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { message: MESSAGES.forgotPassword });
  await afterResponseSettled();
  assert.deepEqual(authApi.calls, []);
  assert.deepEqual(mailer.sent, []);
});
