// Issue 23 over HTTP against the stack (simulated fare source): manual entry retrieves first and
// asks for the itinerary when it cannot (NOTFOUND... codes), the itinerary is quoted once before
// it is stored and refused on the field at fault, bad input is a 400 that stores nothing and
// calls no fare source, any airline is accepted, the whole party is quoted (SEATS2...: a lower
// fare with two seats left; ...PARTY<n>: a booking for n), and a new flight gets its first
// check through the job queue.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type {
  AddFlightResponse,
  AirlinesResponse,
  CheckPriceResponse,
  Flight,
} from '../../supabase/functions/_shared/types/flights.ts';
import { apiClient, databaseClient } from './client.ts';
import { registerUser, type RegisteredUser } from './factories.ts';

const api = apiClient();
const sql = databaseClient();

function code(prefix: string): string {
  return `${prefix}${randomBytes(3).toString('hex').toUpperCase()}`.slice(0, 16);
}

function daysAhead(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

const token = (user: RegisteredUser) => ({ token: user.session.access_token });

type Body = Record<string, unknown>;

function lufthansa(overrides: Body = {}, segments?: Body[]): Body {
  return {
    segments: segments ?? [
      { flightNumber: 'LH 400', departureAirport: 'FRA', arrivalAirport: 'JFK', departureDate: daysAhead(60) },
      { flightNumber: 'LH401', departureAirport: 'JFK', arrivalAirport: 'FRA', departureDate: daysAhead(70) },
    ],
    pricePaid: 184_500,
    currency: 'EUR',
    cabinClass: 'Economy',
    fareBrand: 'Economy Classic',
    passengers: 3,
    ...overrides,
  };
}

async function addManual(user: RegisteredUser, body: Body) {
  return api.post<AddFlightResponse & { message: string; needsItinerary?: boolean; errors?: unknown[] }>(
    '/flights/manual',
    { passengerLastName: 'Müller', ...body },
    token(user),
  );
}

async function stored(userId: string): Promise<number> {
  const [row] = await sql<{ n: number }[]>`select count(*)::int as n from public.flights where user_id = ${userId}`;
  return row?.n ?? 0;
}

async function fareCalls(userId: string): Promise<number> {
  const [row] = await sql<{ n: number }[]>`
    select count(*)::int as n from private.fare_source_calls where user_id = ${userId}`;
  return row?.n ?? 0;
}

describe('manual entry: retrieval first, then the itinerary', () => {
  it('answers 422 with needsItinerary when the booking cannot be retrieved, and stores nothing', async () => {
    const user = await registerUser(api);
    const res = await addManual(user, { airline: 'Lufthansa', bookingCode: code('NOTFOUND') });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body).toEqual({
      message:
        'We could not find this booking with the airline. Enter the flights from your ticket and FareBack will check them.',
      needsItinerary: true,
    });
    expect(await stored(user.id)).toBe(0);
  });

  it('accepts any airline: one the fare source does not know asks for the itinerary', async () => {
    const user = await registerUser(api);
    const res = await addManual(user, { airline: 'Aer Lingus', bookingCode: code('K') });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.needsItinerary).toBe(true);
  });

  it('adds a Lufthansa booking by itinerary after a verifying quote, for the whole party, guided', async () => {
    const user = await registerUser(api);
    const bookingCode = code('NOTFOUND');
    const res = await addManual(user, { airline: 'Lufthansa', bookingCode, itinerary: lufthansa() });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const flight = res.body.flight;
    expect(flight).toMatchObject({
      airline: 'Lufthansa',
      bookingCode,
      flightNumber: 'LH400',
      departureAirport: 'FRA',
      arrivalAirport: 'JFK',
      departureDate: daysAhead(60),
      isRoundTrip: true,
      returnFlightNumber: 'LH401',
      returnDate: daysAhead(70),
      originalPrice: 184_500,
      currency: 'EUR',
      cabinClass: 'Economy',
      fareType: 'Economy Classic',
      passengerCount: 3,
      rebookingMethod: 'assisted',
      isManualEntry: true,
    });
    // the verifying quote is its first check, counted once in the fare budget
    expect(flight.lastChecked).not.toBeNull();
    expect(flight.currentPrice).toBeGreaterThan(0);
    expect(flight.priceHistory).toHaveLength(1);
    expect(await fareCalls(user.id)).toBe(1);
  });

  it.each([
    ['a flight number the airline does not fly', { flightNumber: 'LH9' }, 'itinerary.segments.0.flightNumber'],
    [
      'a route the flight does not fly',
      { departureAirport: 'JFK', arrivalAirport: 'LAX' },
      'itinerary.segments.0.arrivalAirport',
    ],
    ['a date not on sale yet', { departureDate: daysAhead(400) }, 'itinerary.segments.0.departureDate'],
  ])('refuses %s with a 422 on the field, storing nothing', async (_what, change, field) => {
    const user = await registerUser(api);
    const outbound = {
      flightNumber: 'LH400',
      departureAirport: 'FRA',
      arrivalAirport: 'JFK',
      departureDate: daysAhead(60),
      ...change,
    };
    const res = await addManual(user, {
      airline: 'Lufthansa',
      bookingCode: code('NOTFOUND'),
      itinerary: lufthansa({}, [outbound]),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.errors).toEqual([{ field, message: expect.any(String) }]);
    expect(await stored(user.id)).toBe(0);
  });

  it.each([
    ['an unknown airport', { segments: [{ departureAirport: 'ZZZ' }] }, 'itinerary.segments.0.departureAirport'],
    ['a date in the past', { segments: [{ departureDate: daysAhead(-3) }] }, 'itinerary.segments.0.departureDate'],
    [
      'a return before the outbound',
      { segments: [{}, { departureDate: daysAhead(50) }] },
      'itinerary.segments.1.departureDate',
    ],
    ['more than 9 passengers', { passengers: 10 }, 'itinerary.passengers'],
    ['no passengers', { passengers: 0 }, 'itinerary.passengers'],
    ['a price of 0', { pricePaid: 0 }, 'itinerary.pricePaid'],
    ['a price above $100,000', { pricePaid: 10_000_001 }, 'itinerary.pricePaid'],
    ['a currency we do not handle', { currency: 'XAU' }, 'itinerary.currency'],
    [
      'a flight number that is not airline+digits',
      { segments: [{ flightNumber: 'LUFT' }] },
      'itinerary.segments.0.flightNumber',
    ],
  ])('refuses %s with a 400 on the field: nothing stored, no fare-source call', async (_what, change, field) => {
    const user = await registerUser(api);
    const base = lufthansa();
    const segments = (base.segments as Body[]).map((segment, i) => ({
      ...segment,
      ...((change as { segments?: Body[] }).segments?.[i] ?? {}),
    }));
    const { segments: _ignored, ...rest } = change as Body;
    const res = await addManual(user, {
      airline: 'Lufthansa',
      bookingCode: code('NOTFOUND'),
      itinerary: { ...base, ...rest, segments },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect((res.body.errors as { field: string }[]).map((e) => e.field)).toContain(field);
    expect(await stored(user.id)).toBe(0);
    expect(await fareCalls(user.id)).toBe(0);
  });

  it('counts the verifying quote in the fare budget: a spent budget refuses before quoting', async () => {
    const user = await registerUser(api);
    await sql`insert into private.fare_source_calls (user_id, flight_id, kind)
              select ${user.id}, null, 'add' from generate_series(1, 60)`;
    const res = await addManual(user, { airline: 'Lufthansa', bookingCode: code('NOTFOUND'), itinerary: lufthansa() });
    expect(res.status, JSON.stringify(res.body)).toBe(429);
    expect(await stored(user.id)).toBe(0);
  });
});

describe('the whole party', () => {
  async function retrieved(user: RegisteredUser, bookingCode: string): Promise<Flight> {
    const res = await addManual(user, { airline: 'United Airlines', bookingCode });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.flight;
  }

  async function checked(user: RegisteredUser, flight: Flight): Promise<Flight> {
    const res = await api.post<CheckPriceResponse>(`/flights/${flight.id}/check-price`, {}, token(user));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.flight;
  }

  it('carries passengerCount in every flight answer and keeps the booking total', async () => {
    const user = await registerUser(api);
    const one = await retrieved(user, code('DROP'));
    const four = await retrieved(user, code('DROPPARTY4'));
    expect(one.passengerCount).toBe(1);
    expect(four.passengerCount).toBe(4);
    const list = await api.get<{ flights: Flight[] }>('/flights', token(user));
    expect(list.body.flights.map((f) => f.passengerCount).sort()).toEqual([1, 4]);
    // four seats of the same flight: the total is four fares
    const after = await checked(user, four);
    expect(after.currentPrice).toBe(4 * Math.round((after.originalPrice / 4) * 0.8));
  });

  it('a drop on offer for two seats alerts a party of two and never a party of three', async () => {
    const user = await registerUser(api);
    const two = await checked(user, await retrieved(user, code('SEATS2PARTY2')));
    expect(two.status).toBe('price_drop');
    expect(two.currentPrice).toBeLessThan(two.originalPrice);

    const three = await checked(user, await retrieved(user, code('SEATS2PARTY3')));
    expect(three.passengerCount).toBe(3);
    expect(three.status).toBe('monitoring');
    expect(three.currentPrice).toBe(three.originalPrice);
    const [alerts] = await sql<{ n: number }[]>`
      select count(*)::int as n from public.notification_history
       where user_id = ${user.id} and flight_id = ${three.id}`;
    expect(alerts?.n).toBe(0);
  });
});

describe('a new flight is checked at once', () => {
  it('enqueues its first quote, which the job runner records within the fare budget', async () => {
    const user = await registerUser(api);
    const res = await addManual(user, { airline: 'Delta Air Lines', bookingCode: code('K') });
    expect(res.status).toBe(201);
    const flight = res.body.flight;
    expect(flight.lastChecked).toBeNull();
    const [job] = await sql<{ status: string; due: boolean }[]>`
      select status, run_at <= now() + interval '1 minute' as due from public.jobs
       where kind = 'first_price_check' and dedupe_key = ${`first_price_check:${flight.id}`}`;
    expect(job).toEqual({ status: 'queued', due: true });

    const cronSecret = await readFile(path.join(path.dirname(api.stack.signingKeyPath), 'cron-secret'), 'utf8');
    const run = await api.post(
      '/internal/jobs',
      { kinds: ['first_price_check'] },
      { headers: { Authorization: `Bearer ${cronSecret.trim()}` } },
    );
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    const [after] = await sql<{ last_checked: Date | null; current_price: number | null }[]>`
      select last_checked, current_price from public.flights where id = ${flight.id}`;
    expect(after?.last_checked).not.toBeNull();
    expect(after?.current_price).toBeGreaterThan(0);
    const [calls] = await sql<{ n: number }[]>`
      select count(*)::int as n from private.fare_source_calls where user_id = ${user.id} and kind = 'check'`;
    expect(calls?.n).toBe(1);
  });
});

describe('GET /api/airlines', () => {
  it('lists every airline of the dataset once, ours first, with automatic rebooking where FareBack does it', async () => {
    const res = await api.get<AirlinesResponse>('/airlines');
    expect(res.status).toBe(200);
    const airlines = res.body.airlines;
    expect(airlines.length).toBeGreaterThan(500);
    expect(new Set(airlines.map((a) => a.code)).size).toBe(airlines.length);
    expect(airlines.find((a) => a.code === 'LH')).toMatchObject({ name: 'Lufthansa', automaticRebooking: true });
    expect(airlines.find((a) => a.code === 'EI')).toMatchObject({ name: 'Aer Lingus', automaticRebooking: false });
    expect(airlines.find((a) => a.code === 'DL')?.manageBookingUrl).toMatch(/^https:\/\/www\.delta\.com/);
  });
});
