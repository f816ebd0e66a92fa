// Two users' requests at once must each see only their own row and role. Against PGlite the
// function holds one database session, so this proves that requests' transactions (each with
// its own role and claims) never interleave on it. Runs against the shared stack and, when that
// stack is not PGlite (CI's PostgreSQL), against a PGlite-backed stack of its own too.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { anyFreePorts, startStack, type Stack } from '../../dev/stack.ts';
import { apiClient, type ApiClient } from './client.ts';
import type { StackInfo } from './global-setup.ts';
import { newIp, registerUser, type RegisteredUser } from './factories.ts';

type Me = { user: { id: string; username: string; isAdmin: boolean } };

async function interleavedRequests(api: ApiClient, databaseUrl: string, singleSession: boolean): Promise<void> {
  const admin = await registerUser(api);
  const traveller = await registerUser(api);
  const sql = postgres(databaseUrl, { max: 1, prepare: !singleSession, onnotice: () => {} });
  try {
    await sql`update public.profiles set is_admin = true where id = ${admin.id}`;
  } finally {
    await sql.end();
  }

  const expectations: Array<[RegisteredUser, boolean]> = [];
  for (let i = 0; i < 20; i++) {
    expectations.push([admin, true], [traveller, false]);
  }
  const answers = await Promise.all(
    expectations.map(async ([user], i) => {
      if (i % 4 === 3) {
        // logins in the mix: service transactions interleaved with user ones
        const login = await api.post<Me>(
          '/auth/login',
          { username: user.username, password: user.password },
          { ip: newIp() },
        );
        return login;
      }
      return api.get<Me>('/auth/me', { token: user.session.access_token });
    }),
  );
  answers.forEach((res, i) => {
    const [user, isAdmin] = expectations[i]!;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.user.id).toBe(user.id);
    expect(res.body.user.username).toBe(user.username);
    expect(res.body.user.isAdmin).toBe(isAdmin);
  });
}

describe('concurrent requests of two users', () => {
  const shared: StackInfo = inject('stack');

  it(`each sees only their own row and role (shared stack, ${shared.singleSession ? 'PGlite' : 'PostgreSQL'})`, async () => {
    await interleavedRequests(apiClient(shared), shared.databaseUrl, shared.singleSession);
  });

  describe('on a PGlite-backed stack', () => {
    let own: Stack | undefined;
    let stateDir: string | undefined;
    let target: StackInfo = shared;

    beforeAll(async () => {
      if (shared.singleSession) return; // the shared stack is already PGlite
      stateDir = await mkdtemp(path.join(os.tmpdir(), 'fareback-pglite-stack-'));
      own = await startStack({ stateDir, ports: anyFreePorts, seed: true, ticker: false });
      target = {
        ...shared,
        url: own.url,
        apiUrl: own.apiUrl,
        authUrl: own.authUrl,
        mailUrl: own.mailUrl,
        databaseUrl: own.databaseUrl,
        singleSession: own.singleSession,
        anonKey: own.anonKey,
        signingKeyPath: path.join(stateDir, 'auth-key.json'),
        logDir: own.logDir,
      };
    });
    afterAll(async () => {
      await own?.stop();
      if (stateDir) await rm(stateDir, { recursive: true, force: true });
    });

    it('each sees only their own row and role', async () => {
      expect(target.singleSession).toBe(true);
      await interleavedRequests(apiClient(target), target.databaseUrl, true);
    });
  });
});
