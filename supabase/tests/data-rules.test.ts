// Rules the api held and the data API did not (migration 20261122000300_profiles_and_plans.sql): every privilege
// `authenticated` holds is an HTTP endpoint, so an admin could write plans and a traveller their
// unsubscribed kinds there without the api's schema. Here each write is made as those roles: the
// database refuses what the api refuses and accepts what it accepts.
//   * Plans: the api's schema (subscriptionPlanSchema) and the database accept the same plans,
//     bound for bound, and the tier is the api's planTier (a price or automatic rebooking make a
//     plan premium): any other tier is refused.
//   * unsubscribed_kinds: only the kinds an unsubscribe link turns off that have no switch of their
//     own (UNSUBSCRIBE_KIND_DESCRIPTIONS), each once; private.unsubscribe_notification_kind can
//     write every one of them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PLAN_DESCRIPTION_MAX_LENGTH,
  PLAN_FLIGHT_LIMIT_MAX,
  PLAN_NAME_MAX_LENGTH,
  PLAN_PRICE_MAX_CENTS,
  subscriptionPlanSchema,
  type SubscriptionPlanInput,
} from '../functions/_shared/schemas/admin.ts';
import { UNSUBSCRIBE_KIND_DESCRIPTIONS } from '../functions/_shared/types/unsubscribe.ts';
import { planTier } from '../functions/api/services/admin-plans.ts';
import {
  apiRole,
  attempt,
  createPlan,
  createUser,
  openTestDatabase,
  user,
  type TestDb,
  type TestUser,
} from './factories.ts';

/** A CHECK constraint refused the row. */
const CHECK_VIOLATION = '23514';

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

let planNumber = 0;
function planBody(overrides: Partial<SubscriptionPlanInput> = {}): SubscriptionPlanInput {
  planNumber += 1;
  return {
    name: `Rule plan ${planNumber}`,
    price: 1999,
    flightLimit: 20,
    commissionRate: 15,
    description: 'For frequent travellers',
    autoRebookingEnabled: true,
    isActive: true,
    ...overrides,
  };
}

/** Inserts the plan as the admin through the data API's role (rolled back), with the tier given. */
function insertAsAdmin(body: SubscriptionPlanInput, tier: string) {
  return attempt(
    db.sql,
    user(admin.id),
    (tx) => tx`insert into public.subscription_plans
        (name, tier, price, flight_limit, auto_rebooking_enabled, commission_rate, description, is_active)
      values (${body.name}, ${tier}, ${body.price}, ${body.flightLimit}, ${body.autoRebookingEnabled ?? false},
              ${body.commissionRate ?? 0}, ${body.description ?? null}, ${body.isActive ?? true})`,
  );
}

describe('subscription plans written through the data API', () => {
  /** Each bound of the admin schema, just inside and just outside. */
  const BOUNDS: [string, Partial<SubscriptionPlanInput>][] = [
    ['price 0', { price: 0, autoRebookingEnabled: false }],
    ['price -1', { price: -1 }],
    ['price at the maximum', { price: PLAN_PRICE_MAX_CENTS }],
    ['price above the maximum', { price: PLAN_PRICE_MAX_CENTS + 1 }],
    ['flight limit -1 (unlimited)', { flightLimit: -1 }],
    ['flight limit -2', { flightLimit: -2 }],
    ['flight limit 0', { flightLimit: 0 }],
    ['flight limit 1', { flightLimit: 1 }],
    ['flight limit at the maximum', { flightLimit: PLAN_FLIGHT_LIMIT_MAX }],
    ['flight limit above the maximum', { flightLimit: PLAN_FLIGHT_LIMIT_MAX + 1 }],
    ['commission rate 0', { commissionRate: 0 }],
    ['commission rate -1', { commissionRate: -1 }],
    ['commission rate 100', { commissionRate: 100 }],
    ['commission rate 101', { commissionRate: 101 }],
    ['name at the maximum length', { name: 'N'.repeat(PLAN_NAME_MAX_LENGTH) }],
    ['name above the maximum length', { name: 'N'.repeat(PLAN_NAME_MAX_LENGTH + 1) }],
    ['description at the maximum length', { description: 'd'.repeat(PLAN_DESCRIPTION_MAX_LENGTH) }],
    ['description above the maximum length', { description: 'd'.repeat(PLAN_DESCRIPTION_MAX_LENGTH + 1) }],
  ];

  it.each(BOUNDS)('the api schema and the database agree on %s', async (_, overrides) => {
    const body = planBody(overrides);
    const schemaAccepts = subscriptionPlanSchema.safeParse(body).success;
    const tier = planTier({ price: body.price, autoRebookingEnabled: body.autoRebookingEnabled ?? false });
    const outcome = await insertAsAdmin(body, tier);
    expect(outcome).toEqual(schemaAccepts ? { rows: 1 } : expect.objectContaining({ error: CHECK_VIOLATION }));
  });

  /** Every combination the tier depends on: [price, automatic rebooking]. */
  const OFFERS = [0, 1, 2499].flatMap((price) => [false, true].map((auto) => [price, auto] as const));

  it.each(OFFERS)('price %i cents, automatic rebooking %s: only the api tier is accepted', async (price, auto) => {
    const offer = { price, autoRebookingEnabled: auto };
    const body = planBody(offer);
    const tier = planTier(offer);
    expect(await insertAsAdmin(body, tier)).toEqual({ rows: 1 });
    expect(await insertAsAdmin(body, tier === 'free' ? 'premium' : 'free')).toMatchObject({
      error: CHECK_VIOLATION,
    });
  });

  it('an insert that names no tier gets the api tier', async () => {
    const [paid, free] = await db.sql.begin(async (tx) => {
      const rows = await tx<{ tier: string }[]>`
        insert into public.subscription_plans (name, price, flight_limit, auto_rebooking_enabled)
        values ('No tier, paid', 999, 5, false), ('No tier, free', 0, 5, false)
        returning tier`;
      await tx`delete from public.subscription_plans where name like 'No tier, %'`;
      return rows.map((row) => row.tier);
    });
    expect([paid, free]).toEqual(['premium', 'free']);
  });

  it('refuses an edit that leaves a free plan with a price or a premium plan with neither', async () => {
    // not the stack's Free and Premium: the last of each is held by private.keep_plans_on_offer
    const free = await createPlan(db.sql);
    const premium = await createPlan(db.sql, { tier: 'premium', price: 2999 });
    const asAdmin = (statement: string, id: number) =>
      attempt(db.sql, user(admin.id), (tx) => tx.unsafe(statement, [id]));
    for (const [statement, id] of [
      ['update public.subscription_plans set price = 999 where id = $1', free],
      ['update public.subscription_plans set auto_rebooking_enabled = true where id = $1', free],
      ['update public.subscription_plans set price = 0, auto_rebooking_enabled = false where id = $1', premium],
      ["update public.subscription_plans set tier = 'premium' where id = $1", free],
    ] as const) {
      expect(await asAdmin(statement, id), statement).toMatchObject({ error: CHECK_VIOLATION });
    }
    // naming the tier that follows goes through
    expect(
      await asAdmin("update public.subscription_plans set price = 999, tier = 'premium' where id = $1", free),
    ).toEqual({ rows: 1 });
  });
});

describe('profiles.unsubscribed_kinds written by the traveller', () => {
  /** Kinds whose switch is a column of their own (notify_*), and the digest, which turns those off. */
  const SWITCHED = ['price_drop', 'rebooking', 'flight_cancelled', 'digest'];
  const KNOWN = Object.keys(UNSUBSCRIBE_KIND_DESCRIPTIONS).filter((kind) => !SWITCHED.includes(kind));

  const write = (value: unknown) =>
    attempt(
      db.sql,
      user(traveller.id),
      (tx) => tx`update public.profiles set unsubscribed_kinds = ${value as string}::text[] where id = ${traveller.id}`,
    );

  it('the kinds the database accepts are the links kinds without a switch', async () => {
    expect(KNOWN.length).toBeGreaterThan(0);
    for (const kind of Object.keys(UNSUBSCRIBE_KIND_DESCRIPTIONS)) {
      expect(await write(`{${kind}}`), kind).toEqual(
        KNOWN.includes(kind) ? { rows: 1 } : expect.objectContaining({ error: CHECK_VIOLATION }),
      );
    }
    expect(await write(`{${KNOWN.join(',')}}`)).toEqual({ rows: 1 });
    expect(await write('{}')).toEqual({ rows: 1 });
  });

  it.each([
    ['an unknown kind', '{newsletter}'],
    ['a kind twice', `{${KNOWN[0]},${KNOWN[0]}}`],
    ['a null', '{NULL}'],
    ['a two-dimensional list', `{{${KNOWN[0]}}}`],
    ['a long list', `{${Array.from({ length: 10_000 }, () => 'x'.repeat(100)).join(',')}}`],
  ])('refuses %s', async (_, value) => {
    expect(await write(value)).toMatchObject({ error: CHECK_VIOLATION });
  });

  it('the unsubscribe link can turn off every kind without a switch, once', async () => {
    const someone = await createUser(db.sql);
    for (const kind of [...KNOWN, ...KNOWN]) {
      expect(
        await attempt(
          db.sql,
          apiRole,
          (tx) => tx`select private.unsubscribe_notification_kind(${someone.id}::uuid, ${kind})`,
          { commit: true },
        ),
      ).toEqual({ rows: 1 });
    }
    const [row] = await db.sql<{ kinds: string[] }[]>`
      select unsubscribed_kinds as kinds from public.profiles where id = ${someone.id}`;
    expect(row?.kinds).toEqual(KNOWN);
  });
});
