// `npm run -s bench:autorebook -- --flights 100000`: one automatic rebooking run at scale, on a
// throwaway database created on TEST_DATABASE_URL's server (dropped afterwards).
//
// Workload: --users travellers (default 10,000) hold --flights flights (traveller g mod U holds
// flight g); the first half of the travellers are premium with auto-rebooking on; every tenth
// flight has a qualifying drop (a DROP booking retrieved from the simulated source and kept as the
// api keeps it, priced 20% below what was paid), so about half of the drops belong to premium
// travellers and are rebooked. The rest are monitored flights without a drop.
//
// A run, --rounds times (default 3) from the same state, medians printed: the api's own code on
// the api's role, as the scheduler runs it after a sweep. Every drop is first only seen (one
// quote: the flight still monitoring, a pending drop and its price_drop_confirm job, as the sweep
// leaves them); the timed part is the proof and the run: the job runner takes the second quotes
// (services/drop-confirmation.ts) until none is left, then the automatic run starts (SQL evaluates
// and enqueues the confirmed drops) and the runner works its batches until none is left,
// with the simulated fare source answering at once (its second quotes at zero latency). Prints flights evaluated per
// second (the run's total_flights_evaluated over its wall time), rebookings per second, fare-source
// quotes per evaluated flight (0: a run uses the sweep's last quote; its rebook calls are counted
// apart) and the process's peak RSS. The last line is the summary.
import process from 'node:process';
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { createTestDatabase } from '../dev/db/test-db.ts';
import { createSimulatedFareSource } from '../supabase/functions/_shared/fare-source/simulated.ts';
import {
  type FareSource,
  itineraryOfBooking,
  type RetrievedBooking,
} from '../supabase/functions/_shared/fare-source/types.ts';
import type { AppDeps } from '../supabase/functions/api/context.ts';
import { createDb } from '../supabase/functions/api/db.ts';
import { recordPriceChecks } from '../supabase/functions/api/queries/price-checks.ts';
import { PRICE_DROP_CONFIRM_JOB } from '../supabase/functions/api/queries/price-drops.ts';
import { priceDropConfirmJob } from '../supabase/functions/api/services/drop-confirmation.ts';
import {
  AUTO_REBOOK_KIND,
  autoRebookBatchHandler,
  startAutoRebookingRun,
} from '../supabase/functions/api/services/auto-rebooking.ts';
import { type JobHandler, runDueJobs } from '../supabase/functions/api/services/job-runner.ts';
import { positive, requireTestDatabaseServer } from './cli.ts';

const { values: args } = parseArgs({
  options: {
    flights: { type: 'string', default: '100000' },
    users: { type: 'string', default: '10000' },
    rounds: { type: 'string', default: '3' },
    workers: { type: 'string', default: '4' },
  },
});

const flights = positive('flights', args.flights);
const users = positive('users', args.users);
const rounds = positive('rounds', args.rounds);
const workers = positive('workers', args.workers);

requireTestDatabaseServer();

const database = await createTestDatabase();
const sql = postgres(database.url, { max: 2, onnotice: () => {} });
/** One api connection pool per worker, as separate function instances each have their own. */
const pools = Array.from({ length: workers }, () => createDb({ databaseUrl: database.ownerUrl, singleSession: false }));
const db = pools[0]!;

const simulated = createSimulatedFareSource();
const calls = { quote: 0, rebook: 0 };
const counted: FareSource = {
  ...simulated,
  quote: (it, o) => {
    calls.quote += 1;
    return simulated.quote(it, o);
  },
  rebook: (r, o) => {
    calls.rebook += 1;
    return simulated.rebook(r, o);
  },
};
const depsOf = (pool: typeof db) =>
  ({
    config: { siteUrl: 'http://bench.invalid', sweep: { concurrency: 8 } },
    db: pool,
    fareSource: counted,
    log: () => {},
  }) as unknown as AppDeps;
const deps = depsOf(db);

const drops: { g: number; userId: string; booking: RetrievedBooking; price: number; flightId: number }[] = [];

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

/** The drops' first quotes, as a sweep's batches record them (500 a batch, one confirmation job each). */
async function seeFirstQuotes(): Promise<void> {
  for (let i = 0; i < drops.length; i += 500) {
    const chunk = drops.slice(i, i + 500);
    await db.asService((tx) =>
      recordPriceChecks(
        tx,
        chunk.map((d) => ({
          flightId: d.flightId,
          userId: d.userId,
          price: d.price,
          currency: 'USD',
          checkedAt: new Date(),
          source: 'simulated',
          changePenalty: 0,
          refundForm: d.booking.fareType === 'Refundable Economy' ? 'cash' : 'credit',
          offerId: null,
        })),
      ),
    );
  }
}

/** Every drop back to a drop seen once (pending its proof); no runs, jobs, rebookings or notifications. */
async function reset(): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`truncate private.rebookings, private.auto_rebooking_batches, public.auto_rebooking_logs, public.jobs,
                      public.billing_transactions, public.notification_history, private.circuit_breakers,
                      private.price_drops cascade`;
    await tx`update public.flights
                set status = 'monitoring', has_been_rebooked = false, rebooking_claimed_at = null, drop_quotes = null,
                    rebooking_date = null, rebooking_price = null, airline_credit = null,
                    credit_reference_number = null, credit_expiry_date = null, commission_amount = null
              where has_been_rebooked or status in ('rebooking', 'price_drop') or drop_quotes is not null`;
    await tx`update public.profiles set total_credits_earned = 0, commission_owed = 0
              where total_credits_earned <> 0 or commission_owed <> 0`;
  });
  await seeFirstQuotes();
  await sql`vacuum analyze public.flights`;
}

try {
  // ---- seed ----
  const seedStarted = performance.now();
  await sql`
    insert into auth.users (id, email, raw_user_meta_data, email_confirmed_at)
    select gen_random_uuid(), 'bench' || u || '@example.com', jsonb_build_object('username', 'bench_' || u), now()
      from generate_series(1, ${users}::integer) u`;
  const ids = (await sql<{ id: string }[]>`select id from public.profiles order by id`).map((r) => r.id);
  const premium = ids.slice(0, Math.ceil(ids.length / 2));
  await sql`update public.profiles
               set plan_id = (select id from public.subscription_plans where tier = 'premium' order by id limit 1),
                   email_confirmed_at = now()
             where id = any(${premium}::uuid[])`;
  await sql`update public.profiles set auto_rebooking = true where id = any(${premium}::uuid[])`;

  // flights without a drop: monitored, their last quote at the price paid
  await sql.begin(async (tx) => {
    await tx`set local session_replication_role = replica`;
    await tx`
      with u as (select array_agg(id order by id) as ids from public.profiles)
      insert into public.flights (user_id, airline, flight_number, booking_code, passenger_last_name,
                                  departure_airport, arrival_airport, departure_date, original_price, current_price,
                                  fare_type, cabin_class, is_eligible_for_rebooking, status, rebooking_method,
                                  change_penalty, refund_form)
      select u.ids[1 + g % ${users}::integer], 'United Airlines', 'UA' || (100 + g % 2800), 'BN' || g, 'Traveller',
             'ORD', 'SFO', current_date + 30 + g % 90, 20000 + (g * 7919) % 60000, 20000 + (g * 7919) % 60000,
             'Flexible Economy', 'Economy', true, 'monitoring', 'source', 0, 'credit'
        from generate_series(0, ${flights - 1}::integer) g
        cross join u
       where g % 10 <> 0`;
  });
  // flights with a drop: DROP bookings as the simulated source retrieves them, kept as the api keeps them
  drops.length = 0;
  for (let g = 0; g < flights; g += 10) {
    const booking = await simulated.retrieveBooking({
      airline: 'United Airlines',
      bookingCode: `DROPB${g}`,
      passengerLastName: 'Traveller',
    });
    const quote = await simulated.quote(itineraryOfBooking(booking));
    drops.push({ g, userId: ids[g % users] as string, booking, price: quote.price, flightId: 0 });
  }
  for (let i = 0; i < drops.length; i += 2000) {
    const chunk = drops.slice(i, i + 2000).map((d) => ({ user_id: d.userId, price: d.price, b: d.booking }));
    await sql.begin(async (tx) => {
      await tx`set local session_replication_role = replica`;
      await tx`
        with input as (select * from jsonb_to_recordset(${tx.json(chunk as unknown as postgres.JSONValue)})
                         as x(user_id uuid, price integer, b jsonb)),
        inserted as (
          insert into public.flights (user_id, airline, flight_number, booking_code, passenger_last_name,
                                      departure_airport, arrival_airport, departure_date, return_date, is_round_trip,
                                      return_flight_number, currency, original_price, current_price, lowest_price,
                                      fare_type, cabin_class, seat_number, is_eligible_for_rebooking, status,
                                      rebooking_method, source_reference, change_penalty, refund_form)
          select i.user_id, i.b->>'airline', i.b->>'flightNumber', i.b->>'bookingCode', i.b->>'passengerLastName',
                 i.b->>'departureAirport', i.b->>'arrivalAirport', (i.b->>'departureDate')::date,
                 (i.b->>'returnDate')::date, (i.b->>'isRoundTrip')::boolean, i.b->>'returnFlightNumber', 'USD',
                 (i.b->>'pricePaid')::integer, i.price, i.price, i.b->>'fareType', i.b->>'cabinClass',
                 i.b->>'seatNumber', true, 'price_drop', 'source', i.b->>'sourceReference', 0,
                 case when i.b->>'fareType' = 'Refundable Economy' then 'cash' else 'credit' end
            from input i
          returning id, user_id, booking_code
        )
        insert into private.flight_bookings (flight_id, user_id, source, source_reference, airline, booking_code,
                                             passenger_last_name, price_paid, currency, cabin_class, fare_type,
                                             fare_changeable, rebooking_method, booking)
        select f.id, f.user_id, 'simulated', i.b->>'sourceReference', i.b->>'airline', i.b->>'bookingCode',
               i.b->>'passengerLastName', (i.b->>'pricePaid')::integer, 'USD', i.b->>'cabinClass', i.b->>'fareType',
               true, 'source', i.b
          from inserted f join input i on i.b->>'bookingCode' = f.booking_code`;
    });
  }
  const flightIds = await sql<{ id: string; booking_code: string }[]>`
    select id, booking_code from public.flights where booking_code like 'DROPB%'`;
  const idOf = new Map(flightIds.map((r) => [r.booking_code, Number(r.id)]));
  for (const d of drops) d.flightId = idOf.get(d.booking.bookingCode) ?? 0;
  await sql`analyze`;
  const [counts] = await sql<{ total: number; drops: number; qualifying: number }[]>`
    select count(*)::int as total,
           count(*) filter (where f.status = 'price_drop')::int as drops,
           count(*) filter (where f.status = 'price_drop' and p.auto_rebooking)::int as qualifying
      from public.flights f join public.profiles p on p.id = f.user_id`;
  process.stdout.write(
    `seeded ${counts?.total} flights of ${users} travellers (${premium.length} premium with auto-rebooking on), ` +
      `${counts?.drops} drops, ${counts?.qualifying} on premium travellers, in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s\n`,
  );

  // ---- runs ----
  const evaluatedRates: number[] = [];
  const rebookRates: number[] = [];
  const quotesPerFlight: number[] = [];
  for (let round = 1; round <= rounds; round++) {
    await reset();
    calls.quote = 0;
    calls.rebook = 0;
    const started = performance.now();
    // the second quotes, through the queue, by every worker at once
    const confirmRuns = [
      await runDueJobs(deps, [priceDropConfirmJob as JobHandler<never>], {
        kinds: [PRICE_DROP_CONFIRM_JOB],
        budgetMs: 50_000,
      }),
    ];
    const confirmMs = performance.now() - started;
    const [proved] = await sql<{ confirmed: number; pending: number }[]>`
      select count(*) filter (where state = 'confirmed')::int as confirmed,
             count(*) filter (where state = 'pending')::int as pending
        from private.price_drops`;
    const secondQuotes = calls.quote;
    const run = await startAutoRebookingRun(deps, { trigger: 'scheduler', initiatedBy: null, scopeUserId: null });
    for (;;) {
      const done = await runDueJobs(deps, [autoRebookBatchHandler as JobHandler<never>], {
        kinds: [AUTO_REBOOK_KIND],
        budgetMs: 50_000,
      });
      const [log] = await sql<
        { status: string }[]
      >`select status from public.auto_rebooking_logs where id = ${run.runId}`;
      if (log?.status !== 'running' || done.completed + done.failed === 0) break;
    }
    const ms = performance.now() - started;
    const [log] = await sql<
      {
        total_flights_evaluated: number;
        total_flights_rebooked: number;
        total_savings: number;
        success: boolean;
        status: string;
      }[]
    >`select * from public.auto_rebooking_logs where id = ${run.runId}`;
    const evaluated = log?.total_flights_evaluated ?? 0;
    const rebooked = log?.total_flights_rebooked ?? 0;
    evaluatedRates.push(evaluated / (ms / 1000));
    rebookRates.push(rebooked / (ms / 1000));
    quotesPerFlight.push((calls.quote - secondQuotes) / Math.max(1, evaluated));
    process.stdout.write(
      `round ${round}: ${proved?.confirmed} drops confirmed by ${secondQuotes} second quotes in ` +
        `${confirmRuns.reduce((n, r) => n + r.completed, 0)} jobs (${proved?.pending} left pending) in ` +
        `${(confirmMs / 1000).toFixed(2)} s, then ${evaluated} flights evaluated, ${run.flightsQualifying} qualifying in ${run.batches} batches, ` +
        `${rebooked} rebooked (${calls.rebook} rebook calls, ${calls.quote} quotes), savings $${((log?.total_savings ?? 0) / 100).toFixed(2)}, ` +
        `${log?.status}${log?.success ? '' : ' with errors'} in ${(ms / 1000).toFixed(2)} s: ` +
        `${Math.round(evaluated / (ms / 1000))} evaluated/s, ${Math.round(rebooked / (ms / 1000))} rebookings/s\n`,
    );
  }
  const peakMb = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(
    `medians of ${rounds}: ${Math.round(median(evaluatedRates))} flights evaluated/s, ` +
      `${Math.round(median(rebookRates))} rebookings/s, ${median(quotesPerFlight).toFixed(2)} quotes per flight, ` +
      `peak RSS ${peakMb.toFixed(0)} MB\n`,
  );
  process.stdout.write(
    `summary: ${Math.round(median(evaluatedRates))} flights evaluated/s, ${Math.round(median(rebookRates))} rebookings/s, ` +
      `${median(quotesPerFlight).toFixed(2)} quotes per flight, ${peakMb.toFixed(0)} MB peak memory ` +
      `(goal >= 2,000 evaluated/s and >= 500 rebookings/s)\n`,
  );
} finally {
  await Promise.all(pools.map((pool) => pool.close()));
  await sql.end();
  await database.close();
}
