// Flights and their price history: what a traveller may do with a flight (read it and remove it;
// only the system writes flights, migration 20261122000500_flights_and_prices.sql), the itinerary
// constraints, the duplicate rule, which flights are watched (the plan's flight limit, the
// dashboard's counts and the flight list all count by private.flight_is_watched) and the status a
// price check leaves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DENIED,
  actAs,
  apiRole,
  attempt,
  createFlight,
  createFlightBooking,
  createFlightPrice,
  createNotification,
  createRebooking,
  createUser,
  flightInput,
  openTestDatabase,
  serviceRole,
  user,
  type Actor,
  type TestDb,
  type TestUser,
} from './factories.ts';
import { dashboardStats, flightAllowance, listFlights } from '../functions/api/queries/flights.ts';
import { recordPriceChecks } from '../functions/api/queries/price-checks.ts';

let db: TestDb;
let traveller: TestUser;
let other: TestUser;

beforeAll(async () => {
  db = await openTestDatabase();
  traveller = await createUser(db.sql, { premium: true });
  other = await createUser(db.sql, { premium: true });
});

afterAll(async () => {
  await db?.close();
});

async function flightRow(id: number): Promise<Record<string, unknown>> {
  const [row] = await db.sql<Record<string, unknown>[]>`select * from public.flights where id = ${id}`;
  if (!row) throw new Error(`no flight ${id}`);
  return row;
}

/** Inserts a flight as `actor`, committed when it succeeds (so a refusal is seen to store nothing). */
function insertAs(actor: Actor, row: Record<string, unknown>) {
  return attempt(db.sql, actor, (tx) => tx`insert into public.flights ${tx(row as Record<string, string>)}`, {
    commit: true,
  });
}

/** A date `days` from today, as a departure_date. */
function daysFromNow(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** A free traveller already watching as many flights as the plan allows (5). */
async function travellerAtLimit(): Promise<TestUser> {
  const full = await createUser(db.sql);
  for (let i = 0; i < 5; i += 1) await createFlight(db.sql, full.id);
  return full;
}

describe('the system adding a flight', () => {
  it('stores the itinerary with the monitoring defaults', async () => {
    const id = await actAs(
      db.sql,
      serviceRole,
      async (tx) => {
        const [row] = await tx<
          { id: number }[]
        >`insert into public.flights ${tx({ user_id: traveller.id, ...flightInput() })}
                                                 returning id::int`;
        return row?.id;
      },
      { commit: true },
    );
    expect(id).toBeTypeOf('number');
    expect(await flightRow(id as number)).toMatchObject({
      user_id: traveller.id,
      status: 'monitoring',
      currency: 'USD',
      has_been_rebooked: false,
      rebooking_date: null,
      rebooking_price: null,
      airline_credit: null,
      credit_expiry_date: null,
      credit_reference_number: null,
      is_round_trip: false,
    });
  });
});

describe('a traveller adding a flight', () => {
  it("cannot add their own flight with a forged price paid and someone else's order, and nothing is stored", async () => {
    const othersOrder = 'ord_0000OTHERCUSTOMER';
    const theirs = await createFlight(db.sql, other.id, { rebooking_method: 'source', source_reference: othersOrder });
    await createFlightBooking(db.sql, theirs);
    const [before] = await db.sql<{ flights: number }[]>`
      select count(*)::int as flights from public.flights where user_id = ${traveller.id}`;

    const forged = await insertAs(user(traveller.id), {
      user_id: traveller.id,
      ...flightInput({ original_price: 2_000_000_000, current_price: 2_000_000_000 }),
      rebooking_method: 'source',
      source_reference: othersOrder,
    });

    expect(forged).toMatchObject({ error: DENIED });
    const [after] = await db.sql<{ flights: number; with_order: number; bookings: number }[]>`
      select (select count(*) from public.flights where user_id = ${traveller.id})::int as flights,
             (select count(*) from public.flights where source_reference = ${othersOrder})::int as with_order,
             (select count(*) from private.flight_bookings where user_id = ${traveller.id})::int as bookings`;
    // only the other customer's own flight names their order
    expect(after).toEqual({ flights: before?.flights, with_order: 1, bookings: 0 });
  });

  it("cannot add a flight to someone else's account, and learns nothing of that traveller's limit", async () => {
    const full = await travellerAtLimit();
    // the limit is real: the system itself is refused for that traveller
    expect(await insertAs(serviceRole, { user_id: full.id, ...flightInput() })).toMatchObject({ error: 'FB409' });
    // a traveller is refused by the missing grant before the limit trigger runs, whatever the limit
    for (const target of [full, other]) {
      expect(await insertAs(user(traveller.id), { user_id: target.id, ...flightInput() })).toEqual({
        error: DENIED,
        message: 'permission denied for table flights',
      });
    }
  });

  it.each([
    ['has_been_rebooked', true],
    ['rebooking_date', '2026-12-01T10:00:00Z'],
    ['rebooking_price', 30000],
    ['airline_credit', 15000],
    ['credit_expiry_date', '2027-12-01'],
    ['credit_reference_number', 'CR-12345'],
    ['status', 'rebooked'],
    ['id', 999999],
    ['created_at', '2020-01-01T00:00:00Z'],
  ])('cannot set %s on insert', async (column, value) => {
    expect(
      await insertAs(user(traveller.id), { user_id: traveller.id, ...flightInput(), [column]: value }),
    ).toMatchObject({ error: DENIED });
  });
});

describe('a traveller changing a flight', () => {
  let flightId: number;
  beforeAll(async () => {
    flightId = await createFlight(db.sql, traveller.id, { current_price: 40_000 });
  });

  it.each([
    ['notes', 'Aisle seat, please'],
    ['original_price', 2_000_000_000],
    ['source_reference', 'ord_0000OTHERCUSTOMER'],
    ['rebooking_method', 'source'],
    ['cabin_class', 'business'],
    ['fare_type', 'Flexible Business'],
    ['booking_code', 'FORGED'],
    ['has_been_rebooked', true],
    ['rebooking_date', '2026-12-01T10:00:00Z'],
    ['rebooking_price', 1],
    ['airline_credit', 1_000_000],
    ['credit_expiry_date', '2099-12-31'],
    ['credit_reference_number', 'FAKE'],
    ['status', 'rebooked'],
    ['current_price', 1],
    ['lowest_price', 1],
    ['is_eligible_for_rebooking', true],
    ['user_id', '00000000-0000-0000-0000-000000000000'],
  ])('is denied changing %s, which stays as it was', async (column, value) => {
    const before = await flightRow(flightId);
    const outcome = await attempt(db.sql, user(traveller.id), (tx) =>
      tx.unsafe(`update public.flights set ${column} = $1 where id = $2`, [value as string, flightId]),
    );
    expect(outcome).toMatchObject({ error: DENIED });
    expect((await flightRow(flightId))[column]).toEqual(before[column]);
  });

  it("cannot change or delete another traveller's flight", async () => {
    const theirs = await createFlight(db.sql, other.id);
    expect(
      await attempt(
        db.sql,
        user(traveller.id),
        (tx) => tx`update public.flights set notes = 'mine now' where id = ${theirs}`,
      ),
    ).toMatchObject({ error: DENIED });
    expect(
      await attempt(db.sql, user(traveller.id), (tx) => tx`delete from public.flights where id = ${theirs}`),
    ).toEqual({
      rows: 0,
    });
    expect(await flightRow(theirs)).toMatchObject({ notes: null, user_id: other.id });
  });

  it('the system records a rebooking', async () => {
    const outcome = await attempt(
      db.sql,
      serviceRole,
      (tx) =>
        tx`update public.flights
            set has_been_rebooked = true, status = 'rebooked', rebooking_date = now(), rebooking_price = 36000,
                airline_credit = 9000, credit_expiry_date = current_date + 365, credit_reference_number = 'DL-CR-1'
          where id = ${flightId}`,
    );
    expect(outcome).toEqual({ rows: 1 });
  });
});

describe('a traveller removing a flight', () => {
  function deleteAsOwner(flightId: number) {
    return attempt(db.sql, user(traveller.id), (tx) => tx`delete from public.flights where id = ${flightId}`, {
      commit: true,
    });
  }

  it('deletes nothing while its rebooking is under way, and the flight stays', async () => {
    const flightId = await createFlight(db.sql, traveller.id, { status: 'rebooking' });
    expect(await deleteAsOwner(flightId)).toEqual({ rows: 0 });
    expect(await flightRow(flightId)).toMatchObject({ status: 'rebooking', user_id: traveller.id });
  });

  it.each([['monitoring'], ['price_drop'], ['limited'], ['rebooked'], ['departed'], ['cancelled']])(
    'deletes a flight in %s',
    async (status) => {
      const flightId = await createFlight(db.sql, traveller.id, { status });
      expect(await deleteAsOwner(flightId)).toEqual({ rows: 1 });
      const [left] = await db.sql`select 1 from public.flights where id = ${flightId}`;
      expect(left).toBeUndefined();
    },
  );

  it('takes the retrieved booking with it and leaves the rebooking record', async () => {
    const flightId = await createFlight(db.sql, traveller.id, { status: 'rebooked', has_been_rebooked: true });
    await createFlightBooking(db.sql, flightId);
    await createRebooking(db.sql, flightId, traveller.id);
    expect(await deleteAsOwner(flightId)).toEqual({ rows: 1 });
    const [left] = await db.sql<{ bookings: number; rebookings: number }[]>`
      select (select count(*) from private.flight_bookings where flight_id = ${flightId})::int as bookings,
             (select count(*) from private.rebookings where flight_id = ${flightId})::int as rebookings`;
    expect(left).toEqual({ bookings: 0, rebookings: 1 });
  });
});

describe('itinerary constraints', () => {
  it('holds notes of up to 1000 characters', async () => {
    const flightId = await createFlight(db.sql, traveller.id);
    const ok = await attempt(
      db.sql,
      serviceRole,
      (tx) => tx`update public.flights set notes = ${'n'.repeat(1000)} where id = ${flightId}`,
    );
    expect(ok).toEqual({ rows: 1 });
    const tooLong = await attempt(
      db.sql,
      serviceRole,
      (tx) => tx`update public.flights set notes = ${'n'.repeat(1001)} where id = ${flightId}`,
    );
    expect(tooLong).toMatchObject({ error: '23514' });
  });

  it.each([
    ['a lower-case booking code', { booking_code: 'abc123' }],
    ['a mixed-case booking code', { booking_code: 'Abc123' }],
    ['a booking code with a space', { booking_code: 'ABC 123' }],
    ['a lower-case airport', { departure_airport: 'jfk' }],
    ['a four-letter airport', { arrival_airport: 'JFKX' }],
    ['a numeric airport', { arrival_airport: '123' }],
    ['a return before departure', { departure_date: '2026-12-10', return_date: '2026-12-01' }],
    ['a negative price', { original_price: -1 }],
    ['a negative current price', { current_price: -5 }],
    ['a lower-case currency', { currency: 'usd' }],
    ['an empty airline', { airline: '  ' }],
    ['an empty passenger name', { passenger_last_name: '' }],
  ])('rejects %s', async (_what, overrides) => {
    const outcome = await attempt(
      db.sql,
      serviceRole,
      (tx) =>
        tx`insert into public.flights ${tx({ user_id: traveller.id, ...flightInput(), ...overrides } as unknown as Record<string, string>)}`,
    );
    expect(outcome).toMatchObject({ error: '23514' });
  });

  it.each([['unknown'], ['REBOOKED'], ['']])('rejects the status %j', async (status) => {
    const outcome = await attempt(
      db.sql,
      serviceRole,
      (tx) => tx`insert into public.flights ${tx({ user_id: traveller.id, ...flightInput(), status })}`,
    );
    expect(outcome).toMatchObject({ error: '23514' });
  });

  it.each([['monitoring'], ['price_drop'], ['limited'], ['rebooked'], ['departed'], ['cancelled']])(
    'accepts the status %s',
    async (status) => {
      const outcome = await attempt(
        db.sql,
        serviceRole,
        (tx) => tx`insert into public.flights ${tx({ user_id: traveller.id, ...flightInput(), status })}`,
      );
      expect(outcome).toEqual({ rows: 1 });
    },
  );

  it('rejects the same booking and flight on the same day twice', async () => {
    const input = flightInput();
    await createFlight(db.sql, traveller.id, input);
    const again = await insertAs(serviceRole, { user_id: traveller.id, ...input, notes: 'again' });
    expect(again).toMatchObject({ error: '23505', message: expect.stringContaining('flights_booking_flight_unique') });
  });

  it('accepts the return leg of the same booking and the same booking for another traveller', async () => {
    const input = flightInput();
    await createFlight(db.sql, traveller.id, input);
    const returnLeg = await insertAs(serviceRole, {
      user_id: traveller.id,
      ...input,
      flight_number: `${input.flight_number}R`,
      departure_airport: input.arrival_airport,
      arrival_airport: input.departure_airport,
    });
    expect(returnLeg).toEqual({ rows: 1 });
    expect(await insertAs(serviceRole, { user_id: other.id, ...input })).toEqual({ rows: 1 });
  });
});

describe('the flight limit of the plan', () => {
  it('lets a free traveller watch 5 flights and refuses the sixth', async () => {
    const free = await createUser(db.sql);
    for (let i = 0; i < 5; i += 1) {
      expect(await insertAs(serviceRole, { user_id: free.id, ...flightInput() })).toEqual({ rows: 1 });
    }
    const sixth = await insertAs(serviceRole, { user_id: free.id, ...flightInput() });
    expect(sixth).toEqual({
      error: 'FB409',
      message: 'Flight limit reached: your plan monitors up to 5 flights.',
    });
  });

  it('does not count rebooked, departed or cancelled flights', async () => {
    const free = await createUser(db.sql);
    for (let i = 0; i < 4; i += 1) await createFlight(db.sql, free.id);
    await createFlight(db.sql, free.id, { status: 'departed' });
    await createFlight(db.sql, free.id, { status: 'cancelled' });
    await db.sql`insert into public.flights ${db.sql({
      user_id: free.id,
      ...flightInput(),
      status: 'rebooked',
      has_been_rebooked: true,
    })}`;
    expect(await insertAs(serviceRole, { user_id: free.id, ...flightInput() })).toEqual({ rows: 1 });
  });

  it('holds for the system as well', async () => {
    const free = await createUser(db.sql);
    for (let i = 0; i < 5; i += 1) await createFlight(db.sql, free.id);
    const outcome = await attempt(
      db.sql,
      serviceRole,
      (tx) => tx`insert into public.flights ${tx({ user_id: free.id, ...flightInput() })}`,
    );
    expect(outcome).toMatchObject({ error: 'FB409' });
  });

  it('does not count a flight whose day has passed, even before anything marks it departed', async () => {
    const free = await createUser(db.sql);
    for (let i = 0; i < 4; i += 1) await createFlight(db.sql, free.id);
    await createFlight(db.sql, free.id, { departure_date: daysFromNow(-1), status: 'monitoring' });
    expect(await insertAs(serviceRole, { user_id: free.id, ...flightInput() })).toEqual({ rows: 1 });
    expect(await insertAs(serviceRole, { user_id: free.id, ...flightInput() })).toMatchObject({ error: 'FB409' });
  });

  it('counts a flight while it is being rebooked (a refused rebooking gives it back)', async () => {
    const free = await createUser(db.sql);
    for (let i = 0; i < 4; i += 1) await createFlight(db.sql, free.id);
    await createFlight(db.sql, free.id, { status: 'rebooking' });
    expect(await insertAs(serviceRole, { user_id: free.id, ...flightInput() })).toMatchObject({ error: 'FB409' });
  });

  it('does not limit premium (-1)', async () => {
    const premium = await createUser(db.sql, { premium: true });
    for (let i = 0; i < 8; i += 1) await createFlight(db.sql, premium.id);
    expect(await insertAs(serviceRole, { user_id: premium.id, ...flightInput() })).toEqual({ rows: 1 });
  });
});

describe('dashboard stats: potential savings', () => {
  it('count only drops a rebooking can claim: a changeable fare, net of its change fee', async () => {
    const owner = await createUser(db.sql, { premium: true });
    // claimable: 500.00 -> 400.00 on a changeable fare, less a 30.00 fee = 70.00
    await createFlight(db.sql, owner.id, {
      status: 'price_drop',
      original_price: 50_000,
      current_price: 40_000,
      change_penalty: 3_000,
    });
    // not claimable: Basic Economy cannot be changed, however large the drop
    await createFlight(db.sql, owner.id, {
      status: 'price_drop',
      fare_type: 'Basic Economy',
      is_eligible_for_rebooking: false,
      original_price: 45_500,
      current_price: 36_400,
    });
    // not claimable: the fee eats the drop
    await createFlight(db.sql, owner.id, {
      status: 'price_drop',
      original_price: 30_000,
      current_price: 29_000,
      change_penalty: 5_000,
    });
    const stats = await actAs(db.sql, user(owner.id), (tx) => dashboardStats(tx, owner.id));
    expect(stats).toMatchObject({ priceDropsFound: 3, potentialSavings: 7_000 });
  });
});

describe('which flights are watched', () => {
  it('the limit, the dashboard counter, the allowance and the flight list agree', async () => {
    const free = await createUser(db.sql);
    const watched = [
      await createFlight(db.sql, free.id),
      await createFlight(db.sql, free.id, { status: 'limited', is_eligible_for_rebooking: false }),
      await createFlight(db.sql, free.id, { status: 'price_drop', current_price: 40_000 }),
      await createFlight(db.sql, free.id, { status: 'rebooking' }),
      await createFlight(db.sql, free.id, { departure_date: daysFromNow(0) }),
    ];
    const notWatched = [
      await createFlight(db.sql, free.id, { departure_date: daysFromNow(-3) }),
      await createFlight(db.sql, free.id, { status: 'departed' }),
      await createFlight(db.sql, free.id, { status: 'cancelled' }),
      await createFlight(db.sql, free.id, { status: 'rebooked', has_been_rebooked: true }),
    ];

    const seen = await actAs(db.sql, user(free.id), async (tx) => ({
      stats: await dashboardStats(tx, free.id),
      allowance: await flightAllowance(tx, free.id),
      flights: await listFlights(tx, free.id),
    }));
    expect(seen.stats).toMatchObject({ monitoredFlights: 5, priceDropsFound: 1, potentialSavings: 5_000 });
    expect(seen.allowance).toEqual({ flightLimit: 5, watched: 5 });
    const flag = new Map(seen.flights.map((f) => [f.id, f.isWatched]));
    for (const id of watched) expect(flag.get(id), `flight ${id}`).toBe(true);
    for (const id of notWatched) expect(flag.get(id), `flight ${id}`).toBe(false);
    // five watched flights fill the free plan
    expect(await insertAs(serviceRole, { user_id: free.id, ...flightInput() })).toMatchObject({ error: 'FB409' });
  });
});

describe("the status a confirming price check leaves (a drop's second quote)", () => {
  const check = (flightId: number, userId: string, price: number) =>
    actAs(
      db.sql,
      apiRole,
      (tx) =>
        recordPriceChecks(
          tx,
          [{ flightId, userId, price, currency: 'USD', checkedAt: new Date(), source: 'simulated' }],
          { confirming: true },
        ),
      { commit: true },
    );

  it('below the price paid is a price drop, eligible fare or not; otherwise monitoring or limited', async () => {
    const eligible = await createFlight(db.sql, traveller.id, { original_price: 40_000 });
    const ineligible = await createFlight(db.sql, traveller.id, {
      original_price: 40_000,
      is_eligible_for_rebooking: false,
      status: 'limited',
    });

    expect(await check(eligible, traveller.id, 39_999)).toMatchObject([{ status: 'price_drop', priceDropped: true }]);
    expect(await check(ineligible, traveller.id, 30_000)).toMatchObject([{ status: 'price_drop' }]);
    expect(await check(eligible, traveller.id, 45_000)).toMatchObject([{ status: 'monitoring', priceDropped: false }]);
    expect(await check(ineligible, traveller.id, 40_000)).toMatchObject([{ status: 'limited' }]);
    expect(await flightRow(eligible)).toMatchObject({
      current_price: 45_000,
      lowest_price: 39_999,
      highest_price: 45_000,
    });
  });

  it('leaves flights that are not checkable exactly as they are, with no history row', async () => {
    const frozen = [
      await createFlight(db.sql, traveller.id, { status: 'rebooking' }),
      await createFlight(db.sql, traveller.id, { status: 'departed' }),
      await createFlight(db.sql, traveller.id, { status: 'cancelled' }),
      await createFlight(db.sql, traveller.id, { status: 'rebooked', has_been_rebooked: true }),
      await createFlight(db.sql, traveller.id, { departure_date: daysFromNow(-1) }),
    ];
    for (const id of frozen) {
      const before = await flightRow(id);
      expect(await check(id, traveller.id, 100)).toEqual([]);
      expect(await flightRow(id)).toEqual(before);
    }
    const [history] = await db.sql<{ n: number }[]>`
      select count(*)::int as n from public.flight_prices where flight_id = any(${frozen})`;
    expect(history?.n).toBe(0);
  });
});

describe('price history', () => {
  it("must belong to the flight's owner", async () => {
    const flightId = await createFlight(db.sql, traveller.id);
    const outcome = await attempt(
      db.sql,
      serviceRole,
      (tx) => tx`insert into public.flight_prices (flight_id, user_id, price) values (${flightId}, ${other.id}, 100)`,
    );
    expect(outcome).toMatchObject({ error: '23503' });
  });

  it('rejects a negative price', async () => {
    const flightId = await createFlight(db.sql, traveller.id);
    const outcome = await attempt(
      db.sql,
      serviceRole,
      (tx) =>
        tx`insert into public.flight_prices (flight_id, user_id, price) values (${flightId}, ${traveller.id}, -1)`,
    );
    expect(outcome).toMatchObject({ error: '23514' });
  });

  it('goes with the flight, while its notifications stay without it', async () => {
    const flightId = await createFlight(db.sql, traveller.id);
    await createFlightPrice(db.sql, flightId, traveller.id);
    const notificationId = await createNotification(db.sql, traveller.id, flightId);
    const deleted = await actAs(
      db.sql,
      user(traveller.id),
      (tx) => tx`delete from public.flights where id = ${flightId}`,
      {
        commit: true,
      },
    );
    expect(deleted.count).toBe(1);
    const [left] = await db.sql<{ prices: number; flight_id: number | null; user_id: string }[]>`
      select (select count(*) from public.flight_prices where flight_id = ${flightId})::int as prices,
             n.flight_id, n.user_id::text
        from public.notification_history n where n.id = ${notificationId}`;
    expect(left).toEqual({ prices: 0, flight_id: null, user_id: traveller.id });
  });

  it('a traveller cannot write price history', async () => {
    const flightId = await createFlight(db.sql, traveller.id);
    const outcome = await attempt(
      db.sql,
      user(traveller.id),
      (tx) => tx`insert into public.flight_prices (flight_id, user_id, price) values (${flightId}, ${traveller.id}, 1)`,
    );
    expect(outcome).toMatchObject({ error: DENIED });
  });
});

describe('notifications', () => {
  it('a traveller may mark their notification read but change nothing else', async () => {
    const id = await createNotification(db.sql, traveller.id);
    expect(
      await attempt(
        db.sql,
        user(traveller.id),
        (tx) => tx`update public.notification_history set read_at = now() where id = ${id}`,
      ),
    ).toEqual({ rows: 1 });
    expect(
      await attempt(
        db.sql,
        user(traveller.id),
        (tx) => tx`update public.notification_history set data = '{"newPrice": 1}' where id = ${id}`,
      ),
    ).toMatchObject({ error: DENIED });
    expect(
      await attempt(
        db.sql,
        user(other.id),
        (tx) => tx`update public.notification_history set read_at = now() where id = ${id}`,
      ),
    ).toEqual({ rows: 0 });
  });

  it.each([
    ['status', 'delivered'],
    ['channel', 'pigeon'],
    // data is the facts as an object, never a sentence
    ['data', '"Your flight is now cheaper."'],
  ])('rejects the %s %s', async (column, value) => {
    const outcome = await attempt(db.sql, serviceRole, (tx) =>
      tx.unsafe(`insert into public.notification_history (user_id, type, ${column}) values ($1, 'price_drop', $2)`, [
        traveller.id,
        value,
      ]),
    );
    expect(outcome).toMatchObject({ error: '23514' });
  });
});
