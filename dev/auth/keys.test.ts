import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { loadOrCreateSigningKey, mintApiKey, publicJwks } from './keys.ts';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('signing key', () => {
  it('is created once at a path and read back on the next start', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'auth-key-'));
    dirs.push(dir);
    const path = join(dir, 'nested', 'auth-key.json');
    const first = await loadOrCreateSigningKey(path);
    const second = await loadOrCreateSigningKey(path);
    expect(second.kid).toBe(first.kid);
    expect(second.publicJwk).toEqual(first.publicJwk);

    const saved = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
    expect(saved).toMatchObject({ kty: 'EC', crv: 'P-256', kid: first.kid });
    expect(typeof saved.d).toBe('string');
    expect((await stat(path)).mode & 0o077).toBe(0);

    // A token signed before the "restart" verifies with the key read back.
    const key = await mintApiKey(first, 'anon');
    await expect(jwtVerify(key, second.publicKey)).resolves.toBeTruthy();
  });

  it('lives in memory without a path, a new one each time', async () => {
    const a = await loadOrCreateSigningKey();
    const b = await loadOrCreateSigningKey();
    expect(a.kid).not.toBe(b.kid);
  });
});

describe('API keys and JWKS', () => {
  it('mints long-lived anon and service-role keys verifiable with the public JWKS only', async () => {
    const key = await loadOrCreateSigningKey();
    const jwks = publicJwks(key);
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kid: key.kid, alg: 'ES256', use: 'sig', kty: 'EC', crv: 'P-256' });
    expect(jwks.keys[0]).not.toHaveProperty('d');

    for (const role of ['anon', 'service_role'] as const) {
      const token = await mintApiKey(key, role);
      expect(decodeProtectedHeader(token)).toMatchObject({ alg: 'ES256', kid: key.kid });
      const { payload } = await jwtVerify(token, createLocalJWKSet(jwks), { issuer: 'supabase-demo' });
      expect(payload.role).toBe(role);
      expect((payload.exp ?? 0) - Date.now() / 1000).toBeGreaterThan(5 * 365 * 24 * 3600);
    }
  });

  it('does not verify with another project key', async () => {
    const token = await mintApiKey(await loadOrCreateSigningKey(), 'service_role');
    const other = await loadOrCreateSigningKey();
    await expect(jwtVerify(token, other.publicKey)).rejects.toThrow();
  });
});
