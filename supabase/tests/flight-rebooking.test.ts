// Migration 20261122001100_flight_rebooking: how a flight can be rebooked, the 'rebooking' claim
// status, and the status a traveller's new flight gets (from its fare, never from the insert).
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

async function insertAsTraveller(row: Record<string, unknown>): Promise<Record<string, unknown>> {
  return actAs(
    db.sql,
    user(traveller.id),
    async (tx) => {
      const [inserted] = await tx<Record<string, unknown>[]>`
        insert into public.flights ${tx({ user_id: traveller.id, ...flightInput(), ...row } as unknown as Record<string, string>)}
        returning id`;
      return inserted ?? {};
    },
    { commit: true },
  ).then(async (inserted) => {
    const [stored] = await db.sql<
      Record<string, unknown>[]
    >`select * from public.flights where id = ${inserted.id as number}`;
    return stored ?? {};
  });
}

describe('a traveller adding a flight', () => {
  it('gets monitoring for an eligible fare and limited otherwise', async () => {
    expect(await insertAsTraveller({ is_eligible_for_rebooking: true })).toMatchObject({ status: 'monitoring' });
    expect(await insertAsTraveller({ is_eligible_for_rebooking: false })).toMatchObject({ status: 'limited' });
  });

  it('may say how the flight is rebooked and the source reference', async () => {
    expect(await insertAsTraveller({ rebooking_method: 'source', source_reference: 'ord_0000A' })).toMatchObject({
      rebooking_method: 'source',
      source_reference: 'ord_0000A',
      commission_amount: null,
    });
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
  it("keeps the status it inserts (imports and seeds), including the 'rebooking' claim", async () => {
    for (const status of ['price_drop', 'rebooking', 'rebooked']) {
      const outcome = await attempt(
        db.sql,
        serviceRole,
        (tx) => tx`insert into public.flights ${tx({ user_id: traveller.id, ...flightInput(), status })}`,
      );
      expect(outcome, status).toEqual({ rows: 1 });
    }
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
