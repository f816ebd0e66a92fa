// The data every database starts with: the two plans of the spec (from the migrations, since every
// account is on one), and the seed, which adds nothing to them however often it is applied.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anon, actAs, createUser, openTestDatabase, type TestDb } from './factories.ts';

let db: TestDb;

beforeAll(async () => {
  db = await openTestDatabase({ seed: true });
});

afterAll(async () => {
  await db?.close();
});

const plansQuery = (tx: TestDb['sql'] | Parameters<Parameters<typeof actAs>[2]>[0]) =>
  tx`select name, tier, price, flight_limit, auto_rebooking_enabled, commission_rate, is_active
       from public.subscription_plans order by price`;

describe('seed', () => {
  it('has the Free and Premium plans of the spec, in cents', async () => {
    expect([...(await plansQuery(db.sql))]).toEqual([
      {
        name: 'Free',
        tier: 'free',
        price: 0,
        flight_limit: 5,
        auto_rebooking_enabled: false,
        commission_rate: 0,
        is_active: true,
      },
      {
        name: 'Premium',
        tier: 'premium',
        price: 2499,
        flight_limit: -1,
        auto_rebooking_enabled: true,
        commission_rate: 25,
        is_active: true,
      },
    ]);
  });

  it('describes each plan', async () => {
    const rows = await db.sql<{ description: string | null }[]>`select description from public.subscription_plans`;
    for (const row of rows) expect(row.description?.length).toBeGreaterThan(10);
  });

  it('can be applied again without duplicating anything', async () => {
    const seed = await readFile(new URL('../seed.sql', import.meta.url), 'utf8');
    await db.sql.unsafe(seed).simple();
    await db.sql.unsafe(seed).simple();
    const [count] = await db.sql<{ n: number }[]>`select count(*)::int as n from public.subscription_plans`;
    expect(count?.n).toBe(2);
  });

  it('shows the plans to visitors', async () => {
    const names = await actAs(db.sql, anon, async (tx) =>
      (await plansQuery(tx)).map((row) => (row as { name: string }).name),
    );
    expect(names).toEqual(['Free', 'Premium']);
  });

  it('lets the seed step flag the demo admin', async () => {
    const demo = await createUser(db.sql, { email: 'admin@fareback.local' });
    const [result] = await db.sql<{ flagged: boolean }[]>`select private.make_admin('admin@fareback.local') as flagged`;
    expect(result?.flagged).toBe(true);
    const [profile] = await db.sql<{ is_admin: boolean }[]>`select is_admin from public.profiles where id = ${demo.id}`;
    expect(profile?.is_admin).toBe(true);
  });
});
