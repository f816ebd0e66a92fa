// One rule, one home: the status of a flight no check has found a drop on is
// private.flight_initial_status (migration 20261122000500_flights_and_prices.sql). Its table, then each
// place that reads it: the api's insert of a new flight, a price check without a drop, and a
// rebooking given back because the lower fare is gone. The trigger that once set it for a
// traveller's own insert (which nobody may make any more) is gone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RetrievedBooking } from '../functions/_shared/fare-source/types.ts';
import type { Tx as ApiTx } from '../functions/api/db.ts';
import { insertFlight, releaseRebooking } from '../functions/api/queries/flights.ts';
import { recordPriceChecks } from '../functions/api/queries/price-checks.ts';
import {
  actAs,
  apiRole,
  createFlight,
  createRebooking,
  createUser,
  openTestDatabase,
  type TestDb,
  type TestUser,
} from './factories.ts';

let db: TestDb;
let traveller: TestUser;

beforeAll(async () => {
  db = await openTestDatabase();
  traveller = await createUser(db.sql, { premium: true });
});

afterAll(async () => {
  await db?.close();
});

/** Runs the api's own query functions as the role it connects as, committed. */
const asApi = <T>(fn: (tx: ApiTx) => Promise<T>): Promise<T> =>
  actAs(db.sql, apiRole, (tx) => fn(tx as unknown as ApiTx), { commit: true });

async function statusOf(flightId: number): Promise<string | undefined> {
  const [row] = await db.sql<{ status: string }[]>`select status from public.flights where id = ${flightId}`;
  return row?.status;
}

let codes = 0;
function booking(fareType: string): RetrievedBooking {
  const departure = new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10);
  return {
    airline: 'Delta Air Lines',
    airlineCode: 'DL',
    flightNumber: 'DL450',
    bookingCode: `INIT${codes++}`,
    passengerLastName: 'Lee',
    departureAirport: 'JFK',
    arrivalAirport: 'LAX',
    departureDate: departure,
    departureTime: null,
    arrivalTime: null,
    returnDate: null,
    isRoundTrip: false,
    returnFlightNumber: null,
    currency: 'USD',
    pricePaid: 45_000,
    fareType,
    fareChangeable: fareType !== 'Basic Economy',
    cabinClass: 'Economy',
    seatNumber: null,
    rebookingMethod: 'source',
    sourceReference: null,
  };
}

const CASES = [
  { eligible: true, status: 'monitoring', fare: 'Refundable Economy' },
  { eligible: false, status: 'limited', fare: 'Basic Economy' },
] as const;

describe('private.flight_initial_status', () => {
  it.each(CASES)('is $status for a fare eligible for rebooking: $eligible', async ({ eligible, status }) => {
    const [row] = await actAs(
      db.sql,
      apiRole,
      (tx) => tx<{ status: string }[]>`select private.flight_initial_status(${eligible}) as status`,
    );
    expect(row?.status).toBe(status);
  });

  it('is the only place the rule is written: the old insert trigger and its function are gone', async () => {
    const [row] = await db.sql<{ triggers: number; functions: number }[]>`
      select (select count(*)::int from pg_trigger where tgname = 'flights_set_initial_status') as triggers,
             (select count(*)::int from pg_proc where proname = 'set_initial_flight_status') as functions`;
    expect(row).toEqual({ triggers: 0, functions: 0 });
  });
});

describe('what reads it', () => {
  it.each(CASES)('a new flight of fare $fare starts $status (insertFlight)', async ({ eligible, status, fare }) => {
    const flightId = await asApi((tx) =>
      insertFlight(tx, {
        userId: traveller.id,
        source: 'simulated',
        booking: booking(fare),
        isEligibleForRebooking: eligible,
        notes: null,
        isManualEntry: true,
      }),
    );
    expect(await statusOf(flightId)).toBe(status);
  });

  it.each(CASES)(
    'a check without a drop leaves a fare eligible: $eligible at $status, one with a drop at price_drop',
    async ({ eligible, status }) => {
      const flightId = await createFlight(db.sql, traveller.id, {
        is_eligible_for_rebooking: eligible,
        status: 'price_drop',
        original_price: 45_000,
        current_price: 40_000,
      });
      const check = (price: number) =>
        asApi((tx) =>
          recordPriceChecks(
            tx,
            [{ flightId, userId: traveller.id, price, currency: 'USD', checkedAt: new Date(), source: 'simulated' }],
            { confirming: true },
          ),
        );
      await check(46_000);
      expect(await statusOf(flightId)).toBe(status);
      await check(41_000);
      expect(await statusOf(flightId)).toBe('price_drop');
    },
  );

  it.each(CASES)(
    'a rebooking given back leaves a fare eligible: $eligible at $status when the fare is gone, else price_drop',
    async ({ eligible, status }) => {
      for (const [dropGone, expected] of [
        [true, status],
        [false, 'price_drop'],
      ] as const) {
        const flightId = await createFlight(db.sql, traveller.id, {
          is_eligible_for_rebooking: eligible,
          status: 'rebooking',
          current_price: 40_000,
        });
        const rebookingId = await createRebooking(db.sql, flightId, traveller.id, 'claimed');
        await asApi((tx) =>
          releaseRebooking(tx, { rebookingId, userId: traveller.id, flightId, dropGone, error: 'refused' }),
        );
        expect(await statusOf(flightId), `drop gone: ${dropGone}`).toBe(expected);
      }
    },
  );
});
