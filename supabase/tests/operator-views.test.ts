// The operator views of migration 20261122001200_operator_views.sql, against a known dataset:
// what each answers, who may read it (service_role, an admin, the api's role: every row; a
// traveller who is not an admin: no row; a visitor: denied) and that nobody can write through it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DENIED,
  actAs,
  anon,
  apiRole,
  attempt,
  createFlight,
  createNotification,
  createUser,
  openTestDatabase,
  serviceRole,
  user,
  type Actor,
  type Sql,
  type TestDb,
  type TestUser,
} from './factories.ts';

const VIEWS = ['ops_commission_owed', 'ops_stuck_rebookings', 'ops_failed_jobs', 'ops_failed_notifications'] as const;
type View = (typeof VIEWS)[number];

const minutesAgo = (minutes: number): Date => new Date(Date.now() - minutes * 60_000);

/** A job in a given state, written as the queue would leave it (its constraints hold). */
async function insertJob(
  sql: Sql,
  job: {
    kind: string;
    status: 'queued' | 'running' | 'done' | 'dead';
    attempts: number;
    lastError?: string | null;
    dedupeKey?: string | null;
    payload?: Record<string, unknown>;
    finishedAt?: Date;
  },
): Promise<number> {
  const running = job.status === 'running';
  const finished = job.status === 'done' || job.status === 'dead';
  const [row] = await sql<{ id: number }[]>`
    insert into public.jobs (kind, status, attempts, max_attempts, last_error, dedupe_key, payload, run_at,
                             claim_token, locked_by, lease_expires_at, finished_at)
    values (${job.kind}, ${job.status}, ${job.attempts}, 5, ${job.lastError ?? null}, ${job.dedupeKey ?? null},
            ${sql.json((job.payload ?? {}) as never)}, now() + interval '1 minute',
            ${running ? sql`gen_random_uuid()` : null}, ${running ? 'worker-1' : null},
            ${running ? sql`now() + interval '1 minute'` : null},
            ${finished ? (job.finishedAt ?? new Date()) : null})
    returning id::int`;
  if (!row) throw new Error('job not created');
  return row.id;
}

/** The instant delivery job of a notification, as private.queue_notification names it. */
const emailJob = (
  sql: Sql,
  notificationId: number,
  job: { status: 'queued' | 'dead'; attempts: number; lastError: string },
): Promise<number> =>
  insertJob(sql, {
    kind: 'notification_email',
    ...job,
    dedupeKey: `notification_email:${notificationId}`,
    payload: { notificationId },
  });

async function setNotification(
  sql: Sql,
  id: number,
  fields: { status: string; lastError?: string | null; digestKey?: string | null; attempts?: number },
): Promise<void> {
  await sql`update public.notification_history
               set status = ${fields.status}, last_error = ${fields.lastError ?? null},
                   digest_key = ${fields.digestKey ?? null}, delivery = ${fields.digestKey ? 'digest' : 'instant'},
                   attempts = ${fields.attempts ?? 0}
             where id = ${id}`;
}

let db: TestDb;
let admin: TestUser;
let owes: TestUser;
let owesToo: TestUser;
const flights: Record<'stuck' | 'unclaimed' | 'recent' | 'dropped', number> = {
  stuck: 0,
  unclaimed: 0,
  recent: 0,
  dropped: 0,
};
const stuckClaimedAt = minutesAgo(45);
const jobs: Record<'dead' | 'retrying' | 'waiting' | 'recovered' | 'running', number> = {
  dead: 0,
  retrying: 0,
  waiting: 0,
  recovered: 0,
  running: 0,
};
const notifications: Record<'failed' | 'orphaned' | 'sentAfterAll' | 'pending' | 'digest' | 'retrying', number> = {
  failed: 0,
  orphaned: 0,
  sentAfterAll: 0,
  pending: 0,
  digest: 0,
  retrying: 0,
};
const deliveryJobs: Record<'failed' | 'orphaned' | 'sentAfterAll' | 'digest' | 'retrying', number> = {
  failed: 0,
  orphaned: 0,
  sentAfterAll: 0,
  digest: 0,
  retrying: 0,
};
let statementId = 0;

beforeAll(async () => {
  db = await openTestDatabase();
  const { sql } = db;
  admin = await createUser(sql, { admin: true, username: 'ops_admin' });
  owes = await createUser(sql, { premium: true, username: 'ops_owes' });
  owesToo = await createUser(sql, { username: 'ops_owes_too' });
  const settled = await createUser(sql, { premium: true, username: 'ops_settled' });

  // ---- commission: two travellers owe, one has paid everything ----
  await sql`update public.profiles set commission_owed = 1250, commission_paid = 500, total_credits_earned = 7000
             where id = ${owes.id}`;
  await sql`update public.profiles set commission_owed = 300 where id = ${owesToo.id}`;
  await sql`update public.profiles set commission_owed = 0, commission_paid = 900, total_credits_earned = 3600
             where id = ${settled.id}`;
  // two statements for the first traveller: the later period is the last statement
  await sql`insert into public.billing_transactions
              (user_id, amount, status, type, description, billing_period_start, billing_period_end, transaction_date)
            values (${owes.id}, 500, 'completed', 'commission', 'Commission statement Sep', '2026-09-01', '2026-09-30',
                    '2026-10-01T00:05:00Z')`;
  const [statement] = await sql<{ id: number }[]>`insert into public.billing_transactions
              (user_id, amount, status, type, description, billing_period_start, billing_period_end, transaction_date)
            values (${owes.id}, 1250, 'pending', 'commission', 'Commission statement Oct', '2026-10-01', '2026-10-31',
                    '2026-11-01T00:05:00Z')
            returning id::int`;
  statementId = statement?.id ?? 0;
  // a rebooking's own commission row is not a statement
  await sql`insert into public.billing_transactions (user_id, amount, status, type, description, credits_earned_in_period)
            values (${owes.id}, 750, 'pending', 'commission', '25% commission on a rebooking', 3000)`;

  // ---- flights in 'rebooking' ----
  flights.stuck = await createFlight(sql, owes.id, {
    status: 'rebooking',
    current_price: 40_000,
    rebooking_method: 'source',
  });
  await sql`update public.flights set rebooking_claimed_at = ${stuckClaimedAt} where id = ${flights.stuck}`;
  flights.unclaimed = await createFlight(sql, owesToo.id, { status: 'rebooking' });
  flights.recent = await createFlight(sql, owes.id, { status: 'rebooking' });
  await sql`update public.flights set rebooking_claimed_at = ${minutesAgo(10)} where id = ${flights.recent}`;
  flights.dropped = await createFlight(sql, owes.id, { status: 'price_drop', current_price: 41_000 });

  // ---- jobs ----
  jobs.dead = await insertJob(sql, {
    kind: 'email_scan',
    status: 'dead',
    attempts: 5,
    lastError: 'Gmail answered 500',
    payload: { scanId: 1 },
  });
  jobs.retrying = await insertJob(sql, {
    kind: 'price_check',
    status: 'queued',
    attempts: 2,
    lastError: 'the lease of attempt 2 ran out (held by worker-9)',
  });
  jobs.waiting = await insertJob(sql, { kind: 'price_check', status: 'queued', attempts: 0 });
  jobs.recovered = await insertJob(sql, { kind: 'email_scan', status: 'done', attempts: 2, lastError: 'timeout' });
  jobs.running = await insertJob(sql, { kind: 'email_scan', status: 'running', attempts: 2, lastError: 'timeout' });

  // ---- notifications and their delivery jobs ----
  for (const key of Object.keys(notifications) as (keyof typeof notifications)[]) {
    notifications[key] = await createNotification(sql, key === 'digest' ? owesToo.id : owes.id);
  }
  deliveryJobs.failed = await emailJob(sql, notifications.failed, {
    status: 'dead',
    attempts: 5,
    lastError: 'SMTP 550 mailbox unavailable',
  });
  await setNotification(sql, notifications.failed, {
    status: 'failed',
    lastError: 'SMTP 550 mailbox unavailable',
    attempts: 5,
  });
  // its job died of expired leases: the row was never settled
  deliveryJobs.orphaned = await emailJob(sql, notifications.orphaned, {
    status: 'dead',
    attempts: 5,
    lastError: 'the lease of attempt 5 ran out (held by worker-2)',
  });
  await setNotification(sql, notifications.orphaned, { status: 'sending', attempts: 5 });
  // delivered, though its job later died: not a failure
  deliveryJobs.sentAfterAll = await emailJob(sql, notifications.sentAfterAll, {
    status: 'dead',
    attempts: 5,
    lastError: 'the lease of attempt 5 ran out (held by worker-3)',
  });
  await setNotification(sql, notifications.sentAfterAll, { status: 'sent', attempts: 5 });
  // a digest item whose digest job died
  deliveryJobs.digest = await insertJob(sql, {
    kind: 'notification_digest',
    status: 'dead',
    attempts: 5,
    lastError: 'Resend answered 422',
    dedupeKey: `notification_digest:${owesToo.id}:daily:2026-11-20`,
    payload: { userId: owesToo.id, period: 'daily' },
  });
  await setNotification(sql, notifications.digest, {
    status: 'sending',
    digestKey: `fareback-digest-${deliveryJobs.digest}`,
    attempts: 5,
  });
  // still being retried: its job is in ops_failed_jobs, not here
  deliveryJobs.retrying = await emailJob(sql, notifications.retrying, {
    status: 'queued',
    attempts: 1,
    lastError: 'SMTP timeout',
  });
  await setNotification(sql, notifications.retrying, { status: 'sending', lastError: 'SMTP timeout', attempts: 1 });
  await setNotification(sql, notifications.pending, { status: 'pending' });
});

afterAll(async () => {
  await db?.close();
});

const read = (actor: Actor, view: View) =>
  actAs(db.sql, actor, (tx) => tx<Record<string, unknown>[]>`select * from ${tx('public.' + view)}`);

describe('public.ops_commission_owed', () => {
  it('lists every traveller owing commission, most owed first, with the last statement', async () => {
    const rows = await actAs(
      db.sql,
      serviceRole,
      (tx) => tx`
        select username, email, plan_tier, commission_rate_percent, owed_cents, paid_cents, credits_earned_cents,
               last_statement_id::int, last_statement_period_start::text, last_statement_period_end::text,
               last_statement_amount_cents, last_statement_status
          from public.ops_commission_owed`,
    );
    expect([...rows]).toEqual([
      {
        username: 'ops_owes',
        email: owes.email,
        plan_tier: 'premium',
        commission_rate_percent: 25,
        owed_cents: 1250,
        paid_cents: 500,
        credits_earned_cents: 7000,
        last_statement_id: statementId,
        last_statement_period_start: '2026-10-01',
        last_statement_period_end: '2026-10-31',
        last_statement_amount_cents: 1250,
        last_statement_status: 'pending',
      },
      {
        username: 'ops_owes_too',
        email: owesToo.email,
        plan_tier: 'free',
        commission_rate_percent: 0,
        owed_cents: 300,
        paid_cents: 0,
        credits_earned_cents: 0,
        last_statement_id: null,
        last_statement_period_start: null,
        last_statement_period_end: null,
        last_statement_amount_cents: null,
        last_statement_status: null,
      },
    ]);
  });
});

describe('public.ops_stuck_rebookings', () => {
  it('lists flights in rebooking 30 minutes after the claim, and those without a claim time', async () => {
    const rows = await actAs(
      db.sql,
      serviceRole,
      (tx) => tx<{ flight_id: number; username: string; claimed_at: Date | null; stuck_minutes: number | null }[]>`
        select flight_id::int, username, claimed_at, stuck_minutes, rebooking_method, current_price_cents
          from public.ops_stuck_rebookings`,
    );
    expect(rows.map((r) => r.flight_id)).toEqual([flights.unclaimed, flights.stuck]);
    const [unclaimed, stuck] = rows;
    expect(unclaimed).toMatchObject({ username: 'ops_owes_too', claimed_at: null, stuck_minutes: null });
    expect(stuck).toMatchObject({
      username: 'ops_owes',
      claimed_at: stuckClaimedAt,
      rebooking_method: 'source',
      current_price_cents: 40_000,
    });
    // claimed 45 minutes before the dataset was written, so at least that long ago now
    expect(stuck?.stuck_minutes).toBeGreaterThanOrEqual(45);
  });
});

describe('public.ops_failed_jobs', () => {
  it('lists dead letters and jobs waiting to retry after a failure, never done, running or untried ones', async () => {
    const rows = await actAs(
      db.sql,
      serviceRole,
      (tx) => tx<{ job_id: number; next_attempt_at: Date | null; failed_at: Date | null }[]>`
        select job_id::int, kind, status, attempts, max_attempts, last_error, failed_at, next_attempt_at
          from public.ops_failed_jobs`,
    );
    const byId = new Map(rows.map((r) => [r.job_id, r]));
    expect([...byId.keys()].sort((a, b) => a - b)).toEqual(
      [
        jobs.dead,
        jobs.retrying,
        deliveryJobs.failed,
        deliveryJobs.orphaned,
        deliveryJobs.sentAfterAll,
        deliveryJobs.digest,
        deliveryJobs.retrying,
      ].sort((a, b) => a - b),
    );
    expect(byId.get(jobs.dead)).toMatchObject({
      kind: 'email_scan',
      status: 'dead',
      attempts: 5,
      max_attempts: 5,
      last_error: 'Gmail answered 500',
      next_attempt_at: null,
    });
    expect(byId.get(jobs.dead)?.failed_at).toBeInstanceOf(Date);
    expect(byId.get(jobs.retrying)).toMatchObject({
      kind: 'price_check',
      status: 'queued',
      attempts: 2,
      last_error: 'the lease of attempt 2 ran out (held by worker-9)',
    });
    expect(byId.get(jobs.retrying)?.next_attempt_at).toBeInstanceOf(Date);
  });
});

describe('public.ops_failed_notifications', () => {
  it('lists notifications the mailer gave up on or whose delivery job died, not sent or retrying ones', async () => {
    const rows = await actAs(
      db.sql,
      serviceRole,
      (tx) => tx<{ notification_id: number; job_id: number | null }[]>`
        select notification_id::int, username, type, delivery, status, error, job_id::int, job_status
          from public.ops_failed_notifications`,
    );
    const byId = new Map(rows.map((r) => [r.notification_id, r]));
    expect([...byId.keys()].sort((a, b) => a - b)).toEqual(
      [notifications.failed, notifications.orphaned, notifications.digest].sort((a, b) => a - b),
    );
    expect(byId.get(notifications.failed)).toEqual({
      notification_id: notifications.failed,
      username: 'ops_owes',
      type: 'price_drop',
      delivery: 'instant',
      status: 'failed',
      error: 'SMTP 550 mailbox unavailable',
      job_id: deliveryJobs.failed,
      job_status: 'dead',
    });
    expect(byId.get(notifications.orphaned)).toEqual({
      notification_id: notifications.orphaned,
      username: 'ops_owes',
      type: 'price_drop',
      delivery: 'instant',
      status: 'sending',
      error: 'the lease of attempt 5 ran out (held by worker-2)',
      job_id: deliveryJobs.orphaned,
      job_status: 'dead',
    });
    expect(byId.get(notifications.digest)).toEqual({
      notification_id: notifications.digest,
      username: 'ops_owes_too',
      type: 'price_drop',
      delivery: 'digest',
      status: 'sending',
      error: 'Resend answered 422',
      job_id: deliveryJobs.digest,
      job_status: 'dead',
    });
  });
});

describe('who reads the operator views', () => {
  it.each(VIEWS)('%s: an admin and the api role see exactly what service_role sees', async (view) => {
    const asService = await read(serviceRole, view);
    expect(asService.length).toBeGreaterThan(0);
    expect([...(await read(user(admin.id), view))]).toEqual([...asService]);
    expect([...(await read(apiRole, view))]).toEqual([...asService]);
  });

  it.each(VIEWS)('%s: a traveller who is not an admin sees no row, not even their own', async (view) => {
    // `owes` owns rows in every view
    expect([...(await read(user(owes.id), view))]).toEqual([]);
    expect([...(await read(user(owesToo.id), view))]).toEqual([]);
  });

  it.each(VIEWS)('%s: a visitor is denied', async (view) => {
    const outcome = await attempt(db.sql, anon, (tx) => tx`select * from ${tx('public.' + view)}`);
    expect(outcome).toMatchObject({ error: DENIED });
  });

  it('stops showing a traveller once their admin flag is removed', async () => {
    const rows = await actAs(db.sql, user(admin.id), (tx) => tx`select * from public.ops_failed_jobs`, {
      // another admin first: the last admin cannot be removed
      setup: async (tx) => {
        await tx`update public.profiles set is_admin = true where id = ${owesToo.id}`;
        await tx`update public.profiles set is_admin = false where id = ${admin.id}`;
      },
    });
    expect([...rows]).toEqual([]);
  });
});

describe('nobody writes through the operator views', () => {
  const writers: [string, Actor][] = [
    ['anon', anon],
    ['a traveller', user('00000000-0000-0000-0000-000000000001')],
    ['service_role', serviceRole],
    ['the owner (the api role, Studio)', apiRole],
  ];

  const statements: Record<View, Record<'insert' | 'update' | 'delete', string>> = {
    ops_commission_owed: {
      insert: `insert into public.ops_commission_owed (user_id, owed_cents) values (gen_random_uuid(), 1)`,
      update: `update public.ops_commission_owed set owed_cents = 0`,
      delete: `delete from public.ops_commission_owed`,
    },
    ops_stuck_rebookings: {
      insert: `insert into public.ops_stuck_rebookings (flight_id) values (1)`,
      update: `update public.ops_stuck_rebookings set claimed_at = now()`,
      delete: `delete from public.ops_stuck_rebookings`,
    },
    ops_failed_jobs: {
      insert: `insert into public.ops_failed_jobs (kind, status) values ('price_check', 'queued')`,
      update: `update public.ops_failed_jobs set status = 'queued', last_error = null`,
      delete: `delete from public.ops_failed_jobs`,
    },
    ops_failed_notifications: {
      insert: `insert into public.ops_failed_notifications (notification_id) values (1)`,
      update: `update public.ops_failed_notifications set status = 'sent'`,
      delete: `delete from public.ops_failed_notifications`,
    },
  };

  for (const view of VIEWS) {
    for (const [who, actor] of writers) {
      it(`${view}: ${who} is refused insert, update and delete`, async () => {
        for (const statement of Object.values(statements[view])) {
          const outcome = await attempt(db.sql, actor, async (tx) => {
            const result = await tx.unsafe(statement);
            return { count: result.count };
          });
          expect(outcome, statement).toMatchObject({ error: DENIED });
        }
      });
    }
  }
});
