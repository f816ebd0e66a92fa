// Automatic rebooking over HTTP: POST /api/auto-rebooking/execute (the caller's own run) and
// POST /api/admin/run-auto-rebooking (admins), with the simulated fare source. Flights are added
// through the api with the source's controls (DROP...: every quote 20% below the price paid;
// DIRECTDROP...: the same, on a ticket bought from the airline) and priced by Check Now. The admin
// run covers every traveller in its database, so this file runs its own stack.
import type postgres from 'postgres';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type {
  AutoRebookingRefusal,
  ExecuteAutoRebookingResponse,
  RunAutoRebookingResponse,
} from '../../supabase/functions/_shared/types/auto-rebooking.ts';
import type { AddFlightResponse, FlightsResponse } from '../../supabase/functions/_shared/types/flights.ts';
import type { ApiClient } from './client.ts';
import { newIp, putOnPremium, registerUser, type RegisteredUser } from './factories.ts';
import { startOwnStack, type OwnStack } from './own-stack.ts';

let own: OwnStack;
let api: ApiClient;
let sql: postgres.Sql;

beforeAll(async () => {
  own = await startOwnStack('auto-rebooking', { apiEnv: { PRICE_CHECK_MIN_INTERVAL_SECONDS: '0' } });
  ({ api, sql } = own);
});

afterAll(async () => {
  await own?.stop();
});

// the demo travellers of the seed must not take part in the runs asserted on here
beforeEach(async () => {
  await sql`update public.profiles set auto_rebooking = false`;
});

const bearer = (user: RegisteredUser) => ({ token: user.session.access_token, ip: newIp() });
let codes = 0;

async function traveller(options: { premium?: boolean; on?: boolean } = {}): Promise<RegisteredUser> {
  const user = await registerUser(api);
  if (options.premium) await putOnPremium(sql, user.id);
  if (options.on) await sql`update public.profiles set auto_rebooking = true where id = ${user.id}`;
  return user;
}

/** Adds a booking through the api and checks its price once. */
async function addChecked(user: RegisteredUser, prefix: string): Promise<number> {
  const added = await api.post<AddFlightResponse>(
    '/flights/manual',
    {
      airline: 'United Airlines',
      bookingCode: `${prefix}${Date.now().toString(36)}${codes++}`,
      passengerLastName: 'Lee',
    },
    bearer(user),
  );
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  const checked = await api.post(`/flights/${added.body.flight.id}/check-price`, {}, bearer(user));
  expect(checked.status, JSON.stringify(checked.body)).toBe(200);
  return added.body.flight.id;
}

async function flightsOf(user: RegisteredUser) {
  const res = await api.get<FlightsResponse>('/flights', bearer(user));
  expect(res.status).toBe(200);
  return res.body.flights;
}

async function runs(userId: string | null) {
  return sql<{ trigger: string; initiated_by: string | null; total_flights_rebooked: number; success: boolean }[]>`
    select trigger, initiated_by, total_flights_rebooked, success from public.auto_rebooking_logs
     where initiated_by is not distinct from ${userId} order by id`;
}

describe('POST /api/auto-rebooking/execute', () => {
  it('refuses anonymous callers', async () => {
    const res = await api.post('/auto-rebooking/execute');
    expect(res.status).toBe(401);
  });

  it('refuses a free traveller with the spec texts, and runs nothing', async () => {
    const free = await traveller();
    await addChecked(free, 'DROP');
    const res = await api.post<AutoRebookingRefusal>('/auto-rebooking/execute', undefined, bearer(free));
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      message: 'Premium subscription required',
      details: 'Upgrade to a premium plan to use automatic rebooking.',
    });
    expect(await runs(free.id)).toEqual([]);
    expect((await flightsOf(free))[0]?.status).toBe('price_drop');
  });

  it('refuses a premium traveller who has not switched it on', async () => {
    const off = await traveller({ premium: true });
    const res = await api.post<AutoRebookingRefusal>('/auto-rebooking/execute', undefined, bearer(off));
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      message: 'Auto-rebooking is disabled',
      details: 'Enable auto-rebooking before running this operation.',
    });
    expect(await runs(off.id)).toEqual([]);
  });

  it('rebooks the caller’s qualifying flights only, answers the count, logs the run', async () => {
    const me = await traveller({ premium: true, on: true });
    const other = await traveller({ premium: true, on: true });
    const mine = [await addChecked(me, 'DROP'), await addChecked(me, 'DROP')];
    await addChecked(me, 'RISE');
    const theirs = await addChecked(other, 'DROP');

    const before = (await flightsOf(me)).find((f) => f.id === mine[0]);
    expect(before?.rebookingVerdict).toMatchObject({ qualifies: true });
    expect(before?.rebookingVerdict.netSavings).toBe((before?.originalPrice ?? 0) - (before?.currentPrice ?? 0));
    expect(before?.rebookingVerdict.reason).toMatch(
      /^Saves \$[\d,.]+ \(20\.0%\) as (airline credit|a refund), which meets/,
    );

    const res = await api.post<ExecuteAutoRebookingResponse>('/auto-rebooking/execute', undefined, bearer(me));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ message: 'Auto-rebooking complete: 3 flights checked, 2 flights rebooked.', count: 2 });

    const after = await flightsOf(me);
    for (const id of mine)
      expect(after.find((f) => f.id === id)).toMatchObject({ status: 'rebooked', hasBeenRebooked: true });
    expect((await flightsOf(other)).find((f) => f.id === theirs)?.status).toBe('price_drop');
    expect(await runs(me.id)).toEqual([
      { trigger: 'traveller', initiated_by: me.id, total_flights_rebooked: 2, success: true },
    ]);

    // again: nothing left to rebook
    const again = await api.post<ExecuteAutoRebookingResponse>('/auto-rebooking/execute', undefined, bearer(me));
    expect(again.body.count).toBe(0);
  });

  it('never changes a ticket bought from the airline', async () => {
    const me = await traveller({ premium: true, on: true });
    const direct = await addChecked(me, 'DIRECTDROP');
    const res = await api.post<ExecuteAutoRebookingResponse>('/auto-rebooking/execute', undefined, bearer(me));
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(0);
    expect(res.body.message).toContain('1 ticket bought from the airline needs a change you make with the airline');
    expect((await flightsOf(me)).find((f) => f.id === direct)?.status).toBe('price_drop');
  });
});

describe('POST /api/admin/run-auto-rebooking', () => {
  it('refuses anonymous callers (401) and travellers (403), and runs nothing', async () => {
    expect((await api.post('/admin/run-auto-rebooking')).status).toBe(401);
    const someone = await traveller({ premium: true, on: true });
    const res = await api.post('/admin/run-auto-rebooking', {}, bearer(someone));
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: 'Admin access required' });
    expect(await runs(someone.id)).toEqual([]);
  });

  it('rebooks every premium traveller’s qualifying flights and answers the counts', async () => {
    const admin = await traveller();
    await sql`update public.profiles set is_admin = true where id = ${admin.id}`;
    const a = await traveller({ premium: true, on: true });
    const b = await traveller({ premium: true, on: true });
    const free = await traveller();
    const flights = [await addChecked(a, 'DROP'), await addChecked(b, 'DROP'), await addChecked(b, 'DROP')];
    const freeDrop = await addChecked(free, 'DROP');

    const res = await api.post<RunAutoRebookingResponse>('/admin/run-auto-rebooking', {}, bearer(admin));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [credits] = await sql<{ total: number }[]>`
      select coalesce(sum(airline_credit), 0)::int as total from public.flights where id = any(${flights}::bigint[])`;
    expect(res.body).toEqual({ rebookedCount: 3, savingsAmount: credits?.total });
    expect(credits?.total).toBeGreaterThan(0);
    expect((await flightsOf(free)).find((f) => f.id === freeDrop)?.status).toBe('price_drop');
    expect(await runs(admin.id)).toEqual([
      { trigger: 'admin', initiated_by: admin.id, total_flights_rebooked: 3, success: true },
    ]);
  });
});

describe('a flight the airline cancelled', () => {
  const cancelledNotes = (userId: string) => sql<{ flight_id: string; data: Record<string, unknown> }[]>`
    select flight_id, data from public.notification_history
     where user_id = ${userId} and type = 'flight_cancelled'`;

  it('Check Now marks it cancelled and tells the traveller once', async () => {
    const me = await traveller();
    await sql`update public.profiles set email_confirmed_at = now() where id = ${me.id}`;
    const added = await api.post<AddFlightResponse>(
      '/flights/manual',
      {
        airline: 'United Airlines',
        bookingCode: `CANCEL${codes++}${Date.now().toString(36)}`,
        passengerLastName: 'Lee',
      },
      bearer(me),
    );
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const res = await api.post(`/flights/${added.body.flight.id}/check-price`, {}, bearer(me));
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      message:
        'The airline has cancelled this flight, so FareBack has stopped monitoring it. Contact the airline about a refund or another flight.',
    });
    expect((await flightsOf(me)).find((f) => f.id === added.body.flight.id)).toMatchObject({
      status: 'cancelled',
      isWatched: false,
    });
    const notes = await cancelledNotes(me.id);
    expect(notes.map((n) => Number(n.flight_id))).toEqual([added.body.flight.id]);
    expect(notes[0]?.data).toMatchObject({
      airline: 'United Airlines',
      departureAirport: expect.stringMatching(/^[A-Z]{3}$/),
      arrivalAirport: expect.stringMatching(/^[A-Z]{3}$/),
    });
  });

  it('a price sweep marks it cancelled too', async () => {
    const admin = await traveller();
    await sql`update public.profiles set is_admin = true where id = ${admin.id}`;
    const me = await traveller();
    await sql`update public.profiles set email_confirmed_at = now() where id = ${me.id}`;
    const added = await api.post<AddFlightResponse>(
      '/flights/manual',
      {
        airline: 'Delta Air Lines',
        bookingCode: `CANCEL${codes++}${Date.now().toString(36)}`,
        passengerLastName: 'Lee',
      },
      bearer(me),
    );
    expect(added.status).toBe(201);
    const sweep = await api.post('/admin/run-price-check', {}, bearer(admin));
    expect(sweep.status, JSON.stringify(sweep.body)).toBe(200);
    expect((await flightsOf(me)).find((f) => f.id === added.body.flight.id)?.status).toBe('cancelled');
    expect((await cancelledNotes(me.id)).length).toBe(1);
  });
});
