// `npm run bench:sweep -- --flights 100000`: the price sweep at scale, on a throwaway database
// created on TEST_DATABASE_URL's server (dropped afterwards).
//
// Workload: --users travellers (default 10,000) hold --flights monitored flights between them;
// each itinerary (airline, flight number, route, date, cabin, fare type) is held by about
// --per-itinerary travellers (default 3), as when friends or families fly together, so a sweep
// makes about one quote per three flights.
//
// 1. Zero latency: one full sweep of every flight with the simulated fare source answering at
//    once (its rate limit set out of the way), so the figure is the sweep's own cost: planning,
//    claiming, loading, grouping, writing. Prints flights/s, quotes per flight checked and the
//    process's peak RSS.
// 2. Latency-bound: the simulated source answering in 100 ms and the configured concurrency C
//    (SWEEP_CONCURRENCY, default 8), over as many itineraries as C / 0.1 s gets through in about
//    --latency-seconds (default 20). The bound is C / 0.1 s quotes a second; prints the achieved
//    rate as a ratio of it.
// The sweep runs in this Node process with the api's own code (db.ts, the service, the fare
// source); the last line is the summary.
import process from 'node:process';
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { createTestDatabase } from '../dev/db/test-db.ts';
import { createFareSource } from '../supabase/functions/_shared/fare-source/index.ts';
import { loadConfig } from '../supabase/functions/api/config.ts';
import { createDb } from '../supabase/functions/api/db.ts';
import { runPriceSweep, type PriceSweepResult } from '../supabase/functions/api/services/price-sweep.ts';

const { values: args } = parseArgs({
  options: {
    flights: { type: 'string', default: '100000' },
    users: { type: 'string', default: '10000' },
    'per-itinerary': { type: 'string', default: '3' },
    'latency-ms': { type: 'string', default: '100' },
    'latency-seconds': { type: 'string', default: '20' },
  },
});

function positive(name: string, raw: string | undefined): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) {
    process.stderr.write(`--${name} must be a whole number of at least 1, got '${raw}'\n`);
    process.exit(2);
  }
  return value;
}

const flights = positive('flights', args.flights);
const users = positive('users', args.users);
const perItinerary = positive('per-itinerary', args['per-itinerary']);
const latencyMs = positive('latency-ms', args['latency-ms']);
const latencySeconds = positive('latency-seconds', args['latency-seconds']);
const itineraries = Math.ceil(flights / perItinerary);

if (!process.env.TEST_DATABASE_URL) {
  process.stderr.write(
    'TEST_DATABASE_URL is not set: the benchmark needs a PostgreSQL server to create its database on\n',
  );
  process.exit(2);
}

// The function's own configuration (SWEEP_* from the environment, else the defaults).
const config = loadConfig({
  ...process.env,
  SUPABASE_URL: 'http://bench.invalid',
  SUPABASE_ANON_KEY: 'bench',
  SUPABASE_SERVICE_ROLE_KEY: 'bench',
  SUPABASE_DB_URL: 'postgres://bench.invalid/bench',
  SITE_URL: 'http://bench.invalid',
});
const concurrency = config.sweep.concurrency;

const database = await createTestDatabase();
const sql = postgres(database.url, { max: 2, onnotice: () => {} });
const db = createDb({ databaseUrl: database.url, singleSession: false });

const seconds = (ms: number) => (ms / 1000).toFixed(2);

try {
  // ---- seed ----
  const seedStarted = performance.now();
  await sql`
    insert into auth.users (id, email, raw_user_meta_data, email_confirmed_at)
    select gen_random_uuid(), 'bench' || u || '@example.com', jsonb_build_object('username', 'bench_' || u), now()
      from generate_series(1, ${users}::integer) u`;
  await sql`update public.profiles
               set plan_id = (select id from public.subscription_plans where tier = 'premium' order by id limit 1)`;
  // Itinerary i: one of six airlines, a flight number, a route and a date that together make it
  // unique; flight g belongs to itinerary g mod I and traveller g mod U. The itinerary index goes
  // in notes so the latency run can make a chosen set of itineraries due again.
  // Triggers are skipped while bulk loading (the flight-limit check locks the profile per row);
  // every generated row satisfies the constraints they would check.
  await sql.begin(async (tx) => {
    await tx`set local session_replication_role = replica`;
    await tx`
      with u as (select array_agg(id order by id) as ids from public.profiles),
           airline(n, name, code) as (
             values (0, 'United Airlines', 'UA'), (1, 'Delta Air Lines', 'DL'), (2, 'American Airlines', 'AA'),
                    (3, 'JetBlue', 'B6'), (4, 'Alaska Airlines', 'AS'), (5, 'Southwest Airlines', 'WN')),
           route(n, origin, destination) as (
             values (0, 'JFK', 'LAX'), (1, 'ORD', 'SFO'), (2, 'ATL', 'SEA'), (3, 'BOS', 'DEN'), (4, 'DFW', 'MIA'),
                    (5, 'LAX', 'JFK'), (6, 'SFO', 'ORD'), (7, 'SEA', 'ATL'), (8, 'DEN', 'BOS'), (9, 'MIA', 'DFW'))
      insert into public.flights (user_id, airline, flight_number, booking_code, passenger_last_name,
                                  departure_airport, arrival_airport, departure_date, original_price,
                                  fare_type, cabin_class, is_eligible_for_rebooking, status, notes)
      select u.ids[1 + g % ${users}::integer],
             a.name,
             a.code || (100 + (i / 6) % 4800),
             'BN' || g,
             'Traveller',
             r.origin, r.destination,
             current_date + 14 + (i / 28800),
             20000 + (i * 7919) % 60000,
             'Flexible Economy', 'economy', true, 'monitoring',
             i::text
        from generate_series(0, ${flights - 1}::integer) g
        cross join lateral (select g % ${itineraries}::integer as i) it
        cross join u
        join airline a on a.n = it.i % 6
        join route r on r.n = (it.i / 6) % 10`;
  });
  await sql`analyze public.flights`;
  const seedMs = performance.now() - seedStarted;
  process.stdout.write(
    `seeded ${flights} flights (${itineraries} itineraries, ~${perItinerary} travellers each) for ${users} users in ${seconds(seedMs)} s\n`,
  );

  // ---- 1. zero latency ----
  const instant = createFareSource({ ...config.fareSource, simulatedLatencyMs: 0, ratePerSecond: 1_000_000 });
  const t0 = performance.now();
  const zero: PriceSweepResult = await runPriceSweep(
    { db, fareSource: instant, config },
    { initiatedBy: null, workerId: 'bench' },
  );
  const zeroMs = performance.now() - t0;
  if (!zero.finished || zero.checkedCount !== flights) {
    throw new Error(`the sweep checked ${zero.checkedCount} of ${flights} flights (finished: ${zero.finished})`);
  }
  const flightsPerSecond = zero.checkedCount / (zeroMs / 1000);
  const quotesPerFlight = zero.quotesMade / zero.checkedCount;
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(
    `zero latency: ${zero.checkedCount} flights checked in ${seconds(zeroMs)} s = ${flightsPerSecond.toFixed(0)} flights/s; ` +
      `${zero.quotesMade} quotes = ${quotesPerFlight.toFixed(3)} per flight checked; ` +
      `${zero.priceDropsFound} price drops; batch ${config.sweep.batchSize}, concurrency ${concurrency}; ` +
      `peak RSS ${peakRssMb.toFixed(0)} MB\n`,
  );

  // ---- 2. latency-bound ----
  const bound = concurrency / (latencyMs / 1000);
  const dueItineraries = Math.min(itineraries, Math.max(concurrency, Math.round(bound * latencySeconds)));
  await sql`update public.flights set last_checked = null where notes::integer < ${dueItineraries}::integer`;
  const slow = createFareSource({ ...config.fareSource, simulatedLatencyMs: latencyMs, ratePerSecond: 1_000_000 });
  const t1 = performance.now();
  const latent = await runPriceSweep({ db, fareSource: slow, config }, { initiatedBy: null, workerId: 'bench' });
  const latentMs = performance.now() - t1;
  const quotesPerSecond = latent.quotesMade / (latentMs / 1000);
  const ratio = quotesPerSecond / bound;
  process.stdout.write(
    `${latencyMs} ms latency, concurrency ${concurrency}: ${latent.quotesMade} quotes for ${latent.checkedCount} flights in ` +
      `${seconds(latentMs)} s = ${quotesPerSecond.toFixed(1)} quotes/s; bound C / ${latencyMs / 1000} s = ${bound.toFixed(0)}/s; ` +
      `ratio ${ratio.toFixed(3)}\n`,
  );

  process.stdout.write(
    `summary: ${flightsPerSecond.toFixed(0)} flights/s at zero latency (target > 5000), ` +
      `${quotesPerFlight.toFixed(3)} quotes per flight, peak RSS ${peakRssMb.toFixed(0)} MB, ` +
      `latency-bound ratio ${ratio.toFixed(3)} (target > 0.9)\n`,
  );
} finally {
  await db.close();
  await sql.end();
  await database.close();
}
