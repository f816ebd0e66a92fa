// profiles.flight_count (migration 20261122000500_flights_and_prices.sql): every flight of the
// traveller, kept by a trigger on flights in the same transaction, whoever adds, removes or moves
// the flight.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiRole,
  attempt,
  createFlight,
  createUser,
  openTestDatabase,
  setPlan,
  user,
  type TestDb,
} from './factories.ts';

let db: TestDb;

beforeAll(async () => {
  db = await openTestDatabase();
});

afterAll(async () => {
  await db?.close();
});

async function counted(userId: string): Promise<{ kept: number; actual: number }> {
  const [row] = await db.sql<{ kept: number; actual: number }[]>`
    select p.flight_count as kept, (select count(*)::int from public.flights f where f.user_id = p.id) as actual
      from public.profiles p where p.id = ${userId}`;
  if (!row) throw new Error(`no profile ${userId}`);
  return row;
}

describe('profiles.flight_count', () => {
  it('follows adds (the api), removals (the traveller, through the data API) and a flight moved', async () => {
    const traveller = await createUser(db.sql);
    const other = await createUser(db.sql);
    await setPlan(db.sql, traveller.id, 'premium');
    expect(await counted(traveller.id)).toEqual({ kept: 0, actual: 0 });

    const first = await createFlight(db.sql, traveller.id);
    await attempt(db.sql, apiRole, (tx) => createFlight(tx, traveller.id).then(() => ({ count: 1 })), { commit: true });
    await createFlight(db.sql, traveller.id, { status: 'rebooked', has_been_rebooked: true });
    expect(await counted(traveller.id)).toEqual({ kept: 3, actual: 3 });

    const removed = await attempt(
      db.sql,
      user(traveller.id),
      (tx) => tx`delete from public.flights where id = ${first}`,
      {
        commit: true,
      },
    );
    expect(removed).toEqual({ rows: 1 });
    expect(await counted(traveller.id)).toEqual({ kept: 2, actual: 2 });

    await db.sql`update public.flights set user_id = ${other.id} where user_id = ${traveller.id} and status = 'rebooked'`;
    expect(await counted(traveller.id)).toEqual({ kept: 1, actual: 1 });
    expect(await counted(other.id)).toEqual({ kept: 1, actual: 1 });
  });

  it('goes with the account (the flights cascade from the profile)', async () => {
    const leaving = await createUser(db.sql);
    await createFlight(db.sql, leaving.id);
    await db.sql`delete from auth.users where id = ${leaving.id}`;
    const [row] = await db.sql<
      { n: number }[]
    >`select count(*)::int as n from public.flights where user_id = ${leaving.id}`;
    expect(row?.n).toBe(0);
  });

  it('cannot be changed by the traveller', async () => {
    const traveller = await createUser(db.sql);
    const outcome = await attempt(
      db.sql,
      user(traveller.id),
      (tx) => tx`update public.profiles set flight_count = 100 where id = ${traveller.id}`,
    );
    expect(outcome).toMatchObject({ error: '42501' });
  });
});
