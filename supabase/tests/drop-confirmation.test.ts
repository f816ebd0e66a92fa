// Proof of a drop (issue 24, item 4) against a real database: a first quote below the price paid
// records a pending drop and a price_drop_confirm job (api/queries/price-checks.ts); the job's
// second quote (services/drop-confirmation.ts, run through the job runner) confirms it or not.
// Flights are added as the api adds them, retrieved from the simulated source: DROP... bookings
// quote 20% below the price paid on every quote, GHOST... only on the first quote a source
// instance gives. Alert precision (private.alert_precision, admin stats) reads what followed.
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../dev/db/test-db.ts';
import { createSimulatedFareSource } from '../functions/_shared/fare-source/simulated.ts';
import {
  type FareSource,
  FareSourceUnavailableError,
  itineraryOfBooking,
  type RetrievedBooking,
} from '../functions/_shared/fare-source/types.ts';
import type { AdminStatsResponse } from '../functions/_shared/types/admin.ts';
import type { AppDeps } from '../functions/api/context.ts';
import { createDb, type Db } from '../functions/api/db.ts';
import { getFlight, insertFlight, releaseRebooking } from '../functions/api/queries/flights.ts';
import { recordPriceChecks } from '../functions/api/queries/price-checks.ts';
import { CONFIRM_ATTEMPTS, confirmPendingDrops } from '../functions/api/services/drop-confirmation.ts';
import { actAs, createRebooking, createUser, type TestUser, user } from './factories.ts';

let database: TestDatabase;
let sql: postgres.Sql;
let api: Db;
let traveller: TestUser;
let admin: TestUser;

function depsWith(fareSource: FareSource): AppDeps {
  return {
    config: { siteUrl: 'http://site.test', sweep: { concurrency: 4 } } as AppDeps['config'],
    db: api,
    authApi: undefined as never,
    verifyAccessToken: undefined as never,
    fareSource,
    mailer: undefined as never,
    payments: undefined as never,
    log: () => {},
  };
}

beforeAll(async () => {
  database = await createTestDatabase();
  sql = postgres(database.url, { max: 4, prepare: !database.singleSession, onnotice: () => {} });
  api = createDb({ databaseUrl: database.ownerUrl, singleSession: database.singleSession });
  // premium: more flights than the free plan's five
  traveller = await createUser(sql, { premium: true });
  admin = await createUser(sql, { admin: true });
  // alerts go to confirmed addresses only
  await sql`update public.profiles set email_confirmed_at = now() where id = ${traveller.id}`;
});

afterAll(async () => {
  await api?.close();
  await sql?.end();
  await database?.close();
});

let codes = 0;
const code = (prefix: string) => `${prefix}${Date.now().toString(36).toUpperCase()}${codes++}`;

interface Added {
  flightId: number;
  booking: RetrievedBooking;
}

/** Adds a booking as the api does (retrieved from `source`, kept). */
async function addFlight(source: FareSource, prefix: string): Promise<Added> {
  const booking = await source.retrieveBooking({
    airline: 'United Airlines',
    bookingCode: code(prefix),
    passengerLastName: 'Lee',
  });
  const flightId = await api.asService((tx) =>
    insertFlight(tx, {
      userId: traveller.id,
      source: 'simulated',
      booking,
      isEligibleForRebooking: true,
      notes: null,
      isManualEntry: true,
    }),
  );
  return { flightId, booking };
}

/** A first price check (a sweep's or Check Now's): the source's quote of the flight's itinerary. */
async function firstCheck(source: FareSource, added: Added) {
  const quote = await source.quote(itineraryOfBooking(added.booking));
  const [recorded] = await api.asService((tx) =>
    recordPriceChecks(tx, [
      {
        flightId: added.flightId,
        userId: traveller.id,
        price: quote.price,
        currency: quote.currency,
        checkedAt: new Date(quote.quotedAt),
        source: source.name,
        offerId: quote.offerId,
      },
    ]),
  );
  return { quote, recorded };
}

async function dropsOf(flightId: number) {
  return sql<{ state: string; reason: string | null; quotes: Record<string, unknown>[]; alerted: boolean }[]>`
    select state, reason, quotes, alerted_at is not null as alerted
      from private.price_drops where flight_id = ${flightId} order by id`;
}

async function alertsOf(flightId: number): Promise<number> {
  const [row] = await sql<{ n: number }[]>`
    select count(*)::int as n from public.notification_history where flight_id = ${flightId} and type = 'price_drop'`;
  return row?.n ?? 0;
}

async function flightOf(flightId: number) {
  const flight = await api.asService((tx) => getFlight(tx, traveller.id, flightId));
  if (!flight) throw new Error(`no flight ${flightId}`);
  return flight;
}

async function confirmJobs() {
  return sql<{ status: string; payload: { dropIds: number[]; attempt: number }; run_at: Date }[]>`
    select status, payload, run_at from public.jobs where kind = 'price_drop_confirm' order by id`;
}

/** Makes every queued confirmation due now (a retry's backoff passed), as the superuser. */
async function retriesDue(): Promise<void> {
  await sql`update public.jobs set run_at = clock_timestamp() - interval '1 second'
             where kind = 'price_drop_confirm' and status = 'queued'`;
}

describe('a drop seen on a first quote', () => {
  it('is not a price drop yet: the flight keeps its status, no alert, one pending drop and its confirmation job', async () => {
    await sql`delete from public.jobs`;
    const source = createSimulatedFareSource();
    const added = await addFlight(source, 'DROP');
    const { quote, recorded } = await firstCheck(source, added);
    expect(quote.price).toBeLessThan(added.booking.pricePaid);
    expect(recorded).toMatchObject({
      status: 'monitoring',
      priceDropped: false,
      alertQueued: false,
      dropPending: true,
    });
    expect(await alertsOf(added.flightId)).toBe(0);
    const [drop] = await dropsOf(added.flightId);
    expect(drop).toMatchObject({ state: 'pending', reason: null, alerted: false });
    expect(drop?.quotes).toEqual([
      { quotedAt: quote.quotedAt, source: 'simulated', offerId: quote.offerId, price: quote.price, currency: 'USD' },
    ]);
    const [job] = await confirmJobs();
    expect(job?.payload).toEqual({ dropIds: [expect.any(Number)], attempt: 1 });
    // seen again before its proof: still one pending drop and one job
    await firstCheck(source, added);
    expect(await dropsOf(added.flightId)).toHaveLength(1);
    expect(await confirmJobs()).toHaveLength(1);
  });
});

describe('the second quote, through the queue', () => {
  it('confirms a drop still there: price_drop, one alert, both quotes kept with the drop and on the flight', async () => {
    const source = createSimulatedFareSource();
    const added = await addFlight(source, 'DROP');
    const first = await firstCheck(source, added);
    const run = await confirmPendingDrops(depsWith(source));
    expect(run.byKind.price_drop_confirm?.completed).toBeGreaterThanOrEqual(1);

    const flight = await flightOf(added.flightId);
    expect(flight.status).toBe('price_drop');
    expect(await alertsOf(added.flightId)).toBe(1);
    const [drop] = await dropsOf(added.flightId);
    expect(drop).toMatchObject({ state: 'confirmed', reason: null, alerted: true });
    expect(drop?.quotes).toHaveLength(2);
    expect(flight.dropQuotes).toEqual(drop?.quotes);
    const [, second] = flight.dropQuotes ?? [];
    expect(second).toMatchObject({ source: 'simulated', price: first.quote.price, currency: 'USD' });
    expect(second?.offerId).toMatch(/^sim_/);
    expect(Date.parse(second?.quotedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(first.quote.quotedAt));
  });

  it('finds a GHOST fare gone: no price drop, no alert, the drop recorded unconfirmed (fare_vanished)', async () => {
    const source = createSimulatedFareSource();
    const added = await addFlight(source, 'GHOST');
    const first = await firstCheck(source, added);
    expect(first.quote.price).toBeLessThan(added.booking.pricePaid);
    await confirmPendingDrops(depsWith(source));

    const flight = await flightOf(added.flightId);
    expect(flight.status).toBe('monitoring');
    expect(flight.currentPrice).toBeGreaterThanOrEqual(added.booking.pricePaid);
    expect(flight.dropQuotes).toBeNull();
    expect(await alertsOf(added.flightId)).toBe(0);
    const [drop] = await dropsOf(added.flightId);
    expect(drop).toMatchObject({ state: 'unconfirmed', reason: 'fare_vanished', alerted: false });
    expect(drop?.quotes.map((q) => q.price)).toEqual([first.quote.price, flight.currentPrice]);
    const [row] = await sql<{ found: Date | null }[]>`
      select price_drop_found_at as found from public.flights where id = ${added.flightId}`;
    expect(row?.found).toBeNull();
  });

  it('with the fare source failing: the drop stays pending and is retried, never alerted; given up after the last attempt', async () => {
    await sql`delete from public.jobs`;
    const source = createSimulatedFareSource();
    const added = await addFlight(source, 'DROP');
    await firstCheck(source, added);
    const failing: FareSource = {
      ...source,
      quote: () => Promise.reject(new FareSourceUnavailableError()),
    };

    const before = Date.now();
    await confirmPendingDrops(depsWith(failing));
    expect((await flightOf(added.flightId)).status).toBe('monitoring');
    expect(await alertsOf(added.flightId)).toBe(0);
    expect(await dropsOf(added.flightId)).toMatchObject([{ state: 'pending', alerted: false }]);
    const jobs = await confirmJobs();
    expect(jobs.map((j) => [j.status, j.payload.attempt])).toEqual([
      ['done', 1],
      ['queued', 2],
    ]);
    // after a backoff, not at once
    expect(jobs[1]?.run_at.getTime()).toBeGreaterThan(before);

    for (let attempt = 2; attempt <= CONFIRM_ATTEMPTS; attempt++) {
      await retriesDue();
      await confirmPendingDrops(depsWith(failing));
    }
    expect(await dropsOf(added.flightId)).toMatchObject([
      { state: 'unconfirmed', reason: 'source_failed', alerted: false },
    ]);
    expect((await confirmJobs()).every((j) => j.status === 'done')).toBe(true);
    expect(await alertsOf(added.flightId)).toBe(0);
    expect((await flightOf(added.flightId)).status).toBe('monitoring');

    // the next check that sees the drop starts a new proof, which the source now confirms
    await firstCheck(source, added);
    await confirmPendingDrops(depsWith(source));
    expect((await flightOf(added.flightId)).status).toBe('price_drop');
    expect(await alertsOf(added.flightId)).toBe(1);
  });
});

describe('alert precision', () => {
  it('is the share of alerted drops whose fare held when rebooked or re-checked within a day', async () => {
    await sql`delete from private.price_drops`;
    const source = createSimulatedFareSource();
    const confirmed = async (): Promise<Added> => {
      const added = await addFlight(source, 'DROP');
      await firstCheck(source, added);
      await confirmPendingDrops(depsWith(source));
      expect(await dropsOf(added.flightId)).toMatchObject([{ state: 'confirmed', alerted: true }]);
      return added;
    };
    const recheck = (added: Added, price: number, at: Date) =>
      api.asService((tx) =>
        recordPriceChecks(tx, [
          {
            flightId: added.flightId,
            userId: traveller.id,
            price,
            currency: 'USD',
            checkedAt: at,
            source: 'simulated',
          },
        ]),
      );
    const held = async (flightId: number) => {
      const [row] = await sql<{ held: boolean | null }[]>`
        select held from private.price_drops where flight_id = ${flightId}`;
      return row?.held;
    };

    // re-checked within the day, still below the price paid: held
    const still = await confirmed();
    await recheck(still, still.booking.pricePaid - 500, new Date(Date.now() + 3_600_000));
    expect(await held(still.flightId)).toBe(true);
    // re-checked within the day at the price paid: did not hold
    const gone = await confirmed();
    await recheck(gone, gone.booking.pricePaid, new Date(Date.now() + 3_600_000));
    expect(await held(gone.flightId)).toBe(false);
    // a rebooking refused because the fare was gone: did not hold
    const refused = await confirmed();
    const rebookingId = await createRebooking(sql, refused.flightId, traveller.id, 'claimed');
    await sql`update public.flights set status = 'rebooking', rebooking_claimed_at = now() where id = ${refused.flightId}`;
    await api.asService((tx) =>
      releaseRebooking(tx, {
        rebookingId,
        userId: traveller.id,
        flightId: refused.flightId,
        dropGone: true,
        error: 'FareNoLongerAvailableError',
      }),
    );
    expect(await held(refused.flightId)).toBe(false);
    // checked only after a day: not known, not counted
    const late = await confirmed();
    await recheck(late, late.booking.pricePaid - 500, new Date(Date.now() + 25 * 3_600_000));
    expect(await held(late.flightId)).toBeNull();

    const [row] = await actAs(
      sql,
      user(admin.id),
      (tx) => tx<{ stats: AdminStatsResponse }[]>`select private.admin_stats(30) as stats`,
    );
    expect(row?.stats).toMatchObject({ alertedDrops: 4, alertsJudged: 3, alertPrecision: 33 });
  });
});
