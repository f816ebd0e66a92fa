import assert from 'node:assert/strict';
import { clientIp } from './client-ip.ts';

const ip = (headers: Record<string, string>, hops?: number) => clientIp(new Headers(headers), hops);

Deno.test('client address: the entry the trusted proxy appended (the last one by default)', () => {
  // what the local gateway (http-proxy, xfwd) makes of a client that sent its own header
  assert.equal(ip({ 'x-forwarded-for': '203.0.113.7,127.0.0.1' }), '127.0.0.1');
  assert.equal(ip({ 'x-forwarded-for': '203.0.113.7, 10.0.0.1' }), '10.0.0.1');
  assert.equal(ip({ 'x-forwarded-for': '198.51.100.2' }), '198.51.100.2');
  assert.equal(ip({ 'x-forwarded-for': '::ffff:127.0.0.1' }), '127.0.0.1');
});

Deno.test('client address: a forged first entry never decides it, whatever the client writes', () => {
  for (const forged of ['1.1.1.1', '1.1.1.1, 2.2.2.2', 'garbage', '', ', , ,', '[::1]:80']) {
    assert.equal(ip({ 'x-forwarded-for': `${forged},198.51.100.4` }), '198.51.100.4', forged);
    assert.equal(ip({ 'x-forwarded-for': `${forged}, 198.51.100.4, 10.0.0.9` }, 2), '198.51.100.4', forged);
  }
});

Deno.test('client address: with more trusted hops, counted from the right; fewer entries take the first', () => {
  assert.equal(ip({ 'x-forwarded-for': '9.9.9.9, 203.0.113.7, 10.0.0.1' }, 2), '203.0.113.7');
  assert.equal(ip({ 'x-forwarded-for': '9.9.9.9, 203.0.113.7, 10.0.0.1' }, 3), '9.9.9.9');
  assert.equal(ip({ 'x-forwarded-for': '203.0.113.7' }, 2), '203.0.113.7');
});

Deno.test('client address: only well-formed addresses; x-real-ip and the like are client-written', () => {
  assert.equal(ip({ 'x-forwarded-for': '2001:DB8::1' }), '2001:db8::1');
  assert.equal(ip({ 'x-forwarded-for': '[2001:db8::1]:443' }), '2001:db8::1');
  assert.equal(ip({ 'x-forwarded-for': '198.51.100.2:5678' }), '198.51.100.2');
  assert.equal(ip({ 'x-forwarded-for': '999.1.1.1' }), null);
  assert.equal(ip({ 'x-forwarded-for': "1.2.3.4'; drop table x" }), null);
  assert.equal(ip({ 'x-forwarded-for': '1.2.3.4, garbage' }), null);
  assert.equal(ip({ 'x-real-ip': '198.51.100.9' }), null);
  assert.equal(ip({}), null);
});
