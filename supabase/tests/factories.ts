// Test data and actors for the database tests.
//
// Factories insert as the connecting superuser (like the system would), so they bypass
// row-level security and the end-user guards; every assertion then runs as an actor, exactly as
// Supabase's data API runs a browser's request: inside a transaction, `set local role` and
// `request.jwt.claims` set with set_config(..., true).
import { randomBytes, randomUUID } from 'node:crypto';
import postgres from 'postgres';
import { createTestDatabase } from '../../dev/db/test-db.ts';

export type Sql = postgres.Sql;
export type Tx = postgres.TransactionSql;

export interface TestDb {
  sql: Sql;
  /** true on PGlite: one session, so two transactions never overlap (concurrency tests need a server). */
  singleSession: boolean;
  close(): Promise<void>;
}

/** A fresh migrated database and a superuser connection to it. */
export async function openTestDatabase(options: { seed?: boolean } = {}): Promise<TestDb> {
  const db = await createTestDatabase({ seed: options.seed });
  const sql = postgres(db.url, {
    max: db.singleSession ? 1 : 4,
    prepare: !db.singleSession,
    onnotice: () => {},
  });
  return {
    sql,
    singleSession: db.singleSession,
    async close() {
      await sql.end();
      await db.close();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Actors
// ---------------------------------------------------------------------------------------------

export type Actor =
  { role: 'anon' } | { role: 'authenticated'; userId: string } | { role: 'service_role' } | { role: 'fareback_owner' };

export const anon: Actor = { role: 'anon' };
export const serviceRole: Actor = { role: 'service_role' };
/**
 * The role the api connects as (its `asService` work): the non-superuser owner the migrations ran
 * as, the only one allowed to run the system functions in `private` (queue_notification, the job
 * queue). Run the api's own queries as this actor, not as service_role.
 */
export const apiRole: Actor = { role: 'fareback_owner' };
export const user = (userId: string): Actor => ({ role: 'authenticated', userId });

function claimsOf(actor: Actor): string {
  return JSON.stringify(
    actor.role === 'authenticated'
      ? { sub: actor.userId, role: 'authenticated', aud: 'authenticated' }
      : { role: actor.role },
  );
}

class Rollback {
  constructor(readonly value: unknown) {}
}

/**
 * Runs `fn` as the actor inside a transaction that is rolled back afterwards (unless `commit`),
 * so each attempt starts from the same data. `setup` runs first, as the superuser, in the same
 * transaction.
 */
export async function actAs<T>(
  sql: Sql,
  actor: Actor,
  fn: (tx: Tx) => Promise<T>,
  options: { commit?: boolean; setup?: (tx: Tx) => Promise<unknown> } = {},
): Promise<T> {
  try {
    const result = await sql.begin(async (tx) => {
      if (options.setup) await options.setup(tx);
      // the role comes from the Actor union above, never from input
      await tx.unsafe(`set local role ${actor.role}`);
      await tx`select set_config('request.jwt.claims', ${claimsOf(actor)}, true)`;
      const value = await fn(tx);
      if (options.commit) return { value };
      throw new Rollback(value);
    });
    return (result as { value: T }).value;
  } catch (error) {
    if (error instanceof Rollback) return error.value as T;
    throw error;
  }
}

/** What a statement did: how many rows it returned or affected, or the error it raised. */
export type Outcome = { rows: number } | { error: string; message: string };

export async function attempt(
  sql: Sql,
  actor: Actor,
  statement: (tx: Tx) => Promise<{ count: number }>,
  options: { commit?: boolean; setup?: (tx: Tx) => Promise<unknown> } = {},
): Promise<Outcome> {
  try {
    const result = await actAs(sql, actor, statement, options);
    return { rows: result.count };
  } catch (error) {
    if (error instanceof postgres.PostgresError) return { error: error.code, message: error.message };
    throw error;
  }
}

/** Insufficient privilege: a missing grant, a row-level security check, or a guard trigger. */
export const DENIED = '42501';

// ---------------------------------------------------------------------------------------------
// Factories
// ---------------------------------------------------------------------------------------------

let counter = 0;
const next = (): number => ++counter;
const token = (length: number): string =>
  randomBytes(length)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(0, length)
    .toUpperCase() || 'X'.repeat(length);

export interface TestUser {
  id: string;
  email: string;
  username: string;
}

/** Signs a user up the way the auth server does: a row in auth.users; the trigger makes the profile. */
export async function createUser(
  sql: Sql,
  options: {
    email?: string;
    username?: string;
    metadata?: Record<string, unknown>;
    admin?: boolean;
    premium?: boolean;
  } = {},
): Promise<TestUser> {
  const id = randomUUID();
  const n = next();
  const email = options.email ?? `traveller${n}.${id.slice(0, 6)}@example.com`;
  const metadata = options.metadata ?? (options.username ? { username: options.username } : {});
  await sql`insert into auth.users (id, email, raw_user_meta_data, email_confirmed_at)
            values (${id}, ${email}, ${sql.json(metadata as postgres.JSONValue)}, now())`;
  if (options.admin) await sql`update public.profiles set is_admin = true where id = ${id}`;
  if (options.premium) {
    await setPlan(sql, id, 'premium');
    await sql`update public.profiles
                 set subscription_start_date = now(), subscription_end_date = now() + interval '1 year'
               where id = ${id}`;
  }
  const [profile] = await sql<{ username: string }[]>`select username from public.profiles where id = ${id}`;
  if (!profile) throw new Error(`no profile was created for ${email}`);
  return { id, email, username: profile.username };
}

export interface FlightInput {
  airline: string;
  flight_number: string;
  booking_code: string;
  passenger_last_name: string;
  departure_airport: string;
  arrival_airport: string;
  departure_date: string;
  original_price: number;
  current_price: number | null;
  fare_type: string;
  is_eligible_for_rebooking: boolean;
  is_manual_entry: boolean;
  notes: string | null;
}

/** A flight's itinerary columns, with plausible values (only the system inserts flights). */
export function flightInput(overrides: Partial<FlightInput> = {}): FlightInput {
  const n = next();
  const departure = new Date(Date.now() + (30 + (n % 60)) * 86_400_000).toISOString().slice(0, 10);
  return {
    airline: 'Delta Air Lines',
    flight_number: `DL${100 + n}`,
    booking_code: token(6),
    passenger_last_name: 'Smith',
    departure_airport: 'JFK',
    arrival_airport: 'LAX',
    departure_date: departure,
    original_price: 45_000,
    current_price: 45_000,
    fare_type: 'Refundable Economy',
    is_eligible_for_rebooking: true,
    is_manual_entry: true,
    notes: null,
    ...overrides,
  };
}

export async function createFlight(
  sql: Sql | Tx,
  userId: string,
  overrides: Partial<FlightInput> & {
    status?: string;
    has_been_rebooked?: boolean;
    return_date?: string;
    currency?: string;
    cabin_class?: string;
    rebooking_method?: 'source' | 'assisted';
    source_reference?: string;
    change_penalty?: number;
  } = {},
): Promise<number> {
  const row = { user_id: userId, ...flightInput(), ...overrides };
  const [flight] = await sql<
    { id: number }[]
  >`insert into public.flights ${sql(row as Record<string, postgres.SerializableParameter>)} returning id::int`;
  if (!flight) throw new Error('flight not created');
  return flight.id;
}

/**
 * What the fare source returned when the flight was retrieved, as the api keeps it in
 * private.flight_bookings: the flight row's own values and its source reference.
 */
export async function createFlightBooking(sql: Sql | Tx, flightId: number): Promise<void> {
  const rows = await sql`insert into private.flight_bookings (
      flight_id, user_id, source, source_reference, airline, booking_code, passenger_last_name,
      price_paid, currency, cabin_class, fare_type, fare_changeable, rebooking_method, booking)
    select id, user_id, 'simulated', source_reference, airline, booking_code, passenger_last_name,
           original_price, currency, cabin_class, fare_type, is_eligible_for_rebooking, rebooking_method,
           jsonb_build_object('airline', airline, 'flightNumber', flight_number, 'bookingCode', booking_code)
      from public.flights where id = ${flightId}`;
  if (rows.count !== 1) throw new Error(`no flight ${flightId} to keep a booking for`);
}

export async function createFlightPrice(
  sql: Sql | Tx,
  flightId: number,
  userId: string,
  price = 42_000,
): Promise<number> {
  const [row] = await sql<{ id: number }[]>`insert into public.flight_prices (flight_id, user_id, price, source)
    values (${flightId}, ${userId}, ${price}, 'simulated') returning id::int`;
  if (!row) throw new Error('flight price not created');
  return row.id;
}

/** A rebooking attempt as the api records it in private.rebookings; 'recorded' unless told. */
export async function createRebooking(
  sql: Sql | Tx,
  flightId: number,
  userId: string,
  state: 'claimed' | 'confirmed' | 'recorded' | 'released' = 'recorded',
): Promise<number> {
  const result = state === 'confirmed' || state === 'recorded' ? { newPrice: 40_000, savings: 5_000 } : null;
  const [row] = await sql<{ id: number }[]>`insert into private.rebookings (flight_id, user_id, method, state, result)
    values (${flightId}, ${userId}, 'source', ${state}, ${result === null ? null : sql.json(result)}) returning id::int`;
  if (!row) throw new Error('rebooking not created');
  return row.id;
}

/** A call a traveller's request made to the fare source, as the api counts it in private.fare_source_calls. */
export async function createFareSourceCall(
  sql: Sql | Tx,
  userId: string,
  flightId: number | null,
  kind: 'add' | 'check' = 'check',
): Promise<number> {
  const [row] = await sql<{ id: number }[]>`insert into private.fare_source_calls (user_id, flight_id, kind)
    values (${userId}, ${flightId}, ${kind}) returning id::int`;
  if (!row) throw new Error('fare source call not created');
  return row.id;
}

export async function createNotification(
  sql: Sql | Tx,
  userId: string,
  flightId: number | null = null,
): Promise<number> {
  const [row] = await sql<{ id: number }[]>`insert into public.notification_history (user_id, flight_id, type, data)
    values (${userId}, ${flightId}, 'price_drop', '{"oldPrice": 40000, "newPrice": 35000}') returning id::int`;
  if (!row) throw new Error('notification not created');
  return row.id;
}

export async function createBillingTransaction(
  sql: Sql | Tx,
  userId: string,
  overrides: { amount?: number; type?: string; status?: string } = {},
): Promise<number> {
  const [row] = await sql<
    { id: number }[]
  >`insert into public.billing_transactions (user_id, amount, type, status, description)
    values (${userId}, ${overrides.amount ?? 2499}, ${overrides.type ?? 'subscription'},
            ${overrides.status ?? 'completed'}, 'Premium plan, one year') returning id::int`;
  if (!row) throw new Error('billing transaction not created');
  return row.id;
}

/** Puts the traveller on a plan: the given one, or the first plan of the tier. */
export async function setPlan(sql: Sql | Tx, userId: string, plan: number | 'free' | 'premium'): Promise<void> {
  const planId =
    typeof plan === 'number'
      ? plan
      : (
          await sql<
            { id: number }[]
          >`select id::int from public.subscription_plans where tier = ${plan} order by id limit 1`
        )[0]?.id;
  if (planId === undefined) throw new Error(`no ${plan} plan`);
  await sql`update public.profiles set plan_id = ${planId} where id = ${userId}`;
}

export async function createPlan(
  sql: Sql | Tx,
  overrides: {
    name?: string;
    tier?: 'free' | 'premium';
    price?: number;
    flightLimit?: number;
    isActive?: boolean;
    commissionRate?: number | null;
  } = {},
): Promise<number> {
  // the tier follows from the price and automatic rebooking (CHECK subscription_plans_tier_derived):
  // a free plan has neither, a premium one both unless a price is given
  const tier = overrides.tier ?? (overrides.price ? 'premium' : 'free');
  const [row] = await sql<{ id: number }[]>`insert into public.subscription_plans
      (name, tier, price, flight_limit, auto_rebooking_enabled, commission_rate, description, is_active)
    values (${overrides.name ?? `Plan ${next()}`}, ${tier}, ${overrides.price ?? (tier === 'premium' ? 999 : 0)},
            ${overrides.flightLimit ?? 10}, ${tier === 'premium'},
            ${overrides.commissionRate === undefined ? 10 : overrides.commissionRate}, 'A test plan',
            ${overrides.isActive ?? true})
    returning id::int`;
  if (!row) throw new Error('plan not created');
  return row.id;
}

export async function createContactMessage(sql: Sql | Tx, userId: string | null): Promise<number> {
  const [row] = await sql<{ id: number }[]>`insert into public.contact_messages (user_id, name, email, subject, message)
    values (${userId}, 'Pat Traveller', 'pat@example.com', 'Question about credits', 'How long is an airline credit valid?')
    returning id::int`;
  if (!row) throw new Error('contact message not created');
  return row.id;
}

export async function createEmailConnection(sql: Sql | Tx, userId: string): Promise<number> {
  const [row] = await sql<{ id: number }[]>`insert into public.email_connections
      (user_id, provider_account_email, access_token_encrypted, refresh_token_encrypted, token_expires_at, scopes)
    values (${userId}, 'inbox@gmail.com', ${`enc:v1:${token(24)}`}, ${`enc:v1:${token(24)}`}, now() + interval '1 hour',
            ${['https://www.googleapis.com/auth/gmail.readonly']})
    returning id::int`;
  if (!row) throw new Error('email connection not created');
  return row.id;
}

export async function createJob(sql: Sql | Tx, kind = 'price_check', dedupeKey: string | null = null): Promise<number> {
  const [row] = await sql<{ id: number }[]>`insert into public.jobs (kind, payload, dedupe_key)
    values (${kind}, ${sql.json({ flightId: next() })}, ${dedupeKey}) returning id::int`;
  if (!row) throw new Error('job not created');
  return row.id;
}

export async function createPriceCheckLog(sql: Sql | Tx, initiatedBy: string | null = null): Promise<number> {
  const [row] = await sql<{ id: number }[]>`insert into public.price_check_logs
      (total_flights_checked, total_price_drops_found, execution_time_ms, initiated_by)
    values (12, 3, 850, ${initiatedBy}) returning id::int`;
  if (!row) throw new Error('price check log not created');
  return row.id;
}

export async function createAutoRebookingLog(sql: Sql | Tx, initiatedBy: string | null = null): Promise<number> {
  const [row] = await sql<{ id: number }[]>`insert into public.auto_rebooking_logs
      (total_flights_evaluated, total_flights_rebooked, total_savings, execution_time_ms, initiated_by)
    values (8, 2, 9500, 1200, ${initiatedBy}) returning id::int`;
  if (!row) throw new Error('auto-rebooking log not created');
  return row.id;
}
