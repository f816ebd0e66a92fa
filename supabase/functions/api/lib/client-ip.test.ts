import assert from 'node:assert/strict';
import { clientIp } from './client-ip.ts';

const ip = (headers: Record<string, string>) => clientIp(new Headers(headers));

Deno.test('client address: first x-forwarded-for entry, else x-real-ip, only well-formed', () => {
  assert.equal(ip({ 'x-forwarded-for': '203.0.113.7, 10.0.0.1' }), '203.0.113.7');
  assert.equal(ip({ 'x-forwarded-for': '2001:DB8::1' }), '2001:db8::1');
  assert.equal(ip({ 'x-forwarded-for': '[2001:db8::1]:443' }), '2001:db8::1');
  assert.equal(ip({ 'x-forwarded-for': '198.51.100.2:5678' }), '198.51.100.2');
  assert.equal(ip({ 'x-real-ip': '198.51.100.9' }), '198.51.100.9');
  assert.equal(ip({ 'x-forwarded-for': 'garbage', 'x-real-ip': '198.51.100.9' }), '198.51.100.9');
  assert.equal(ip({ 'x-forwarded-for': '999.1.1.1' }), null);
  assert.equal(ip({ 'x-forwarded-for': "1.2.3.4'; drop table x" }), null);
  assert.equal(ip({}), null);
});
