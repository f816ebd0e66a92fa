// Price sweeps over HTTP: POST /api/admin/run-price-check (admins only) and the scheduler's one
// endpoint, POST /api/internal/jobs (CRON_SECRET), whose price_sweep and maintenance kinds run
// every 15 minutes, with the simulated fare source.
//
// A sweep checks every due flight in the database, so this file runs its own stack on its own
// database: on the shared one it would re-price the flights other test files are asserting on.
// Flights are inserted with SQL; their price paid is set far above or below any simulated fare so
// the outcome (drop or not) does not depend on the simulated clock. Booking codes use the
// simulated source's controls: OUTAGE... quotes fail.
import { randomBytes } from 'node:crypto';
import type postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunPriceCheckResponse } from '../../supabase/functions/_shared/types/flights.ts';
import type { Stack } from '../../dev/stack.ts';
import type { ApiClient } from './client.ts';
import { putOnPremium, registerUser, runRecurringNow, type RegisteredUser } from './factories.ts';
import { startOwnStack, type OwnStack } from './own-stack.ts';

let own: OwnStack;
let stack: Stack;
let api: ApiClient;
let sql: postgres.Sql;
let admin: RegisteredUser;
let traveller: RegisteredUser;

beforeAll(async () => {
  own = await startOwnStack('sweep');
  ({ stack, api, sql } = own);
  admin = await registerUser(api);
  traveller = await registerUser(api);
  await sql`update public.profiles set is_admin = true where id = ${admin.id}`;
  await putOnPremium(sql, traveller.id);
});

afterAll(async () => {
  await own?.stop();
});

const bearer = (user: RegisteredUser) => ({ token: user.session.access_token });

let flightNumber = 100;

/** A flight due for a check. `outcome` picks the price paid: far above any fare, or far below. */
async function insertFlight(outcome: 'drop' | 'no-drop', bookingPrefix = 'K'): Promise<number> {
  const code = `${bookingPrefix}${randomBytes(3).toString('hex').toUpperCase()}`;
  const number = bookingPrefix === 'OUTAGE' ? 9960 + (flightNumber++ % 28) : flightNumber++;
  const [row] = await sql<{ id: string }[]>`
    insert into public.flights (user_id, airline, flight_number, booking_code, passenger_last_name,
                                departure_airport, arrival_airport, departure_date, original_price,
                                current_price, fare_type, is_eligible_for_rebooking, rebooking_method)
    values (${traveller.id}, 'United Airlines', ${`UA${number}`}, ${code}, 'Smith', 'ORD', 'SFO',
            current_date + 45, ${outcome === 'drop' ? 5_000_000 : 100}, null, 'Flexible Economy', true, 'source')
    returning id`;
  return Number(row?.id);
}

async function historyRows(flightId: number): Promise<number> {
  const [row] = await sql<
    { n: number }[]
  >`select count(*)::int as n from public.flight_prices where flight_id = ${flightId}`;
  return row?.n ?? 0;
}

describe('POST /api/admin/run-price-check', () => {
  it('refuses anonymous callers (401) and travellers (403)', async () => {
    const anonymous = await api.post('/admin/run-price-check');
    expect(anonymous.status).toBe(401);
    const asTraveller = await api.post('/admin/run-price-check', {}, bearer(traveller));
    expect(asTraveller.status).toBe(403);
    expect(asTraveller.body).toEqual({ message: 'Admin access required' });
    const [logs] = await sql<{ n: number }[]>`select count(*)::int as n from public.price_check_logs`;
    expect(logs?.n).toBe(0);
  });

  it('checks every due flight, reports the counts and logs the run', async () => {
    const drops = [await insertFlight('drop'), await insertFlight('drop')];
    const steady = [await insertFlight('no-drop'), await insertFlight('no-drop'), await insertFlight('no-drop')];

    const res = await api.post<RunPriceCheckResponse>('/admin/run-price-check', {}, bearer(admin));

    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      checkedCount: 5,
      priceDropsFound: 2,
      message: 'Checked 5 flights and found 2 price drops.',
    });
    // a drop's check, then the second quote that confirmed it (price_drop_confirm, through the queue)
    for (const id of drops) expect(await historyRows(id)).toBe(2);
    for (const id of steady) expect(await historyRows(id)).toBe(1);
    const statuses = await sql<{ id: string; status: string; current_price: number | null }[]>`
      select id, status, current_price from public.flights where id = any(${[...drops, ...steady]}) order by id`;
    expect(statuses.map((f) => f.status)).toEqual([
      'price_drop',
      'price_drop',
      'monitoring',
      'monitoring',
      'monitoring',
    ]);
    for (const f of statuses) expect(f.current_price).toBeGreaterThan(100);

    const [log] = await sql<
      {
        total_flights_checked: number;
        total_price_drops_found: number;
        initiated_by: string;
        success: boolean;
        status: string;
        error_message: string | null;
      }[]
    >`select * from public.price_check_logs order by id desc limit 1`;
    expect(log).toMatchObject({
      total_flights_checked: 5,
      total_price_drops_found: 2,
      initiated_by: admin.id,
      success: true,
      status: 'completed',
      error_message: null,
    });
  });

  it('does not re-check flights checked within the interval', async () => {
    const res = await api.post<RunPriceCheckResponse>('/admin/run-price-check', {}, bearer(admin));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ checkedCount: 0, priceDropsFound: 0 });
    const [rows] = await sql<{ n: number }[]>`select count(*)::int as n from public.flight_prices`;
    expect(rows?.n).toBe(7);
  });
});

describe('the scheduler endpoint', () => {
  const scheduler = () => ({ api, sql, cronSecret: stack.cronSecret });

  it('refuses a missing or wrong secret with 401', async () => {
    const path = '/internal/jobs';
    expect((await api.post(path)).status).toBe(401);
    const wrong = await api.post(path, {}, { headers: { Authorization: `Bearer ${stack.cronSecret}x` } });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ message: 'A valid scheduler secret is required' });
    // a user's token is not the scheduler's secret either
    expect((await api.post(path, {}, bearer(admin))).status).toBe(401);
  });

  it('runs a sweep with the secret; a failing quote leaves its flight untouched and is reported', async () => {
    const ok = await insertFlight('drop');
    const failing = await insertFlight('drop', 'OUTAGE');
    const sweep = await runRecurringNow<{
      checkedCount: number;
      priceDropsFound: number;
      success: boolean;
      finished: boolean;
      errorMessage: string | null;
    }>(scheduler(), 'price_sweep');

    expect(sweep).toMatchObject({ checkedCount: 1, priceDropsFound: 1, success: false, finished: true });
    expect(sweep.errorMessage).toContain('1 flight(s) could not be quoted');
    // the drop's quote and its confirming second quote
    expect(await historyRows(ok)).toBe(2);
    expect(await historyRows(failing)).toBe(0);
    const [untouched] = await sql<{ status: string; current_price: number | null; last_checked: Date | null }[]>`
      select status, current_price, last_checked from public.flights where id = ${failing}`;
    expect(untouched).toEqual({ status: 'monitoring', current_price: null, last_checked: null });
    const [log] = await sql<{ initiated_by: string | null; success: boolean; status: string }[]>`
      select initiated_by, success, status from public.price_check_logs order by id desc limit 1`;
    expect(log).toEqual({ initiated_by: null, success: false, status: 'failed' });
  });

  it('runs maintenance with the secret: old login attempts and finished jobs are pruned', async () => {
    await sql`insert into private.login_attempts (ip, account, succeeded, attempted_at)
              values ('198.18.0.9', 'old@example.com', false, now() - interval '2 days'),
                     ('198.18.0.9', 'new@example.com', false, now())`;
    // the sweeps above left their batches done; one of them finished long ago
    const [old] = await sql<{ id: string }[]>`
      update public.jobs set finished_at = now() - interval '8 days'
       where id = (select min(id) from public.jobs where status = 'done') returning id`;
    const maintenance = await runRecurringNow<{ loginAttemptsDeleted: number; jobsDeleted: number }>(
      scheduler(),
      'maintenance',
    );
    expect(maintenance.loginAttemptsDeleted).toBe(1);
    expect(maintenance.jobsDeleted).toBe(1);
    expect(await sql`select id from public.jobs where id = ${old?.id ?? 0}`).toHaveLength(0);
    const left = await sql<{ account: string }[]>`
      select account from private.login_attempts where account in ('old@example.com', 'new@example.com')`;
    expect(left).toEqual([{ account: 'new@example.com' }]);
  });
});
