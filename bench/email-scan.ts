// `npm run bench:email-scan -- --rounds 5`: email import on a throwaway database created on
// TEST_DATABASE_URL's server (else an in-memory PGlite), with the api's own code (importer, the
// extractor, db.ts connected as the api's role).
//
// 1. Throughput: each round gives a new Premium traveller (no limit) the sample mailbox
//    (dev/mailbox) and the development corpus (../shared/fixtures/emails) as one mailbox, read
//    oldest name first as a scan does, each email fetched (read from disk: a stand-in for Gmail's
//    raw download, whose network time is not ours), extracted and imported (one transaction).
//    Prints the median emails/s over the rounds and the median time per email of each stage.
// 2. Correctness: the share of bookings that become correct flights. The sample mailbox is
//    imported into one traveller and its final flights compared with what its emails mean (the
//    change applied, the cancellation cancelled, nothing from the hotel, newsletter or reminder);
//    each corpus email is imported into a traveller of its own and the flight of each booking in
//    its truth file compared with the flight that booking describes (plan.ts flightFields of the
//    truth): airline code, booking code, last name, flight number, route, dates, return flight.
//    Flights made from the corpus's negatives are counted as false flights.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { createTestDatabase } from '../dev/db/test-db.ts';
import type { FlightBooking } from '../supabase/functions/_shared/extraction/index.ts';
import { createDb } from '../supabase/functions/api/db.ts';
import { importEmail, readEmail } from '../supabase/functions/api/services/email/importer.ts';
import { flightFields } from '../supabase/functions/api/services/email/plan.ts';

const { values: args } = parseArgs({ options: { rounds: { type: 'string', default: '5' } } });
const rounds = Math.max(1, Number(args.rounds) || 5);

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sampleDir = path.join(root, 'dev/mailbox');
const corpusDir = path.resolve(root, '../shared/fixtures/emails');
const sampleNames = readdirSync(sampleDir)
  .filter((n) => n.endsWith('.eml'))
  .sort();
const corpusNames = (() => {
  try {
    return readdirSync(corpusDir)
      .filter((n) => n.endsWith('.eml'))
      .sort();
  } catch {
    return [];
  }
})();

const database = await createTestDatabase();
const sql = postgres(database.url, { max: 1, onnotice: () => {} });
const db = createDb({ databaseUrl: database.ownerUrl, singleSession: database.singleSession });

async function newTraveller(premium: boolean): Promise<string> {
  const id = crypto.randomUUID();
  await sql`insert into auth.users (id, email, raw_user_meta_data, email_confirmed_at)
            values (${id}, ${`bench.${id.slice(0, 8)}@example.com`}, ${sql.json({ username: `bench_${id.slice(0, 8)}` })}, now())`;
  if (premium) {
    await sql`update public.profiles set plan_id = (select id from public.subscription_plans where tier = 'premium' order by id limit 1)
               where id = ${id}`;
  }
  return id;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

// ---- 1. throughput ----------------------------------------------------------------------------
const mailbox = [
  ...sampleNames.map((n) => path.join(sampleDir, n)),
  ...corpusNames.map((n) => path.join(corpusDir, n)),
];
const rates: number[] = [];
const stage = { fetch: [] as number[], extract: [] as number[], insert: [] as number[] };
for (let round = 0; round < rounds; round++) {
  const userId = await newTraveller(true);
  const started = performance.now();
  for (const file of mailbox) {
    const t0 = performance.now();
    const raw = readFileSync(file);
    const t1 = performance.now();
    const email = await readEmail(raw);
    const t2 = performance.now();
    await importEmail(db, { userId, via: 'gmail', messageId: `${round}:${path.basename(file)}`, email });
    const t3 = performance.now();
    stage.fetch.push(t1 - t0);
    stage.extract.push(t2 - t1);
    stage.insert.push(t3 - t2);
  }
  rates.push(mailbox.length / ((performance.now() - started) / 1000));
}

// ---- 2. correctness ---------------------------------------------------------------------------
interface FlightRow {
  booking_code: string;
  passenger_last_name: string;
  flight_number: string;
  departure_airport: string;
  arrival_airport: string;
  departure_date: string;
  return_flight_number: string | null;
  return_date: string | null;
  status: string;
  airline_code: string | null;
}
async function flightsOf(userId: string): Promise<FlightRow[]> {
  return await sql<FlightRow[]>`
    select f.booking_code, f.passenger_last_name, f.flight_number, f.departure_airport, f.arrival_airport,
      to_char(f.departure_date, 'YYYY-MM-DD') as departure_date, f.return_flight_number,
      to_char(f.return_date, 'YYYY-MM-DD') as return_date, f.status, b.booking ->> 'airlineCode' as airline_code
      from public.flights f left join private.flight_bookings b on b.flight_id = f.id
     where f.user_id = ${userId}`;
}

interface Expected {
  airlineCode: string;
  bookingCode: string;
  passengerLastName: string;
  flightNumber: string;
  departureAirport: string;
  arrivalAirport: string;
  departureDate: string;
  returnFlightNumber: string | null;
  returnDate: string | null;
  status?: string;
}
function matches(row: FlightRow | undefined, e: Expected): boolean {
  return (
    !!row &&
    row.airline_code === e.airlineCode &&
    row.passenger_last_name.toLowerCase() === e.passengerLastName.toLowerCase() &&
    row.flight_number === e.flightNumber &&
    row.departure_airport === e.departureAirport &&
    row.arrival_airport === e.arrivalAirport &&
    row.departure_date === e.departureDate &&
    row.return_flight_number === e.returnFlightNumber &&
    row.return_date === e.returnDate &&
    (e.status === undefined || row.status === e.status)
  );
}

// what the sample mailbox's emails mean, written by hand from the emails
const sampleExpected: Expected[] = [
  {
    airlineCode: 'UA',
    bookingCode: 'K7PQ2M',
    passengerLastName: 'Harper',
    flightNumber: 'UA2217',
    departureAirport: 'SFO',
    arrivalAirport: 'EWR',
    departureDate: '2027-03-13',
    returnFlightNumber: null,
    returnDate: null,
    status: 'monitoring',
  },
  {
    airlineCode: 'DL',
    bookingCode: 'GHT4WR',
    passengerLastName: 'Harper',
    flightNumber: 'DL1287',
    departureAirport: 'ATL',
    arrivalAirport: 'LAX',
    departureDate: '2027-04-14',
    returnFlightNumber: 'DL2540',
    returnDate: '2027-04-18',
  },
  {
    airlineCode: 'LH',
    bookingCode: '5TQ8ZL',
    passengerLastName: 'Harper',
    flightNumber: 'LH400',
    departureAirport: 'FRA',
    arrivalAirport: 'JFK',
    departureDate: '2027-05-22',
    returnFlightNumber: null,
    returnDate: null,
  },
  {
    airlineCode: 'B6',
    bookingCode: 'QWMBXA',
    passengerLastName: 'Harper',
    flightNumber: 'B6623',
    departureAirport: 'BOS',
    arrivalAirport: 'FLL',
    departureDate: '2027-06-11',
    returnFlightNumber: null,
    returnDate: null,
    status: 'cancelled',
  },
  {
    airlineCode: 'BA',
    bookingCode: 'X4NR9B',
    passengerLastName: 'Harper',
    flightNumber: 'BA213',
    departureAirport: 'BOS',
    arrivalAirport: 'LHR',
    departureDate: '2027-07-03',
    returnFlightNumber: 'BA238',
    returnDate: '2027-07-17',
  },
  // PJ7KQD (11-air-canada-forwarded.eml) is no flight: it came from a person's address, not an
  // airline's, so it is held for the traveller to confirm (services/email/held.ts)
];
const sampleUser = await newTraveller(true);
for (const name of sampleNames) {
  const email = await readEmail(readFileSync(path.join(sampleDir, name)));
  await importEmail(db, { userId: sampleUser, via: 'sample', messageId: name, email });
}
const sampleRows = await flightsOf(sampleUser);
const sampleCorrect = sampleExpected.filter((e) =>
  // the status (UA) is 'limited' or 'monitoring' by fare; only the cancellation's is checked
  matches(
    sampleRows.find((r) => r.booking_code === e.bookingCode),
    { ...e, status: e.status === 'cancelled' ? 'cancelled' : undefined },
  ),
).length;
const sampleFalse = sampleRows.filter((r) => !sampleExpected.some((e) => e.bookingCode === r.booking_code)).length;

let corpusBookings = 0;
let corpusCorrect = 0;
let corpusFalse = 0;
const wrong: string[] = [];
for (const name of corpusNames) {
  const truth = JSON.parse(readFileSync(path.join(corpusDir, name.replace(/\.eml$/, '.json')), 'utf8')) as {
    isFlightBooking: boolean;
    bookings: FlightBooking[];
  };
  const userId = await newTraveller(true);
  const email = await readEmail(readFileSync(path.join(corpusDir, name)));
  await importEmail(db, { userId, via: 'forwarded', messageId: name, email });
  const rows = await flightsOf(userId);
  if (!truth.isFlightBooking) {
    corpusFalse += rows.length;
    continue;
  }
  for (const booking of truth.bookings) {
    corpusBookings += 1;
    const f = flightFields(booking);
    const expected: Expected = {
      airlineCode: booking.airlineIata,
      bookingCode: f.bookingCode,
      passengerLastName: f.passengerLastName,
      flightNumber: f.flightNumber,
      departureAirport: f.departureAirport,
      arrivalAirport: f.arrivalAirport,
      departureDate: f.departureDate,
      returnFlightNumber: f.returnFlightNumber,
      returnDate: f.returnDate,
    };
    if (
      matches(
        rows.find((r) => r.booking_code === f.bookingCode),
        expected,
      )
    )
      corpusCorrect += 1;
    else wrong.push(`${name} ${f.bookingCode}`);
  }
  corpusFalse += rows.filter((r) => !truth.bookings.some((b) => b.bookingCode.toUpperCase() === r.booking_code)).length;
}

await sql.end();
await db.close();
await database.close();

const pct = (n: number, d: number) => (d === 0 ? 'n/a' : `${((100 * n) / d).toFixed(1)}%`);
console.log(
  `emails per round: ${mailbox.length} (sample mailbox ${sampleNames.length}, corpus ${corpusNames.length}); rounds: ${rounds}`,
);
console.log(`scan throughput (fetch + extract + insert), median: ${median(rates).toFixed(1)} emails/s`);
console.log(
  `median per email: fetch ${median(stage.fetch).toFixed(2)} ms, extract ${median(stage.extract).toFixed(2)} ms, insert ${median(stage.insert).toFixed(2)} ms`,
);
console.log(
  `sample mailbox: ${sampleCorrect} of ${sampleExpected.length} bookings correct flights (${pct(sampleCorrect, sampleExpected.length)}), ${sampleFalse} false flights`,
);
console.log(
  `development corpus: ${corpusCorrect} of ${corpusBookings} bookings correct flights (${pct(corpusCorrect, corpusBookings)}), ${corpusFalse} false flights`,
);
if (wrong.length > 0) console.log(`not correct: ${wrong.join(', ')}`);
process.exit(0);
