// Forged flight rows, tried as an attacker would: through the data API (simulated in SQL as Supabase's
// PostgREST runs a request: `set local role authenticated` with request.jwt.claims) and through
// /api. Each test is an attack that used to work and must now fail, plus the recovery paths that
// keep a confirmed airline change from being lost.
//
// This file runs its own stack with the default traveller limits (the shared test stack turns the
// per-flight check interval off) and the scheduler secret, on its own database.
import { randomBytes } from 'node:crypto';
import type postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AddFlightResponse,
  CheckPriceResponse,
  Flight,
  RebookResponse,
} from '../../supabase/functions/_shared/types/flights.ts';
import type { Stack } from '../../dev/stack.ts';
import type { ApiClient } from './client.ts';
import { putOnPremium, registerUser, runRecurringNow, type RegisteredUser } from './factories.ts';
import { startOwnStack, type OwnStack } from './own-stack.ts';

let own: OwnStack;
let stack: Stack;
let api: ApiClient;
let sql: postgres.Sql;

beforeAll(async () => {
  own = await startOwnStack('security', {
    apiEnv: { FARE_SOURCE_CALLS_PER_TRAVELLER_PER_HOUR: '8' },
    connections: 3,
  });
  ({ stack, api, sql } = own);
});

afterAll(async () => {
  await own?.stop();
});

const token = (user: RegisteredUser) => ({ token: user.session.access_token });

function code(prefix: string): string {
  return `${prefix}${randomBytes(3).toString('hex').toUpperCase()}`.slice(0, 12);
}

async function addedFlight(user: RegisteredUser, bookingCode: string): Promise<Flight> {
  const res = await api.post<AddFlightResponse>(
    '/flights/manual',
    { airline: 'United Airlines', bookingCode, passengerLastName: 'Smith' },
    token(user),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.flight;
}

async function droppedFlight(user: RegisteredUser): Promise<Flight> {
  const flight = await addedFlight(user, code('DROP'));
  const res = await api.post<CheckPriceResponse>(`/flights/${flight.id}/check-price`, {}, token(user));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.flight.status).toBe('price_drop');
  return res.body.flight;
}

/** Runs `fn` as the data API runs a signed-in user's request; rolled back afterwards. */
async function asDataApi<T>(userId: string, fn: (tx: postgres.TransactionSql) => Promise<T>): Promise<T> {
  let value: T | undefined;
  await sql
    .begin(async (tx) => {
      await tx`select set_config('role', 'authenticated', true),
                      set_config('request.jwt.claims', ${JSON.stringify({ sub: userId, role: 'authenticated' })}, true)`;
      value = await fn(tx);
      throw new Error('rollback');
    })
    .catch((error: unknown) => {
      if (!(error instanceof Error) || error.message !== 'rollback') throw error;
    });
  return value as T;
}

async function errorCode(promise: Promise<unknown>): Promise<string | null> {
  try {
    await promise;
    return null;
  } catch (error) {
    return String((error as { code?: unknown }).code ?? error);
  }
}

async function profileMoney(userId: string) {
  const [row] = await sql<{ total_credits_earned: number; commission_owed: number }[]>`
    select total_credits_earned, commission_owed from public.profiles where id = ${userId}`;
  return row;
}

describe('critical: forged flight rows', () => {
  it('refuses a flight row written through the data API, whatever its price paid', async () => {
    const user = await registerUser(api);
    const forged = {
      user_id: user.id,
      airline: 'United Airlines',
      flight_number: 'UA1234',
      booking_code: code('DROP'),
      passenger_last_name: 'Smith',
      departure_airport: 'SFO',
      arrival_airport: 'EWR',
      departure_date: '2027-06-01',
      original_price: 2_000_000_000,
      fare_type: 'Flexible Economy',
      is_eligible_for_rebooking: true,
      rebooking_method: 'source',
      source_reference: 'ord_someone_else',
    };
    expect(await errorCode(asDataApi(user.id, (tx) => tx`insert into public.flights ${tx(forged)}`))).toBe('42501');
    const [row] = await sql<{ n: number }[]>`select count(*)::int as n from public.flights where user_id = ${user.id}`;
    expect(row?.n).toBe(0);
  });

  it('refuses changing a flight row through the data API (price paid, source reference)', async () => {
    const user = await registerUser(api);
    const flight = await addedFlight(user, code('DROP'));
    for (const change of [
      sql`original_price = 2000000000`,
      sql`source_reference = 'ord_someone_else'`,
      sql`cabin_class = 'Business'`,
      sql`notes = 'hi'`,
    ]) {
      expect(
        await errorCode(asDataApi(user.id, (tx) => tx`update public.flights set ${change} where id = ${flight.id}`)),
      ).toBe('42501');
    }
  });

  it('rebooks from what the fare source returned, not from a flight row altered since', async () => {
    const user = await registerUser(api);
    const flight = await droppedFlight(user);
    // Any path that could still alter the row (a bug, an import) is not trusted by the rebooking:
    // here the row is altered directly, as the attack did through the data API.
    await sql`update public.flights
              set original_price = 2000000000, cabin_class = 'First', source_reference = 'ord_someone_else'
              where id = ${flight.id}`;
    const res = await api.post<RebookResponse>(`/flights/${flight.id}/rebook`, {}, token(user));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // the credit is the real price paid minus the new fare: a DROP fare is 20% below what was paid
    const credit = res.body.flight.airlineCredit ?? 0;
    expect(credit).toBeGreaterThan(0);
    expect(credit).toBeLessThan(flight.originalPrice);
    expect(credit).toBe(flight.originalPrice - (res.body.flight.rebookingPrice ?? 0));
    expect((await profileMoney(user.id))?.total_credits_earned).toBe(credit);
  });
});

/**
 * Rebooks a dropped flight while the recording's write of the flight fails once (as a lost
 * connection or a bug would): the airline change is made, FareBack's record of it is not yet.
 */
async function rebookWithRecordingFailure(user: RegisteredUser, flight: Flight) {
  const fn = `fail_record_${flight.id}`;
  await sql.unsafe(`
    create function public.${fn}() returns trigger language plpgsql as $$
    begin
      if new.id = ${flight.id} and new.status = 'rebooked' then raise exception 'injected failure'; end if;
      return new;
    end $$;
    create trigger ${fn} before update on public.flights for each row execute function public.${fn}();
  `);
  try {
    return await api.post<{ message: string }>(`/flights/${flight.id}/rebook`, {}, token(user));
  } finally {
    await sql.unsafe(`drop trigger ${fn} on public.flights; drop function public.${fn}();`);
  }
}

/** Runs the scheduler's maintenance once the kept confirmation is past its request's grace period. */
async function reconcile(flightId: number) {
  await sql`update private.rebookings set confirmed_at = now() - interval '1 minute' where flight_id = ${flightId}`;
  const run = await runRecurringNow<{ rebookings: { recorded: number; released: number; pending: number } }>(
    { api, sql, cronSecret: stack.cronSecret },
    'maintenance',
  );
  return run.rebookings;
}

describe('high: removing a flight while it is being rebooked', () => {
  it('is refused at both doors, and the credit and commission are recorded when the change returns', async () => {
    const user = await registerUser(api);
    await putOnPremium(sql, user.id);
    const flight = await droppedFlight(user);
    expect((await rebookWithRecordingFailure(user, flight)).status).toBe(503);
    const [open] = await sql<{ state: string; result: { airlineCredit: number } }[]>`
      select state, result from private.rebookings where flight_id = ${flight.id}`;
    expect(open?.state).toBe('confirmed');

    const viaApi = await api.request<{ message: string }>('DELETE', `/flights/${flight.id}`, undefined, token(user));
    expect(viaApi.status).toBe(409);
    expect(viaApi.body.message).toBe(
      'This flight is being rebooked. It can be removed once the rebooking has finished.',
    );
    const viaDataApi = await asDataApi(
      user.id,
      (tx) => tx`delete from public.flights where id = ${flight.id} returning id`,
    );
    expect(viaDataApi).toHaveLength(0);

    expect((await reconcile(flight.id)).recorded).toBeGreaterThanOrEqual(1);
    const credit = open?.result.airlineCredit ?? 0;
    const commission = Math.round(credit * 0.25);
    expect(credit).toBeGreaterThan(0);
    expect(await profileMoney(user.id)).toEqual({ total_credits_earned: credit, commission_owed: commission });
    const billing = await sql`select amount, status from public.billing_transactions
                              where user_id = ${user.id} and type = 'commission'`;
    expect(billing).toEqual([{ amount: commission, status: 'pending' }]);

    // once rebooked the card may go; the credit, the commission and the record stay
    const removed = await api.request<{ message: string }>('DELETE', `/flights/${flight.id}`, undefined, token(user));
    expect(removed.status).toBe(200);
    expect(removed.body.message).toBe('Flight removed.');
    expect(await profileMoney(user.id)).toEqual({ total_credits_earned: credit, commission_owed: commission });
    const [record] = await sql`select state, commission from private.rebookings where flight_id = ${flight.id}`;
    expect(record).toEqual({ state: 'recorded', commission });
  });
});

describe('medium: a confirmed change whose recording fails', () => {
  it('answers 503, keeps the result, and maintenance records it exactly once', async () => {
    const user = await registerUser(api);
    const flight = await droppedFlight(user);
    const res = await rebookWithRecordingFailure(user, flight);
    expect(res.status).toBe(503);
    expect(res.body.message).toBe(
      'Your flight was rebooked, but recording the credit is taking longer than usual. It will appear on your dashboard shortly.',
    );
    const [open] = await sql<{ state: string; result: { airlineCredit: number } }[]>`
      select state, result from private.rebookings where flight_id = ${flight.id}`;
    expect(open?.state).toBe('confirmed');
    expect(open?.result.airlineCredit).toBeGreaterThan(0);
    expect((await profileMoney(user.id))?.total_credits_earned).toBe(0);
    const stuck = await api.get<{ flights: Flight[] }>('/flights', token(user));
    expect(stuck.body.flights[0]?.status).toBe('rebooking');
    // check-price and rebook refuse the claim meanwhile, as before
    expect((await api.post(`/flights/${flight.id}/rebook`, {}, token(user))).status).toBe(409);

    await reconcile(flight.id);
    const after = await api.get<{ flights: Flight[] }>('/flights', token(user));
    expect(after.body.flights[0]?.status).toBe('rebooked');
    expect(after.body.flights[0]?.airlineCredit).toBe(open?.result.airlineCredit);
    expect((await profileMoney(user.id))?.total_credits_earned).toBe(open?.result.airlineCredit);

    await reconcile(flight.id);
    expect((await profileMoney(user.id))?.total_credits_earned).toBe(open?.result.airlineCredit);
    const [done] = await sql`select state from private.rebookings where flight_id = ${flight.id}`;
    expect(done?.state).toBe('recorded');
  });
});

describe('medium: calls that cost money are throttled', () => {
  it('refuses a second check of one flight within the minimum interval, with Retry-After', async () => {
    const user = await registerUser(api);
    const flight = await addedFlight(user, code('RISE'));
    const first = await api.post(`/flights/${flight.id}/check-price`, {}, token(user));
    expect(first.status).toBe(200);
    const second = await api.post<{ message: string }>(`/flights/${flight.id}/check-price`, {}, token(user));
    expect(second.status).toBe(429);
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(second.body.message).toMatch(
      /^Prices were checked moments ago\. Please wait \d+ seconds? before checking again\.$/,
    );
    const [history] = await sql<{ n: number }[]>`
      select count(*)::int as n from public.flight_prices where flight_id = ${flight.id}`;
    expect(history?.n).toBe(1);
  });

  it("stops one traveller's searches past the hourly budget (adds and checks together)", async () => {
    const user = await registerUser(api);
    // the stack allows 8 calls per traveller per hour
    const flights: Flight[] = [];
    for (let i = 0; i < 4; i += 1) flights.push(await addedFlight(user, code('RISE')));
    for (const flight of flights) {
      const res = await api.post(`/flights/${flight.id}/check-price`, {}, token(user));
      expect(res.status).toBe(200);
    }
    const refused = await api.post<{ message: string }>(
      '/flights/manual',
      { airline: 'United Airlines', bookingCode: code('RISE'), passengerLastName: 'Smith' },
      token(user),
    );
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.body.message).toMatch(/^Too many flight searches in the last hour\./);
    const [count] = await sql<
      { n: number }[]
    >`select count(*)::int as n from public.flights where user_id = ${user.id}`;
    expect(count?.n).toBe(4);

    // another traveller is not affected
    const other = await registerUser(api);
    await addedFlight(other, code('RISE'));
  });
});
