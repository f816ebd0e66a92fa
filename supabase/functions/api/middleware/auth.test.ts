import assert from 'node:assert/strict';
import * as jose from 'jose';
import { HttpError } from '../errors.ts';
import { testKeys } from '../testing.ts';
import { bearerToken, createTokenVerifier, withSessionCheck, withVerifiedTokenCache } from './auth.ts';

async function rejection(promise: Promise<unknown>): Promise<HttpError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof HttpError, String(error));
    return error;
  }
  assert.fail('expected a rejection');
}

Deno.test('bearer token: only the Bearer scheme', () => {
  assert.equal(bearerToken('Bearer abc.def.ghi'), 'abc.def.ghi');
  assert.equal(bearerToken('bearer  abc'), 'abc');
  assert.equal(bearerToken('Basic abc'), null);
  assert.equal(bearerToken('Bearer'), null);
  assert.equal(bearerToken(undefined), null);
});

Deno.test('JWKS tokens: a user access token passes with its claims', async () => {
  const keys = await testKeys();
  const sub = crypto.randomUUID();
  const claims = await keys.verifier(await keys.sign({ sub, email: 'x@example.com', session_id: 's' }));
  assert.equal(claims.sub, sub);
  assert.equal(claims.email, 'x@example.com');
  assert.equal(claims.role, 'authenticated');
});

Deno.test('HS256 tokens are checked with the secret when one is configured, refused otherwise', async () => {
  const secret = 'super-secret-jwt-token-with-at-least-32-characters';
  const keys = await testKeys();
  const withSecret = createTokenVerifier({ supabaseUrl: 'http://unused', jwtSecret: secret, jwks: keys.jwks });
  const withoutSecret = createTokenVerifier({ supabaseUrl: 'http://unused', jwks: keys.jwks });
  const now = Math.floor(Date.now() / 1000);
  const sign = (key: string, exp = now + 60) =>
    new jose.SignJWT({ sub: 'u1', aud: 'authenticated', role: 'authenticated' })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime(exp)
      .sign(new TextEncoder().encode(key));
  assert.equal((await withSecret(await sign(secret))).sub, 'u1');
  assert.equal((await rejection(withSecret(await sign('another-secret-of-sufficient-length!!')))).status, 401);
  assert.equal((await rejection(withSecret(await sign(secret, now - 10)))).status, 401);
  assert.equal((await rejection(withoutSecret(await sign(secret)))).status, 401);
  // the asymmetric path still works next to the secret
  assert.equal((await withSecret(await keys.sign({ sub: 'u2' }))).sub, 'u2');
});

Deno.test('an unreachable key set is a 503, not a 401', async () => {
  const keys = await testKeys();
  const verifier = createTokenVerifier({ supabaseUrl: 'http://127.0.0.1:9' });
  const error = await rejection(verifier(await keys.sign({ sub: 'u' })));
  assert.equal(error.status, 503);
});

Deno.test('withSessionCheck refuses a valid token whose session has ended, or that names none', async () => {
  const keys = await testKeys();
  const sub = crypto.randomUUID();
  const active = new Set(['live']);
  const asked: Array<[string, string]> = [];
  const verify = withSessionCheck(keys.verifier, (id, userId) => {
    asked.push([id, userId]);
    return Promise.resolve(active.has(id));
  });
  const claims = await verify(await keys.sign({ sub, session_id: 'live' }));
  assert.equal(claims.sub, sub);
  assert.deepEqual(asked, [['live', sub]]);
  for (const extra of [{ session_id: 'ended' }, {}]) {
    const error = await rejection(verify(await keys.sign({ sub, ...extra })));
    assert.equal(error.status, 401);
  }
});

Deno.test('withVerifiedTokenCache verifies a token once, until it expires or the cache age passes', async () => {
  let clock = 1_000_000_000_000;
  const verified: string[] = [];
  const verify = (token: string) => {
    verified.push(token);
    if (token === 'bad') return Promise.reject(new HttpError(401, 'Not authenticated'));
    // expires 30 minutes after the clock's start
    return Promise.resolve({ sub: 'u1', role: 'authenticated', aud: 'authenticated', exp: 1_000_000_000 + 1800 });
  };
  const cached = withVerifiedTokenCache(verify, { maxEntries: 2, maxAgeMs: 10 * 60_000, now: () => clock });

  assert.equal((await cached('a')).sub, 'u1');
  await cached('a');
  assert.deepEqual(verified, ['a']);

  // refusals are never remembered
  await assert.rejects(cached('bad'));
  await assert.rejects(cached('bad'));
  assert.deepEqual(verified, ['a', 'bad', 'bad']);

  // the cache age (10 minutes) passes before the token's expiry (30 minutes)
  clock += 11 * 60_000;
  await cached('a');
  assert.deepEqual(verified, ['a', 'bad', 'bad', 'a']);

  // past the token's own expiry it is verified again (and the verifier refuses expired tokens)
  clock += 25 * 60_000;
  await cached('a');
  assert.equal(verified.at(-1), 'a');
  assert.equal(verified.length, 5);

  // bounded: the oldest entry makes room
  await cached('b');
  await cached('c');
  await cached('a');
  assert.deepEqual(verified.slice(5), ['b', 'c', 'a']);
});
