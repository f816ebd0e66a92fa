// One rule, one home: whether automatic rebooking applies to a traveller is
// private.auto_rebooking_refusal / private.auto_rebooking_applies (migration
// 20261129300000_rules_one_home): a premium plan that allows it, and the traveller switched it
// on. Its table, then each place that reads it: the start of a run (which flights it evaluates),
// the claim of an automatic rebooking, a batch's flights, and the traveller's own run
// (POST /api/auto-rebooking/execute), which answers the refusal.
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../dev/db/test-db.ts';
import type { AppDeps } from '../functions/api/context.ts';
import { createDb, type Db, type Tx as ApiTx } from '../functions/api/db.ts';
import { autoRebookingRefusal, loadBatchFlights } from '../functions/api/queries/auto-rebooking.ts';
import { claimRebooking } from '../functions/api/queries/flights.ts';
import {
  AUTO_REBOOKING_REFUSALS,
  AutoRebookingRefused,
  executeOwnRun,
} from '../functions/api/services/auto-rebooking.ts';
import { createFlight, createFlightBooking, createPlan, createUser, setPlan } from './factories.ts';

let database: TestDatabase;
let sql: postgres.Sql;
let api: Db;

beforeAll(async () => {
  database = await createTestDatabase();
  sql = postgres(database.url, { max: 2, prepare: !database.singleSession, onnotice: () => {} });
  api = createDb({ databaseUrl: database.ownerUrl, singleSession: database.singleSession });
});

afterAll(async () => {
  await api?.close();
  await sql?.end();
  await database?.close();
});

type PlanKind = 'free' | 'premium' | 'premium without automatic rebooking';

const CASES: { plan: PlanKind; switchedOn: boolean; refusal: 'plan' | 'switched_off' | null }[] = [
  { plan: 'premium', switchedOn: true, refusal: null },
  { plan: 'premium', switchedOn: false, refusal: 'switched_off' },
  { plan: 'premium without automatic rebooking', switchedOn: true, refusal: 'plan' },
  { plan: 'premium without automatic rebooking', switchedOn: false, refusal: 'plan' },
  // switching it on needs a premium plan (profiles_enforce_auto_rebooking_premium)
  { plan: 'free', switchedOn: false, refusal: 'plan' },
];

/** A traveller on that kind of plan, switched on or off, with one price drop that qualifies. */
async function travellerOn(plan: PlanKind, switchedOn: boolean): Promise<{ userId: string; flightId: number }> {
  const { id: userId } = await createUser(sql);
  if (plan === 'free') await setPlan(sql, userId, 'free');
  else {
    const planId = await createPlan(sql, { tier: 'premium', price: 2499, commissionRate: 25 });
    // a paid plan stays premium without automatic rebooking (subscription_plans_tier_derived)
    if (plan !== 'premium')
      await sql`update public.subscription_plans set auto_rebooking_enabled = false where id = ${planId}`;
    await setPlan(sql, userId, planId);
  }
  await sql`update public.profiles set auto_rebooking = ${switchedOn} where id = ${userId}`;
  const flightId = await createFlight(sql, userId, {
    status: 'price_drop',
    original_price: 45_000,
    current_price: 30_000,
    rebooking_method: 'source',
    source_reference: 'SIM-APPLIES',
  });
  await createFlightBooking(sql, flightId);
  return { userId, flightId };
}

/** Runs as the api's service connection, rolled back: each question starts from the same rows. */
async function rolledBack<T>(fn: (tx: ApiTx) => Promise<T>): Promise<T> {
  let answer: T | undefined;
  await api
    .asService(async (tx) => {
      answer = await fn(tx);
      throw new Error('rollback');
    })
    .catch((error: unknown) => {
      if (!(error instanceof Error) || error.message !== 'rollback') throw error;
    });
  return answer as T;
}

describe('private.auto_rebooking_refusal and auto_rebooking_applies', () => {
  it.each(CASES)('on a $plan plan, switched on: $switchedOn, refuses with $refusal', async (c) => {
    const { userId } = await travellerOn(c.plan, c.switchedOn);
    const [row] = await sql<{ refusal: string | null; applies: boolean }[]>`
      select private.auto_rebooking_refusal(p, sp) as refusal, private.auto_rebooking_applies(p, sp) as applies
        from public.profiles p join public.subscription_plans sp on sp.id = p.plan_id where p.id = ${userId}`;
    expect(row).toEqual({ refusal: c.refusal, applies: c.refusal === null });
  });
  it("answers 'plan' when given a plan row that is not the traveller's", async () => {
    const { userId } = await travellerOn('premium', true);
    const [row] = await sql<{ refusal: string | null }[]>`
      select private.auto_rebooking_refusal(p, sp) as refusal
        from public.profiles p join public.subscription_plans sp on sp.id <> p.plan_id and sp.tier = 'premium'
       where p.id = ${userId} limit 1`;
    expect(row).toEqual({ refusal: 'plan' });
  });
});

describe('what reads it', () => {
  it.each(CASES)(
    "the api's autoRebookingRefusal on a $plan plan, switched on: $switchedOn",
    async ({ plan, switchedOn, refusal }) => {
      const { userId } = await travellerOn(plan, switchedOn);
      expect(await api.asService((tx) => autoRebookingRefusal(tx, userId))).toBe(refusal);
    },
  );

  it.each(CASES)(
    "a run's start evaluates the flights on a $plan plan, switched on: $switchedOn, only when it applies",
    async ({ plan, switchedOn, refusal }) => {
      const { userId } = await travellerOn(plan, switchedOn);
      const started = await rolledBack(
        (tx) => tx<{ flights_evaluated: number; flights_qualifying: number }[]>`
          select flights_evaluated, flights_qualifying
            from private.start_auto_rebooking_run('traveller', ${userId}::uuid, ${userId}::uuid, 50)`,
      );
      const n = refusal === null ? 1 : 0;
      expect(started).toEqual([{ flights_evaluated: n, flights_qualifying: n }]);
    },
  );

  it.each(CASES)(
    'an automatic claim and a batch take the flight on a $plan plan, switched on: $switchedOn, only when it applies',
    async ({ plan, switchedOn, refusal }) => {
      const { userId, flightId } = await travellerOn(plan, switchedOn);
      const batch = await rolledBack((tx) => loadBatchFlights(tx, [flightId]));
      expect(batch.map((f) => f.flightId)).toEqual(refusal === null ? [flightId] : []);
      const claimed = await rolledBack((tx) =>
        claimRebooking(tx, { userId, flightId, method: 'source', request: null, automatic: true }),
      );
      expect(claimed === null).toBe(refusal !== null);
      // the Rebook button is the traveller's own choice: the rule does not hold it back
      const byHand = await rolledBack((tx) =>
        claimRebooking(tx, { userId, flightId, method: 'source', request: null }),
      );
      expect(byHand).not.toBeNull();
    },
  );

  it.each(CASES.filter((c) => c.refusal !== null))(
    "the traveller's own run on a $plan plan, switched on: $switchedOn, is refused",
    async ({ plan, switchedOn, refusal }) => {
      const { userId } = await travellerOn(plan, switchedOn);
      const deps = { db: api } as AppDeps;
      const claims = { sub: userId, role: 'authenticated', aud: 'authenticated', exp: 0 };
      const error = await executeOwnRun(deps, claims).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AutoRebookingRefused);
      expect(error).toMatchObject(
        refusal === 'switched_off'
          ? { status: 409, refusal: AUTO_REBOOKING_REFUSALS.disabled }
          : { status: 403, refusal: AUTO_REBOOKING_REFUSALS.premium },
      );
    },
  );
});
