import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { anyFreePorts as freePorts, startStack, type Stack } from './stack.ts';

// `npm start` keeps its state in one directory: a stop and a start must lose nothing, neither the
// accounts in PGlite nor the signing key that already-issued sessions were signed with.
describe('the local stack', () => {
  let stateDir = '';
  let stack: Stack | null = null;

  afterAll(async () => {
    await stack?.stop();
    if (stateDir) await rm(stateDir, { recursive: true, force: true });
  });

  it('keeps accounts and sessions across a restart', async () => {
    stateDir = await mkdtemp(path.join(os.tmpdir(), 'fareback-persist-'));
    stack = await startStack({ stateDir, ports: freePorts, seed: true });
    const account = { username: 'persisted', email: 'persisted@example.com', password: 'Keep@2027me' };
    const registered = await fetch(`${stack.apiUrl}/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(account),
    });
    expect(registered.status).toBe(201);
    const { session } = (await registered.json()) as { session: { access_token: string } };
    await stack.stop();

    stack = await startStack({ stateDir, ports: freePorts, seed: true });
    const me = await fetch(`${stack.apiUrl}/auth/me`, { headers: { authorization: `Bearer ${session.access_token}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { user: { username: string } }).user.username).toBe('persisted');

    const login = await fetch(`${stack.apiUrl}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: account.username, password: account.password }),
    });
    expect(login.status).toBe(200);
  }, 120_000);

  it('refuses a second stack on the same state directory, which would corrupt the database', async () => {
    expect(stack).not.toBeNull();
    await expect(startStack({ stateDir, ports: freePorts })).rejects.toThrow(/already running/);
    const health = await fetch(`${stack!.url}/api/health`);
    expect(health.status).toBe(200);
  });

  it('serves the product, the api and auth on one origin', async () => {
    expect(stack).not.toBeNull();
    const health = await fetch(`${stack!.url}/api/health`);
    expect(await health.json()).toEqual({ status: 'ok', database: 'ok' });
    const viaFunctionsPath = await fetch(`${stack!.url}/functions/v1/api/health`);
    expect(viaFunctionsPath.status).toBe(200);
    const auth = await fetch(`${stack!.url}/auth/v1/health`);
    expect(auth.status).toBe(200);
    const jwks = (await (await fetch(`${stack!.url}/auth/v1/.well-known/jwks.json`)).json()) as { keys: unknown[] };
    expect(jwks.keys.length).toBeGreaterThan(0);
  });
});
