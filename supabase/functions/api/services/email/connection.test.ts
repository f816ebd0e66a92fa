import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { loadConfig } from '../../config.ts';
import { authorizationUrl, codeChallenge } from '../../../_shared/mailbox/google.ts';
import { forwardingTokenOf } from './inbound.ts';

const testConfig = loadConfig({
  SUPABASE_URL: 'http://supabase.internal',
  SUPABASE_ANON_KEY: 'anon',
  SUPABASE_SERVICE_ROLE_KEY: 'service',
  SUPABASE_DB_URL: 'postgres://unused',
  SITE_URL: 'https://fareback.test',
});

Deno.test('PKCE S256 challenge: base64url of the SHA-256 of the verifier, unpadded', async () => {
  const verifier = 'dBjftJeZ4CVP-mJ92K9rIvX2TQx6lMDe7bWnbyWJPbM';
  const expected = createHash('sha256').update(verifier).digest('base64url');
  assert.equal(await codeChallenge(verifier), expected);
  assert.equal(expected, 'D9UFItOzHC2bKYawhVarV6ovFJwSan36FtILr0NK-Us');
});

Deno.test(
  'the authorization URL asks for read-only Gmail, offline access, consent, the state and the challenge',
  () => {
    const url = new URL(authorizationUrl({ ...testConfig.email, googleClientId: 'client-1' }, 'st', 'ch'));
    assert.equal(url.origin + url.pathname, 'https://accounts.google.com/o/oauth2/v2/auth');
    assert.deepEqual(Object.fromEntries(url.searchParams), {
      client_id: 'client-1',
      redirect_uri: 'https://fareback.test/oauth2callback',
      response_type: 'code',
      scope: 'https://www.googleapis.com/auth/gmail.readonly',
      access_type: 'offline',
      prompt: 'consent',
      include_granted_scopes: 'false',
      state: 'st',
      code_challenge: 'ch',
      code_challenge_method: 'S256',
    });
  },
);

Deno.test('the forwarding token: the envelope recipient alone, only at the inbound domain', () => {
  assert.equal(forwardingTokenOf('in.fareback.app', 'TRIPS+ZZZZZZZZZZZZ9999@IN.FAREBACK.APP'), 'zzzzzzzzzzzz9999');
  assert.equal(forwardingTokenOf('in.fareback.app', '<trips+abcdefghij012345@in.fareback.app>'), 'abcdefghij012345');
  // a header block is not a recipient (mail is never routed by its headers: issue 21, finding 8)
  assert.equal(forwardingTokenOf('in.fareback.app', 'Delivered-To: trips+abcdefghij012345@in.fareback.app'), null);
  assert.equal(forwardingTokenOf('in.fareback.app', 'trips+abcdefghij012345@in.fareback.app.evil.com'), null);
  assert.equal(forwardingTokenOf('in.fareback.app', 'trips+short@in.fareback.app'), null);
  assert.equal(forwardingTokenOf('in.fareback.app', 'julia@example.com'), null);
});
