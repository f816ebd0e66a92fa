// Migration 20261122000500_flights_and_prices.sql: the last 30 checks kept on the flight row for
// the dashboard list, rebuilt from flight_prices by private.refresh_recent_prices, and not
// writable by travellers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DENIED,
  anon,
  attempt,
  createFlight,
  createUser,
  openTestDatabase,
  user,
  type TestDb,
  type TestUser,
} from './factories.ts';

let db: TestDb;
let traveller: TestUser;

beforeAll(async () => {
  db = await openTestDatabase();
  traveller = await createUser(db.sql);
});

afterAll(async () => {
  await db?.close();
});

describe('private.refresh_recent_prices', () => {
  it('rebuilds the last 30 checks, oldest first, in the api shape', async () => {
    const flightId = await createFlight(db.sql, traveller.id);
    await db.sql`
      insert into public.flight_prices (flight_id, user_id, price, checked_at)
      select ${flightId}, ${traveller.id}, 40000 + g, timestamptz '2026-11-01 00:00:00+00' + make_interval(hours => g)
        from generate_series(1, 35) g
    `;
    await db.sql`select private.refresh_recent_prices(array[${flightId}]::bigint[])`;
    const [row] = await db.sql<{ recent_prices: Array<{ price: number; checkedAt: string }> }[]>`
      select recent_prices from public.flights where id = ${flightId}
    `;
    const points = row?.recent_prices ?? [];
    expect(points).toHaveLength(30);
    expect(points[0]).toEqual({ price: 40006, checkedAt: '2026-11-01T06:00:00.000Z' });
    expect(points.at(-1)).toEqual({ price: 40035, checkedAt: '2026-11-02T11:00:00.000Z' });
  });

  it("is the system's: travellers and visitors can neither call it nor write the column", async () => {
    const flightId = await createFlight(db.sql, traveller.id);
    expect(
      await attempt(
        db.sql,
        user(traveller.id),
        (tx) => tx`select private.refresh_recent_prices(array[${flightId}]::bigint[])`,
      ),
    ).toMatchObject({ error: DENIED });
    expect(
      await attempt(db.sql, anon, (tx) => tx`select private.refresh_recent_prices(array[1]::bigint[])`),
    ).toMatchObject({ error: DENIED });
    expect(
      await attempt(
        db.sql,
        user(traveller.id),
        (tx) => tx`update public.flights set recent_prices = '[{"price": 1}]' where id = ${flightId}`,
      ),
    ).toMatchObject({ error: DENIED });
  });
});
