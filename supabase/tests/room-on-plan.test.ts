// One rule, one home: room on the plan is private.room_on_plan (migration
// 20261129300000_rules_one_home): the plan's flight limit less the flights watched now. Its table,
// then each place that reads it: the flight-limit trigger, the passes that watch found flights
// again (promote_found_flights) or stop watching the ones a smaller plan has no room for
// (unwatch_flights_over_limit), and the api's roomOnPlan (Add Flight, email imports, the
// downgrade) and flightAllowance (the limit in messages), run as the traveller under row-level
// security.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tx as ApiTx } from '../functions/api/db.ts';
import { flightAllowance, roomOnPlan } from '../functions/api/queries/flights.ts';
import {
  actAs,
  apiRole,
  attempt,
  createFlight,
  createPlan,
  createUser,
  flightInput,
  openTestDatabase,
  serviceRole,
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

const UNLIMITED_ROOM = 2_147_483_647;

/** A traveller on a plan of this limit with this many watched flights (and unwatched ones besides). */
async function travellerWith(flightLimit: number, watched: number): Promise<string> {
  const traveller = await createUser(db.sql);
  const plan = await createPlan(db.sql, { flightLimit: Math.max(flightLimit, watched + 1) });
  await setPlan(db.sql, traveller.id, plan);
  for (let n = 0; n < watched; n += 1) await createFlight(db.sql, traveller.id);
  // none of these is watched, so none counts: rebooked, departed, cancelled, past, over the limit
  await createFlight(db.sql, traveller.id, { status: 'rebooked', has_been_rebooked: true });
  await createFlight(db.sql, traveller.id, { status: 'departed' });
  await createFlight(db.sql, traveller.id, { status: 'cancelled' });
  await createFlight(db.sql, traveller.id, { departure_date: '2020-01-01' });
  const over = await createFlight(db.sql, traveller.id);
  await db.sql`update public.flights set over_limit = true where id = ${over}`;
  // the plan may be smaller than what is watched (a downgrade): set the limit after the flights
  await db.sql`update public.subscription_plans set flight_limit = ${flightLimit} where id = ${plan}`;
  return traveller.id;
}

async function roomOf(userId: string) {
  const [row] = await actAs(
    db.sql,
    apiRole,
    (tx) =>
      tx<{ flight_limit: number; watched: number; room: number }[]>`
        select flight_limit, watched, room from private.room_on_plan(${userId})`,
  );
  return row;
}

const CASES = [
  { flightLimit: 3, watched: 0, room: 3 },
  { flightLimit: 3, watched: 2, room: 1 },
  { flightLimit: 3, watched: 3, room: 0 },
  { flightLimit: 1, watched: 3, room: -2 },
  { flightLimit: -1, watched: 4, room: UNLIMITED_ROOM },
];

describe('private.room_on_plan', () => {
  it.each(CASES)('a limit of $flightLimit with $watched watched leaves room $room', async (c) => {
    const userId = await travellerWith(c.flightLimit, c.watched);
    expect(await roomOf(userId)).toEqual({ flight_limit: c.flightLimit, watched: c.watched, room: c.room });
  });

  it('has no row for someone without a profile', async () => {
    expect(await roomOf('00000000-0000-4000-8000-000000000000')).toBeUndefined();
  });

  it("answers a traveller for their own plan only: another traveller's is not theirs to see", async () => {
    const owner = await travellerWith(3, 2);
    const other = (await createUser(db.sql)).id;
    const asTraveller = (actor: string) =>
      actAs(db.sql, user(actor), (tx) => tx<{ room: number }[]>`select room from private.room_on_plan(${owner})`);
    expect(await asTraveller(owner)).toEqual([{ room: 1 }]);
    expect(await asTraveller(other)).toEqual([]);
  });
});

describe('what reads it', () => {
  it.each(CASES)(
    "the api's roomOnPlan and flightAllowance, as the traveller: limit $flightLimit, $watched watched",
    async ({ flightLimit, watched, room }) => {
      const userId = await travellerWith(flightLimit, watched);
      const seen = await actAs(db.sql, user(userId), async (tx) => ({
        room: await roomOnPlan(tx as unknown as ApiTx, userId),
        allowance: await flightAllowance(tx as unknown as ApiTx, userId),
      }));
      expect(seen).toEqual({ room: { flightLimit, watched, room }, allowance: { flightLimit, watched } });
    },
  );

  it.each(CASES)(
    'the flight-limit trigger takes one more watched flight only with room: limit $flightLimit, $watched watched',
    async ({ flightLimit, watched, room }) => {
      const userId = await travellerWith(flightLimit, watched);
      const outcome = await attempt(
        db.sql,
        serviceRole,
        (tx) =>
          tx`insert into public.flights ${tx({ user_id: userId, ...flightInput() } as unknown as Record<string, string>)}`,
      );
      if (room > 0) expect(outcome).toEqual({ rows: 1 });
      else
        expect(outcome).toEqual({
          error: 'FB409',
          message: `Flight limit reached: your plan monitors up to ${flightLimit} flights.`,
        });
    },
  );

  it('the trigger never refuses a flight that is not watched, with no room left', async () => {
    const userId = await travellerWith(1, 1);
    const outcome = await attempt(
      db.sql,
      serviceRole,
      (tx) =>
        tx`insert into public.flights ${tx({ user_id: userId, ...flightInput(), status: 'departed' } as unknown as Record<string, string>)}`,
    );
    expect(outcome).toEqual({ rows: 1 });
  });

  it.each([
    { flightLimit: 2, watched: 1, promoted: 1 },
    { flightLimit: 5, watched: 1, promoted: 1 },
    { flightLimit: 1, watched: 1, promoted: 0 },
    { flightLimit: -1, watched: 4, promoted: 1 },
  ])(
    'promote_found_flights watches found flights while there is room: limit $flightLimit, $watched watched',
    async ({ flightLimit, watched, promoted }) => {
      // travellerWith leaves one watchable flight over the limit
      const userId = await travellerWith(flightLimit, watched);
      const [row] = await actAs(
        db.sql,
        apiRole,
        (tx) => tx<{ n: number }[]>`select private.promote_found_flights(${userId}) as n`,
        { commit: true },
      );
      expect(row?.n).toBe(promoted);
      expect((await roomOf(userId))?.watched).toBe(watched + promoted);
    },
  );

  it('unwatch_flights_over_limit stops watching what the plan has no room for, newest first, never one being rebooked', async () => {
    const traveller = await createUser(db.sql);
    const plan = await createPlan(db.sql, { flightLimit: 10 });
    await setPlan(db.sql, traveller.id, plan);
    const oldest = await createFlight(db.sql, traveller.id);
    const middle = await createFlight(db.sql, traveller.id);
    const newest = await createFlight(db.sql, traveller.id);
    const beingRebooked = await createFlight(db.sql, traveller.id, { status: 'rebooking' });
    await db.sql`update public.subscription_plans set flight_limit = 2 where id = ${plan}`;
    expect(await roomOf(traveller.id)).toMatchObject({ watched: 4, room: -2 });

    const [row] = await actAs(
      db.sql,
      apiRole,
      (tx) => tx<{ n: number }[]>`select private.unwatch_flights_over_limit(${traveller.id}) as n`,
      { commit: true },
    );
    expect(row?.n).toBe(2);
    const flights = await db.sql<{ id: number; over_limit: boolean }[]>`
      select id::int, over_limit from public.flights where user_id = ${traveller.id} order by id`;
    expect(flights).toEqual([
      { id: oldest, over_limit: false },
      { id: middle, over_limit: true },
      { id: newest, over_limit: true },
      { id: beingRebooked, over_limit: false },
    ]);
    expect(await roomOf(traveller.id)).toMatchObject({ watched: 2, room: 0 });
    // with room again, nothing more to unwatch
    const [again] = await actAs(
      db.sql,
      apiRole,
      (tx) => tx<{ n: number }[]>`select private.unwatch_flights_over_limit(${traveller.id}) as n`,
      { commit: true },
    );
    expect(again?.n).toBe(0);
  });
});
