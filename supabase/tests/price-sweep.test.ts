// The price sweep against a real database: what is due, one quote per itinerary, a sweep killed
// halfway that the next run finishes with every flight checked exactly once, a failing fare
// source that leaves flights untouched, and two workers sharing one sweep.
//
// The service (supabase/functions/api/services/price-sweep.ts) is plain TypeScript with relative
// imports, so it runs here under Node with the api's own database layer (db.ts) and a fare
// source double that counts its calls.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FareQuote, FareSource, Itinerary } from '../functions/_shared/fare-source/types.ts';
import { FareSourceUnavailableError, itineraryKey } from '../functions/_shared/fare-source/types.ts';
import type { SweepConfig } from '../functions/api/config.ts';
import { createDb, type Db } from '../functions/api/db.ts';
import { type ClaimedJob, claimJobs, completeJob } from '../functions/api/queries/jobs.ts';
import { PRICE_CHECK_JOB, type PriceCheckPayload } from '../functions/api/queries/price-sweeps.ts';
import { runPriceSweep, type PriceSweepResult } from '../functions/api/services/price-sweep.ts';
import { createTestDatabase, type TestDatabase } from '../../dev/db/test-db.ts';
import { createUser, type Sql, type TestUser } from './factories.ts';
import postgres from 'postgres';

let database: TestDatabase;
let sql: Sql;
let db: Db;
let travellers: TestUser[];

const ORIGINAL_PRICE = 40_000;

beforeAll(async () => {
  database = await createTestDatabase();
  sql = postgres(database.url, {
    max: database.singleSession ? 1 : 4,
    prepare: !database.singleSession,
    onnotice: () => {},
  });
  // the sweep runs as the api does: on its role, not a superuser
  db = createDb({ databaseUrl: database.ownerUrl, singleSession: database.singleSession });
  travellers = [];
  for (let i = 0; i < 20; i++) travellers.push(await createUser(sql, { premium: true }));
});

afterAll(async () => {
  await db?.close();
  await sql?.end();
  await database?.close();
});

beforeEach(async () => {
  await sql`delete from public.jobs`;
  await sql`delete from public.price_check_logs`;
  await sql`delete from public.flights`;
});

function sweepConfig(overrides: Partial<SweepConfig> = {}): { sweep: SweepConfig } {
  return { sweep: { checkIntervalMinutes: 60, concurrency: 4, batchSize: 50, leaseSeconds: 60, ...overrides } };
}

/**
 * Inserts `count` flights spread round-robin over `itineraries` distinct itineraries (so every
 * batch mixes itineraries and each one appears in many batches) and over the travellers.
 */
async function seedFlights(
  count: number,
  itineraries: number,
  extra: { status?: string; last_checked?: string | null; departure_offset_days?: number } = {},
): Promise<number[]> {
  const rows = await sql<{ id: string }[]>`
    insert into public.flights (user_id, airline, flight_number, booking_code, passenger_last_name,
                                departure_airport, arrival_airport, departure_date, original_price,
                                current_price, fare_type, is_eligible_for_rebooking, status, last_checked)
    select (${travellers.map((t) => t.id)}::uuid[])[1 + (g % ${travellers.length}::integer)],
           'Delta Air Lines',
           'DL' || (100 + g % ${itineraries}::integer),
           'BK' || lpad(g::text, 8, '0') || upper(substr(md5(random()::text), 1, 4)),
           'Smith', 'JFK', 'LAX',
           current_date + ${extra.departure_offset_days ?? 30}::integer + (g % ${itineraries}::integer) % 3,
           ${ORIGINAL_PRICE}, ${ORIGINAL_PRICE}, 'Flexible Economy', true,
           ${extra.status ?? 'monitoring'}, ${extra.last_checked ?? null}::timestamptz
      from generate_series(1, ${count}::integer) g
    returning id
  `;
  return rows.map((r) => Number(r.id));
}

interface FakeSource extends FareSource {
  calls: string[];
}

/** Quotes 10% under the price paid for flight numbers ending in 0, 10% over otherwise. */
function fakeSource(options: { fail?: (it: Itinerary) => boolean; onQuote?: (n: number) => Promise<void> } = {}) {
  const calls: string[] = [];
  const source: FakeSource = {
    name: 'simulated',
    calls,
    retrieveBooking: () => Promise.reject(new Error('not used by the sweep')),
    rebook: () => Promise.reject(new Error('not used by the sweep')),
    rebookingOutcome: () => Promise.reject(new Error('not used by the sweep')),
    async quote(itinerary): Promise<FareQuote> {
      calls.push(itineraryKey(itinerary));
      await options.onQuote?.(calls.length);
      if (options.fail?.(itinerary)) throw new FareSourceUnavailableError();
      const drop = itinerary.flightNumber.endsWith('0');
      return {
        price: Math.round(drop ? ORIGINAL_PRICE * 0.9 : ORIGINAL_PRICE * 1.1),
        currency: itinerary.currency,
        quotedAt: new Date().toISOString(),
        offerId: null,
      };
    },
  };
  return source;
}

async function historyCounts(): Promise<Map<number, number>> {
  const rows = await sql<{ id: string; n: string }[]>`
    select f.id, count(p.id) as n
      from public.flights f left join public.flight_prices p on p.flight_id = f.id
     group by f.id`;
  return new Map(rows.map((r) => [Number(r.id), Number(r.n)]));
}

async function logRow(sweepId: number) {
  const [row] = await sql<
    {
      status: string;
      total_flights_checked: number;
      total_price_drops_found: number;
      success: boolean;
      error_message: string | null;
      initiated_by: string | null;
      finished_at: Date | null;
      additional_data: Record<string, number>;
    }[]
  >`select * from public.price_check_logs where id = ${sweepId}`;
  if (!row) throw new Error(`no price_check_logs row ${sweepId}`);
  return row;
}

/** Every lease the crashed run left behind runs out (as if its time had passed). */
async function leasesRunOut(): Promise<void> {
  await sql`update public.jobs set lease_expires_at = clock_timestamp() - interval '1 second' where status = 'running'`;
}

describe('a price sweep', () => {
  it('checks every due flight once, leaves the rest alone, and logs the run', async () => {
    const due = await seedFlights(120, 12);
    const recent = await seedFlights(5, 5, { last_checked: new Date().toISOString() });
    const stale = await seedFlights(5, 5, { last_checked: new Date(Date.now() - 2 * 3_600_000).toISOString() });
    const rebooked = await seedFlights(3, 3);
    await sql`update public.flights set has_been_rebooked = true, status = 'rebooked' where id = any(${rebooked})`;
    const cancelled = await seedFlights(3, 3, { status: 'cancelled' });
    const departed = await seedFlights(3, 3, { departure_offset_days: -40 });
    const source = fakeSource();

    const result = await runPriceSweep(
      { db, fareSource: source, config: sweepConfig({ batchSize: 7 }) },
      { initiatedBy: travellers[0]?.id ?? null },
    );

    const expectedChecked = due.length + stale.length;
    expect(result).toMatchObject({ finished: true, success: true, checkedCount: expectedChecked, resumed: false });
    const counts = await historyCounts();
    for (const id of [...due, ...stale]) expect(counts.get(id)).toBe(1);
    for (const id of [...recent, ...rebooked, ...cancelled, ...departed]) expect(counts.get(id)).toBe(0);

    // flight numbers DL100 and DL110 quote below the price paid: 2 of the 12 itineraries. Each is
    // a drop waiting for its second quote (the price_drop_confirm job), not yet a price_drop.
    const [drops] = await sql<{ n: string }[]>`
      select count(*) as n from private.price_drops
       where state = 'pending' and flight_id = any(${[...due, ...stale]})`;
    const [confirming] = await sql<{ n: string }[]>`
      select count(*) as n from public.flights where status = 'price_drop'`;
    expect(Number(confirming?.n)).toBe(0);
    expect(result.priceDropsFound).toBe(Number(drops?.n));
    expect(result.priceDropsFound).toBeGreaterThan(0);
    const [dropped] = await sql<{ current_price: number; lowest_price: number; highest_price: number }[]>`
      select current_price, lowest_price, highest_price from public.flights
       where id = (select min(flight_id) from private.price_drops)`;
    expect(dropped).toEqual({ current_price: 36_000, lowest_price: 36_000, highest_price: 36_000 });

    const log = await logRow(result.sweepId);
    expect(log).toMatchObject({
      status: 'completed',
      total_flights_checked: expectedChecked,
      total_price_drops_found: result.priceDropsFound,
      success: true,
      error_message: null,
      initiated_by: travellers[0]?.id,
    });
    expect(log.finished_at).toBeInstanceOf(Date);
    expect(log.additional_data).toMatchObject({ flightsDue: expectedChecked, quotesMade: result.quotesMade });
    const [open] = await sql<
      { n: string }[]
    >`select count(*) as n from public.jobs where kind <> 'price_drop_confirm' and status <> 'done'`;
    expect(Number(open?.n)).toBe(0);
  });

  it('quotes each distinct itinerary once, however many travellers hold it', async () => {
    await seedFlights(1000, 50);
    const source = fakeSource();

    const result = await runPriceSweep(
      { db, fareSource: source, config: sweepConfig({ batchSize: 100, concurrency: 8 }) },
      { initiatedBy: null },
    );

    expect(result.checkedCount).toBe(1000);
    expect(result.quotesMade).toBe(50);
    expect(source.calls).toHaveLength(50);
    expect(new Set(source.calls).size).toBe(50);
  });

  it('killed halfway, is finished by the next run with every flight checked exactly once', async () => {
    // 200 itineraries held by two travellers each; every batch of 40 needs 40 distinct quotes
    const flights = await seedFlights(400, 200);
    const crash = new AbortController();
    // the first run dies while its 100th quote is on the wire: two batches written, two claimed
    // and unwritten, the rest never reached
    const dying = fakeSource({
      onQuote: async (n) => {
        if (n === 100) crash.abort(new Error('worker killed'));
      },
    });

    const firstRun = runPriceSweep(
      { db, fareSource: dying, config: sweepConfig({ batchSize: 40, concurrency: 2 }) },
      { initiatedBy: null, signal: crash.signal },
    );
    await expect(firstRun).rejects.toThrow('worker killed');

    const jobs = await sql<{ status: string; n: string }[]>`
      select status, count(*) as n from public.jobs where kind <> 'price_drop_confirm' group by status`;
    const byStatus = Object.fromEntries(jobs.map((j) => [j.status, Number(j.n)]));
    expect(byStatus.running).toBeGreaterThan(0); // claimed by the dead worker, lease still held
    expect(byStatus.queued).toBeGreaterThan(0); // never reached
    const partly = await historyCounts();
    const checkedBefore = [...partly.values()].filter((n) => n === 1).length;
    expect(checkedBefore).toBe(40 * (byStatus.done ?? 0));
    expect(checkedBefore).toBeGreaterThan(0);
    expect(checkedBefore).toBeLessThan(flights.length);
    expect(Math.max(...partly.values())).toBeLessThanOrEqual(1);
    const [sweep] = await sql<{ id: string; status: string }[]>`select id, status from public.price_check_logs`;
    expect(sweep?.status).toBe('running');

    await leasesRunOut();
    const healthy = fakeSource();
    const secondRun = await runPriceSweep(
      { db, fareSource: healthy, config: sweepConfig({ batchSize: 40, concurrency: 2 }) },
      { initiatedBy: null },
    );

    expect(secondRun).toMatchObject({
      sweepId: Number(sweep?.id),
      resumed: true,
      finished: true,
      success: true,
      checkedCount: flights.length,
    });
    const counts = await historyCounts();
    for (const id of flights) expect(counts.get(id)).toBe(1);
    const log = await logRow(secondRun.sweepId);
    expect(log).toMatchObject({ status: 'completed', total_flights_checked: flights.length, success: true });
    const [drops] = await sql<{ n: string }[]>`select count(*) as n from private.price_drops where state = 'pending'`;
    expect(log.total_price_drops_found).toBe(Number(drops?.n));
    expect(new Set(healthy.calls).size).toBe(healthy.calls.length);
    const [priceRows] = await sql<{ n: string }[]>`select count(*) as n from public.flight_prices`;
    expect(Number(priceRows?.n)).toBe(flights.length);
  });

  it('leaves flights whose quote failed untouched and reports the failure; the next sweep checks them', async () => {
    const flights = await seedFlights(60, 6);
    const failing = (it: Itinerary) => it.flightNumber === 'DL101' || it.flightNumber === 'DL102';
    const result = await runPriceSweep(
      { db, fareSource: fakeSource({ fail: failing }), config: sweepConfig({ batchSize: 25 }) },
      { initiatedBy: null },
    );

    expect(result).toMatchObject({ finished: true, success: false, checkedCount: 40, quoteErrors: 20 });
    expect(result.errorMessage).toContain('20 flight(s) could not be quoted');
    const untouched = await sql<{ current_price: number; last_checked: Date | null; status: string; n: string }[]>`
      select f.current_price, f.last_checked, f.status, (select count(*) from public.flight_prices p where p.flight_id = f.id) as n
        from public.flights f where f.flight_number in ('DL101', 'DL102')`;
    expect(untouched).toHaveLength(20);
    for (const row of untouched) {
      expect(row).toEqual({ current_price: ORIGINAL_PRICE, last_checked: null, status: 'monitoring', n: '0' });
    }
    expect(await logRow(result.sweepId)).toMatchObject({
      status: 'failed',
      success: false,
      total_flights_checked: 40,
    });

    const next = await runPriceSweep(
      { db, fareSource: fakeSource(), config: sweepConfig({ batchSize: 25 }) },
      { initiatedBy: null },
    );
    expect(next).toMatchObject({ finished: true, success: true, checkedCount: 20, resumed: false });
    const counts = await historyCounts();
    for (const id of flights) expect(counts.get(id)).toBe(1);
  });

  it('leaves a flight added while the sweep runs to the next sweep', async () => {
    const flights = await seedFlights(20, 4);
    const config = sweepConfig({ batchSize: 5 });
    const first = await runPriceSweep({ db, fareSource: fakeSource(), config }, { initiatedBy: null, maxBatches: 1 });
    expect(first).toMatchObject({ finished: false, checkedCount: 5 });
    const [added] = await seedFlights(1, 1);

    const rest = await runPriceSweep({ db, fareSource: fakeSource(), config }, { initiatedBy: null });
    expect(rest).toMatchObject({ sweepId: first.sweepId, resumed: true, finished: true, checkedCount: 20 });
    let counts = await historyCounts();
    for (const id of flights) expect(counts.get(id)).toBe(1);
    expect(counts.get(added as number)).toBe(0);

    const next = await runPriceSweep({ db, fareSource: fakeSource(), config }, { initiatedBy: null });
    expect(next).toMatchObject({ finished: true, checkedCount: 1 });
    counts = await historyCounts();
    expect(counts.get(added as number)).toBe(1);
  });

  it('shares one sweep between two workers without checking a flight twice', async () => {
    const flights = await seedFlights(500, 25);
    const config = sweepConfig({ batchSize: 20, concurrency: 3 });
    const [a, b] = await Promise.all([
      runPriceSweep({ db, fareSource: fakeSource(), config }, { initiatedBy: null, workerId: 'worker-a' }),
      runPriceSweep({ db, fareSource: fakeSource(), config }, { initiatedBy: null, workerId: 'worker-b' }),
    ]);

    expect(a?.sweepId).toBe(b?.sweepId);
    const finished = [a, b].filter((r): r is PriceSweepResult => r?.finished === true);
    expect(finished.length).toBeGreaterThan(0);
    const counts = await historyCounts();
    for (const id of flights) expect(counts.get(id)).toBe(1);
    const log = await logRow(a.sweepId);
    expect(log).toMatchObject({ status: 'completed', total_flights_checked: flights.length });
    const workers = await sql<
      { locked_by: string | null }[]
    >`select distinct locked_by from public.jobs where kind = 'price_check'`;
    expect(workers).toEqual([{ locked_by: null }]);
  });

  it('records a batch only for the worker that still holds its claim', async () => {
    const [flight] = await seedFlights(1, 1);
    const source = fakeSource();
    // a worker claims the batch and stalls past its lease
    const [started] = await sql<{ sweep_id: string }[]>`select sweep_id from private.start_price_sweep(null, 60, 10)`;
    const stalled = await db.asService((tx) =>
      claimJobs<PriceCheckPayload>(tx, { kinds: [PRICE_CHECK_JOB], worker: 'stalled', limit: 1, leaseSeconds: 60 }),
    );
    expect(stalled[0]?.payload).toMatchObject({ sweepId: Number(started?.sweep_id), fromId: flight, toId: flight });
    await leasesRunOut();

    // another run takes the batch over and finishes the sweep
    const result = await runPriceSweep({ db, fareSource: source, config: sweepConfig() }, { initiatedBy: null });
    expect(result).toMatchObject({ finished: true, success: true, checkedCount: 1 });

    // the stalled worker's late completion changes nothing
    const late = await db.asService((tx) =>
      completeJob(tx, stalled[0] as ClaimedJob<PriceCheckPayload>, { checked: 1 }),
    );
    expect(late).toBe(false);
    expect((await historyCounts()).get(flight as number)).toBe(1);
    expect(await logRow(result.sweepId)).toMatchObject({ total_flights_checked: 1, status: 'completed' });
    const [job] = await sql<
      { attempts: number; result: { checked: number } }[]
    >`select attempts, result from public.jobs where kind = 'price_check'`;
    expect(job).toMatchObject({ attempts: 2, result: { checked: 1 } });
  });

  it('a batch that cannot be written goes back to the queue and is retried', async () => {
    const flights = await seedFlights(3, 3);
    // the batch's prices cannot be written: a check constraint refuses them
    const negative: FakeSource = {
      ...fakeSource(),
      quote: async (it) => ({ ...(await fakeSource().quote(it)), price: -1 }),
    };
    const first = await runPriceSweep({ db, fareSource: negative, config: sweepConfig() }, { initiatedBy: null });
    expect(first).toMatchObject({ finished: false, checkedCount: 0 });
    const [failed] = await sql<{ status: string; attempts: number; last_error: string }[]>`
      select status, attempts, last_error from public.jobs where kind = 'price_check'`;
    expect(failed).toMatchObject({ status: 'queued', attempts: 1 });
    expect(failed?.last_error).toMatch(/check constraint/);

    await sql`update public.jobs set run_at = clock_timestamp() - interval '1 second'`;
    const second = await runPriceSweep({ db, fareSource: fakeSource(), config: sweepConfig() }, { initiatedBy: null });
    expect(second).toMatchObject({ sweepId: first.sweepId, resumed: true, finished: true, checkedCount: 3 });
    const counts = await historyCounts();
    for (const id of flights) expect(counts.get(id)).toBe(1);
  });

  it('is system work: travellers cannot start, claim or finish sweeps', async () => {
    const denied = await sql
      .begin(async (tx) => {
        await tx`set local role authenticated`;
        await tx`select * from private.start_price_sweep(null, 60, 10)`;
      })
      .catch((error: { code?: string }) => error.code);
    expect(denied).toBe('42501');
  });
});
