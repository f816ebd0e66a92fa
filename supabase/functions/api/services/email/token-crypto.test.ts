import assert from 'node:assert/strict';
import { createTokenCipher, TokenKeyError } from './token-crypto.ts';

const KEY = btoa(String.fromCharCode(...new Uint8Array(32).map((_, i) => i + 1)));
const USER = '00000000-0000-4000-8000-000000000001';

Deno.test('a token decrypts for its user and its stored form reveals nothing of it', async () => {
  const cipher = await createTokenCipher(KEY);
  const stored = await cipher.encrypt('ya29.secret-access-token', USER);
  assert.equal(stored.includes('secret'), false);
  assert.equal(await cipher.decrypt(stored, USER), 'ya29.secret-access-token');
  // a fresh IV each time
  assert.notEqual(await cipher.encrypt('ya29.secret-access-token', USER), stored);
});

Deno.test('a token does not decrypt for another user, with another key, or altered', async () => {
  const cipher = await createTokenCipher(KEY);
  const stored = await cipher.encrypt('refresh-1', USER);
  await assert.rejects(() => cipher.decrypt(stored, '00000000-0000-4000-8000-000000000002'));
  const other = await createTokenCipher(btoa(String.fromCharCode(...new Uint8Array(32).fill(7))));
  await assert.rejects(() => other.decrypt(stored, USER));
  const flipped = stored.slice(0, -2) + (stored.endsWith('A') ? 'BB' : 'AA');
  await assert.rejects(() => cipher.decrypt(flipped, USER));
});

Deno.test('a key that is not 32 bytes of base64 is refused', async () => {
  await assert.rejects(() => createTokenCipher(btoa('short')), TokenKeyError);
});
