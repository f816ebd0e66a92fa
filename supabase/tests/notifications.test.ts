// The notification outbox (migration 20261125110000_notification_outbox.sql) on a real database:
// private.queue_notification writes a row once per dedupe key, applies the traveller's switches,
// thresholds and frequency, and enqueues an instant row's delivery, premium travellers' ahead of
// free ones. Called as the api's role, as the api and the other areas' SQL call it.
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../dev/db/test-db.ts';
import { claimJobs } from '../functions/api/queries/jobs.ts';
import { createDb, type Db } from '../functions/api/db.ts';
import { attempt, createUser, DENIED, setPlan, user, type Sql, type TestUser } from './factories.ts';

let database: TestDatabase;
let sql: Sql;
let api: Db;

beforeAll(async () => {
  database = await createTestDatabase();
  sql = postgres(database.url, {
    max: database.singleSession ? 1 : 4,
    prepare: !database.singleSession,
    onnotice: () => {},
  });
  api = createDb({ databaseUrl: database.ownerUrl, singleSession: database.singleSession });
});

afterAll(async () => {
  await api?.close();
  await sql?.end();
  await database?.close();
});

async function traveller(options: { premium?: boolean; confirmed?: boolean } = {}): Promise<TestUser> {
  const created = await createUser(sql, { premium: options.premium });
  if (options.confirmed !== false) {
    await sql`update public.profiles set email_confirmed_at = now() where id = ${created.id}`;
  }
  return created;
}

const priceDrop = (oldPrice: number, newPrice: number) => ({
  airline: 'JetBlue Airways',
  flightNumber: 'B6 123',
  departureAirport: 'JFK',
  arrivalAirport: 'LAX',
  oldPrice,
  newPrice,
  netSavings: oldPrice - newPrice,
  qualifies: true,
  reason: 'test',
});

/** Queues as the api's role; answers the row id (null: not wanted). */
async function queue(
  userId: string,
  type: string,
  data: Record<string, unknown> = {},
  dedupeKey: string | null = null,
): Promise<number | null> {
  const [row] = await api.asService(
    (tx) => tx<{ id: string | null }[]>`
      select private.queue_notification(${userId}::uuid, ${type},
        ${tx.json(data as postgres.JSONValue)}, null, ${dedupeKey}) as id`,
  );
  return row?.id === null || row?.id === undefined ? null : Number(row.id);
}

async function jobFor(notificationId: number) {
  const [job] = await sql<{ kind: string; priority: number; payload: { notificationId: number } }[]>`
    select kind, priority, payload from public.jobs where dedupe_key = ${`notification_email:${notificationId}`}`;
  return job;
}

describe('queue_notification', () => {
  it('writes a pending row and enqueues its delivery, once per dedupe key', async () => {
    const t = await traveller();
    const id = await queue(t.id, 'rebooking', { newPrice: 100 }, 'rebooking:flight:1');
    expect(id).not.toBeNull();
    expect(await queue(t.id, 'rebooking', { newPrice: 100 }, 'rebooking:flight:1')).toBe(id);
    const rows =
      await sql`select status, delivery, type, data from public.notification_history where user_id = ${t.id}`;
    expect(rows).toEqual([{ status: 'pending', delivery: 'instant', type: 'rebooking', data: { newPrice: 100 } }]);
    expect(await jobFor(id!)).toEqual({ kind: 'notification_email', priority: 0, payload: { notificationId: id } });
    // another traveller may use the same key
    const other = await traveller();
    expect(await queue(other.id, 'rebooking', {}, 'rebooking:flight:1')).not.toBe(id);
  });

  it('writes nothing for an unconfirmed address or a kind the traveller turned off', async () => {
    const unconfirmed = await traveller({ confirmed: false });
    expect(await queue(unconfirmed.id, 'rebooking')).toBeNull();

    const t = await traveller();
    await sql`update public.profiles set notify_rebookings = false, notify_cancellations = false,
                     unsubscribed_kinds = '{credit_expiring}' where id = ${t.id}`;
    expect(await queue(t.id, 'rebooking')).toBeNull();
    expect(await queue(t.id, 'action_needed')).toBeNull();
    expect(await queue(t.id, 'flight_cancelled')).toBeNull();
    expect(await queue(t.id, 'credit_expiring')).toBeNull();
    // account messages have no switch
    expect(await queue(t.id, 'payment_failed')).not.toBeNull();
    expect(await queue(t.id, 'price_drop', priceDrop(50000, 40000))).not.toBeNull();

    await sql`update public.profiles set notify_email = false where id = ${t.id}`;
    expect(await queue(t.id, 'payment_failed')).toBeNull();
    const [{ count }] = await sql<[{ count: number }]>`
      select count(*)::int from public.notification_history where user_id = ${t.id}`;
    expect(count).toBe(2);
  });

  it('alerts a price drop only when either threshold is met', async () => {
    const t = await traveller();
    await sql`update public.profiles set min_price_drop = 5000, min_price_drop_percent = 20 where id = ${t.id}`;
    expect(await queue(t.id, 'price_drop', priceDrop(10000, 9000))).toBeNull(); // $10, 10%
    expect(await queue(t.id, 'price_drop', priceDrop(10000, 8000))).not.toBeNull(); // 20%
    expect(await queue(t.id, 'price_drop', priceDrop(100000, 95000))).not.toBeNull(); // $50
    expect(await queue(t.id, 'price_drop', priceDrop(10000, 10500))).toBeNull(); // a rise
    await sql`update public.profiles set notify_price_drops = false where id = ${t.id}`;
    expect(await queue(t.id, 'price_drop', priceDrop(100000, 50000))).toBeNull();
  });

  it('leaves daily and weekly travellers news for the digest, but never a cancellation', async () => {
    const t = await traveller();
    await sql`update public.profiles set notification_frequency = 'weekly' where id = ${t.id}`;
    const drop = await queue(t.id, 'price_drop', priceDrop(50000, 40000));
    const cancelled = await queue(t.id, 'flight_cancelled', { airline: 'X', flightNumber: '1', route: 'A to B' });
    const [dropRow] = await sql`select delivery from public.notification_history where id = ${drop}`;
    expect(dropRow).toEqual({ delivery: 'digest' });
    expect(await jobFor(drop!)).toBeUndefined();
    expect(await jobFor(cancelled!)).toMatchObject({ kind: 'notification_email' });
  });

  it("queues premium travellers' alerts ahead of free ones", async () => {
    const free = await traveller();
    const premium = await traveller({ premium: true });
    const freeId = await queue(free.id, 'rebooking');
    const premiumId = await queue(premium.id, 'rebooking');
    expect((await jobFor(premiumId!))?.priority).toBe(10);
    // the free one is older, the premium one is claimed first
    await sql`update public.jobs set run_at = now() - interval '1 minute' where dedupe_key = ${`notification_email:${freeId}`}`;
    const claimed = await api.asService((tx) =>
      claimJobs<{ notificationId: number }>(tx, {
        kinds: ['notification_email'],
        worker: 'w',
        limit: 50,
        leaseSeconds: 30,
      }),
    );
    const order = claimed.map((job) => job.payload.notificationId);
    expect(order.indexOf(premiumId!)).toBeLessThan(order.indexOf(freeId!));
    await setPlan(sql, premium.id, 'free');
  });

  it('refuses an unknown traveller', async () => {
    await expect(queue('00000000-0000-4000-8000-000000000000', 'rebooking')).rejects.toThrow(/no traveller/);
  });

  it('is not for end users', async () => {
    const t = await traveller();
    const outcome = await attempt(
      sql,
      user(t.id),
      (tx) => tx`select private.queue_notification(${t.id}::uuid, 'rebooking', '{}'::jsonb)`,
    );
    expect(outcome).toMatchObject({ error: DENIED });
  });
});

describe('unsubscribe and time zone', () => {
  it('turns one kind off', async () => {
    const t = await traveller();
    const off = (kind: string) =>
      api.asService(async (tx) => {
        const [row] = await tx<
          { ok: boolean }[]
        >`select private.unsubscribe_notification_kind(${t.id}::uuid, ${kind}) as ok`;
        return row?.ok;
      });
    expect(await off('price_drop')).toBe(true);
    expect(await off('credit_expiring')).toBe(true);
    expect(await off('credit_expiring')).toBe(true);
    expect(await off('payment_failed')).toBe(false);
    expect(await off('action_needed')).toBe(false);
    // account messages of issue 21: a Premium year that ended, money refunded, an admin alert
    expect(await off('subscription_expired')).toBe(false);
    expect(await off('payment_refunded')).toBe(false);
    expect(await off('refund_held')).toBe(false);
    expect(await off('admin_alert')).toBe(false);
    const [profile] = await sql`
      select notify_price_drops, notify_rebookings, unsubscribed_kinds from public.profiles where id = ${t.id}`;
    expect(profile).toEqual({
      notify_price_drops: false,
      notify_rebookings: true,
      unsubscribed_kinds: ['credit_expiring'],
    });
  });

  it('keeps an IANA time zone and refuses anything else', async () => {
    const t = await traveller();
    const [before] = await sql`select time_zone from public.profiles where id = ${t.id}`;
    expect(before).toEqual({ time_zone: 'UTC' });
    await sql`update public.profiles set time_zone = 'America/Argentina/Buenos_Aires' where id = ${t.id}`;
    for (const bad of ['Mars/Olympus', 'EST', 'UTC+5', '', 'Europe/Paris; drop table x']) {
      await expect(sql`update public.profiles set time_zone = ${bad} where id = ${t.id}`).rejects.toThrow(
        /profiles_time_zone_check/,
      );
    }
    // the traveller may set it on their own row
    const outcome = await attempt(
      sql,
      user(t.id),
      (tx) => tx`update public.profiles set time_zone = 'Asia/Tokyo', notify_sms = false where id = ${t.id}`,
    );
    expect(outcome).toEqual({ rows: 1 });
  });
});
