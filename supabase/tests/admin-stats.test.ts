// Migration 20261122001100_admin_reports.sql: private.admin_stats (the admin dashboard's stats and
// chart in one statement) and flights.price_drop_found_at, the time a price drop was first found.
// Each case arranges its rows in a transaction that is rolled back, so every case starts from the
// same database: one admin and one traveller, no flights.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminStatsResponse } from '../functions/_shared/types/admin.ts';
import { recordPriceChecks } from '../functions/api/queries/price-checks.ts';
import {
  actAs,
  apiRole,
  createFlight,
  createUser,
  openTestDatabase,
  setPlan,
  user,
  type TestDb,
  type TestUser,
  type Tx,
} from './factories.ts';

let db: TestDb;
let admin: TestUser;
let traveller: TestUser;

beforeAll(async () => {
  db = await openTestDatabase();
  admin = await createUser(db.sql, { admin: true });
  traveller = await createUser(db.sql);
});

afterAll(async () => {
  await db?.close();
});

/** The stats as `as` sees them, after `setup` (as the superuser, in the same rolled-back transaction). */
function statsAfter(setup: (tx: Tx) => Promise<unknown>, days = 30, as = admin): Promise<AdminStatsResponse> {
  return actAs(
    db.sql,
    user(as.id),
    async (tx) => {
      const [row] = await tx<{ stats: AdminStatsResponse }[]>`select private.admin_stats(${days}::int) as stats`;
      if (!row) throw new Error('no stats');
      return row.stats;
    },
    { setup },
  );
}

/** An account made inside the case's transaction (rolled back with it), signed up `createdAt` (SQL). */
async function account(tx: Tx, createdAt = 'now()'): Promise<string> {
  const id = randomUUID();
  await tx`insert into auth.users (id, email, email_confirmed_at) values (${id}, ${`${id}@example.com`}, now())`;
  await tx`update public.profiles set created_at = ${tx.unsafe(createdAt)} where id = ${id}`;
  return id;
}

/** A rebooked flight: rebooked at `at` (SQL), with `credit` cents of airline credit. */
async function rebooked(tx: Tx, userId: string, at: string, credit: number): Promise<number> {
  const id = await createFlight(tx, userId, { original_price: 50_000, current_price: 40_000 });
  await tx`update public.flights
              set status = 'rebooked', has_been_rebooked = true, rebooking_price = 40000,
                  airline_credit = ${credit}, rebooking_date = ${tx.unsafe(at)}
            where id = ${id}`;
  return id;
}

describe('private.admin_stats', () => {
  it('answers zeros, an average of 0 and a full series of empty days on a database without flights', async () => {
    const stats = await statsAfter(async () => {});
    const { series, ...totals } = stats;
    expect(totals).toEqual({
      totalUsers: 2,
      premiumUsers: 0,
      freeUsers: 2,
      newUsersLast30Days: 2,
      totalFlights: 0,
      currentlyMonitoredFlights: 0,
      upcomingFlights: 0,
      potentialRebookableFlights: 0,
      totalPriceDrops: 0,
      totalRebookedFlights: 0,
      rebookingsLast30Days: 0,
      totalSavings: 0,
      averageSavingsPerRebooking: 0,
      totalCommissionsOwed: 0,
      totalCommissionsPaid: 0,
      alertedDrops: 0,
      alertsJudged: 0,
      alertPrecision: null,
    });
    expect(series).toHaveLength(30);
    expect(series.every((d) => d.priceDrops === 0 && d.rebookings === 0 && d.savings === 0)).toBe(true);
  });

  it('answers an average of 0 when drops were found but nothing was rebooked', async () => {
    const stats = await statsAfter(async (tx) => {
      await createFlight(tx, traveller.id, { original_price: 50_000, current_price: 40_000, status: 'price_drop' });
    });
    expect(stats).toMatchObject({
      totalPriceDrops: 1,
      totalRebookedFlights: 0,
      totalSavings: 0,
      averageSavingsPerRebooking: 0,
      potentialRebookableFlights: 1,
    });
  });

  it('counts new users and rebookings of the last 30 days from exactly 30 days before now', async () => {
    const stats = await statsAfter(async (tx) => {
      // now() is the transaction's start, the same in the setup and the stats
      await account(tx, `now() - interval '30 days'`);
      await account(tx, `now() - interval '30 days 1 microsecond'`);
      await rebooked(tx, traveller.id, `now() - interval '30 days'`, 1000);
      await rebooked(tx, traveller.id, `now() - interval '30 days 1 microsecond'`, 2000);
      await rebooked(tx, traveller.id, `now()`, 4001);
    });
    expect(stats).toMatchObject({
      totalUsers: 4,
      // admin, traveller and the one of exactly 30 days ago
      newUsersLast30Days: 3,
      totalRebookedFlights: 3,
      rebookingsLast30Days: 2,
      totalSavings: 7001,
      // 7001 / 3 = 2333.67
      averageSavingsPerRebooking: 2334,
    });
  });

  it("counts premium travellers by their plan's tier, and the commissions owed and paid", async () => {
    const stats = await statsAfter(async (tx) => {
      const premium = await account(tx);
      await setPlan(tx, premium, 'premium');
      await tx`update public.profiles set commission_owed = 1234, commission_paid = 766 where id = ${premium}`;
      await tx`update public.profiles set commission_owed = 100 where id = ${traveller.id}`;
      // a premium plan renamed is still premium
      await tx`update public.subscription_plans set name = 'Gold' where tier = 'premium'`;
    });
    expect(stats).toMatchObject({ totalUsers: 3, premiumUsers: 1, freeUsers: 2 });
    expect(stats.totalCommissionsOwed).toBe(1334);
    expect(stats.totalCommissionsPaid).toBe(766);
  });

  it('counts watched, upcoming and rebookable flights with the flight rules', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    const stats = await statsAfter(async (tx) => {
      const u = traveller.id;
      // premium: no flight limit
      await setPlan(tx, u, 'premium');
      await createFlight(tx, u, { departure_date: today }); // watched, upcoming
      await createFlight(tx, u, { departure_date: yesterday }); // past its day: neither
      await createFlight(tx, u, { status: 'cancelled' }); // upcoming only
      await createFlight(tx, u, { status: 'departed', departure_date: yesterday }); // neither
      // a drop that qualifies: $100 net on $450 against $50 or 15%
      await createFlight(tx, u, { status: 'price_drop', current_price: 35_000 });
      // a drop below the thresholds ($10), and one on a fare that cannot be changed
      await createFlight(tx, u, { status: 'price_drop', current_price: 44_000 });
      await createFlight(tx, u, { status: 'price_drop', current_price: 30_000, is_eligible_for_rebooking: false });
      // a qualifying drop eaten by the change fee
      const fee = await createFlight(tx, u, { status: 'price_drop', current_price: 35_000 });
      await tx`update public.flights set change_penalty = 10000 where id = ${fee}`;
      // a drop whose day has passed
      await createFlight(tx, u, { status: 'price_drop', current_price: 30_000, departure_date: yesterday });
    });
    expect(stats).toMatchObject({
      totalFlights: 9,
      currentlyMonitoredFlights: 5,
      upcomingFlights: 6,
      potentialRebookableFlights: 1,
      totalPriceDrops: 5,
    });
  });

  it('shows a traveller only their own rows (row-level security backs the admin check)', async () => {
    const stats = await statsAfter(
      async (tx) => {
        const other = await account(tx);
        await createFlight(tx, traveller.id);
        await createFlight(tx, other);
        await createFlight(tx, other);
      },
      30,
      traveller,
    );
    expect(stats).toMatchObject({ totalUsers: 1, totalFlights: 1 });
  });
});

describe('the series', () => {
  it("has one entry per UTC day of the span, oldest first, and counts from the first day's midnight", async () => {
    const stats = await statsAfter(async (tx) => {
      const first = `((now() at time zone 'UTC')::date - 6)::timestamp at time zone 'UTC'`;
      await rebooked(tx, traveller.id, first, 500);
      await rebooked(tx, traveller.id, `${first} - interval '1 microsecond'`, 700);
      await rebooked(tx, traveller.id, `now()`, 900);
      await rebooked(tx, traveller.id, `now()`, 100);
      await tx`update public.flights set price_drop_found_at = ${tx.unsafe(first)} where airline_credit = 500`;
      await tx`update public.flights set price_drop_found_at = ${tx.unsafe(first)} - interval '1 microsecond'
                where airline_credit = 700`;
    }, 7);
    const today = new Date();
    expect(stats.series.map((d) => d.date)).toEqual(
      Array.from({ length: 7 }, (_, i) => new Date(today.getTime() - (6 - i) * 86_400_000).toISOString().slice(0, 10)),
    );
    expect(stats.series[0]).toMatchObject({ priceDrops: 1, rebookings: 1, savings: 500 });
    expect(stats.series.slice(1, 6).every((d) => d.priceDrops + d.rebookings + d.savings === 0)).toBe(true);
    // the two of today were found when they were rebooked (no check recorded)
    expect(stats.series[6]).toEqual({
      date: today.toISOString().slice(0, 10),
      priceDrops: 2,
      rebookings: 2,
      savings: 1000,
    });
  });
});

describe('flights.price_drop_found_at', () => {
  it('is the time of the first check that confirmed a fare below the price paid, and stays', async () => {
    const flightId = await createFlight(db.sql, traveller.id, { original_price: 50_000, current_price: 50_000 });
    const foundAt = async () =>
      (
        await db.sql<{ at: Date | null }[]>`select price_drop_found_at as at from public.flights where id = ${flightId}`
      )[0]?.at ?? null;
    expect(await foundAt()).toBeNull();
    const check = (price: number, at: string) =>
      actAs(
        db.sql,
        apiRole,
        (tx) =>
          recordPriceChecks(
            tx,
            [{ flightId, userId: traveller.id, price, currency: 'USD', checkedAt: new Date(at), source: 'simulated' }],
            { confirming: true },
          ),
        { commit: true },
      );
    await check(50_000, '2026-11-01T10:00:00Z');
    expect(await foundAt()).toBeNull();
    await check(45_000, '2026-11-02T10:00:00Z');
    expect(await foundAt()).toEqual(new Date('2026-11-02T10:00:00Z'));
    // back up, then down again: still the first drop
    await check(52_000, '2026-11-03T10:00:00Z');
    await check(40_000, '2026-11-04T10:00:00Z');
    expect(await foundAt()).toEqual(new Date('2026-11-02T10:00:00Z'));
  });

  it('is set for a flight stored in price_drop, and for a rebooking without a recorded drop', async () => {
    const dropped = await createFlight(db.sql, traveller.id, {
      original_price: 50_000,
      current_price: 30_000,
      status: 'price_drop',
    });
    const plain = await createFlight(db.sql, traveller.id, { original_price: 50_000, current_price: null });
    await db.sql`update public.flights set has_been_rebooked = true, status = 'rebooked',
                   rebooking_date = '2026-11-05T08:00:00Z' where id = ${plain}`;
    const rows = await db.sql<{ id: number; at: Date | null }[]>`
      select id::int, price_drop_found_at as at from public.flights where id in (${dropped}, ${plain}) order by id`;
    expect(rows[0]?.at).not.toBeNull();
    expect(rows[1]?.at).toEqual(new Date('2026-11-05T08:00:00Z'));
  });
});

describe('the admin searches (migration 20261122001100_admin_reports.sql)', () => {
  it('answer an admin the matching ids and anyone else none', async () => {
    const search = (as: TestUser) =>
      actAs(
        db.sql,
        user(as.id),
        async (tx) => ({
          flights: (
            await tx<{ id: string }[]>`select private.admin_flight_ids_matching('%SRCH%', null, null) as id`
          ).map((r) => Number(r.id)),
          route: (
            await tx<{ id: string }[]>`select private.admin_flight_ids_matching('%ORD-DEN%', 'ORD', 'DEN') as id`
          ).map((r) => Number(r.id)),
          airport: (
            await tx<{ id: string }[]>`select private.admin_flight_ids_matching('%DEN%', 'DEN', null) as id`
          ).map((r) => Number(r.id)),
          profiles: (
            await tx<{ id: string }[]>`select private.admin_profile_ids_matching(${`%${traveller.username}%`}) as id`
          ).map((r) => r.id),
        }),
        {
          setup: async (tx) => {
            await createFlight(tx, traveller.id, {
              booking_code: 'XSRCH1',
              departure_airport: 'ORD',
              arrival_airport: 'DEN',
            });
            await createFlight(tx, traveller.id, {
              booking_code: 'XOTHER',
              departure_airport: 'DEN',
              arrival_airport: 'ORD',
            });
          },
        },
      );
    const asAdmin = await search(admin);
    expect(asAdmin.flights).toHaveLength(1);
    expect(asAdmin.route).toEqual(asAdmin.flights);
    expect(asAdmin.airport).toHaveLength(2);
    expect(asAdmin.profiles).toEqual([traveller.id]);
    expect(await search(traveller)).toEqual({ flights: [], route: [], airport: [], profiles: [] });
  });
});
