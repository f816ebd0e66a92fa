// Payments in SQL: the server-only tables and functions are closed to travellers and visitors,
// nobody pays or un-owes commission through the data API, and the payment outcome functions are
// idempotent in the order events may arrive.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePremiumDemo } from '../../dev/demo-billing.ts';
import { listFlights } from '../functions/api/queries/flights.ts';
import {
  actAs,
  anon,
  attempt,
  createUser,
  DENIED,
  openTestDatabase,
  user,
  type TestDb,
  type TestUser,
} from './factories.ts';

let db: TestDb;
let traveller: TestUser;

beforeAll(async () => {
  db = await openTestDatabase();
  traveller = await createUser(db.sql);
});

afterAll(async () => {
  await db?.close();
});

async function payment(id: string, purpose: 'subscription' | 'commission', amount: number) {
  const planId =
    purpose === 'subscription'
      ? ((
          await db.sql<
            { id: number }[]
          >`select id::int from public.subscription_plans where tier = 'premium' order by id limit 1`
        )[0]?.id ?? null)
      : null;
  await db.sql`insert into private.payments (id, user_id, purpose, plan_id, amount) values (${id}, ${traveller.id}, ${purpose}, ${planId}, ${amount})`;
  await db.sql`insert into public.billing_transactions (user_id, amount, status, type, payment_reference)
               values (${traveller.id}, ${amount}, 'pending', ${purpose}, ${id})`;
}

const profile = async () =>
  (
    await db.sql<{ owed: number; paid: number; tier: string }[]>`
      select p.commission_owed as owed, p.commission_paid as paid, sp.tier
        from public.profiles p join public.subscription_plans sp on sp.id = p.plan_id where p.id = ${traveller.id}`
  )[0];

describe('privileges', () => {
  it('travellers and visitors cannot read or write the payment tables', async () => {
    for (const table of ['payments', 'billing_accounts', 'stripe_events', 'local_payment_intents']) {
      for (const actor of [anon, user(traveller.id)]) {
        const read = await attempt(db.sql, actor, (tx) => tx`select * from ${tx('private')}.${tx(table)}`);
        expect(read, table).toMatchObject({ error: DENIED });
      }
    }
  });

  it('nobody calls the outcome functions through the data API', async () => {
    await payment('pi_priv_1', 'subscription', 2499);
    for (const call of [
      "select private.payment_succeeded('pi_priv_1', null)",
      "select private.payment_failed('pi_priv_1', 'x')",
      "select private.payment_refunded('pi_priv_1')",
      `select private.close_commission_period('${traveller.id}', '2026-01-01', '2026-01-31')`,
      `select * from private.claim_commission_payment('${traveller.id}')`,
      "select private.attach_commission_intent('k', 'pi_priv_1', 'x')",
      "select private.queue_unapplied_refund('pi_priv_1')",
      "select private.payment_unapplied_refunded('pi_priv_1', 're_1', 1)",
    ]) {
      const outcome = await attempt(db.sql, user(traveller.id), (tx) => tx.unsafe(call));
      expect(outcome, call).toMatchObject({ error: DENIED });
    }
    expect((await profile())?.tier).toBe('free');
  });

  it('a traveller cannot mark commission paid or change what is owed', async () => {
    for (const change of ['commission_paid = 100', 'commission_owed = 0']) {
      const outcome = await attempt(db.sql, user(traveller.id), (tx) =>
        tx.unsafe(`update public.profiles set ${change} where id = '${traveller.id}'`),
      );
      expect(outcome, change).toMatchObject({ error: DENIED });
    }
  });
});

describe('claiming a commission debt (issue 21, finding 5)', () => {
  type Claim = {
    debt_key: string;
    amount: number;
    payment_id: string | null;
    stale_id: string | null;
    stale_in_flight: boolean;
  };
  const claim = async (userId: string) =>
    (await db.sql<Claim[]>`select * from private.claim_commission_payment(${userId})`)[0] ?? null;

  it('one pending row per debt: the same debt answers the same key and row, a new debt a new key', async () => {
    const owing = await createUser(db.sql);
    expect(await claim(owing.id)).toBeNull(); // nothing owed
    await db.sql`update public.profiles set commission_owed = 1000 where id = ${owing.id}`;
    const first = await claim(owing.id);
    expect(first).toEqual({
      debt_key: `commission:${owing.id}:0:1000`,
      amount: 1000,
      payment_id: `commission:${owing.id}:0:1000`,
      stale_id: null,
      stale_in_flight: false,
    });
    // again before the provider answered: the same claim, no second row
    expect(await claim(owing.id)).toEqual(first);
    await db.sql`select private.attach_commission_intent(${first?.debt_key ?? ''}, 'pi_claim_1', 'Commission payment')`;
    expect(await claim(owing.id)).toMatchObject({ debt_key: first?.debt_key, payment_id: 'pi_claim_1' });
    const rows = await db.sql`select id, status from private.payments where user_id = ${owing.id}`;
    expect(rows).toEqual([{ id: 'pi_claim_1', status: 'pending' }]);

    // a new rebooking: the open payment is for an earlier debt, to give up first
    await db.sql`update public.profiles set commission_owed = 1500 where id = ${owing.id}`;
    expect(await claim(owing.id)).toMatchObject({
      debt_key: `commission:${owing.id}:0:1500`,
      stale_id: 'pi_claim_1',
      stale_in_flight: false,
    });
    // declined: a retry of the debt is a new charge (a new key), not a replay of the decline
    await db.sql`select private.payment_failed('pi_claim_1', 'declined')`;
    expect(await claim(owing.id)).toMatchObject({ debt_key: `commission:${owing.id}:1:1500`, stale_id: null });

    // a claim whose provider call has not answered (a statement's charge under way) is waited for
    await db.sql`update public.profiles set commission_owed = 1700 where id = ${owing.id}`;
    expect(await claim(owing.id)).toMatchObject({
      debt_key: `commission:${owing.id}:1:1700`,
      stale_id: `commission:${owing.id}:1:1500`,
      stale_in_flight: true,
    });
  });
});

describe('payment outcomes', () => {
  it('a success after a failure wins; a late failure after a success changes nothing; a replay is a no-op', async () => {
    await payment('pi_order_1', 'subscription', 2499);
    const call = async (sqlText: string) => (await db.sql.unsafe<{ ok: boolean }[]>(sqlText))[0]?.ok;
    expect(await call("select private.payment_failed('pi_order_1', 'declined') as ok")).toBe(true);
    expect((await profile())?.tier).toBe('free');
    expect(await call("select private.payment_succeeded('pi_order_1', 'pm_1') as ok")).toBe(true);
    expect((await profile())?.tier).toBe('premium');
    expect(await call("select private.payment_succeeded('pi_order_1', 'pm_1') as ok")).toBe(false);
    expect(await call("select private.payment_failed('pi_order_1', 'declined') as ok")).toBe(false);
    expect((await profile())?.tier).toBe('premium');
    const [row] = await db.sql<{ status: string }[]>`
      select status from public.billing_transactions where payment_reference = 'pi_order_1'`;
    expect(row?.status).toBe('completed');
  });

  it('a commission payment takes what is owed, never more; a refund puts it back', async () => {
    await db.sql`update public.profiles set commission_owed = 1000 where id = ${traveller.id}`;
    await payment('pi_comm_1', 'commission', 1500);
    await db.sql`select private.payment_succeeded('pi_comm_1', null)`;
    expect(await profile()).toMatchObject({ owed: 0, paid: 1000 });
    await db.sql`select private.payment_refunded('pi_comm_1')`;
    expect(await profile()).toMatchObject({ owed: 1000, paid: 0 });
  });

  it('a statement closes a period once', async () => {
    const [a] = await db.sql<{ id: number }[]>`
      select private.close_commission_period(${traveller.id}, '2026-02-01', '2026-02-28') as id`;
    const [b] = await db.sql<{ id: number }[]>`
      select private.close_commission_period(${traveller.id}, '2026-02-01', '2026-02-28') as id`;
    expect(a?.id).not.toBeNull();
    expect(b?.id).toBe(a?.id);
    const [statement] = await db.sql<{ amount: number; status: string; description: string }[]>`
      select amount, status, description from public.billing_transactions where id = ${a?.id ?? 0}`;
    expect(statement).toEqual({
      amount: 1000,
      status: 'pending',
      description: 'Commission statement Feb 1, 2026 - Feb 28, 2026',
    });
  });
});

describe("the stack's premium demo traveller", () => {
  it('has a price history on every flight, ending at the price its card shows, so the charts show it', async () => {
    const demo = await createUser(db.sql, { email: 'premium.prices@example.com' });
    await ensurePremiumDemo(db.sql, demo.email);
    const flights = await actAs(db.sql, user(demo.id), (tx) => listFlights(tx, demo.id));
    expect(flights).toHaveLength(3);
    for (const flight of flights) {
      const history = flight.priceHistory;
      expect(history.length, flight.flightNumber).toBeGreaterThanOrEqual(5);
      const prices = history.map((p) => p.price);
      expect(history.at(-1)?.price).toBe(flight.hasBeenRebooked ? flight.rebookingPrice : flight.currentPrice);
      expect(Math.min(...prices)).toBe(flight.lowestPrice);
      expect(Math.max(...prices)).toBe(flight.highestPrice);
      expect(history.at(-1)?.checkedAt).toBe(flight.lastChecked);
    }
  });

  it('has a paid year, rebooked flights, commission owed, a payment history, and a ledger that adds up', async () => {
    const demo = await createUser(db.sql, { email: 'premium.demo@example.com' });
    await ensurePremiumDemo(db.sql, demo.email);
    await ensurePremiumDemo(db.sql, demo.email); // once only
    const [state] = await db.sql<
      {
        tier: string;
        owed: number;
        paid: number;
        credits: number;
        recorded: number;
        flights: number;
        rebooked: number;
      }[]
    >`
      select sp.tier, p.commission_owed as owed, p.commission_paid as paid, p.total_credits_earned as credits,
             (select sum(r.commission)::int from private.rebookings r where r.user_id = p.id and r.state = 'recorded') as recorded,
             (select count(*)::int from public.flights f where f.user_id = p.id) as flights,
             (select count(*)::int from public.flights f where f.user_id = p.id and f.has_been_rebooked) as rebooked
        from public.profiles p join public.subscription_plans sp on sp.id = p.plan_id where p.id = ${demo.id}`;
    expect(state).toMatchObject({ tier: 'premium', owed: 2000, paid: 1750, credits: 15000, flights: 3, rebooked: 2 });
    expect((state?.owed ?? 0) + (state?.paid ?? 0)).toBe(state?.recorded);
    const history = await db.sql<{ type: string; status: string }[]>`
      select type, status from public.billing_transactions where user_id = ${demo.id} order by transaction_date`;
    expect(history.map((h) => `${h.type}:${h.status}`).sort()).toEqual([
      'commission:completed',
      'commission:completed',
      'commission:failed',
      'commission:pending',
      'subscription:completed',
    ]);
  });
});
