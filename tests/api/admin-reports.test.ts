// The admin dashboard's stats and its flights and billing lists over HTTP: GET /api/admin/stats,
// /api/admin/flights and /api/admin/billing. The stats count every traveller of the database, so
// this file runs its own stack and arranges a known dataset (four accounts, ten flights, six
// transactions) on which every number is exact. Definitions: docs/architecture.md, "Admin API:
// stats and lists".
import type postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ListPage } from '../../supabase/functions/_shared/schemas/pagination.ts';
import type {
  AdminActivityDay,
  AdminFlight,
  AdminStatsResponse,
  AdminTransaction,
} from '../../supabase/functions/_shared/types/admin.ts';
import type { ApiClient } from './client.ts';
import { newIp, putOnPremium, registerUser, type RegisteredUser } from './factories.ts';
import { startOwnStack, type OwnStack } from './own-stack.ts';

let own: OwnStack;
let api: ApiClient;
let sql: postgres.Sql;
let admin: RegisteredUser;
/** Premium (25% commission). */
let t1: RegisteredUser;
/** Free, and the non-admin the calls refuse. */
let t2: RegisteredUser;
/** Premium, signed up 31 days ago. */
let t3: RegisteredUser;

const DAY = 86_400_000;
const ago = (days: number, hours = 0) => new Date(Date.now() - days * DAY - hours * 3_600_000);
const dayOf = (d: Date) => d.toISOString().slice(0, 10);
/** A departure day `days` from today (UTC), as the database stores it. */
const inDays = (days: number) => dayOf(new Date(Date.now() + days * DAY));

interface FlightRow {
  code: string;
  user: () => RegisteredUser;
  airline: string;
  flightNumber: string;
  from: string;
  to: string;
  departure: string;
  status: string;
  original: number;
  current: number | null;
  eligible: boolean;
  /** The fare brand, when the rulebook must see it (public.airline_rules matches it). */
  fareType?: string;
  lastChecked: Date | null;
  rebooked?: { at: Date; price: number; credit: number };
}

// Created in this order, a minute apart: the newest is the last.
const FLIGHTS: FlightRow[] = [
  {
    code: 'RPTA01',
    user: () => t1,
    airline: 'Delta Air Lines',
    flightNumber: 'DL100',
    from: 'ATL',
    to: 'BOS',
    departure: inDays(30),
    status: 'rebooked',
    original: 50000,
    current: 39999,
    eligible: true,
    lastChecked: ago(2),
    rebooked: { at: ago(1), price: 39999, credit: 10001 },
  },
  {
    code: 'RPTA02',
    user: () => t1,
    airline: 'Delta Air Lines',
    flightNumber: 'DL200',
    from: 'ATL',
    to: 'MIA',
    departure: inDays(-10),
    status: 'rebooked',
    original: 30000,
    current: 25000,
    eligible: true,
    lastChecked: ago(41),
    rebooked: { at: ago(40), price: 25000, credit: 5000 },
  },
  {
    code: 'RPTB03',
    user: () => t1,
    airline: 'United Airlines',
    flightNumber: 'UA300',
    from: 'JFK',
    to: 'LAX',
    departure: inDays(20),
    status: 'price_drop',
    original: 50000,
    current: 30000,
    eligible: true,
    lastChecked: ago(3),
  },
  {
    code: 'RPTB04',
    user: () => t1,
    airline: 'United Airlines',
    flightNumber: 'UA400',
    from: 'LAX',
    to: 'JFK',
    departure: inDays(25),
    status: 'price_drop',
    original: 40000,
    current: 35000,
    eligible: false,
    fareType: 'Basic Economy',
    lastChecked: ago(3, 1),
  },
  {
    code: 'RPTC05',
    user: () => t1,
    airline: 'JetBlue',
    flightNumber: 'B6500',
    from: 'JFK',
    to: 'SFO',
    departure: inDays(10),
    status: 'monitoring',
    original: 20000,
    current: 20000,
    eligible: true,
    lastChecked: ago(0, 5),
  },
  {
    code: 'RPTC06',
    user: () => t2,
    airline: 'JetBlue',
    flightNumber: 'B6600',
    from: 'BOS',
    to: 'SFO',
    departure: inDays(5),
    status: 'monitoring',
    original: 15000,
    current: null,
    eligible: true,
    lastChecked: null,
  },
  {
    code: 'RPTD07',
    user: () => t2,
    airline: 'Alaska Airlines',
    flightNumber: 'AS700',
    from: 'SEA',
    to: 'SFO',
    departure: inDays(-3),
    status: 'departed',
    original: 10000,
    current: 10000,
    eligible: true,
    lastChecked: ago(4),
  },
  {
    code: 'RPTD08',
    user: () => t2,
    airline: 'Alaska Airlines',
    flightNumber: 'AS800',
    from: 'SEA',
    to: 'LAX',
    departure: inDays(15),
    status: 'cancelled',
    original: 12000,
    current: null,
    eligible: true,
    lastChecked: null,
  },
  {
    code: 'RPTD09',
    user: () => t2,
    airline: 'Alaska Airlines',
    flightNumber: 'AS900',
    from: 'SEA',
    to: 'JFK',
    departure: inDays(-2),
    status: 'monitoring',
    original: 11000,
    current: 11000,
    eligible: true,
    lastChecked: ago(5),
  },
  {
    code: 'RPTE10',
    user: () => t3,
    airline: 'Delta Air Lines',
    flightNumber: 'DL1000',
    from: 'DTW',
    to: 'LAX',
    departure: inDays(40),
    status: 'rebooked',
    original: 60000,
    current: 49998,
    eligible: true,
    lastChecked: ago(0, 5),
    rebooked: { at: ago(0, 1), price: 49998, credit: 10002 },
  },
];

const ids = new Map<string, number>();

beforeAll(async () => {
  own = await startOwnStack('admin-reports');
  ({ api, sql } = own);
  admin = await registerUser(api);
  await sql`update public.profiles set is_admin = true where id = ${admin.id}`;
  t1 = await registerUser(api);
  t2 = await registerUser(api);
  t3 = await registerUser(api);
  await putOnPremium(sql, t1.id);
  await putOnPremium(sql, t3.id);
  await sql`update public.profiles set created_at = ${ago(31)} where id = ${t3.id}`;
  await sql`update public.profiles set commission_owed = 3000, commission_paid = 1250 where id = ${t1.id}`;
  await sql`update public.profiles set commission_owed = 2500 where id = ${t3.id}`;

  for (const [i, f] of FLIGHTS.entries()) {
    const [row] = await sql<{ id: string }[]>`
      insert into public.flights (
        user_id, airline, flight_number, booking_code, passenger_last_name, departure_airport, arrival_airport,
        departure_date, status, original_price, current_price, is_eligible_for_rebooking, fare_type, last_checked,
        has_been_rebooked, rebooking_date, rebooking_price, airline_credit, created_at,
        commission_rate, commission_amount)
      values (
        ${f.user().id}, ${f.airline}, ${f.flightNumber}, ${f.code}, 'Lee', ${f.from}, ${f.to},
        ${f.departure}, ${f.status}, ${f.original}, ${f.current}, ${f.eligible}, ${f.fareType ?? null}, ${f.lastChecked},
        ${f.rebooked !== undefined}, ${f.rebooked?.at ?? null}, ${f.rebooked?.price ?? null},
        ${f.rebooked?.credit ?? null}, ${new Date(Date.now() - (FLIGHTS.length - i) * 60_000)},
        -- what private.record_rebooking stores: the traveller's plan rate at the time, and the amount
        ${f.rebooked ? 25 : null}, ${f.rebooked ? sql`private.commission_on(${f.rebooked.credit}, 25)` : null})
      returning id`;
    ids.set(f.code, Number(row?.id));
  }

  // billing: created in this order, an hour apart (the newest last)
  const transactions: Array<[RegisteredUser, string, string, number]> = [
    [t1, 'subscription', 'completed', 2499],
    [t1, 'commission', 'completed', 1250],
    [t1, 'commission', 'pending', 3000],
    [t2, 'subscription', 'failed', 2499],
    [t3, 'subscription', 'completed', 2499],
    [t3, 'commission', 'pending', 2500],
  ];
  for (const [i, [user, type, status, amount]] of transactions.entries()) {
    await sql`
      insert into public.billing_transactions (user_id, type, status, amount, description, transaction_date)
      values (${user.id}, ${type}, ${status}, ${amount}, ${`${type} ${i + 1}`},
              ${new Date(Date.now() - (transactions.length - i) * 3_600_000)})`;
  }
});

afterAll(async () => {
  await own?.stop();
});

const as = (user: RegisteredUser) => ({ token: user.session.access_token, ip: newIp() });

describe('every admin report call', () => {
  it.each(['/admin/stats', '/admin/flights', '/admin/billing'])(
    '%s: 401 signed out, 403 for a traveller',
    async (path) => {
      expect((await api.get(path)).status).toBe(401);
      const refused = await api.get(path, as(t2));
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ message: 'Admin access required' });
    },
  );
});

describe('GET /api/admin/stats', () => {
  it('answers every stat of the dataset, exactly', async () => {
    const res = await api.get<AdminStatsResponse>('/admin/stats', as(admin));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { series, ...stats } = res.body;
    expect(stats).toEqual({
      totalUsers: 4,
      premiumUsers: 2,
      freeUsers: 2,
      // t3 signed up 31 days ago
      newUsersLast30Days: 3,
      totalFlights: 10,
      // watched: not rebooked, departed or cancelled, and not past their day (B03, B04, C05, C06)
      currentlyMonitoredFlights: 4,
      // departure day today or later, whatever the status (A01, B03, B04, C05, C06, D08, E10)
      upcomingFlights: 7,
      // B03 qualifies (net $200 >= $50); B04's fare (United Basic Economy) cannot be changed
      potentialRebookableFlights: 1,
      // A01, A02, B03, B04, E10: a fare below the price paid was found on them
      totalPriceDrops: 5,
      totalRebookedFlights: 3,
      // A02 was rebooked 40 days ago
      rebookingsLast30Days: 2,
      totalSavings: 10001 + 5000 + 10002,
      // 25003 / 3 = 8334.33
      averageSavingsPerRebooking: 8334,
      totalCommissionsOwed: 5500,
      totalCommissionsPaid: 1250,
      // no drop of this dataset went through a second quote and an alert
      alertedDrops: 0,
      alertsJudged: 0,
      alertPrecision: null,
    });
    expect(series).toHaveLength(30);
  });

  it('answers the alert precision: of the alerted drops whose fare was tried since, the share that held', async () => {
    const flightId = ids.get('RPTB03');
    const [flight] = await sql<{ user_id: string; original_price: number }[]>`
      select user_id, original_price from public.flights where id = ${flightId ?? 0}`;
    if (!flight) throw new Error('no B03');
    for (const held of [true, true, false, null]) {
      await sql`
        insert into private.price_drops (flight_id, user_id, original_price, currency, state, resolved_at,
                                         alerted_at, held, held_at)
        values (${flightId ?? 0}, ${flight.user_id}, ${flight.original_price}, 'USD', 'confirmed', now(),
                now(), ${held}, ${held === null ? null : new Date()})`;
    }
    // neither a drop never alerted nor one unconfirmed counts
    await sql`
      insert into private.price_drops (flight_id, user_id, original_price, currency, state, reason, resolved_at)
      values (${flightId ?? 0}, ${flight.user_id}, ${flight.original_price}, 'USD', 'unconfirmed', 'fare_vanished', now())`;
    try {
      const res = await api.get<AdminStatsResponse>('/admin/stats', as(admin));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ alertedDrops: 4, alertsJudged: 3, alertPrecision: 67 });
    } finally {
      await sql`delete from private.price_drops where flight_id = ${flightId ?? 0}`;
    }
  });

  it('answers one day per UTC day of the span, oldest first, zeros included', async () => {
    const res = await api.get<AdminStatsResponse>('/admin/stats?days=7', as(admin));
    expect(res.status).toBe(200);
    const today = Date.now();
    const expected: AdminActivityDay[] = Array.from({ length: 7 }, (_, i) => ({
      date: dayOf(new Date(today - (6 - i) * DAY)),
      priceDrops: 0,
      rebookings: 0,
      savings: 0,
    }));
    const on = (d: Date) => {
      const day = expected.find((e) => e.date === dayOf(d));
      if (!day) throw new Error(`${dayOf(d)} is outside the span`);
      return day;
    };
    for (const f of FLIGHTS) {
      // a drop counts on the day it was first found: its check (or, without one, its rebooking)
      const found = f.current !== null && f.current < f.original ? (f.lastChecked ?? f.rebooked?.at) : undefined;
      if (found && found.getTime() > today - 6 * DAY - (today % DAY)) on(found).priceDrops += 1;
      if (f.rebooked && f.rebooked.at.getTime() > today - 6 * DAY - (today % DAY)) {
        on(f.rebooked.at).rebookings += 1;
        on(f.rebooked.at).savings += f.rebooked.credit;
      }
    }
    expect(res.body.series).toEqual(expected);
    expect(res.body.series.filter((d) => d.priceDrops + d.rebookings === 0).length).toBeGreaterThan(0);
    expect(res.body.series.reduce((n, d) => n + d.priceDrops, 0)).toBe(4);
    expect(res.body.series.reduce((n, d) => n + d.savings, 0)).toBe(20003);
  });

  it('spans 7 to 365 days', async () => {
    const year = await api.get<AdminStatsResponse>('/admin/stats?days=365', as(admin));
    expect(year.status).toBe(200);
    expect(year.body.series).toHaveLength(365);
    expect(year.body.series.at(-1)?.date).toBe(dayOf(new Date()));
    expect(year.body.series.reduce((n, d) => n + d.rebookings, 0)).toBe(3);
  });

  it.each([
    ['days=6', 'days', 'Days must be a whole number from 7 to 365'],
    ['days=366', 'days', 'Days must be a whole number from 7 to 365'],
    ['days=7.5', 'days', 'Days must be a whole number from 7 to 365'],
    ['days=week', 'days', 'Days must be a whole number from 7 to 365'],
    ['from=2026-01-01', '', 'Unknown field: from'],
  ])('refuses ?%s with 400', async (params, field, message) => {
    const res = await api.get<{ message: string; errors: Array<{ field: string; message: string }> }>(
      `/admin/stats?${params}`,
      as(admin),
    );
    expect(res.status).toBe(400);
    expect(res.body.errors).toContainEqual({ field, message });
  });
});

type Page<T> = ListPage<T>;

/** One page of an admin list, as the admin; 200 expected. */
async function list<T>(name: 'flights' | 'billing', params: string): Promise<Page<T>> {
  const res = await api.get<Page<T>>(`/admin/${name}?${params}`, as(admin));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** Refuses the query with 400, naming the field. */
async function refused(name: 'flights' | 'billing', params: string, field: string) {
  const res = await api.get<{ errors: Array<{ field: string }> }>(`/admin/${name}?${params}`, as(admin));
  expect(res.status).toBe(400);
  expect(res.body.errors.map((e) => e.field)).toContain(field);
}

const flights = (params: string) => list<AdminFlight>('flights', params);
const billing = (params: string) => list<AdminTransaction>('billing', params);

const codes = (page: Page<AdminFlight>) => page.items.map((f) => f.bookingCode);

describe('GET /api/admin/flights', () => {
  it("pages every traveller's flights, newest first", async () => {
    const first = await flights('pageSize=3');
    expect(first).toMatchObject({ total: 10, page: 1, pageSize: 3 });
    expect(codes(first)).toEqual(['RPTE10', 'RPTD09', 'RPTD08']);
    expect(codes(await flights('pageSize=3&page=2'))).toEqual(['RPTD07', 'RPTC06', 'RPTC05']);
    const last = await flights('pageSize=3&page=4');
    expect(codes(last)).toEqual(['RPTA01']);
    expect(last.total).toBe(10);
    const past = await flights('pageSize=3&page=5');
    expect(past).toEqual({ items: [], total: 10, page: 5, pageSize: 3 });
    const oldest = await flights('order=asc&pageSize=2');
    expect(codes(oldest)).toEqual(['RPTA01', 'RPTA02']);
  });

  it("answers each flight with its traveller, raw status and the commission recorded at the plan's rate, rounded", async () => {
    const all = await flights('pageSize=100');
    const by = (code: string) => all.items.find((f) => f.bookingCode === code);
    expect(by('RPTA01')).toEqual({
      id: ids.get('RPTA01'),
      userId: t1.id,
      username: t1.username,
      email: t1.email,
      airline: 'Delta Air Lines',
      flightNumber: 'DL100',
      bookingCode: 'RPTA01',
      departureAirport: 'ATL',
      arrivalAirport: 'BOS',
      departureDate: FLIGHTS[0]?.departure,
      status: 'rebooked',
      hasBeenRebooked: true,
      originalPrice: 50000,
      currentPrice: 39999,
      rebookingPrice: 39999,
      airlineCredit: 10001,
      commissionRate: 25,
      // 2500.25
      commission: 2500,
      creditReview: null,
      lastChecked: FLIGHTS[0]?.lastChecked?.toISOString(),
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    // 2500.5 rounds up; 5000 at 25% is 1250
    expect(by('RPTE10')).toMatchObject({ airlineCredit: 10002, commissionRate: 25, commission: 2501 });
    expect(by('RPTA02')).toMatchObject({ commission: 1250 });
    // no credit: no commission; a free traveller's rate is 0
    expect(by('RPTB03')).toMatchObject({ status: 'price_drop', airlineCredit: null, commission: 0 });
    expect(by('RPTC06')).toMatchObject({ commissionRate: 0, commission: 0, currentPrice: null, lastChecked: null });
    expect(by('RPTD07')?.status).toBe('departed');
    expect(by('RPTD08')?.status).toBe('cancelled');
  });

  it('reads the commission recorded with the rebooking: a downgrade or a new plan rate never changes it', async () => {
    const premium = sql`(select id from public.subscription_plans where tier = 'premium' order by id limit 1)`;
    try {
      await sql`update public.profiles
                   set plan_id = (select id from public.subscription_plans where tier = 'free' order by id limit 1)
                 where id = ${t1.id}`;
      await sql`update public.subscription_plans set commission_rate = 40 where id = ${premium}`;
      const all = await flights('pageSize=100');
      const by = (code: string) => all.items.find((f) => f.bookingCode === code);
      expect(by('RPTA01')).toMatchObject({ commissionRate: 25, commission: 2500 });
      expect(by('RPTE10')).toMatchObject({ commissionRate: 25, commission: 2501 });
      // a flight not rebooked has no commission, whatever its traveller's plan
      expect(by('RPTC05')).toMatchObject({ commissionRate: 0, commission: 0 });
    } finally {
      await sql`update public.subscription_plans set commission_rate = 25 where id = ${premium}`;
      await putOnPremium(sql, t1.id);
    }
  });

  it.each([
    ['rpta0', ['RPTA02', 'RPTA01']],
    ['lta air', ['RPTE10', 'RPTA02', 'RPTA01']],
    ['ua4', ['RPTB04']],
    ['JFK', ['RPTD09', 'RPTC05', 'RPTB04', 'RPTB03']],
    ['JFK-LAX', ['RPTB03']],
    ['lax-jfk', ['RPTB04']],
    ['SEA to LAX', ['RPTD08']],
    ['50%', []],
    ['DL_00', []],
  ])('searches %j: booking code, airline, flight number or route', async (q, expected) => {
    const page = await flights(`q=${encodeURIComponent(q)}`);
    expect(codes(page)).toEqual(expected);
    expect(page.total).toBe(expected.length);
  });

  it('sorts by each key, empty values last either way', async () => {
    const byPrice = await flights('sort=originalPrice&order=asc&pageSize=100');
    const prices = byPrice.items.map((f) => f.originalPrice);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    const byCredit = await flights('sort=airlineCredit&order=desc&pageSize=4');
    expect(byCredit.items.map((f) => f.airlineCredit)).toEqual([10002, 10001, 5000, null]);
    const creditAsc = await flights('sort=airlineCredit&order=asc&pageSize=4');
    expect(creditAsc.items.map((f) => f.airlineCredit)).toEqual([5000, 10001, 10002, null]);
    const byDeparture = await flights('sort=departureDate&order=asc&pageSize=2');
    expect(codes(byDeparture)).toEqual(['RPTA02', 'RPTD07']);
    const byUser = await flights('sort=user&order=asc&pageSize=100');
    const names = byUser.items.map((f) => f.username);
    expect(names).toEqual([...names].sort());
    for (const sort of ['airline', 'bookingCode', 'status', 'createdAt']) {
      expect((await flights(`sort=${sort}&order=desc`)).total).toBe(10);
    }
    expect(codes(await flights('sort=bookingCode&order=asc&pageSize=2'))).toEqual(['RPTA01', 'RPTA02']);
  });

  it.each([
    ['sort=price', 'sort'],
    ['order=up', 'order'],
    ['page=0', 'page'],
    ['pageSize=101', 'pageSize'],
    [`q=${'x'.repeat(101)}`, 'q'],
    ['status=rebooked', ''],
  ])('refuses ?%s with 400 naming %j', async (params, field) => {
    await refused('flights', params, field);
  });
});

const descriptions = (page: Page<AdminTransaction>) => page.items.map((t) => t.description);

describe('GET /api/admin/billing', () => {
  it("pages every traveller's transactions, newest first, with the traveller", async () => {
    const first = await billing('pageSize=4');
    expect(first).toMatchObject({ total: 6, page: 1, pageSize: 4 });
    expect(descriptions(first)).toEqual(['commission 6', 'subscription 5', 'subscription 4', 'commission 3']);
    expect(descriptions(await billing('pageSize=4&page=2'))).toEqual(['commission 2', 'subscription 1']);
    expect(first.items[0]).toEqual({
      id: expect.any(Number),
      userId: t3.id,
      username: t3.username,
      email: t3.email,
      date: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      type: 'commission',
      amount: 2500,
      status: 'pending',
      description: 'commission 6',
      paymentMethod: null,
      paymentReference: null,
    });
  });

  it("searches the traveller's username and email, the type and the status", async () => {
    const mine = await billing(`q=${t1.username.slice(-6)}`);
    expect(mine.items.every((t) => t.userId === t1.id)).toBe(true);
    expect(mine.total).toBe(3);
    expect((await billing(`q=${encodeURIComponent(t2.email.toUpperCase())}`)).total).toBe(1);
    expect(descriptions(await billing('q=pend'))).toEqual(['commission 6', 'commission 3']);
    expect((await billing('q=commission')).total).toBe(3);
    expect(descriptions(await billing('q=FAILED'))).toEqual(['subscription 4']);
    expect((await billing('q=refund')).total).toBe(0);
    expect((await billing('q=%25')).total).toBe(0);
  });

  it('sorts by amount, type, status, user and date', async () => {
    const byAmount = await billing('sort=amount&order=asc');
    expect(byAmount.items.map((t) => t.amount)).toEqual([1250, 2499, 2499, 2499, 2500, 3000]);
    const byStatus = await billing('sort=status&order=asc');
    expect(byStatus.items.map((t) => t.status)).toEqual([
      'completed',
      'completed',
      'completed',
      'failed',
      'pending',
      'pending',
    ]);
    const byType = await billing('sort=type&order=desc&pageSize=3');
    expect(byType.items.map((t) => t.type)).toEqual(['subscription', 'subscription', 'subscription']);
    const byUser = await billing('sort=user&order=asc');
    const names = byUser.items.map((t) => t.username);
    expect(names).toEqual([...names].sort());
    expect(descriptions(await billing('sort=date&order=asc&pageSize=1'))).toEqual(['subscription 1']);
  });

  it.each([
    ['sort=createdAt', 'sort'],
    ['page=-1', 'page'],
    ['pageSize=0', 'pageSize'],
    ['type=commission', ''],
  ])('refuses ?%s with 400 naming %j', async (params, field) => {
    await refused('billing', params, field);
  });
});
