// Migration 20261122001100_flight_rebooking: how a flight can be rebooked, the 'rebooking' claim
// status, and who decides a new flight's status. Since 20261123000200_flight_bookings only the
// system inserts flights and sets their status; travellers cannot insert or update them at all
// (the trigger that reset a traveller's insert to its fare's status is dropped by
// 20261129300000_rules_one_home; the api's inserts ask private.flight_initial_status,
// flight-initial-status.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DENIED,
  actAs,
  attempt,
  createFlight,
  createUser,
  flightInput,
  openTestDatabase,
  serviceRole,
  user,
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

/** Inserts a flight as the system (the api's service connection) and reads back what was stored. */
async function insertAsSystem(row: Record<string, unknown>): Promise<Record<string, unknown>> {
  const inserted = await actAs(
    db.sql,
    serviceRole,
    async (tx) => {
      const [created] = await tx<{ id: number }[]>`
        insert into public.flights ${tx({ user_id: traveller.id, ...flightInput(), ...row } as unknown as Record<string, string>)}
        returning id::int`;
      return created;
    },
    { commit: true },
  );
  if (!inserted) throw new Error('flight not inserted');
  const [stored] = await db.sql<Record<string, unknown>[]>`select * from public.flights where id = ${inserted.id}`;
  return stored ?? {};
}

function insertAsTraveller(row: Record<string, unknown>) {
  return attempt(
    db.sql,
    user(traveller.id),
    (tx) =>
      tx`insert into public.flights ${tx({ user_id: traveller.id, ...flightInput(), ...row } as unknown as Record<string, string>)}`,
    { commit: true },
  );
}

async function travellerFlightCount(): Promise<number> {
  const [row] = await db.sql<{ n: number }[]>`
    select count(*)::int as n from public.flights where user_id = ${traveller.id}`;
  return row?.n ?? 0;
}

describe('a traveller adding a flight', () => {
  it('cannot add one at all, eligible fare or not, so never gets to a status', async () => {
    const before = await travellerFlightCount();
    for (const eligible of [true, false]) {
      expect(await insertAsTraveller({ is_eligible_for_rebooking: eligible }), String(eligible)).toMatchObject({
        error: DENIED,
      });
    }
    expect(await travellerFlightCount()).toBe(before);
  });

  it('cannot say how the flight is rebooked or name a source reference', async () => {
    for (const column of [{ rebooking_method: 'source' }, { source_reference: 'ord_0000A' }]) {
      expect(await insertAsTraveller(column), JSON.stringify(column)).toMatchObject({ error: DENIED });
    }
  });

  it('cannot set the status, the commission or the claim', async () => {
    for (const column of [{ status: 'rebooked' }, { commission_amount: 0 }, { rebooking_claimed_at: new Date() }]) {
      const outcome = await attempt(
        db.sql,
        user(traveller.id),
        (tx) =>
          tx`insert into public.flights ${tx({ user_id: traveller.id, ...flightInput(), ...column } as unknown as Record<string, string>)}`,
      );
      expect(outcome, JSON.stringify(column)).toMatchObject({ error: DENIED });
    }
  });

  it('cannot change the rebooking method afterwards', async () => {
    const id = await createFlight(db.sql, traveller.id);
    const outcome = await attempt(
      db.sql,
      user(traveller.id),
      (tx) => tx`update public.flights set rebooking_method = 'source' where id = ${id}`,
    );
    expect(outcome).toMatchObject({ error: DENIED });
  });
});

describe('the system', () => {
  // the api gives an eligible fare 'monitoring' and the rest 'limited'; the database keeps its word
  it("keeps the status it inserts (the api's adds, imports and seeds), including the 'rebooking' claim", async () => {
    for (const [status, eligible] of [
      ['monitoring', true],
      ['limited', false],
      ['price_drop', true],
      ['rebooking', true],
      ['rebooked', true],
    ] as const) {
      expect(await insertAsSystem({ status, is_eligible_for_rebooking: eligible }), status).toMatchObject({ status });
    }
  });

  it('stores how the flight is rebooked and the source reference', async () => {
    expect(await insertAsSystem({ rebooking_method: 'source', source_reference: 'ord_0000A' })).toMatchObject({
      rebooking_method: 'source',
      source_reference: 'ord_0000A',
      commission_amount: null,
    });
  });

  it('refuses an unknown rebooking method and a negative commission', async () => {
    for (const column of [{ rebooking_method: 'magic' }, { commission_amount: -1 }]) {
      const outcome = await attempt(
        db.sql,
        serviceRole,
        (tx) =>
          tx`insert into public.flights ${tx({ user_id: traveller.id, ...flightInput(), ...column } as unknown as Record<string, string>)}`,
      );
      expect(outcome, JSON.stringify(column)).toMatchObject({ error: '23514' });
    }
  });
});
