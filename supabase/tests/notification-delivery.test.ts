// Sending the notification outbox through the job queue on a real database, with the api's own
// handlers (services/notifications.ts) on the api's role and a mailer the test controls:
//   * the mailer failing: the notification is retried after the backoff, never lost, never sent
//     twice; after the last attempt the row is 'failed' and the job a dead letter;
//   * a crash between the send and the commit: the retry sends the same message under the same
//     idempotency key (the mailer's dedupe is what keeps it from reaching the inbox twice);
//   * digests: one email per period and traveller, never an item twice;
//   * credits expiring in 30 and 7 days: one reminder per credit and threshold.
// Time is moved by shifting timestamps as the superuser, never by waiting.
import postgres from 'postgres';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../dev/db/test-db.ts';
import type { OutgoingEmail } from '../functions/_shared/mailer/types.ts';
import type { Config } from '../functions/api/config.ts';
import type { AppDeps } from '../functions/api/context.ts';
import { createDb, type Db } from '../functions/api/db.ts';
import { claimJobs } from '../functions/api/queries/jobs.ts';
import { queueNotification, startSending } from '../functions/api/queries/notifications.ts';
import type { NotificationContent } from '../functions/api/services/notification-templates/index.ts';
import { runDueJobs } from '../functions/api/services/job-runner.ts';
import { NOTIFICATION_HANDLERS } from '../functions/api/services/notifications.ts';
import { verifyUnsubscribeToken } from '../functions/api/services/unsubscribe.ts';
import { createFlight, createUser, type Sql, type TestUser } from './factories.ts';

let database: TestDatabase;
let sql: Sql;
let db: Db;

/** A mailer that fails while `failing` is set and records every message it takes. */
const mailer = {
  failing: false,
  sent: [] as OutgoingEmail[],
  send(email: OutgoingEmail) {
    if (this.failing) return Promise.reject(new Error('SMTP 127.0.0.1:1 did not take the message'));
    this.sent.push(email);
    return Promise.resolve();
  },
};

const config = {
  siteUrl: 'http://site.test',
  supportEmail: 'support@fareback.app',
  supabasePublicUrl: 'http://supabase.test',
  serviceRoleKey: 'service-key',
  unsubscribeSecret: 'unsubscribe-test-secret',
} as Config;

let deps: AppDeps;

beforeAll(async () => {
  database = await createTestDatabase();
  sql = postgres(database.url, {
    max: database.singleSession ? 1 : 4,
    prepare: !database.singleSession,
    onnotice: () => {},
  });
  db = createDb({ databaseUrl: database.ownerUrl, singleSession: database.singleSession });
  deps = {
    config,
    db,
    mailer,
    log: () => {},
    authApi: undefined as never,
    verifyAccessToken: undefined as never,
    fareSource: undefined as never,
    payments: undefined as never,
  };
});

afterAll(async () => {
  await db?.close();
  await sql?.end();
  await database?.close();
});

beforeEach(async () => {
  mailer.failing = false;
  mailer.sent = [];
  await sql`delete from public.jobs`;
});

const run = (kinds = ['notification_email']) =>
  runDueJobs(deps, NOTIFICATION_HANDLERS as never, { kinds, worker: 'test-worker' });

async function traveller(frequency: 'instant' | 'daily' | 'weekly' = 'instant', timeZone = 'UTC'): Promise<TestUser> {
  const created = await createUser(sql);
  await sql`update public.profiles
               set email_confirmed_at = now(), notification_frequency = ${frequency}, time_zone = ${timeZone},
                   notification_time = '09:00'
             where id = ${created.id}`;
  return created;
}

const flight = { airline: 'JetBlue Airways', flightNumber: 'B6 123', departureAirport: 'JFK', arrivalAirport: 'LAX' };

const rebooking: NotificationContent = {
  type: 'rebooking',
  data: { ...flight, newPrice: 41000, credit: 9000, reference: null, creditExpiresAt: null },
};

const queue = (userId: string, content: NotificationContent = rebooking, dedupeKey?: string) =>
  db.asService((tx) => queueNotification(tx, { userId, ...content, dedupeKey }));

/** Queues data its type's template cannot read (a producer's bug), as SQL producers could. */
const queueUnreadable = async (userId: string, type: string, data: Record<string, unknown>) => {
  const [queued] = await db.asService(
    (tx) => tx<{ id: string }[]>`
      select private.queue_notification(${userId}::uuid, ${type}, ${tx.json(data as postgres.JSONValue)}) as id`,
  );
  return Number(queued?.id);
};

async function row(id: number) {
  const [found] = await sql<{ status: string; attempts: number; last_error: string | null }[]>`
    select status, attempts, last_error from public.notification_history where id = ${id}`;
  return found;
}

async function job(notificationId: number) {
  const [found] = await sql<{ status: string; attempts: number }[]>`
    select status, attempts from public.jobs where dedupe_key = ${`notification_email:${notificationId}`}`;
  return found;
}

const backoffRunsOut = () => sql`update public.jobs set run_at = now() - interval '1 second' where status = 'queued'`;

describe('instant delivery', () => {
  it('sends once, with a fixed subject, an idempotency key and one-click unsubscribe headers', async () => {
    const t = await traveller();
    const id = (await queue(t.id))!;
    expect((await run()).completed).toBe(1);
    expect(mailer.sent).toHaveLength(1);
    const [mail] = mailer.sent;
    expect(mail).toMatchObject({
      to: t.email,
      subject: 'Your flight was rebooked at a lower fare',
      idempotencyKey: `fareback-notification-${id}`,
    });
    expect(mail?.text).toContain('New fare: $410.00');
    expect(mail?.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    const link = /<(http:\/\/supabase\.test\/functions\/v1\/api\/notifications\/unsubscribe\?token=([^>]+))>/.exec(
      mail?.headers?.['List-Unsubscribe'] ?? '',
    );
    expect(await verifyUnsubscribeToken(config.unsubscribeSecret!, decodeURIComponent(link?.[2] ?? ''))).toEqual({
      userId: t.id,
      kind: 'rebooking',
    });
    expect(await row(id)).toMatchObject({ status: 'sent', attempts: 1 });
    expect(await run()).toMatchObject({ completed: 0, failed: 0 });
    expect(mailer.sent).toHaveLength(1);
  });

  it('the mailer failing: retried after the backoff, neither lost nor sent twice', async () => {
    const t = await traveller();
    const id = (await queue(t.id))!;
    mailer.failing = true;
    expect(await run()).toMatchObject({ completed: 0, failed: 1 });
    expect(await row(id)).toMatchObject({ status: 'sending', last_error: 'SMTP 127.0.0.1:1 did not take the message' });
    expect(await job(id)).toEqual({ status: 'queued', attempts: 1 });

    // not due again before the backoff: nothing is tried
    mailer.failing = false;
    expect(await run()).toMatchObject({ completed: 0, failed: 0 });
    expect(mailer.sent).toHaveLength(0);

    // a second failure, then the mailer is back
    await backoffRunsOut();
    mailer.failing = true;
    expect(await run()).toMatchObject({ failed: 1 });
    await backoffRunsOut();
    mailer.failing = false;
    expect(await run()).toMatchObject({ completed: 1 });
    expect(mailer.sent.map((mail) => mail.to)).toEqual([t.email]);
    expect(await row(id)).toMatchObject({ status: 'sent', attempts: 3, last_error: null });
    expect(await job(id)).toEqual({ status: 'done', attempts: 3 });

    await backoffRunsOut();
    await run();
    expect(mailer.sent).toHaveLength(1);
  });

  it('after the last attempt the row is failed and the job a dead letter', async () => {
    const t = await traveller();
    const id = (await queue(t.id))!;
    await sql`update public.jobs set attempts = max_attempts - 1 where dedupe_key = ${`notification_email:${id}`}`;
    mailer.failing = true;
    await run();
    expect(await row(id)).toMatchObject({ status: 'failed' });
    expect(await job(id)).toMatchObject({ status: 'dead' });
  });

  it('a crash between the send and the commit: the retry sends the same message under the same key', async () => {
    const t = await traveller();
    const id = (await queue(t.id))!;
    // a worker claims the job, marks the row sending, hands the message over... and dies
    const [claimed] = await db.asService((tx) =>
      claimJobs(tx, { kinds: ['notification_email'], worker: 'doomed', limit: 1, leaseSeconds: 60 }),
    );
    expect(claimed?.payload).toEqual({ notificationId: id });
    const started = await db.asService((tx) => startSending(tx, id));
    expect(started && 'deliveryKey' in started ? started.deliveryKey : null).toBe(`fareback-notification-${id}`);
    mailer.sent.push({ to: t.email, subject: 'first copy', text: '', idempotencyKey: `fareback-notification-${id}` });

    await sql`update public.jobs set lease_expires_at = now() - interval '1 second' where dedupe_key = ${`notification_email:${id}`}`;
    expect(await run()).toMatchObject({ completed: 1 });
    expect(mailer.sent.map((mail) => mail.idempotencyKey)).toEqual([
      `fareback-notification-${id}`,
      `fareback-notification-${id}`,
    ]);
    expect(await row(id)).toMatchObject({ status: 'sent' });
  });

  it('checks again when sending: an unconfirmed address or a kind turned off since is suppressed', async () => {
    const t = await traveller();
    const first = (await queue(t.id))!;
    const second = (await queue(t.id, { type: 'flight_cancelled', data: flight }))!;
    await sql`update public.profiles set notify_cancellations = false where id = ${t.id}`;
    await run();
    expect(await row(second)).toMatchObject({ status: 'suppressed' });
    expect(await row(first)).toMatchObject({ status: 'sent' });

    const third = (await queue(t.id))!;
    await sql`update public.profiles set email_confirmed_at = null where id = ${t.id}`;
    await run();
    expect(await row(third)).toMatchObject({ status: 'suppressed' });
    expect(mailer.sent).toHaveLength(1);
  });
});

describe('a row its template cannot read', () => {
  it('is a failed send with the reason, at once and without retries; the next row goes out', async () => {
    const t = await traveller();
    const bad = await queueUnreadable(t.id, 'rebooking', { airline: 'JetBlue Airways' });
    const unknown = await queueUnreadable(t.id, 'something_new', {});
    const good = (await queue(t.id))!;
    expect((await run()).completed).toBe(3);
    const [badRow, unknownRow] = [await row(bad), await row(unknown)];
    expect(badRow).toMatchObject({ status: 'failed' });
    expect(badRow?.last_error).toMatch(
      /^The data of this rebooking notification does not fit its template: .*newPrice/,
    );
    expect(unknownRow).toMatchObject({
      status: 'failed',
      last_error: 'No email template for notification type "something_new".',
    });
    expect(await job(bad)).toMatchObject({ status: 'done', attempts: 1 });
    expect(await row(good)).toMatchObject({ status: 'sent' });
    expect(mailer.sent.map((mail) => mail.subject)).toEqual(['Your flight was rebooked at a lower fare']);
  });
});

describe('digests', () => {
  /** Runs the passes at `now`, then the digest jobs they queued. */
  async function digestAt(now: string) {
    await db.asService((tx) => tx`select private.run_notification_passes(${now}::timestamptz)`);
    await sql`update public.jobs set run_at = now() - interval '1 second' where kind = 'notification_digest' and status = 'queued'`;
    return run(['notification_digest']);
  }

  const drop = (oldPrice: number, newPrice: number) => ({
    airline: 'Delta',
    flightNumber: `DL ${oldPrice}`,
    departureAirport: 'ATL',
    arrivalAirport: 'BOS',
    oldPrice,
    newPrice,
    netSavings: oldPrice - newPrice,
    qualifies: true,
    reason: 'ok',
  });

  it("one weekly email at the traveller's time, every item once; later items wait for the next week", async () => {
    // Monday 2026-11-23 09:00 in Paris is 08:00 UTC
    const t = await traveller('weekly', 'Europe/Paris');
    const a = (await queue(t.id, { type: 'price_drop', data: drop(50000, 40000) }))!;
    const b = (await queue(t.id, { type: 'price_drop', data: drop(60000, 45000) }))!;
    await sql`update public.notification_history set created_at = '2026-11-20T12:00:00Z' where id in (${a}, ${b})`;

    expect((await digestAt('2026-11-23T07:59:00Z')).completed).toBe(0); // 08:59 in Paris: not yet
    expect(mailer.sent).toHaveLength(0);
    await digestAt('2026-11-23T08:01:00Z');
    expect(mailer.sent).toHaveLength(1);
    expect(mailer.sent[0]?.subject).toBe('Your FareBack weekly summary');
    expect(mailer.sent[0]?.text).toContain('dropped from $500.00 to $400.00');
    expect(mailer.sent[0]?.text).toContain('dropped from $600.00 to $450.00');
    expect(mailer.sent[0]?.headers?.['List-Unsubscribe']).toMatch(/token=/);

    // a new item the same week waits; running the passes again sends nothing
    const c = (await queue(t.id, { type: 'price_drop', data: drop(70000, 50000) }))!;
    await sql`update public.notification_history set created_at = '2026-11-24T12:00:00Z' where id = ${c}`;
    await digestAt('2026-11-25T10:00:00Z');
    expect(mailer.sent).toHaveLength(1);

    await digestAt('2026-11-30T08:05:00Z');
    expect(mailer.sent).toHaveLength(2);
    expect(mailer.sent[1]?.text).toContain('dropped from $700.00 to $500.00');
    expect(mailer.sent[1]?.text).not.toContain('$400.00');
    const statuses = await sql<{ status: string }[]>`
      select status from public.notification_history where id in (${a}, ${b}, ${c})`;
    expect(statuses.map((s) => s.status)).toEqual(['sent', 'sent', 'sent']);
  });

  it('a failed digest is retried with the same items, none lost and none in two digests', async () => {
    const t = await traveller('daily');
    const a = (await queue(t.id, { type: 'price_drop', data: drop(50000, 40000) }))!;
    await sql`update public.notification_history set created_at = '2026-11-23T08:00:00Z' where id = ${a}`;
    mailer.failing = true;
    expect((await digestAt('2026-11-23T09:30:00Z')).failed).toBe(1);
    // an item queued meanwhile is not added to the digest being retried
    const b = (await queue(t.id, { type: 'price_drop', data: drop(60000, 45000) }))!;
    await sql`update public.notification_history set created_at = '2026-11-23T08:30:00Z' where id = ${b}`;
    mailer.failing = false;
    await sql`update public.jobs set run_at = now() - interval '1 second' where status = 'queued'`;
    await run(['notification_digest']);
    expect(mailer.sent).toHaveLength(1);
    expect(mailer.sent[0]?.text).toContain('$400.00');
    expect(mailer.sent[0]?.text).not.toContain('$450.00');
    expect(await row(a)).toMatchObject({ status: 'sent' });
    expect(await row(b)).toMatchObject({ status: 'pending' });
    await digestAt('2026-11-24T09:30:00Z');
    expect(mailer.sent).toHaveLength(2);
    expect(mailer.sent[1]?.text).toContain('$450.00');
  });

  it('leaves out an item its template cannot read (failed, with the reason) and sends the rest', async () => {
    const t = await traveller('daily');
    const a = (await queue(t.id, { type: 'price_drop', data: drop(50000, 40000) }))!;
    const bad = await queueUnreadable(t.id, 'price_drop', { ...drop(60000, 45000), qualifies: 'yes' });
    await sql`update public.notification_history set created_at = '2026-11-20T12:00:00Z' where id in (${a}, ${bad})`;
    await digestAt('2026-11-21T09:30:00Z');
    expect(mailer.sent).toHaveLength(1);
    expect(mailer.sent[0]?.text).toContain('1 update about your flights today');
    expect(mailer.sent[0]?.text).toContain('dropped from $500.00 to $400.00');
    expect(mailer.sent[0]?.text).not.toContain('$450.00');
    expect(await row(a)).toMatchObject({ status: 'sent' });
    expect(await row(bad)).toMatchObject({ status: 'failed' });
    expect((await row(bad))?.last_error).toMatch(/qualifies/);
  });

  it('back on instant: the waiting items go out one by one', async () => {
    const t = await traveller('daily');
    const a = (await queue(t.id, { type: 'price_drop', data: drop(50000, 40000) }))!;
    await sql`update public.profiles set notification_frequency = 'instant' where id = ${t.id}`;
    await db.asService((tx) => tx`select private.run_notification_passes()`);
    await run();
    expect(await row(a)).toMatchObject({ status: 'sent' });
    expect(mailer.sent[0]?.subject).toBe('A fare dropped on one of your flights');
  });
});

describe('credit expiry reminders', () => {
  it('once per credit at 30 days and once at 7', async () => {
    const t = await traveller();
    const flightId = await createFlight(sql, t.id);
    await sql`update public.flights set airline_credit = 9000, credit_expiry_date = '2026-12-20', has_been_rebooked = true
               where id = ${flightId}`;
    const pass = (now: string) =>
      db.asService(async (tx) => {
        const [result] = await tx<
          { r: Record<string, number> }[]
        >`select private.run_notification_passes(${now}::timestamptz) as r`;
        return result?.r;
      });
    const reminders = () =>
      sql<{ dedupe_key: string; data: { daysLeft: number; amount: number } }[]>`
        select dedupe_key, data from public.notification_history
         where user_id = ${t.id} and type = 'credit_expiring' order by id`;

    await pass('2026-11-10T12:00:00Z'); // 40 days left
    expect(await reminders()).toEqual([]);
    await pass('2026-11-21T12:00:00Z'); // 29 days
    await pass('2026-11-22T12:00:00Z');
    expect(await reminders()).toEqual([
      {
        dedupe_key: `credit_expiring:${flightId}:2026-12-20:30`,
        data: expect.objectContaining({ daysLeft: 29, amount: 9000 }),
      },
    ]);
    await pass('2026-12-14T12:00:00Z'); // 6 days
    await pass('2026-12-15T12:00:00Z');
    expect((await reminders()).map((r) => r.dedupe_key)).toEqual([
      `credit_expiring:${flightId}:2026-12-20:30`,
      `credit_expiring:${flightId}:2026-12-20:7`,
    ]);
    await run();
    expect(mailer.sent.map((mail) => mail.subject)).toEqual([
      'Your airline credit expires soon',
      'Your airline credit expires soon',
    ]);
    expect(mailer.sent[1]?.text).toContain('expires in 6 days');
  });
});
