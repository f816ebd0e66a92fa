// Billing transactions and subscription plans: travellers read, only admins and the system write,
// and nobody can bill or credit themselves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DENIED,
  actAs,
  anon,
  attempt,
  createBillingTransaction,
  createPlan,
  createUser,
  openTestDatabase,
  serviceRole,
  user,
  type TestDb,
  type TestUser,
} from './factories.ts';

let db: TestDb;
let traveller: TestUser;
let admin: TestUser;

beforeAll(async () => {
  db = await openTestDatabase();
  traveller = await createUser(db.sql);
  admin = await createUser(db.sql, { admin: true });
});

afterAll(async () => {
  await db?.close();
});

async function transaction(id: number): Promise<Record<string, unknown>> {
  const [row] = await db.sql<Record<string, unknown>[]>`select * from public.billing_transactions where id = ${id}`;
  if (!row) throw new Error(`no transaction ${id}`);
  return row;
}

describe('billing transactions', () => {
  it('a traveller cannot record a payment or a credit for themselves', async () => {
    for (const type of ['commission', 'credit', 'refund']) {
      const outcome = await attempt(
        db.sql,
        user(traveller.id),
        (tx) =>
          tx`insert into public.billing_transactions (user_id, amount, type, status)
           values (${traveller.id}, 100000, ${type}, 'completed')`,
      );
      expect(outcome).toMatchObject({ error: DENIED });
    }
  });

  it('a traveller cannot mark their own charge paid, change its amount or delete it', async () => {
    const id = await createBillingTransaction(db.sql, traveller.id, {
      type: 'commission',
      status: 'pending',
      amount: 2500,
    });
    expect(
      await attempt(
        db.sql,
        user(traveller.id),
        (tx) => tx`update public.billing_transactions set status = 'completed' where id = ${id}`,
      ),
    ).toEqual({ rows: 0 });
    expect(
      await attempt(
        db.sql,
        user(traveller.id),
        (tx) => tx`update public.billing_transactions set amount = 0 where id = ${id}`,
      ),
    ).toMatchObject({ error: DENIED });
    expect(
      await attempt(db.sql, user(traveller.id), (tx) => tx`delete from public.billing_transactions where id = ${id}`),
    ).toMatchObject({ error: DENIED });
    expect(await transaction(id)).toMatchObject({ status: 'pending', amount: 2500 });
  });

  it('an admin may change the status, and only the status', async () => {
    const id = await createBillingTransaction(db.sql, traveller.id, {
      type: 'commission',
      status: 'pending',
      amount: 2500,
    });
    const settled = await actAs(
      db.sql,
      user(admin.id),
      (tx) => tx`update public.billing_transactions set status = 'completed' where id = ${id}`,
      { commit: true },
    );
    expect(settled.count).toBe(1);
    expect(await transaction(id)).toMatchObject({ status: 'completed', amount: 2500 });
    for (const change of ['amount = 1', `user_id = '${admin.id}'`, "type = 'refund'"]) {
      const outcome = await attempt(db.sql, user(admin.id), (tx) =>
        tx.unsafe(`update public.billing_transactions set ${change} where id = $1`, [id]),
      );
      expect(outcome, change).toMatchObject({ error: DENIED });
    }
    expect(
      await attempt(
        db.sql,
        user(admin.id),
        (tx) => tx`insert into public.billing_transactions (user_id, amount, type) values (${admin.id}, 1, 'credit')`,
      ),
    ).toMatchObject({ error: DENIED });
  });

  it.each([
    ['status', 'paid'],
    ['type', 'gift'],
    ['amount', -1],
    ['currency', 'dollars'],
    ['credits_earned_in_period', -1],
  ])('rejects the %s %j', async (column, value) => {
    const id = await createBillingTransaction(db.sql, traveller.id);
    const outcome = await attempt(db.sql, serviceRole, (tx) =>
      tx.unsafe(`update public.billing_transactions set ${column} = $1 where id = $2`, [value as string, id]),
    );
    expect(outcome).toMatchObject({ error: '23514' });
  });

  it.each([['pending'], ['completed'], ['failed'], ['refunded']])('accepts the status %s', async (status) => {
    const id = await createBillingTransaction(db.sql, traveller.id);
    expect(
      await attempt(
        db.sql,
        serviceRole,
        (tx) => tx`update public.billing_transactions set status = ${status} where id = ${id}`,
      ),
    ).toEqual({ rows: 1 });
  });

  it('records a payment reference only once', async () => {
    await db.sql`insert into public.billing_transactions (user_id, amount, type, payment_reference)
                 values (${traveller.id}, 2499, 'subscription', 'pi_test_once')`;
    const replay = await attempt(
      db.sql,
      serviceRole,
      (tx) =>
        tx`insert into public.billing_transactions (user_id, amount, type, payment_reference)
         values (${traveller.id}, 2499, 'subscription', 'pi_test_once')`,
    );
    expect(replay).toMatchObject({ error: '23505' });
  });
});

describe('subscription plans', () => {
  it('visitors and travellers see active plans only; admins see all', async () => {
    const hidden = await createPlan(db.sql, { name: 'Retired plan', isActive: false });
    const visible = await createPlan(db.sql, { name: 'Current plan' });
    const idsFor = async (who: Parameters<typeof actAs>[1]) =>
      actAs(db.sql, who, async (tx) =>
        (await tx<{ id: number }[]>`select id::int from public.subscription_plans`).map((r) => r.id),
      );
    for (const who of [anon, user(traveller.id)]) {
      const ids = await idsFor(who);
      expect(ids).toContain(visible);
      expect(ids).not.toContain(hidden);
    }
    expect(await idsFor(user(admin.id))).toEqual(expect.arrayContaining([visible, hidden]));
  });

  it('a traveller cannot create, change or delete plans', async () => {
    const id = await createPlan(db.sql, { name: 'Target plan', price: 5000 });
    expect(
      await attempt(
        db.sql,
        user(traveller.id),
        (tx) => tx`insert into public.subscription_plans (name, price, flight_limit) values ('Free forever', 0, -1)`,
      ),
    ).toMatchObject({ error: DENIED });
    expect(
      await attempt(
        db.sql,
        user(traveller.id),
        (tx) => tx`update public.subscription_plans set price = 0 where id = ${id}`,
      ),
    ).toEqual({ rows: 0 });
    expect(
      await attempt(db.sql, user(traveller.id), (tx) => tx`delete from public.subscription_plans where id = ${id}`),
    ).toMatchObject({ error: DENIED });
    expect(
      await attempt(db.sql, anon, (tx) => tx`update public.subscription_plans set price = 0 where id = ${id}`),
    ).toMatchObject({ error: DENIED });
  });

  it('an admin creates, edits and deactivates a plan, but cannot delete it', async () => {
    const id = await actAs(
      db.sql,
      user(admin.id),
      async (tx) => {
        const [row] = await tx<{ id: number }[]>`insert into public.subscription_plans
            (name, price, flight_limit, auto_rebooking_enabled, commission_rate, description, is_active)
          values ('Family', 4999, 20, true, 20, 'For families', true) returning id::int`;
        return row?.id ?? 0;
      },
      { commit: true },
    );
    const edited = await actAs(
      db.sql,
      user(admin.id),
      (tx) => tx`update public.subscription_plans set price = 3999, is_active = false where id = ${id}`,
      { commit: true },
    );
    expect(edited.count).toBe(1);
    const [plan] = await db.sql`select price, is_active from public.subscription_plans where id = ${id}`;
    expect(plan).toEqual({ price: 3999, is_active: false });
    expect(
      await attempt(db.sql, user(admin.id), (tx) => tx`delete from public.subscription_plans where id = ${id}`),
    ).toMatchObject({ error: DENIED });
  });

  it('plan names are unique regardless of case', async () => {
    await createPlan(db.sql, { name: 'Business' });
    const outcome = await attempt(
      db.sql,
      serviceRole,
      (tx) => tx`insert into public.subscription_plans (name, price, flight_limit) values ('BUSINESS', 1, 1)`,
    );
    expect(outcome).toMatchObject({ error: '23505' });
  });

  it.each([
    ['price', -1],
    ['flight_limit', -2],
    ['commission_rate', -1],
    ['commission_rate', 101],
    ['name', ' '],
  ])('rejects %s = %j', async (column, value) => {
    const id = await createPlan(db.sql);
    const outcome = await attempt(db.sql, serviceRole, (tx) =>
      tx.unsafe(`update public.subscription_plans set ${column} = $1 where id = $2`, [value as string, id]),
    );
    expect(outcome).toMatchObject({ error: '23514' });
  });

  it('accepts an empty commission rate, unlimited flights and a features list', async () => {
    const id = await createPlan(db.sql, { commissionRate: null, flightLimit: -1 });
    const outcome = await attempt(
      db.sql,
      serviceRole,
      (tx) => tx`update public.subscription_plans set features = ${tx.json(['Unlimited Flights'])} where id = ${id}`,
    );
    expect(outcome).toEqual({ rows: 1 });
    const notAList = await attempt(
      db.sql,
      serviceRole,
      (tx) => tx`update public.subscription_plans set features = ${tx.json({ unlimited: true })} where id = ${id}`,
    );
    expect(notAList).toMatchObject({ error: '23514' });
  });
});
