import assert from 'node:assert/strict';
import { createAuthApi } from './auth-api.ts';

function recordingFetch() {
  const requests: Request[] = [];
  const fetch = (input: string | URL | Request, init?: RequestInit) => {
    requests.push(new Request(input, init));
    return Promise.resolve(
      Response.json({ error_code: 'invalid_credentials', msg: 'Invalid login credentials' }, { status: 400 }),
    );
  };
  return { requests, fetch: fetch as typeof globalThis.fetch };
}

const options = { supabaseUrl: 'http://auth.test', anonKey: 'anon-key', serviceRoleKey: 'service-key' };

Deno.test('password grant: names the client address for Auth, with the key that lets it', async () => {
  const { requests, fetch } = recordingFetch();
  const result = await createAuthApi({ ...options, fetch }).signInWithPassword('a@example.com', 'pw', '198.51.100.7');
  assert.deepEqual(result, {
    ok: false,
    status: 400,
    code: 'invalid_credentials',
    message: 'Invalid login credentials',
  });
  const [request] = requests;
  assert.equal(request?.url, 'http://auth.test/auth/v1/token?grant_type=password');
  assert.equal(request?.headers.get('Sb-Forwarded-For'), '198.51.100.7');
  assert.equal(request?.headers.get('X-Forwarded-For'), '198.51.100.7');
  assert.equal(request?.headers.get('apikey'), 'service-key');
  assert.equal(request?.headers.get('Authorization'), 'Bearer service-key');
});

Deno.test('password grant: without a client address, no forwarding headers and the anon key', async () => {
  const { requests, fetch } = recordingFetch();
  await createAuthApi({ ...options, fetch }).signInWithPassword('a@example.com', 'pw', null);
  const [request] = requests;
  assert.equal(request?.headers.get('Sb-Forwarded-For'), null);
  assert.equal(request?.headers.get('X-Forwarded-For'), null);
  assert.equal(request?.headers.get('apikey'), 'anon-key');
  assert.equal(request?.headers.get('Authorization'), null);
});
