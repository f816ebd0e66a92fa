// Automatic rebooking against a real database (migration 20261122000600_rebooking.sql and
// services/auto-rebooking.ts), driven in-process through the api's own code on the api's role,
// with the simulated fare source (or a faulty one wrapped around it). Flights are added as the
// api adds them: retrieved from the simulated source (DROP... bookings quote 20% below the price
// paid, ...FEE adds a 15% change penalty, DIRECT... are bought from the airline) and priced by a
// recorded check. Time is moved by shifting timestamps back as the superuser, never by waiting.
import postgres from 'postgres';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../dev/db/test-db.ts';
import { createSimulatedFareSource } from '../functions/_shared/fare-source/simulated.ts';
import {
  type FareSource,
  FareSourceUnavailableError,
  itineraryOfBooking,
  type RebookRequest,
  type RetrievedBooking,
} from '../functions/_shared/fare-source/types.ts';
import { withResilience } from '../functions/_shared/fare-source/resilient.ts';
import { isEligibleFareType } from '../functions/_shared/flights/rules.ts';
import type { AppDeps, LogEntry } from '../functions/api/context.ts';
import { createDb, type Db } from '../functions/api/db.ts';
import { claimRebooking, insertFlight } from '../functions/api/queries/flights.ts';
import { claimJobs } from '../functions/api/queries/jobs.ts';
import { recordPriceChecks } from '../functions/api/queries/price-checks.ts';
import {
  AUTO_REBOOK_KIND,
  autoRebookBatchHandler,
  FARE_SOURCE_BREAKER,
  rebookBatch,
  startAutoRebookingRun,
} from '../functions/api/services/auto-rebooking.ts';
import { rebookClaimed } from '../functions/api/services/flights.ts';
import { type JobHandler, runDueJobs } from '../functions/api/services/job-runner.ts';
import { reconcileRebookings } from '../functions/api/services/rebooking-reconciler.ts';
import { createUser, createFlight, setPlan, type TestUser } from './factories.ts';

let database: TestDatabase;
let sql: postgres.Sql;
let api: Db;
const simulated = createSimulatedFareSource();
const logs: LogEntry[] = [];

function depsWith(fareSource: FareSource, db: Db = api): AppDeps {
  return {
    config: { siteUrl: 'http://site.test' } as AppDeps['config'],
    db,
    authApi: undefined as never,
    verifyAccessToken: undefined as never,
    fareSource,
    mailer: undefined as never,
    payments: undefined as never,
    log: (entry) => logs.push(entry),
  };
}

const HANDLERS = [autoRebookBatchHandler as JobHandler<never>];

beforeAll(async () => {
  database = await createTestDatabase();
  sql = postgres(database.url, { max: 4, prepare: !database.singleSession, onnotice: () => {} });
  api = createDb({ databaseUrl: database.ownerUrl, singleSession: database.singleSession });
});

afterAll(async () => {
  await api?.close();
  await sql?.end();
  await database?.close();
});

let codes = 0;
const code = (prefix: string) => `${prefix}${Date.now().toString(36).toUpperCase()}${codes++}`;

/** Adds a booking as the api does (retrieved, kept) and records one check of its fare now. */
async function addFlight(userId: string, prefix: string, airline = 'United Airlines', db: Db = api): Promise<number> {
  const booking = await simulated.retrieveBooking({ airline, bookingCode: code(prefix), passengerLastName: 'Lee' });
  const eligible = isEligibleFareType(booking.fareType, booking.fareChangeable);
  const flightId = await db.asService((tx) =>
    insertFlight(tx, {
      userId,
      source: 'simulated',
      booking,
      isEligibleForRebooking: eligible,
      notes: null,
      isManualEntry: true,
    }),
  );
  const quote = await simulated.quote(itineraryOfBooking(booking));
  await db.asService(
    (tx) =>
      recordPriceChecks(
        tx,
        [
          {
            flightId,
            userId,
            price: quote.price,
            currency: quote.currency,
            checkedAt: new Date(quote.quotedAt),
            source: 'simulated',
            changePenalty: quote.changePenalty ?? null,
            refundForm: quote.refundForm ?? null,
          },
        ],
        { confirming: true },
      ), // a drop proved by its second quote (services/drop-confirmation.ts)
  );
  return flightId;
}

async function premiumTraveller(): Promise<TestUser> {
  const traveller = await createUser(sql, { premium: true });
  // a confirmed address: the outbox writes nothing for an unconfirmed one
  await sql`update public.profiles set auto_rebooking = true, email_confirmed_at = now() where id = ${traveller.id}`;
  return traveller;
}

/** Nothing else in the database may qualify: each test's run sees only its own flights. */
async function clearRunState(): Promise<void> {
  await sql`update public.profiles set auto_rebooking = false`;
  await sql`delete from private.circuit_breakers`;
  await sql`update public.auto_rebooking_logs set status = 'completed' where status = 'running'`;
}

interface LogRow {
  id: number;
  status: string;
  trigger: string;
  initiated_by: string | null;
  total_flights_evaluated: number;
  total_flights_rebooked: number;
  total_savings: number;
  success: boolean;
  error_message: string | null;
  finished_at: Date | null;
  additional_data: Record<string, unknown>;
}

async function logRow(runId: number): Promise<LogRow> {
  const [row] = await sql<LogRow[]>`select * from public.auto_rebooking_logs where id = ${runId}`;
  if (!row) throw new Error(`no run ${runId}`);
  return { ...row, id: Number(row.id) };
}

async function flightState(flightId: number) {
  const [row] = await sql<{ status: string; has_been_rebooked: boolean; airline_credit: number | null }[]>`
    select status, has_been_rebooked, airline_credit from public.flights where id = ${flightId}`;
  return row;
}

async function recordedRebookings(flightIds: number[]): Promise<Map<number, number>> {
  const rows = await sql<{ flight_id: string; n: number }[]>`
    select flight_id, count(*)::int as n from private.rebookings
     where flight_id = any(${flightIds}::bigint[]) and state = 'recorded' group by flight_id`;
  return new Map(rows.map((r) => [Number(r.flight_id), r.n]));
}

async function commissionRows(userIds: string[]): Promise<number> {
  const [row] = await sql<{ n: number }[]>`
    select count(*)::int as n from public.billing_transactions
     where user_id = any(${userIds}::uuid[]) and type = 'commission'`;
  return row?.n ?? 0;
}

describe('the verdict: net savings after the change fee, against the owner thresholds', () => {
  let traveller: TestUser;
  beforeAll(async () => {
    traveller = await premiumTraveller();
  });

  const verdictOf = async (flightId: number) => {
    const [row] = await sql<{ v: Record<string, unknown> }[]>`
      select private.rebooking_verdict(f, p) as v
        from public.flights f join public.profiles p on p.id = f.user_id where f.id = ${flightId}`;
    return row?.v as {
      netSavings: number;
      qualifies: boolean;
      reason: string;
      international: boolean;
      minNetSavings: number;
    };
  };

  it('subtracts the penalty and applies the thresholds to the net figure', async () => {
    // $400 paid, $300 now: a $100 drop; 'either' $50 or 15%. Air France's rule states no fee in
    // dollars, so the quote's penalty applies; its difference comes back as credit (the rule's form).
    const free = await createFlight(sql, traveller.id, {
      airline: 'Air France',
      flight_number: 'AF100',
      fare_type: 'Flexible Economy',
      original_price: 40_000,
      current_price: 30_000,
      status: 'price_drop',
    });
    let v = await verdictOf(free);
    expect(v).toMatchObject({ netSavings: 10_000, qualifies: true, international: false, minNetSavings: 5_000 });
    expect(v.reason).toBe(
      'Saves $100.00 (25.0%) as airline credit, which meets your rebooking threshold of $50.00 or 15%.',
    );

    // a $75 fee leaves $25: below both $50 and 15% ($60)
    await sql`update public.flights set change_penalty = 7500 where id = ${free}`;
    v = await verdictOf(free);
    expect(v).toMatchObject({ netSavings: 2_500, qualifies: false });
    expect(v.reason).toBe(
      'Saves $25.00 (6.3%) as airline credit after a $75.00 change fee, below your rebooking threshold of $50.00 or 15%.',
    );

    // a fee as large as the drop: nothing to gain
    await sql`update public.flights set change_penalty = 12000, refund_form = 'cash' where id = ${free}`;
    v = await verdictOf(free);
    expect(v).toMatchObject({ netSavings: -2_000, qualifies: false });
    expect(v.reason).toBe('The $120.00 change fee is at least the $100.00 drop, so changing would not save anything.');

    // 'both': $40 net (10%) meets neither... then $80 net (20%) meets both $50 and 15%
    await sql`update public.profiles set threshold_condition = 'both' where id = ${traveller.id}`;
    await sql`update public.flights set change_penalty = 2000, refund_form = 'cash' where id = ${free}`;
    v = await verdictOf(free);
    expect(v).toMatchObject({ netSavings: 8_000, qualifies: true, minNetSavings: 6_000 });
    expect(v.reason).toContain(
      'as airline credit after a $20.00 change fee, which meets your rebooking threshold of $50.00 and 15%.',
    );
    await sql`update public.profiles set threshold_condition = 'either' where id = ${traveller.id}`;

    // prices at the top of the column's range do not overflow the arithmetic
    const huge = await createFlight(sql, traveller.id, { original_price: 2_000_000_000, current_price: 1_000 });
    expect(await verdictOf(huge)).toMatchObject({ netSavings: 1_999_999_000, qualifies: true, minNetSavings: 5_000 });
  });

  it('uses the international pair when the switch is on and the route crosses a border', async () => {
    // $120 drop on $1,000: 12% — meets $50 or 15% by amount; the international $150 or 20% it does not
    const abroad = await createFlight(sql, traveller.id, {
      departure_airport: 'JFK',
      arrival_airport: 'LHR',
      original_price: 100_000,
      current_price: 88_000,
      status: 'price_drop',
    });
    const home = await createFlight(sql, traveller.id, {
      departure_airport: 'JFK',
      arrival_airport: 'LAX',
      original_price: 100_000,
      current_price: 88_000,
      status: 'price_drop',
    });
    expect(await verdictOf(abroad)).toMatchObject({ international: true, qualifies: true });
    await sql`update public.profiles
                 set use_separate_international_thresholds = true,
                     international_min_savings_amount = 15000, international_min_savings_percent = 20
               where id = ${traveller.id}`;
    const v = await verdictOf(abroad);
    expect(v).toMatchObject({ international: true, qualifies: false, minNetSavings: 15_000 });
    expect(v.reason).toContain('below your rebooking threshold of $150.00 or 20% for international trips.');
    expect(await verdictOf(home)).toMatchObject({ international: false, qualifies: true });
    await sql`update public.profiles set use_separate_international_thresholds = false where id = ${traveller.id}`;
  });

  it('says why an ineligible fare with a drop does not qualify, and that there is no drop', async () => {
    const basic = await createFlight(sql, traveller.id, {
      original_price: 40_000,
      current_price: 30_000,
      fare_type: 'Basic Economy',
      is_eligible_for_rebooking: false,
      status: 'price_drop',
    });
    const v = await verdictOf(basic);
    expect(v.qualifies).toBe(false);
    expect(v.reason).toContain('but this fare cannot be changed automatically.');
    const steady = await createFlight(sql, traveller.id, { original_price: 40_000, current_price: 41_000 });
    expect((await verdictOf(steady)).reason).toBe('No price drop: the current fare is not below what you paid.');
  });
});

describe('a run', () => {
  beforeEach(clearRunState);

  it('rebooks qualifying flights once, tells assisted travellers what to ask, logs the run', async () => {
    const traveller = await premiumTraveller();
    // 15% or $1,000: a 20% drop qualifies by percent; a 20% drop less a 15% fee (5%) does not,
    // whatever the fare (the amount is out of reach of 5% of any simulated fare)
    await sql`update public.profiles set min_savings_amount = 100000 where id = ${traveller.id}`;
    const drops = [await addFlight(traveller.id, 'DROP'), await addFlight(traveller.id, 'DROP')];
    // United charges no change fee (its rule); Air France's fee is what the quote says
    const fee = await addFlight(traveller.id, 'DROPFEE', 'Air France');
    const direct = await addFlight(traveller.id, 'DIRECTDROP');
    const steady = await addFlight(traveller.id, 'RISE');
    // not premium: never rebooked automatically, even with a qualifying drop
    const free = await createUser(sql);
    const freeDrop = await addFlight(free.id, 'DROP');
    // premium but switched off
    const off = await createUser(sql, { premium: true });
    const offDrop = await addFlight(off.id, 'DROP');

    const started = await startAutoRebookingRun(
      { db: api },
      { trigger: 'scheduler', initiatedBy: null, scopeUserId: null },
    );
    expect(started).toMatchObject({ resumed: false, flightsEvaluated: 5, flightsQualifying: 3, batches: 1 });
    await runDueJobs(depsWith(simulated), HANDLERS);

    for (const id of drops)
      expect(await flightState(id)).toMatchObject({ status: 'rebooked', has_been_rebooked: true });
    for (const id of [fee, direct, freeDrop, offDrop]) expect((await flightState(id))?.status).toBe('price_drop');
    expect((await flightState(steady))?.status).toBe('monitoring');

    const run = await logRow(started.runId);
    const [credits] = await sql<{ total: number }[]>`
      select sum(airline_credit)::int as total from public.flights where id = any(${drops}::bigint[])`;
    expect(run).toMatchObject({
      status: 'completed',
      trigger: 'scheduler',
      initiated_by: null,
      total_flights_evaluated: 5,
      total_flights_rebooked: 2,
      total_savings: credits?.total,
      success: true,
      error_message: null,
    });
    expect(run.finished_at).not.toBeNull();
    expect(run.additional_data).toMatchObject({ actionNeeded: 1, flightsQualifying: 3 });

    const notes = await sql<{ type: string; flight_id: string; data: Record<string, unknown> }[]>`
      select type, flight_id, data from public.notification_history
       where user_id = ${traveller.id} and type in ('rebooking', 'action_needed') order by id`;
    expect(notes.map((n) => [n.type, Number(n.flight_id)]).sort()).toEqual(
      [
        ['action_needed', direct],
        ['rebooking', drops[0]],
        ['rebooking', drops[1]],
      ].sort(),
    );
    const action = notes.find((n) => n.type === 'action_needed');
    expect(action?.data).toMatchObject({ airline: 'United Airlines', link: 'http://site.test/dashboard' });
    expect(action?.data.netSavings).toBeGreaterThan(0);

    // a second run finds nothing new to rebook and does not email the assisted traveller again
    const again = await startAutoRebookingRun(
      { db: api },
      { trigger: 'scheduler', initiatedBy: null, scopeUserId: null },
    );
    await runDueJobs(depsWith(simulated), HANDLERS);
    expect((await logRow(again.runId)).total_flights_rebooked).toBe(0);
    const [actions] = await sql<{ n: number }[]>`
      select count(*)::int as n from public.notification_history where flight_id = ${direct} and type = 'action_needed'`;
    expect(actions?.n).toBe(1);
    expect(await recordedRebookings(drops)).toEqual(new Map(drops.map((id) => [id, 1])));
  });

  it('a traveller-scoped run touches only that traveller; a run with nothing to do finishes at once', async () => {
    const mine = await premiumTraveller();
    const other = await premiumTraveller();
    const myDrop = await addFlight(mine.id, 'DROP');
    const theirDrop = await addFlight(other.id, 'DROP');
    const started = await startAutoRebookingRun(
      { db: api },
      {
        trigger: 'traveller',
        initiatedBy: mine.id,
        scopeUserId: mine.id,
      },
    );
    expect(started.flightsQualifying).toBe(1);
    const [job] = await sql<{ kind: string }[]>`
      select kind from public.jobs where dedupe_key = ${`auto_rebook:run:${started.runId}:batch:0`}`;
    expect(job?.kind).toBe('auto_rebook_own');
    expect((await flightState(theirDrop))?.status).toBe('price_drop');
    void myDrop;

    const idle = await createUser(sql, { premium: true });
    await sql`update public.profiles set auto_rebooking = true where id = ${idle.id}`;
    const empty = await startAutoRebookingRun(
      { db: api },
      {
        trigger: 'traveller',
        initiatedBy: idle.id,
        scopeUserId: idle.id,
      },
    );
    expect(empty.batches).toBe(0);
    expect(await logRow(empty.runId)).toMatchObject({ status: 'completed', success: true, total_flights_evaluated: 0 });
  });
});

/** A fare source whose rebook misbehaves as told; everything else is the simulated source. */
function faulty(rebook: (request: RebookRequest) => Promise<unknown>): FareSource & { calls: number } {
  const source = {
    ...simulated,
    calls: 0,
    async rebook(request: RebookRequest) {
      source.calls += 1;
      return (await rebook(request)) as never;
    },
  };
  return source;
}

describe('faults at the fare source', () => {
  beforeEach(clearRunState);

  async function runWith(source: FareSource, flights: number): Promise<{ runId: number; ids: number[] }> {
    const traveller = await premiumTraveller();
    const ids: number[] = [];
    for (let i = 0; i < flights; i++) ids.push(await addFlight(traveller.id, 'DROP'));
    const started = await startAutoRebookingRun(
      { db: api },
      { trigger: 'scheduler', initiatedBy: null, scopeUserId: null },
    );
    await runDueJobs(depsWith(source), HANDLERS);
    return { runId: started.runId, ids };
  }

  it('5xx: nothing rebooked, the claims given back, the failure on the run row, the breaker open', async () => {
    const source = faulty(async () => {
      throw new FareSourceUnavailableError('Duffel answered 503');
    });
    const { runId, ids } = await runWith(source, 25);
    for (const id of ids) expect((await flightState(id))?.has_been_rebooked).toBe(false);
    for (const id of ids) expect((await flightState(id))?.status).toBe('price_drop');
    const run = await logRow(runId);
    expect(run).toMatchObject({ status: 'completed', success: false, total_flights_rebooked: 0 });
    expect(run.error_message).toContain('Fare source failed: Duffel answered 503');
    expect(run.error_message).toContain('circuit breaker opened');
    // the breaker stopped the batch after BREAKER_THRESHOLD consecutive failures
    expect(source.calls).toBeLessThan(ids.length);
    const [breaker] = await sql<{ open: boolean }[]>`
      select opened_until > now() as open from private.circuit_breakers where name = ${FARE_SOURCE_BREAKER}`;
    expect(breaker?.open).toBe(true);

    // while it is open, the next run calls nothing and says so
    const calls = source.calls;
    const next = await startAutoRebookingRun(
      { db: api },
      { trigger: 'scheduler', initiatedBy: null, scopeUserId: null },
    );
    await runDueJobs(depsWith(source), HANDLERS);
    expect(source.calls).toBe(calls);
    const second = await logRow(next.runId);
    expect(second).toMatchObject({ success: false, total_flights_rebooked: 0 });
    expect(second.error_message).toContain('circuit breaker open until');

    // after the open period, a healthy source closes it and the flights are rebooked
    await sql`update private.circuit_breakers set opened_until = now() - interval '1 second'`;
    const healed = await startAutoRebookingRun(
      { db: api },
      { trigger: 'scheduler', initiatedBy: null, scopeUserId: null },
    );
    await runDueJobs(depsWith(simulated), HANDLERS);
    expect(await logRow(healed.runId)).toMatchObject({ success: true, total_flights_rebooked: ids.length });
    const [closed] = await sql<{ failures: number; opened_until: Date | null }[]>`
      select consecutive_failures as failures, opened_until from private.circuit_breakers where name = ${FARE_SOURCE_BREAKER}`;
    expect(closed).toEqual({ failures: 0, opened_until: null });
  });

  it('a timeout: nothing recorded, the claim kept for the reconciler, which finds no change', async () => {
    const hanging: FareSource = { ...simulated, rebook: () => new Promise(() => {}) };
    const source = withResilience(hanging, { timeoutMs: 50, maxRetries: 0, ratePerSecond: 1000 });
    const { runId, ids } = await runWith(source, 2);
    for (const id of ids)
      expect(await flightState(id)).toMatchObject({ status: 'rebooking', has_been_rebooked: false });
    const run = await logRow(runId);
    expect(run).toMatchObject({ success: false, total_flights_rebooked: 0 });
    expect(run.error_message).toContain('Fare source failed');
    // the reconciler asks the source (the simulated one: a lost answer means nothing changed)
    await sql`update private.rebookings set claimed_at = now() - interval '10 minutes'
               where flight_id = any(${ids}::bigint[]) and state = 'claimed'`;
    const settled = await reconcileRebookings(depsWith(simulated));
    expect(settled.released).toBeGreaterThanOrEqual(2);
    for (const id of ids) expect((await flightState(id))?.status).toBe('price_drop');
    expect(await recordedRebookings(ids)).toEqual(new Map());
  });

  it('garbage: an answer that cannot be read is never recorded', async () => {
    const source = faulty(async () => ({ newPrice: 'cheap', airlineCredit: -5, creditReference: null }));
    const { runId, ids } = await runWith(source, 2);
    for (const id of ids)
      expect(await flightState(id)).toMatchObject({
        status: 'rebooking',
        has_been_rebooked: false,
        airline_credit: null,
      });
    const run = await logRow(runId);
    expect(run.success).toBe(false);
    expect(run.error_message).toContain('cannot read');
    expect(await recordedRebookings(ids)).toEqual(new Map());
  });
});

describe('a run killed halfway', () => {
  beforeEach(clearRunState);

  it('is finished by the next worker after the lease; nobody is rebooked twice', async () => {
    const traveller = await premiumTraveller();
    const ids: number[] = [];
    for (let i = 0; i < 8; i++) ids.push(await addFlight(traveller.id, 'DROP'));
    const started = await startAutoRebookingRun(
      { db: api },
      { trigger: 'scheduler', initiatedBy: null, scopeUserId: null },
    );

    // the first worker claims the batch, rebooks three flights, then hangs on the fourth forever
    let answered = 0;
    const dying: FareSource = {
      ...simulated,
      rebook: (request) => (answered++ < 3 ? simulated.rebook(request) : new Promise(() => {})),
    };
    const [job] = await api.asService((tx) =>
      claimJobs<{ runId: number; batch: number; flightIds: number[] }>(tx, {
        kinds: [AUTO_REBOOK_KIND],
        worker: 'dies',
        limit: 1,
        leaseSeconds: 120,
      }),
    );
    expect(job).toBeDefined();
    void rebookBatch(depsWith(dying), job!.payload);
    // wait for the condition: three recorded and the rest claimed or waiting
    for (;;) {
      const [row] = await sql<{ rebooked: number; claimed: number }[]>`
        select count(*) filter (where has_been_rebooked)::int as rebooked,
               count(*) filter (where status = 'rebooking')::int as claimed
          from public.flights where id = any(${ids}::bigint[])`;
      if ((row?.rebooked ?? 0) >= 3 && (row?.claimed ?? 0) >= 1) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect((await logRow(started.runId)).status).toBe('running');

    // the lease runs out; the next worker takes the batch and finishes what is left
    await sql`update public.jobs set lease_expires_at = now() - interval '1 second' where id = ${job!.id}`;
    await runDueJobs(depsWith(simulated), HANDLERS);
    // the stuck claim is settled by the reconciler, and the next run rebooks that flight
    await sql`update private.rebookings set claimed_at = now() - interval '10 minutes'
               where flight_id = any(${ids}::bigint[]) and state = 'claimed'`;
    await reconcileRebookings(depsWith(simulated));
    await startAutoRebookingRun({ db: api }, { trigger: 'scheduler', initiatedBy: null, scopeUserId: null });
    await runDueJobs(depsWith(simulated), HANDLERS);

    const run = await logRow(started.runId);
    expect(run.status).toBe('completed');
    for (const id of ids) expect((await flightState(id))?.has_been_rebooked).toBe(true);
    expect(await recordedRebookings(ids)).toEqual(new Map(ids.map((id) => [id, 1])));
    expect(await commissionRows([traveller.id])).toBe(ids.length);
  });
});

describe('20,000 concurrent rebook attempts over 1,000 qualifying flights', () => {
  beforeEach(clearRunState);

  it('make exactly 1,000 rebookings and 1,000 commission rows', async () => {
    const FLIGHTS = 1000;
    const ATTEMPTS = 20_000;
    const travellers: TestUser[] = [];
    for (let i = 0; i < 50; i++) travellers.push(await premiumTraveller());
    const ids: number[] = [];
    // 1,000 DROP bookings, added in parallel as the api would
    const jobs = Array.from({ length: FLIGHTS }, (_, i) => i);
    for (let start = 0; start < FLIGHTS; start += 100) {
      ids.push(
        ...(await Promise.all(
          jobs.slice(start, start + 100).map((i) => addFlight(travellers[i % travellers.length]!.id, 'DROP')),
        )),
      );
    }
    const owner = new Map<number, string>();
    const rows = await sql<{ id: string; user_id: string }[]>`
      select id, user_id from public.flights where id = any(${ids}::bigint[])`;
    for (const r of rows) owner.set(Number(r.id), r.user_id);

    // many connections: eight api pools of five
    const pools = Array.from({ length: 8 }, () =>
      createDb({ databaseUrl: database.ownerUrl, singleSession: database.singleSession }),
    );
    try {
      const requestOf = async (db: Db, flightId: number) => {
        const [b] = await db.asService(
          (tx) => tx<{ booking: RetrievedBooking; price_paid: number; current_price: number }[]>`
            select b.booking, b.price_paid, f.current_price from private.flight_bookings b
              join public.flights f on f.id = b.flight_id where b.flight_id = ${flightId}`,
        );
        return {
          booking: b!.booking,
          pricePaid: b!.price_paid,
          maxPrice: Math.min(b!.current_price, b!.price_paid - 1),
        };
      };
      // half the attempts as the Rebook call makes them (claim, then the one source path) ...
      const apiAttempt = async (n: number) => {
        const db = pools[n % pools.length]!;
        const flightId = ids[n % FLIGHTS]!;
        const userId = owner.get(flightId)!;
        const request = await requestOf(db, flightId);
        const rebookingId = await db.asService((tx) =>
          claimRebooking(tx, { userId, flightId, method: 'source', request }),
        );
        if (rebookingId === null) return;
        await rebookClaimed(depsWith(simulated, db), { rebookingId, userId, flightId, request });
      };
      // ... and half as automatic runs' batches, each over a slice of the flights
      const automatic = async (n: number) => {
        const db = pools[n % pools.length]!;
        const slice = ids.slice((n * 50) % FLIGHTS, ((n * 50) % FLIGHTS) + 50);
        await rebookBatch(depsWith(simulated, db), { runId: 0, batch: n, flightIds: slice });
      };
      const batches = ATTEMPTS / 2 / 50; // 200 batches of 50 attempts
      await Promise.all([
        ...Array.from({ length: ATTEMPTS / 2 }, (_, n) => apiAttempt(n)),
        ...Array.from({ length: batches }, (_, n) => automatic(n)),
      ]);
    } finally {
      await Promise.all(pools.map((p) => p.close()));
    }

    const recorded = await recordedRebookings(ids);
    expect(recorded.size).toBe(FLIGHTS);
    expect([...recorded.values()].every((n) => n === 1)).toBe(true);
    const [flights] = await sql<{ n: number }[]>`
      select count(*)::int as n from public.flights where id = any(${ids}::bigint[]) and has_been_rebooked`;
    expect(flights?.n).toBe(FLIGHTS);
    expect(await commissionRows(travellers.map((t) => t.id))).toBe(FLIGHTS);
    const [open] = await sql<{ n: number }[]>`
      select count(*)::int as n from private.rebookings where flight_id = any(${ids}::bigint[]) and state in ('claimed', 'confirmed')`;
    expect(open?.n).toBe(0);
  }, 240_000);
});

void setPlan;
