import assert from 'node:assert/strict';
import { connectionOptions } from './db.ts';

Deno.test('db: statements are prepared on a direct connection', () => {
  const url = 'postgresql://postgres:secret@db.ref.supabase.co:5432/postgres';
  assert.deepEqual(connectionOptions(url, false), { url, prepare: true });
});

Deno.test("db: no prepared statements through Supabase's transaction pooler (port 6543)", () => {
  const url = 'postgresql://postgres.ref:secret@aws-0-eu-central-1.pooler.supabase.com:6543/postgres';
  assert.deepEqual(connectionOptions(url, false), { url, prepare: false });
});

Deno.test('db: no prepared statements when the URL says pgbouncer=true, and the marker is not sent on', () => {
  const options = connectionOptions(
    'postgres://postgres:secret@pooler.example.com:5433/postgres?pgbouncer=true&sslmode=require',
    false,
  );
  assert.equal(options.prepare, false);
  assert.equal(options.url, 'postgres://postgres:secret@pooler.example.com:5433/postgres?sslmode=require');
});

Deno.test('db: pgbouncer=false is a direct connection, still without the marker', () => {
  const options = connectionOptions('postgres://postgres@127.0.0.1:5432/postgres?pgbouncer=false', false);
  assert.deepEqual(options, { url: 'postgres://postgres@127.0.0.1:5432/postgres', prepare: true });
});

Deno.test('db: never prepared on a single PGlite session', () => {
  const url = 'postgres://fareback_owner@127.0.0.1:54322/postgres';
  assert.deepEqual(connectionOptions(url, true), { url, prepare: false });
});
