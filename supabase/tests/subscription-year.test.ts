// A paid year lived day by day (issue 25), on real PostgreSQL with an injectable clock: the daily
// pass's SQL (renewal reminders, the renewal due, the expiry) is given `now` and walked through
// the year, never waited for. Two travellers pay the same day: one keeps renewal on (reminded 30
// and 7 days before, due a renewal charge on the end date, never lapsed), one turns it off
// (no reminder, Premium to the last day, moved to Free on the end date with one email).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tx as ApiTx } from '../functions/api/db.ts';
import {
  insertPayment,
  paymentSucceeded,
  queueRenewalReminders,
  renewalsDue,
  setRenewal,
} from '../functions/api/queries/billing.ts';
import { expireSubscriptions } from '../functions/api/queries/subscription-expiry.ts';
import { createUser, openTestDatabase, type TestDb } from './factories.ts';

let db: TestDb;

beforeAll(async () => {
  db = await openTestDatabase();
});

afterAll(async () => {
  await db?.close();
});

const DAY = 86_400_000;
const tx = <T>(fn: (t: ApiTx) => Promise<T>): Promise<T> =>
  db.sql.begin((t) => fn(t as unknown as ApiTx)) as Promise<T>;

/** A year of Premium paid by card today. */
async function paidTraveller(): Promise<{ id: string; end: Date }> {
  const user = await createUser(db.sql);
  await db.sql`update public.profiles set email_confirmed_at = now() where id = ${user.id}`;
  const [plan] = await db.sql<{ id: number; price: number }[]>`
    select id::int, price from public.subscription_plans where tier = 'premium' and is_active order by id limit 1`;
  const id = `pi_year_${randomUUID()}`;
  await tx(async (t) => {
    await insertPayment(t, {
      id,
      userId: user.id,
      purpose: 'subscription',
      planId: plan?.id ?? null,
      amount: plan?.price ?? 0,
      description: 'Premium subscription (one year)',
    });
    await paymentSucceeded(t, id, 'pm_card_visa');
  });
  const [row] = await db.sql<{ end: Date }[]>`
    select subscription_end_date as end from public.profiles where id = ${user.id}`;
  return { id: user.id, end: row?.end ?? new Date(0) };
}

async function notes(userId: string, type: string) {
  return db.sql<{ data: Record<string, unknown> }[]>`
    select data from public.notification_history where user_id = ${userId} and type = ${type} order by id`;
}

async function tier(userId: string) {
  const [row] = await db.sql<{ tier: string }[]>`
    select sp.tier from public.profiles p join public.subscription_plans sp on sp.id = p.plan_id where p.id = ${userId}`;
  return row?.tier;
}

describe('a paid year, day by day (injectable clock)', () => {
  it('reminds a renewing traveller at 30 and 7 days and charges on the end date; the other lapses that day', async () => {
    const renewing = await paidTraveller();
    const ending = await paidTraveller();
    await tx((t) => setRenewal(t, ending.id, false));
    const start = renewing.end.getTime() - 365 * DAY;

    // every day of the year and a week past it, as the daily pass sees them
    const dueOn: Record<string, number> = {};
    for (let day = 0; day <= 372; day += 1) {
      const now = new Date(start + day * DAY + 3_600_000);
      const due = await tx(async (t) => {
        await queueRenewalReminders(t, now);
        const renewals = await renewalsDue(t, now);
        await expireSubscriptions(t, now);
        return renewals;
      });
      if (due.some((d) => d.userId === renewing.id)) dueOn.renewing ??= day;
      if (due.some((d) => d.userId === ending.id)) dueOn.ending ??= day;
      if (day === 364) {
        // the last paid day: both still Premium
        expect(await tier(renewing.id)).toBe('premium');
        expect(await tier(ending.id)).toBe('premium');
      }
    }

    const reminders = await notes(renewing.id, 'renewal_reminder');
    expect(reminders.map((r) => r.data.daysBefore)).toEqual([30, 7]);
    expect(reminders[0]?.data).toMatchObject({ amount: 2499 });
    // the renewal charge is due from the end date on (the api charges it that day)
    expect(dueOn.renewing).toBe(365);
    expect(await tier(renewing.id)).toBe('premium');
    expect(await notes(renewing.id, 'subscription_expired')).toHaveLength(0);

    expect(await notes(ending.id, 'renewal_reminder')).toHaveLength(0);
    expect(dueOn.ending).toBeUndefined();
    expect(await tier(ending.id)).toBe('free');
    const expired = await notes(ending.id, 'subscription_expired');
    expect(expired).toHaveLength(1);
  });
});
