// The admin area's plans and recorded commission payments in SQL (migration
// 20261126110000_admin_plans.sql): the plan columns' rules, the guards that keep sign-up and
// checkout working, and private.record_commission_payment, run as the api's role (apiRole), also
// under concurrency, with the commission ledger checked against the rebookings recorded.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tx as ApiTx } from '../functions/api/db.ts';
import {
  insertPayment,
  paymentSucceeded,
  premiumPlan,
  recordManualCommissionPayment,
} from '../functions/api/queries/billing.ts';
import { recordRebooking } from '../functions/api/queries/flights.ts';
import { activePlans } from '../functions/api/queries/plans.ts';
import {
  actAs,
  type Actor,
  anon,
  apiRole,
  attempt,
  createFlight,
  createPlan,
  createRebooking,
  createUser,
  DENIED,
  openTestDatabase,
  serviceRole,
  setPlan,
  type TestDb,
  type TestUser,
  type Tx,
  user,
} from './factories.ts';

let db: TestDb;
let admin: TestUser;

beforeAll(async () => {
  db = await openTestDatabase();
  admin = await createUser(db.sql, { admin: true });
});

afterAll(async () => {
  await db?.close();
});

/** The api's own query, as the api's role (its asService connection). */
const asApi = <T>(fn: (tx: ApiTx) => Promise<T>): Promise<T> =>
  actAs(db.sql, apiRole, (tx) => fn(tx as unknown as ApiTx), { commit: true });

async function planIds(): Promise<{ free: number; premium: number }> {
  const rows = await db.sql<{ tier: 'free' | 'premium'; id: number }[]>`
    select distinct on (tier) tier, id::int from public.subscription_plans order by tier, id`;
  const ids = Object.fromEntries(rows.map((r) => [r.tier, r.id]));
  return { free: ids.free ?? 0, premium: ids.premium ?? 0 };
}

/** Only the migration's Free and Premium plans stay on offer (earlier tests add plans). */
async function onlyFreeAndPremiumOnOffer(): Promise<{ free: number; premium: number }> {
  const ids = await planIds();
  await db.sql`update public.subscription_plans set is_active = (id in ${db.sql([ids.free, ids.premium])})`;
  return ids;
}

async function ledger(userId: string) {
  const [row] = await db.sql<{ owed: number; paid: number }[]>`
    select commission_owed as owed, commission_paid as paid from public.profiles where id = ${userId}`;
  return row;
}

/** A rebooking recorded as the api records it: the traveller's plan's rate on the credit. */
async function rebook(userId: string, credit: number): Promise<number> {
  const flightId = await createFlight(db.sql, userId, { status: 'rebooking' });
  const rebookingId = await createRebooking(db.sql, flightId, userId, 'claimed');
  const recorded = await asApi((tx) =>
    recordRebooking(tx, {
      rebookingId,
      userId,
      flightId,
      newPrice: 30_000,
      airlineCredit: credit,
      creditReference: null,
      creditExpiryDate: '2027-12-31',
      seatNumber: null,
      rebookedAt: new Date(),
    }),
  );
  return recorded?.commission ?? 0;
}

const pay = (userId: string, amount: number, actor = admin.id) =>
  asApi((tx) => recordManualCommissionPayment(tx, actor, userId, amount));

/** Until some session of this database waits for a lock another one holds. */
async function someoneWaitsForALock(): Promise<void> {
  for (;;) {
    const [row] = await db.sql<{ n: number }[]>`
      select count(*)::int as n from pg_stat_activity
       where datname = current_database() and wait_event_type = 'Lock'`;
    if ((row?.n ?? 0) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

type Settled = { ok: true } | { ok: false; code: string; message: string };
const settled = (p: Promise<unknown>): Promise<Settled> =>
  p.then(
    () => ({ ok: true }) as const,
    (e: { code?: string; message?: string }) => ({ ok: false, code: e.code ?? '', message: e.message ?? '' }),
  );

/**
 * Two transactions on two connections, truly at once: the first does its work and stays open
 * until the second is blocked behind it (waiting for a lock), then both commit.
 */
async function atOnce(
  first: [Actor, (tx: Tx) => Promise<unknown>],
  second: [Actor, (tx: Tx) => Promise<unknown>],
): Promise<[Settled, Settled]> {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let worked: () => void = () => {};
  const firstWorked = new Promise<void>((resolve) => {
    worked = resolve;
  });
  const a = settled(
    actAs(
      db.sql,
      first[0],
      async (tx) => {
        await first[1](tx);
        worked();
        await held;
      },
      { commit: true },
    ),
  );
  await Promise.race([firstWorked, a]);
  const b = settled(actAs(db.sql, second[0], second[1], { commit: true }));
  await Promise.race([someoneWaitsForALock(), b]);
  release();
  return [await a, await b];
}

// One database session (PGlite) cannot hold a lock open against another.
const onServer = it.skipIf(process.env.TEST_DATABASE_URL === undefined);

describe('subscription_plans columns', () => {
  it.each([
    ['flight_limit', 0],
    ['flight_limit', -2],
    ['commission_rate', 101],
    ['price', -1],
  ])('refuses %s = %j', async (column, value) => {
    const id = await createPlan(db.sql);
    const outcome = await attempt(db.sql, user(admin.id), (tx) =>
      tx.unsafe(`update public.subscription_plans set ${column} = $1 where id = $2`, [value, id]),
    );
    expect(outcome).toMatchObject({ error: '23514' });
  });

  it('accepts -1 (unlimited) and 1 flights; a plan inserted without a commission rate has 0', async () => {
    const outcome = await attempt(
      db.sql,
      user(admin.id),
      (tx) => tx`insert into public.subscription_plans (name, price, flight_limit)
                 values ('One flight', 0, 1), ('Every flight', 0, -1)`,
      { commit: true },
    );
    expect(outcome).toEqual({ rows: 2 });
    const rows = await db.sql`select flight_limit, commission_rate from public.subscription_plans
                               where name in ('One flight', 'Every flight') order by flight_limit`;
    expect(rows).toEqual([
      { flight_limit: -1, commission_rate: 0 },
      { flight_limit: 1, commission_rate: 0 },
    ]);
  });

  it('names are unique whatever their case', async () => {
    await createPlan(db.sql, { name: 'Business Class' });
    const outcome = await attempt(
      db.sql,
      user(admin.id),
      (tx) => tx`insert into public.subscription_plans (name, price, flight_limit) values ('business CLASS', 1, 1)`,
    );
    expect(outcome).toMatchObject({ error: '23505' });
  });
});

describe('guards: sign-up and checkout keep a plan', () => {
  it("refuses to change the tier of a plan travellers are on, and allows it on a plan nobody's on", async () => {
    const plan = await createPlan(db.sql, { tier: 'premium', price: 1999 });
    const traveller = await createUser(db.sql);
    await setPlan(db.sql, traveller.id, plan);
    const outcome = await attempt(
      db.sql,
      user(admin.id),
      (tx) =>
        tx`update public.subscription_plans set tier = 'free', price = 0, auto_rebooking_enabled = false where id = ${plan}`,
    );
    expect(outcome).toMatchObject({
      error: 'FB409',
      message:
        'Travellers are on this plan (1): it cannot change between free (no price, no automatic rebooking) and paid while anyone is on it. Create a new plan instead.',
    });
    // the same edit of everything else goes through
    expect(
      await attempt(
        db.sql,
        user(admin.id),
        (tx) => tx`update public.subscription_plans set name = 'Renamed', price = 2999 where id = ${plan}`,
      ),
    ).toEqual({ rows: 1 });

    const empty = await createPlan(db.sql, { tier: 'premium', price: 1999 });
    expect(
      await attempt(
        db.sql,
        user(admin.id),
        (tx) =>
          tx`update public.subscription_plans set tier = 'free', price = 0, auto_rebooking_enabled = false where id = ${empty}`,
      ),
    ).toEqual({ rows: 1 });
  });

  it('refuses to retire the last active free plan or the last active paid premium plan, for anyone', async () => {
    const { free, premium } = await onlyFreeAndPremiumOnOffer();
    for (const actor of [user(admin.id), serviceRole, apiRole]) {
      expect(
        await attempt(
          db.sql,
          actor,
          (tx) => tx`update public.subscription_plans set is_active = false where id = ${free}`,
        ),
      ).toMatchObject({
        error: 'FB409',
        message:
          'New accounts start on the free plan: at least one active free plan (no price, no automatic rebooking) must remain.',
      });
      expect(
        await attempt(
          db.sql,
          actor,
          (tx) => tx`update public.subscription_plans set is_active = false where id = ${premium}`,
        ),
      ).toMatchObject({
        error: 'FB409',
        message: 'Checkout sells Premium: at least one active paid plan must remain.',
      });
    }
    // with another paid premium plan on offer, Premium may retire; then that one may not
    const gold = await createPlan(db.sql, { tier: 'premium', price: 4999 });
    const retire = (id: number) => (tx: Tx) =>
      tx`update public.subscription_plans set is_active = false where id = ${id}`;
    expect(await attempt(db.sql, user(admin.id), retire(premium), { commit: true })).toEqual({ rows: 1 });
    expect(await attempt(db.sql, user(admin.id), retire(gold))).toMatchObject({ error: 'FB409' });
    await db.sql`update public.subscription_plans set is_active = true where id = ${premium}`;
    await db.sql`update public.subscription_plans set is_active = false where id = ${gold}`;
  });

  it('checkout offers a paid plan: a Premium made free (automatic rebooking kept) gives way to one with a price', async () => {
    const { premium } = await onlyFreeAndPremiumOnOffer();
    const gold = await createPlan(db.sql, { tier: 'premium', price: 4999 });
    await db.sql`update public.subscription_plans set price = 0 where id = ${premium}`;
    const offered = await asApi((tx) => premiumPlan(tx));
    expect(offered).toMatchObject({ id: gold, price: 4999 });
    await db.sql`update public.subscription_plans set price = 2499 where id = ${premium}`;
    expect(await asApi((tx) => premiumPlan(tx))).toMatchObject({ id: premium, name: 'Premium', price: 2499 });
    await db.sql`update public.subscription_plans set is_active = false where id = ${gold}`;
  });

  it('renaming the plans changes neither what checkout offers nor which plan the list calls premium or free', async () => {
    const { free, premium } = await onlyFreeAndPremiumOnOffer();
    const rename = (id: number, name: string) => (tx: Tx) =>
      tx`update public.subscription_plans set name = ${name} where id = ${id}`;
    // Premium renamed, and its old name given to the free plan: a lookup by name would sell that
    expect(await attempt(db.sql, user(admin.id), rename(premium, 'FareBack Plus'), { commit: true })).toEqual({
      rows: 1,
    });
    expect(await attempt(db.sql, user(admin.id), rename(free, 'Premium'), { commit: true })).toEqual({ rows: 1 });
    try {
      expect(await asApi((tx) => premiumPlan(tx))).toMatchObject({
        id: premium,
        name: 'FareBack Plus',
        tier: 'premium',
      });
      const plans = await actAs(db.sql, anon, (tx) => activePlans(tx as unknown as ApiTx));
      expect(plans.map(({ id, name, tier }) => ({ id, name, tier }))).toEqual([
        { id: free, name: 'Premium', tier: 'free' },
        { id: premium, name: 'FareBack Plus', tier: 'premium' },
      ]);
    } finally {
      await db.sql`update public.subscription_plans set name = 'Free' where id = ${free}`;
      await db.sql`update public.subscription_plans set name = 'Premium' where id = ${premium}`;
    }
  });

  onServer('two admins retiring the last two paid plans at the same moment: the second is refused', async () => {
    const { premium } = await onlyFreeAndPremiumOnOffer();
    const gold = await createPlan(db.sql, { tier: 'premium', price: 4999 });
    const second = await createUser(db.sql, { admin: true });
    const retire = (id: number) => (tx: Tx) =>
      tx`update public.subscription_plans set is_active = false where id = ${id}`;
    const outcomes = await atOnce([user(admin.id), retire(premium)], [user(second.id), retire(gold)]);
    expect(outcomes).toEqual([
      { ok: true },
      { ok: false, code: 'FB409', message: 'Checkout sells Premium: at least one active paid plan must remain.' },
    ]);
    const active = await db.sql`select id::int from public.subscription_plans where tier = 'premium' and is_active`;
    expect(active).toEqual([{ id: gold }]);
    await db.sql`update public.subscription_plans set is_active = true where id = ${premium}`;
  });
});

describe('private.record_commission_payment', () => {
  it('moves the amount from owed to paid, writes a completed manual commission row and an audit row', async () => {
    const traveller = await createUser(db.sql, { premium: true });
    const commission = await rebook(traveller.id, 20_000);
    expect(commission).toBe(5_000);

    const recorded = await pay(traveller.id, 1_250);
    expect(recorded).toEqual({ transactionId: expect.any(Number), commissionOwed: 3_750, commissionPaid: 1_250 });
    expect(await ledger(traveller.id)).toEqual({ owed: 3_750, paid: 1_250 });

    const rows = await db.sql`
      select amount, status, type, payment_method, description from public.billing_transactions
       where user_id = ${traveller.id} order by id`;
    expect(rows).toEqual([
      expect.objectContaining({ amount: 5_000, status: 'pending', type: 'commission' }), // the rebooking's
      {
        amount: 1_250,
        status: 'completed',
        type: 'commission',
        payment_method: 'manual',
        description: 'Commission payment (recorded by FareBack)',
      },
    ]);

    const audit = await db.sql`
      select actor_id, action, target_type, target_id, target_label, before, after from public.admin_audit_log
       where action = 'commission.payment' and target_id = ${traveller.id}`;
    expect(audit).toEqual([
      {
        actor_id: admin.id,
        action: 'commission.payment',
        target_type: 'user',
        target_id: traveller.id,
        target_label: traveller.username,
        before: { commissionOwed: 5_000, commissionPaid: 0 },
        after: { commissionOwed: 3_750, commissionPaid: 1_250 },
      },
    ]);
  });

  it('the exact amount owed settles the pending commission rows; above it is refused with the amount owed', async () => {
    const traveller = await createUser(db.sql, { premium: true });
    await rebook(traveller.id, 10_000);
    await rebook(traveller.id, 3_333);
    const owed = (await ledger(traveller.id))?.owed ?? 0;
    expect(owed).toBe(2_500 + 833);

    await expect(pay(traveller.id, owed + 1)).rejects.toMatchObject({
      code: 'FB400',
      message: 'Amount exceeds the commission owed ($33.33)',
    });
    expect(await ledger(traveller.id)).toEqual({ owed, paid: 0 });

    await pay(traveller.id, owed);
    expect(await ledger(traveller.id)).toEqual({ owed: 0, paid: owed });
    const statuses = await db.sql`select status, count(*)::int as n from public.billing_transactions
                                   where user_id = ${traveller.id} group by status`;
    expect(statuses).toEqual([{ status: 'completed', n: 3 }]);
    await expect(pay(traveller.id, 1)).rejects.toMatchObject({
      code: 'FB400',
      message: 'Amount exceeds the commission owed ($0.00)',
    });
  });

  it('refuses a non-admin actor and a non-positive amount; an unknown traveller is no row', async () => {
    const traveller = await createUser(db.sql, { premium: true });
    await rebook(traveller.id, 10_000);
    await expect(pay(traveller.id, 100, traveller.id)).rejects.toMatchObject({
      code: DENIED,
      message: 'Admin access required',
    });
    await expect(pay(traveller.id, 0)).rejects.toMatchObject({ code: 'FB400', message: 'Amount must be above 0' });
    expect(await pay(randomUUID(), 100)).toBeNull();
    expect(await ledger(traveller.id)).toEqual({ owed: 2_500, paid: 0 });
    const [audit] = await db.sql<{ n: number }[]>`
      select count(*)::int as n from public.admin_audit_log where target_id = ${traveller.id}`;
    expect(audit?.n).toBe(0);
  });

  it('is the api role’s alone: anon, a traveller, an admin and service_role may not call it', async () => {
    const traveller = await createUser(db.sql, { premium: true });
    for (const actor of [anon, user(traveller.id), user(admin.id), serviceRole]) {
      const outcome = await attempt(db.sql, actor, async (tx) => {
        const rows = await tx`select * from private.record_commission_payment(${admin.id}, ${traveller.id}, 1)`;
        return { count: rows.length };
      });
      expect(outcome).toMatchObject({ error: DENIED });
    }
  });

  onServer('two admins recording the full amount owed at the same moment: the second is refused', async () => {
    const traveller = await createUser(db.sql, { premium: true });
    await rebook(traveller.id, 40_000);
    const second = await createUser(db.sql, { admin: true });
    const record = (actorId: string) => (tx: Tx) =>
      recordManualCommissionPayment(tx as unknown as ApiTx, actorId, traveller.id, 10_000);
    const outcomes = await atOnce([apiRole, record(admin.id)], [apiRole, record(second.id)]);
    expect(outcomes).toEqual([
      { ok: true },
      { ok: false, code: 'FB400', message: 'Amount exceeds the commission owed ($0.00)' },
    ]);
    expect(await ledger(traveller.id)).toEqual({ owed: 0, paid: 10_000 });
    const [rows] = await db.sql<{ n: number }[]>`
      select count(*)::int as n from public.billing_transactions where user_id = ${traveller.id} and payment_method = 'manual'`;
    expect(rows?.n).toBe(1);
  });

  it('keeps the ledger: rebookings recorded = owed + paid, with card payments and recorded ones mixed', async () => {
    type Step = { op: 'rebook'; credit: number } | { op: 'record'; part: number } | { op: 'card' };
    const stepArb: fc.Arbitrary<Step> = fc.oneof(
      fc.record({ op: fc.constant('rebook' as const), credit: fc.integer({ min: 0, max: 200_000 }) }),
      fc.record({ op: fc.constant('record' as const), part: fc.integer({ min: 1, max: 100 }) }),
      fc.record({ op: fc.constant('card' as const) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 8 }), async (steps) => {
        const traveller = await createUser(db.sql, { premium: true });
        let recorded = 0;
        for (const step of steps) {
          const owed = (await ledger(traveller.id))?.owed ?? 0;
          if (step.op === 'rebook') {
            recorded += await rebook(traveller.id, step.credit);
            expect(recorded).toBeGreaterThanOrEqual(0);
          } else if (step.op === 'record' && owed > 0) {
            await pay(traveller.id, Math.max(1, Math.floor((owed * step.part) / 100)));
          } else if (step.op === 'card' && owed > 0) {
            const id = `pi_admin_${randomUUID()}`;
            await asApi(async (tx) => {
              await insertPayment(tx, {
                id,
                userId: traveller.id,
                purpose: 'commission',
                planId: null,
                amount: owed,
                description: 'Commission payment',
              });
              await paymentSucceeded(tx, id, null);
            });
          }
          const state = await ledger(traveller.id);
          expect((state?.owed ?? -1) + (state?.paid ?? -1)).toBe(recorded);
          expect(state?.owed).toBeGreaterThanOrEqual(0);
        }
        const [sums] = await db.sql<{ rebookings: number; paid: number }[]>`
          select (select coalesce(sum(r.commission), 0)::int from private.rebookings r
                   where r.user_id = ${traveller.id} and r.state = 'recorded') as rebookings,
                 (select coalesce(sum(x.applied), 0)::int from private.payments x
                   where x.user_id = ${traveller.id} and x.status = 'succeeded')
                 + (select coalesce(sum(b.amount), 0)::int from public.billing_transactions b
                     where b.user_id = ${traveller.id} and b.payment_method = 'manual' and b.status = 'completed') as paid`;
        expect(sums?.rebookings).toBe(recorded);
        expect(sums?.paid).toBe((await ledger(traveller.id))?.paid);
      }),
      { numRuns: 15 },
    );
  });
});
