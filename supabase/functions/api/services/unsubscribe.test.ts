import assert from 'node:assert/strict';
import { signUnsubscribeToken, unsubscribeLinks, unsubscribeSecret, verifyUnsubscribeToken } from './unsubscribe.ts';

const userId = '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b';
const other = '00000000-0000-4000-8000-000000000001';

Deno.test('unsubscribe tokens: what this server signed verifies, and nothing else', async () => {
  const token = await signUnsubscribeToken('secret-1', { userId, kind: 'price_drop' });
  assert.match(token, /^[0-9a-f-]{36}\.price_drop\.[A-Za-z0-9_-]{43}$/);
  assert.deepEqual(await verifyUnsubscribeToken('secret-1', token), { userId, kind: 'price_drop' });

  const [, , signature] = token.split('.');
  const forged = [
    `${other}.price_drop.${signature}`, // someone else
    `${userId}.rebooking.${signature}`, // another kind
    `${userId}.price_drop.${'A'.repeat(43)}`,
    `${userId}.price_drop`,
    `${token}x`,
    '',
    'a.b.c',
  ];
  for (const candidate of forged) assert.equal(await verifyUnsubscribeToken('secret-1', candidate), null, candidate);
  assert.equal(await verifyUnsubscribeToken('secret-2', token), null, 'another key');
});

Deno.test('unsubscribe secret and links', () => {
  assert.equal(unsubscribeSecret({ unsubscribeSecret: 'set', serviceRoleKey: 'srk' }), 'set');
  assert.equal(unsubscribeSecret({ unsubscribeSecret: null, serviceRoleKey: 'srk' }), 'derived:srk');
  const links = unsubscribeLinks(
    { siteUrl: 'https://app.test', supabasePublicUrl: 'https://ref.supabase.co' },
    'a.b.c',
  );
  assert.deepEqual(links, {
    page: 'https://app.test/unsubscribe?token=a.b.c',
    oneClick: 'https://ref.supabase.co/functions/v1/api/notifications/unsubscribe?token=a.b.c',
  });
});
