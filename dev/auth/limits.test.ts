// Where the password is checked (POST /token?grant_type=password): failed sign-ins limited per
// account and client address, per address, and slowed per account (finding 1); an unknown address
// costing the same bcrypt comparison as a known one, and /recover answering before the mail goes
// (finding 2). Nothing here measures time: delays are recorded, comparisons counted.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { clientAddress, normaliseAddress, trustedHopsFromEnv } from './client-address.ts';
import { DEFAULT_LOGIN_LIMITS, LoginLimiter } from './login-limiter.ts';
import type { Mailer } from './mailer.ts';
import { bcryptHasher, type PasswordHasher } from './passwords.ts';
import { emailsTo, startTestAuth, uniqueEmail, waitForEmail, type TestAuth } from './test-support.ts';

const PASSWORD = 'Right-password-1';
const WINDOW_MS = 15 * 60 * 1000;

describe('LoginLimiter', () => {
  function limiterAt(start = 1_000_000) {
    const clock = { now: start };
    return { clock, limiter: new LoginLimiter(DEFAULT_LOGIN_LIMITS, () => clock.now) };
  }

  it('refuses an (account, address) pair after 5 failures in 15 minutes, only that pair, until the window passes', () => {
    const { clock, limiter } = limiterAt();
    for (let i = 0; i < 5; i++) {
      expect(limiter.retryAfterSeconds('u@x.test', '198.51.100.1')).toBe(0);
      limiter.begin('u@x.test', '198.51.100.1');
      clock.now += 1000;
    }
    expect(limiter.retryAfterSeconds('u@x.test', '198.51.100.1')).toBe(15 * 60 - 5);
    expect(limiter.retryAfterSeconds('u@x.test', '198.51.100.2')).toBe(0);
    expect(limiter.retryAfterSeconds('other@x.test', '198.51.100.1')).toBe(0);
    clock.now += 15 * 60 * 1000 - 6000;
    expect(limiter.retryAfterSeconds('u@x.test', '198.51.100.1')).toBe(1);
    clock.now += 1000;
    expect(limiter.retryAfterSeconds('u@x.test', '198.51.100.1')).toBe(0);
  });

  it('refuses an address after 20 failures across accounts', () => {
    const { limiter } = limiterAt();
    for (let i = 0; i < 20; i++) limiter.begin(`user${i}@x.test`, '203.0.113.9');
    expect(limiter.retryAfterSeconds('fresh@x.test', '203.0.113.9')).toBe(15 * 60);
    expect(limiter.retryAfterSeconds('fresh@x.test', '203.0.113.10')).toBe(0);
  });

  it('delays every attempt on an account from its 10th failure: 250 ms doubling, 4 s at most', () => {
    const { clock, limiter } = limiterAt();
    const delays: number[] = [];
    for (let i = 0; i < 16; i++) {
      delays.push(limiter.delayMs('u@x.test'));
      limiter.begin('u@x.test', `198.51.100.${i}`);
    }
    expect(delays).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 250, 500, 1000, 2000, 4000, 4000]);
    expect(limiter.delayMs('other@x.test')).toBe(0);
    clock.now += WINDOW_MS + 1;
    expect(limiter.delayMs('u@x.test')).toBe(0);
  });

  it('takes back an attempt whose password was right, and forgives that pair', () => {
    const { limiter } = limiterAt();
    for (let i = 0; i < 4; i++) limiter.begin('u@x.test', '198.51.100.1');
    limiter.begin('u@x.test', '198.51.100.1').succeeded();
    expect(limiter.retryAfterSeconds('u@x.test', '198.51.100.1')).toBe(0);
    for (let i = 0; i < 4; i++) limiter.begin('u@x.test', '198.51.100.1');
    expect(limiter.retryAfterSeconds('u@x.test', '198.51.100.1')).toBe(0);
  });

  it('counts an attempt from the moment it starts, so parallel guesses cannot slip past', () => {
    const { limiter } = limiterAt();
    const started = Array.from({ length: 5 }, () => limiter.begin('u@x.test', '198.51.100.1'));
    expect(started).toHaveLength(5);
    expect(limiter.retryAfterSeconds('u@x.test', '198.51.100.1')).toBeGreaterThan(0);
  });
});

describe('client address', () => {
  const base = { sbForwardedFor: undefined, trustedCaller: false, socketAddress: '::ffff:127.0.0.1' };

  it('takes the entry the trusted proxy appended, not what the client wrote', () => {
    expect(clientAddress({ ...base, forwardedFor: '6.6.6.6, 203.0.113.7' }, 1)).toBe('203.0.113.7');
    expect(clientAddress({ ...base, forwardedFor: '6.6.6.6, 203.0.113.7, 10.0.0.2' }, 2)).toBe('203.0.113.7');
    expect(clientAddress({ ...base, forwardedFor: '203.0.113.7' }, 2)).toBe('203.0.113.7');
    expect(clientAddress({ ...base, forwardedFor: '6.6.6.6, 203.0.113.7' }, 0)).toBe('127.0.0.1');
    expect(clientAddress({ ...base, forwardedFor: undefined }, 1)).toBe('127.0.0.1');
    expect(clientAddress({ ...base, forwardedFor: 'not-an-ip' }, 1)).toBe('127.0.0.1');
  });

  it('believes Sb-Forwarded-For only from a caller with the service-role key', () => {
    const sources = { ...base, forwardedFor: '127.0.0.1', sbForwardedFor: '198.51.100.4' };
    expect(clientAddress(sources, 1)).toBe('127.0.0.1');
    expect(clientAddress({ ...sources, trustedCaller: true }, 1)).toBe('198.51.100.4');
    expect(clientAddress({ ...sources, trustedCaller: true, sbForwardedFor: 'junk' }, 1)).toBe('127.0.0.1');
  });

  it('reads addresses and TRUSTED_PROXY_HOPS strictly', () => {
    expect(normaliseAddress('[2001:DB8::1]')).toBe('2001:db8::1');
    expect(normaliseAddress('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(normaliseAddress('10.1.2.3:8080')).toBeNull();
    expect(trustedHopsFromEnv(undefined)).toBe(1);
    expect(trustedHopsFromEnv('2')).toBe(2);
    expect(() => trustedHopsFromEnv('-1')).toThrow(/TRUSTED_PROXY_HOPS/);
  });
});

describe('password sign-in at the auth server', () => {
  let auth: TestAuth;
  const delays: number[] = [];
  const compared: string[] = [];
  /** The real bcrypt, with every comparison's hash noted. */
  const countingHasher: PasswordHasher = {
    hash: (password, cost) => bcryptHasher.hash(password, cost),
    compare: (password, hash) => {
      compared.push(hash);
      return bcryptHasher.compare(password, hash);
    },
  };
  let holdMail: Promise<void> | null = null;
  let failMail = false;

  beforeAll(async () => {
    auth = await startTestAuth({
      passwords: countingHasher,
      // Recorded, not waited: the test asserts the delay, never the clock.
      sleep: async (ms) => {
        delays.push(ms);
      },
      wrapMailer: (mailer): Mailer => ({
        ...mailer,
        async sendRecovery(to, data) {
          if (holdMail) await holdMail;
          if (failMail) throw new Error('SMTP is down');
          return mailer.sendRecovery(to, data);
        },
      }),
    });
  });

  afterAll(async () => {
    await auth?.stop();
  });

  async function account(label: string): Promise<string> {
    const email = uniqueEmail(label);
    const { error } = await auth
      .client(auth.serviceRoleKey)
      .auth.admin.createUser({ email, password: PASSWORD, email_confirm: true });
    expect(error).toBeNull();
    return email;
  }

  /** A password grant as it reaches the auth server behind the gateway, which appended `from`. */
  async function signIn(email: string, password: string, forwardedFor: string) {
    const res = await fetch(`${auth.authUrl}/token?grant_type=password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
      body: JSON.stringify({ email, password }),
    });
    const body = (await res.json()) as { access_token?: string; error_code?: string; msg?: string; code?: number };
    return { status: res.status, body, retryAfter: res.headers.get('retry-after') };
  }

  it("limits one client address's guesses at one account, without locking the owner out (finding 1)", async () => {
    const victim = await account('victim');
    const attacker = '198.51.100.66';
    const statuses: number[] = [];
    let refused: Awaited<ReturnType<typeof signIn>> | undefined;
    for (let i = 0; i < 10; i++) {
      const res = await signIn(victim, `Guess-${i}-x`, attacker);
      statuses.push(res.status);
      if (res.status === 429) refused ??= res;
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429, 429, 429, 429, 429]);
    expect(refused?.body).toEqual({
      code: 429,
      error_code: 'over_request_rate_limit',
      msg: 'Request rate limit reached',
    });
    const retryAfter = Number(refused?.retryAfter);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    // The right password from the attacker's address is refused too: it gets no more tries.
    expect((await signIn(victim, PASSWORD, attacker)).status).toBe(429);

    // The owner, elsewhere, signs in.
    const owner = await signIn(victim, PASSWORD, '203.0.113.20');
    expect(owner.status).toBe(200);
    expect(owner.body.access_token).toBeTruthy();
  });

  it('does not let a forged first X-Forwarded-For entry escape the limit', async () => {
    const victim = await account('forged');
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      // The client writes a new address each time; the gateway appends the one it saw.
      const res = await signIn(victim, `Guess-${i}-x`, `10.${i}.${i}.${i}, 198.51.100.77`);
      statuses.push(res.status);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429, 429, 429]);
  });

  it('limits one address across accounts to 20 failures', async () => {
    const spray = '198.51.100.88';
    for (let i = 0; i < 20; i++) {
      // Unknown accounts count like known ones: the limits reveal nothing about who exists.
      expect((await signIn(uniqueEmail(`spray${i}`), 'Guess-1-x', spray)).status, `attempt ${i + 1}`).toBe(400);
    }
    const someone = await account('sprayed');
    expect((await signIn(someone, PASSWORD, spray)).status).toBe(429);
    expect((await signIn(someone, PASSWORD, '203.0.113.21')).status).toBe(200);
  });

  it('slows guesses at one account from many addresses, and the right password still gets in', async () => {
    const victim = await account('botnet');
    delays.length = 0;
    // 12 failures from 3 addresses (4 each, under the per-pair limit).
    for (let i = 0; i < 12; i++) {
      expect((await signIn(victim, `Guess-${i}-x`, `198.51.100.${100 + (i % 3)}`)).status).toBe(400);
    }
    expect(delays).toEqual([250, 500]);
    const owner = await signIn(victim, PASSWORD, '203.0.113.22');
    expect(owner.status).toBe(200);
    expect(delays).toEqual([250, 500, 1000]);
  });

  it('compares an unknown address against a dummy bcrypt hash of the same cost (finding 2)', async () => {
    const known = await account('known');
    compared.length = 0;
    expect((await signIn(known, 'Wrong-pass-1', '203.0.113.30')).status).toBe(400);
    expect((await signIn(uniqueEmail('unknown'), 'Wrong-pass-1', '203.0.113.30')).status).toBe(400);

    // A Google-only account has no password hash: compared against the dummy as well.
    const googleOnly = uniqueEmail('google-only');
    await auth.sql`insert into auth.users (instance_id, id, aud, role, email, email_confirmed_at, created_at, updated_at)
      values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated',
        ${googleOnly}, now(), now(), now())`;
    expect((await signIn(googleOnly, 'Wrong-pass-1', '203.0.113.30')).status).toBe(400);

    expect(compared).toHaveLength(3);
    const [knownHash, unknownHash, googleHash] = compared;
    const [stored] = await auth.sql<{ encrypted_password: string }[]>`
      select encrypted_password from auth.users where email = ${known}`;
    expect(knownHash).toBe(stored?.encrypted_password);
    for (const hash of [unknownHash, googleHash]) {
      expect(hash).not.toBe(stored?.encrypted_password);
      // Same algorithm and cost as a real hash: the comparison takes as long.
      expect(hash?.slice(0, 7)).toBe(stored?.encrypted_password.slice(0, 7));
      expect(hash).toMatch(/^\$2[aby]\$10\$/);
    }
  });

  it('answers /recover before the email is sent, and whatever becomes of it (finding 2)', async () => {
    const email = await account('recover-slow');
    let release = () => {};
    holdMail = new Promise<void>((resolve) => {
      release = resolve;
    });
    try {
      // SMTP is stuck, yet the answer comes: it cannot tell an existing account by its delay.
      const { data, error } = await auth.client().auth.resetPasswordForEmail(email);
      expect(error).toBeNull();
      expect(data).toEqual({});
      expect(await emailsTo(auth.mailUrl, email)).toHaveLength(0);
    } finally {
      holdMail = null;
      release();
    }
    const mail = await waitForEmail(auth.mailUrl, email);
    expect(mail.subject).toBe('Reset your FareBack password');

    // A failing mail server is logged, and the answer is the same 200.
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    failMail = true;
    try {
      const failing = await account('recover-fail');
      const { error } = await auth.client().auth.resetPasswordForEmail(failing);
      expect(error).toBeNull();
      await vi.waitFor(() =>
        expect(logged).toHaveBeenCalledWith('[auth] could not send the recovery email', expect.any(Error)),
      );
    } finally {
      failMail = false;
      logged.mockRestore();
    }
  });
});
