// An imported email's party and cabin land on the flight as the mail states them: the number of
// travellers the extractor read (public.flights.passenger_count, within its check of 1 to 9) and
// no cabin where the mail names none. The api's flight type carries both.
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../dev/db/test-db.ts';
import { MAX_FLIGHT_PARTY } from '../functions/_shared/constants.ts';
import { buildEmail } from '../functions/_shared/extraction/testing/email-factory.ts';
import { createDb, type Db } from '../functions/api/db.ts';
import { listFlights } from '../functions/api/queries/flights.ts';
import { importEmail, readEmail } from '../functions/api/services/email/importer.ts';
import { createFlight, createUser } from './factories.ts';

let database: TestDatabase;
let sql: postgres.Sql;
let api: Db;

beforeAll(async () => {
  database = await createTestDatabase();
  sql = postgres(database.url, { max: 2, prepare: !database.singleSession, onnotice: () => {} });
  api = createDb({ databaseUrl: database.ownerUrl, singleSession: database.singleSession });
});

afterAll(async () => {
  await api?.close();
  await sql?.end();
  await database?.close();
});

/** A Wizz Air receipt a traveller forwards: two legs next year, no cabin, the party as given. */
function receipt(code: string, travellers: string): string {
  const year = new Date().getUTCFullYear() + 1;
  return buildEmail({
    from: 'Wizz Air <noreply@wizzair.com>',
    subject: `Passenger receipt - reservation code ${code}`,
    date: 'Wed, 20 Jan 2027 21:14:09 +0100',
    text: [
      `Reservation code: ${code}`,
      'Passenger: Ms Marta Kowalczyk',
      travellers,
      'Flight: W6 1795 (Y)',
      `Departure: Gdansk, Gdansk Lech Walesa Airport  05.05.${year} 06:20`,
      `Arrival: Oslo, Oslo Airport Gardermoen  05.05.${year} 07:55`,
      'Total paid: 163.96 EUR',
    ].join('\n'),
  });
}

async function importReceipt(userId: string, code: string, travellers: string) {
  const email = await readEmail(receipt(code, travellers));
  return importEmail(api, { userId, via: 'forwarded', messageId: `<${code}@example.test>`, email });
}

describe('the party and the cabin of an imported booking', () => {
  it('stores the count the mail states and no cabin where it names none', async () => {
    const traveller = await createUser(sql);
    const result = await importReceipt(traveller.id, 'R8WTQD', 'Travellers: 2 Adults, 1 Infant');
    expect(result?.outcome).toBe('created');
    const [row] = await sql`select passenger_count, cabin_class, fare_type, original_price
                              from public.flights where id = ${result?.flightIds[0] ?? 0}`;
    // the booking's total, for the whole party (issue 23): quotes ask for three seats
    expect(row).toEqual({ passenger_count: 3, cabin_class: null, fare_type: null, original_price: 16396 });
    const claims = { sub: traveller.id, role: 'authenticated', aud: 'authenticated', exp: 0 };
    const [flight] = await api.asUser(claims, (tx) => listFlights(tx, traveller.id));
    expect(flight).toMatchObject({ passengerCount: 3, cabinClass: null });
  });

  it('stores no party for a group past one reservation, nor for a flight added by hand', async () => {
    const traveller = await createUser(sql);
    const result = await importReceipt(traveller.id, 'GRP4QX', 'Passengers: 9 adults, 3 children');
    const [row] = await sql`select passenger_count from public.flights where id = ${result?.flightIds[0] ?? 0}`;
    expect(row?.passenger_count).toBeNull();
    const manual = await createFlight(sql, traveller.id);
    const [added] = await sql`select passenger_count from public.flights where id = ${manual}`;
    expect(added?.passenger_count).toBeNull();
  });

  it("holds the flights' check to the api's bound", async () => {
    const [check] = await sql<{ def: string }[]>`
      select pg_get_constraintdef(oid) as def from pg_constraint where conname = 'flights_passenger_count_range'`;
    expect(check?.def).toMatch(new RegExp(`passenger_count >= 1\\b.*passenger_count <= ${MAX_FLIGHT_PARTY}\\b`));
    const traveller = await createUser(sql);
    const flight = await createFlight(sql, traveller.id);
    await expect(
      sql`update public.flights set passenger_count = ${MAX_FLIGHT_PARTY + 1} where id = ${flight}`,
    ).rejects.toThrow(/flights_passenger_count_range/);
  });
});
