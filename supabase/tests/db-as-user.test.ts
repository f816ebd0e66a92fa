// db.asUser pipelines BEGIN, the role and claims and the handler's first query on one reserved
// connection (supabase/functions/api/db.ts): the role applies to that first query, a handler that
// throws or a statement that fails rolls the whole transaction back, and the connection goes back
// to the pool as the connecting role with no claims left on it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../dev/db/test-db.ts';
import { createDb, type AuthClaims, type Db } from '../functions/api/db.ts';

let database: TestDatabase;
let db: Db;

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb({ databaseUrl: database.ownerUrl, singleSession: database.singleSession });
});

afterAll(async () => {
  await db.close();
  await database.close();
});

const claims = (sub: string): AuthClaims => ({ sub, role: 'authenticated', aud: 'authenticated', exp: 0 });

describe('db.asUser', () => {
  it('runs the first query as the user, and leaves no role or claims on the pooled connection', async () => {
    const sub = crypto.randomUUID();
    const [row] = await db.asUser(
      claims(sub),
      (tx) => tx<{ who: string; uid: string | null }[]>`select current_user as who, auth.uid()::text as uid`,
    );
    expect(row).toEqual({ who: 'authenticated', uid: sub });
    // every connection of the pool afterwards: the connecting role, no claims
    const after = await Promise.all(
      Array.from({ length: 8 }, () =>
        db.asService(
          (tx) => tx<{ who: string; sub: string }[]>`
          select current_user as who, coalesce(current_setting('request.jwt.claim.sub', true), '') as sub`,
        ),
      ),
    );
    for (const [entry] of after) {
      expect(entry?.who).not.toBe('authenticated');
      expect(entry?.sub).toBe('');
    }
  });

  it('keeps concurrent transactions apart: each sees only its own claims', async () => {
    const subs = Array.from({ length: 20 }, () => crypto.randomUUID());
    const seen = await Promise.all(
      subs.map((sub) =>
        db.asUser(claims(sub), async (tx) => (await tx<{ uid: string }[]>`select auth.uid()::text as uid`)[0]?.uid),
      ),
    );
    expect(seen).toEqual(subs);
  });

  it('rolls back when the handler throws after writing, and when a statement fails', async () => {
    await db.asService((tx) => tx`create table if not exists public.as_user_probe (n int)`);
    await db.asService((tx) => tx`grant insert, select on public.as_user_probe to authenticated`);
    try {
      await expect(
        db.asUser(claims(crypto.randomUUID()), async (tx) => {
          await tx`insert into public.as_user_probe values (1)`;
          throw new Error('handler failed');
        }),
      ).rejects.toThrow('handler failed');
      await expect(
        db.asUser(claims(crypto.randomUUID()), async (tx) => {
          await tx`insert into public.as_user_probe values (2)`;
          await tx`select 1 / 0`;
        }),
      ).rejects.toThrow(/division by zero/);
      const [count] = await db.asService(
        (tx) => tx<{ n: number }[]>`select count(*)::int as n from public.as_user_probe`,
      );
      expect(count?.n).toBe(0);
      // the pool still works after both
      const [row] = await db.asUser(claims(crypto.randomUUID()), (tx) => tx<{ one: number }[]>`select 1 as one`);
      expect(row?.one).toBe(1);
    } finally {
      await db.asService((tx) => tx`drop table public.as_user_probe`);
    }
  });
});
