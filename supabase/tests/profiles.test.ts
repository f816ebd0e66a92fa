// Profiles: the sign-up trigger, defaults, stored bounds, the plan a profile points at (by id:
// its flight limit, commission rate and tier come from the plan row), and every way a traveller
// might try to promote themselves through direct SQL as role authenticated.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DENIED,
  actAs,
  anon,
  attempt,
  createFlight,
  createFlightBooking,
  createPlan,
  createRebooking,
  createUser,
  flightInput,
  openTestDatabase,
  apiRole,
  serviceRole,
  setPlan,
  user,
  type TestDb,
  type Tx,
} from './factories.ts';
import { recordRebooking } from '../functions/api/queries/flights.ts';
import { getCurrentUser } from '../functions/api/queries/profiles.ts';

let db: TestDb;

beforeAll(async () => {
  db = await openTestDatabase();
});

afterAll(async () => {
  await db?.close();
});

/** The migration's plan of the tier (Free or Premium). */
async function planId(tier: 'free' | 'premium'): Promise<number> {
  const [row] = await db.sql<{ id: number }[]>`
    select id::int from public.subscription_plans where tier = ${tier} order by id limit 1`;
  if (!row) throw new Error(`no ${tier} plan`);
  return row.id;
}

/** A column's test value: '__premium__' stands for the Premium plan's id. */
async function valueOf(value: unknown): Promise<unknown> {
  return value === '__premium__' ? planId('premium') : value;
}

async function profileOf(id: string): Promise<Record<string, unknown>> {
  const [row] = await db.sql<Record<string, unknown>[]>`select * from public.profiles where id = ${id}`;
  if (!row) throw new Error(`no profile ${id}`);
  return row;
}

describe('profile created on sign-up', () => {
  it('has the defaults of the spec', async () => {
    const traveller = await createUser(db.sql);
    const profile = await profileOf(traveller.id);
    expect(profile).toMatchObject({
      email: traveller.email,
      email_connected: false,
      auto_rebooking: false,
      notify_price_drops: true,
      notify_rebookings: true,
      notify_cancellations: true,
      is_admin: false,
      threshold_type: 'percent',
      percent_threshold: 10,
      absolute_threshold: 2000,
      min_price_drop: 2500,
      min_price_drop_percent: 10,
      min_savings_percent: 15,
      min_savings_amount: 5000,
      threshold_condition: 'either',
      use_separate_international_thresholds: false,
      international_min_savings_percent: 20,
      international_min_savings_amount: 10000,
      notification_frequency: 'instant',
      notification_time: '09:00',
      notify_email: true,
      notify_push: false,
      notify_sms: false,
      plan_id: String(await planId('free')),
      subscription_start_date: null,
      subscription_end_date: null,
      total_credits_earned: 0,
      commission_owed: 0,
      last_billing_date: null,
    });
    expect(profile.created_at).toBeInstanceOf(Date);
    expect(profile).not.toHaveProperty('password');
  });

  it('takes the username from the sign-up metadata, keeping its case', async () => {
    const traveller = await createUser(db.sql, { username: 'Jet_Setter.99' });
    expect(traveller.username).toBe('Jet_Setter.99');
  });

  it('ignores an is_admin claim in the sign-up metadata', async () => {
    const traveller = await createUser(db.sql, { metadata: { username: 'sneaky', is_admin: true } });
    expect((await profileOf(traveller.id)).is_admin).toBe(false);
  });

  it.each([
    ['too short', 'ab'],
    ['too long', 'a'.repeat(31)],
    ['with a space', 'jet setter'],
    ['with a symbol', 'jet$setter'],
    ['not a string', 42],
  ])('derives the username from the email when the requested one is %s', async (_why, requested) => {
    const local = `derived${randomUUID().slice(0, 6)}`;
    const traveller = await createUser(db.sql, { email: `${local}@example.com`, metadata: { username: requested } });
    expect(traveller.username).toBe(local);
  });

  it('derives the username when the requested one is taken in any case', async () => {
    await createUser(db.sql, { username: 'Globetrotter' });
    const second = await createUser(db.sql, { email: 'second.trotter@example.com', username: 'GLOBETROTTER' });
    expect(second.username).toBe('second.trotter');
  });

  it('sanitises the email local part and drops a +tag', async () => {
    const traveller = await createUser(db.sql, { email: "Mary-Jane.O'Neil+fares@example.com" });
    expect(traveller.username).toBe('mary-jane.oneil');
  });

  it('makes derived usernames unique with a numeric suffix', async () => {
    const first = await createUser(db.sql, { email: 'sam@one.example' });
    const second = await createUser(db.sql, { email: 'Sam@two.example' });
    const third = await createUser(db.sql, { email: 'sam+x@three.example' });
    expect([first.username, second.username, third.username]).toEqual(['sam', 'sam1', 'sam2']);
  });

  it('suffixes when the metadata username equals a taken derived name', async () => {
    await createUser(db.sql, { email: 'river@one.example' });
    const second = await createUser(db.sql, { email: 'river@two.example', username: 'River' });
    expect(second.username).toBe('river1');
  });

  it('pads a local part shorter than three characters', async () => {
    const traveller = await createUser(db.sql, { email: 'jo@short.example' });
    expect(traveller.username).toBe('userjo');
  });

  it('cuts a long local part to 30 characters, leaving room for the suffix', async () => {
    const local = 'a'.repeat(40);
    const first = await createUser(db.sql, { email: `${local}@one.example` });
    const second = await createUser(db.sql, { email: `${local}@two.example` });
    expect(first.username).toBe('a'.repeat(30));
    expect(second.username).toBe(`${'a'.repeat(29)}1`);
  });

  it('follows an email change in auth.users', async () => {
    const traveller = await createUser(db.sql);
    await db.sql`update auth.users set email = 'new.address@example.com' where id = ${traveller.id}`;
    expect((await profileOf(traveller.id)).email).toBe('new.address@example.com');
  });

  it('goes with the auth user, taking their flights along', async () => {
    const traveller = await createUser(db.sql);
    await createFlight(db.sql, traveller.id);
    await db.sql`delete from auth.users where id = ${traveller.id}`;
    const [left] = await db.sql<{ profiles: number; flights: number }[]>`
      select (select count(*) from public.profiles where id = ${traveller.id})::int as profiles,
             (select count(*) from public.flights where user_id = ${traveller.id})::int as flights`;
    expect(left).toEqual({ profiles: 0, flights: 0 });
  });
});

describe('stored bounds', () => {
  let travellerId: string;
  beforeAll(async () => {
    travellerId = (await createUser(db.sql)).id;
    // rebooking thresholds are premium's to change (settings-limits.test.ts)
    await setPlan(db.sql, travellerId, 'premium');
  });

  const setAsTraveller = (column: string, value: unknown) =>
    attempt(
      db.sql,
      user(travellerId),
      (tx: Tx) =>
        tx`update public.profiles set ${tx({ [column]: value } as Record<string, string>)} where id = ${travellerId}`,
    );

  it.each([
    ['percent_threshold', 1, 90],
    ['absolute_threshold', 100, 100000],
    ['min_savings_percent', 1, 90],
    ['min_savings_amount', 100, 100000],
    ['international_min_savings_percent', 1, 90],
    ['international_min_savings_amount', 100, 100000],
    ['min_price_drop_percent', 0, 100],
  ])('%s accepts %i..%i and nothing outside', async (column, min, max) => {
    expect(await setAsTraveller(column, min)).toEqual({ rows: 1 });
    expect(await setAsTraveller(column, max)).toEqual({ rows: 1 });
    expect(await setAsTraveller(column, min - 1)).toMatchObject({ error: '23514' });
    expect(await setAsTraveller(column, max + 1)).toMatchObject({ error: '23514' });
  });

  it.each([
    ['threshold_type', ['percent', 'absolute'], 'ratio'],
    ['threshold_condition', ['either', 'both'], 'neither'],
    ['notification_frequency', ['instant', 'daily', 'weekly'], 'hourly'],
    ['notification_time', ['00:00', '09:00', '23:59'], '24:00'],
    ['notification_time', ['21:30'], '9:00'],
  ])('%s accepts %j and rejects %s', async (column, good, bad) => {
    for (const value of good) expect(await setAsTraveller(column, value)).toEqual({ rows: 1 });
    expect(await setAsTraveller(column, bad)).toMatchObject({ error: '23514' });
  });

  it('min_price_drop is cents and cannot be negative', async () => {
    expect(await setAsTraveller('min_price_drop', 0)).toEqual({ rows: 1 });
    expect(await setAsTraveller('min_price_drop', -1)).toMatchObject({ error: '23514' });
  });

  const setAsSystem = (column: string, value: unknown) =>
    attempt(
      db.sql,
      serviceRole,
      (tx: Tx) =>
        tx`update public.profiles set ${tx({ [column]: value } as Record<string, string>)} where id = ${travellerId}`,
    );

  it.each([
    ['total_credits_earned', [0, 123456], -1],
    ['commission_owed', [0, 625], -1],
  ])('%s accepts %j and rejects %s', async (column, good, bad) => {
    for (const value of good) expect(await setAsSystem(column, value)).toEqual({ rows: 1 });
    expect(await setAsSystem(column, bad)).toMatchObject({ error: '23514' });
  });

  it('subscription_end_date cannot precede subscription_start_date', async () => {
    const outcome = await attempt(
      db.sql,
      serviceRole,
      (tx) =>
        tx`update public.profiles set subscription_start_date = now(), subscription_end_date = now() - interval '1 day'
         where id = ${travellerId}`,
    );
    expect(outcome).toMatchObject({ error: '23514' });
  });
});

describe('unique usernames and emails, regardless of case', () => {
  it('rejects a username differing only in case', async () => {
    const first = await createUser(db.sql, { username: 'CaseTest' });
    const second = await createUser(db.sql);
    const outcome = await attempt(
      db.sql,
      serviceRole,
      (tx) => tx`update public.profiles set username = ${first.username.toLowerCase()} where id = ${second.id}`,
    );
    expect(outcome).toMatchObject({ error: '23505', message: expect.stringContaining('profiles_username_lower_key') });
  });

  it('rejects an email differing only in case', async () => {
    const first = await createUser(db.sql, { email: 'Unique.Person@example.com' });
    const second = await createUser(db.sql);
    const outcome = await attempt(
      db.sql,
      serviceRole,
      (tx) => tx`update public.profiles set email = ${first.email.toUpperCase()} where id = ${second.id}`,
    );
    expect(outcome).toMatchObject({ error: '23505', message: expect.stringContaining('profiles_email_lower_key') });
  });

  it.each(['ab', 'x'.repeat(31), 'white space', 'emoji✈'])('rejects the malformed username %j', async (bad) => {
    const traveller = await createUser(db.sql);
    const outcome = await attempt(
      db.sql,
      serviceRole,
      (tx) => tx`update public.profiles set username = ${bad} where id = ${traveller.id}`,
    );
    expect(outcome).toMatchObject({ error: '23514' });
  });
});

describe('a traveller changing their own profile', () => {
  let travellerId: string;
  beforeAll(async () => {
    travellerId = (await createUser(db.sql)).id;
    // rebooking thresholds are premium's to change (settings-limits.test.ts)
    await setPlan(db.sql, travellerId, 'premium');
  });

  it.each([
    ['notify_price_drops', false],
    ['notify_rebookings', false],
    ['notify_cancellations', false],
    ['threshold_type', 'absolute'],
    ['percent_threshold', 25],
    ['absolute_threshold', 5000],
    ['min_price_drop', 5000],
    ['min_price_drop_percent', 20],
    ['min_savings_percent', 30],
    ['min_savings_amount', 10000],
    ['threshold_condition', 'both'],
    ['use_separate_international_thresholds', true],
    ['international_min_savings_percent', 40],
    ['international_min_savings_amount', 20000],
    ['notification_frequency', 'weekly'],
    ['notification_time', '18:45'],
    ['notify_email', false],
    ['notify_push', true],
    ['notify_sms', true],
  ])('may set the preference %s', async (column, value) => {
    const stored = await actAs(db.sql, user(travellerId), async (tx) => {
      const rows = await tx.unsafe<Record<string, unknown>[]>(
        `update public.profiles set ${column} = $1 where id = $2 returning ${column}`,
        [value as string, travellerId],
      );
      return rows[0]?.[column];
    });
    expect(stored).toEqual(value);
  });

  it('bumps updated_at', async () => {
    const before = (await profileOf(travellerId)).updated_at as Date;
    await new Promise((resolve) => setTimeout(resolve, 5));
    await actAs(
      db.sql,
      user(travellerId),
      (tx) => tx`update public.profiles set notify_sms = true where id = ${travellerId}`,
      {
        commit: true,
      },
    );
    const after = (await profileOf(travellerId)).updated_at as Date;
    expect(after.getTime()).toBeGreaterThan(before.getTime());
  });

  it.each([
    ['is_admin', true],
    ['plan_id', '__premium__'],
    ['total_credits_earned', 1_000_000],
    ['commission_owed', 0],
    ['subscription_start_date', '2026-01-01T00:00:00Z'],
    ['subscription_end_date', '2099-01-01T00:00:00Z'],
    ['last_billing_date', '2026-01-01T00:00:00Z'],
    ['email', 'someone.else@example.com'],
    ['username', 'renamed_user'],
    ['email_connected', true],
    ['id', randomUUID()],
    ['created_at', '2000-01-01T00:00:00Z'],
  ])('is denied changing %s, which stays as it was', async (column, value) => {
    await db.sql`update public.profiles set commission_owed = 1500 where id = ${travellerId}`;
    const before = await profileOf(travellerId);
    const newValue = (await valueOf(value)) as string;
    const outcome = await attempt(db.sql, user(travellerId), (tx) =>
      tx.unsafe(`update public.profiles set ${column} = $1 where id = $2`, [newValue, travellerId]),
    );
    expect(outcome).toMatchObject({ error: DENIED });
    const after = await profileOf(travellerId);
    expect(after[column]).toEqual(before[column]);
  });

  it('is denied inserting a profile', async () => {
    const id = randomUUID();
    const outcome = await attempt(
      db.sql,
      user(id),
      (tx) =>
        tx`insert into public.profiles (id, username, email, is_admin) values (${id}, 'selfmade', 'self@example.com', true)`,
      { setup: (tx) => tx`insert into auth.users (id, email) values (${id}, 'self@example.com')` },
    );
    expect(outcome).toMatchObject({ error: DENIED });
  });

  it('is denied deleting their profile', async () => {
    const outcome = await attempt(
      db.sql,
      user(travellerId),
      (tx) => tx`delete from public.profiles where id = ${travellerId}`,
    );
    expect(outcome).toMatchObject({ error: DENIED });
  });

  it("cannot touch another traveller's profile", async () => {
    const other = await createUser(db.sql);
    const outcome = await attempt(
      db.sql,
      user(travellerId),
      (tx) => tx`update public.profiles set notify_price_drops = false, is_admin = true where id = ${other.id}`,
    );
    expect(outcome).toEqual({ rows: 0 });
    expect(await profileOf(other.id)).toMatchObject({ notify_price_drops: true, is_admin: false });
  });

  it('cannot call the helper that flags admins', async () => {
    const traveller = await createUser(db.sql);
    const outcome = await attempt(
      db.sql,
      user(traveller.id),
      (tx) => tx`select private.make_admin(${traveller.email})`,
    );
    expect(outcome).toMatchObject({ error: DENIED });
    expect((await profileOf(traveller.id)).is_admin).toBe(false);
  });

  it('is told they are not an admin, and a visitor cannot even ask', async () => {
    const isAdmin = await actAs(db.sql, user(travellerId), async (tx) => {
      const [row] = await tx<{ is_admin: boolean }[]>`select private.is_admin() as is_admin`;
      return row?.is_admin;
    });
    expect(isAdmin).toBe(false);
    expect(await attempt(db.sql, anon, (tx) => tx`select private.is_admin()`)).toMatchObject({ error: DENIED });
  });
});

describe('automatic rebooking is premium only', () => {
  it('refuses a free traveller with the spec message', async () => {
    const traveller = await createUser(db.sql);
    const outcome = await attempt(
      db.sql,
      user(traveller.id),
      (tx) => tx`update public.profiles set auto_rebooking = true where id = ${traveller.id}`,
    );
    expect(outcome).toEqual({ error: DENIED, message: 'Premium subscription required for automatic rebooking.' });
  });

  it('refuses the system too, since the rule is about the data', async () => {
    const traveller = await createUser(db.sql);
    const outcome = await attempt(
      db.sql,
      serviceRole,
      (tx) => tx`update public.profiles set auto_rebooking = true where id = ${traveller.id}`,
    );
    expect(outcome).toMatchObject({ error: DENIED });
  });

  it('lets a premium traveller switch it on, on any plan of the premium tier', async () => {
    const traveller = await createUser(db.sql);
    await setPlan(db.sql, traveller.id, await createPlan(db.sql, { name: 'Premium Family', tier: 'premium' }));
    const outcome = await attempt(
      db.sql,
      user(traveller.id),
      (tx) => tx`update public.profiles set auto_rebooking = true where id = ${traveller.id}`,
    );
    expect(outcome).toEqual({ rows: 1 });
  });

  it('switches off when the traveller leaves premium', async () => {
    const freePlan = await planId('free');
    const traveller = await createUser(db.sql, { premium: true });
    await db.sql`update public.profiles set auto_rebooking = true where id = ${traveller.id}`;
    await actAs(
      db.sql,
      serviceRole,
      (tx) => tx`update public.profiles set plan_id = ${freePlan} where id = ${traveller.id}`,
      { commit: true },
    );
    expect(await profileOf(traveller.id)).toMatchObject({ plan_id: String(freePlan), auto_rebooking: false });
  });
});

describe('the plan a profile points at', () => {
  /** Renames a plan as an admin does, committed. */
  const renameAsAdmin = async (adminId: string, planId: number, name: string) =>
    actAs(db.sql, user(adminId), (tx) => tx`update public.subscription_plans set name = ${name} where id = ${planId}`, {
      commit: true,
    });

  /** A flight of the traveller in the middle of its rebooking, with the open record. */
  async function rebookingUnderWay(userId: string): Promise<{ flightId: number; rebookingId: number }> {
    const flightId = await createFlight(db.sql, userId, { status: 'rebooking' });
    await createFlightBooking(db.sql, flightId);
    return { flightId, rebookingId: await createRebooking(db.sql, flightId, userId, 'claimed') };
  }

  const record = (userId: string, under: { flightId: number; rebookingId: number }, airlineCredit: number) =>
    actAs(
      db.sql,
      apiRole,
      (tx) =>
        recordRebooking(tx, {
          ...under,
          userId,
          newPrice: 30_000,
          airlineCredit,
          creditReference: 'DL-CR-TEST01',
          creditExpiryDate: '2027-12-31',
          seatNumber: null,
          rebookedAt: new Date(),
        }),
      { commit: true },
    );

  const currentUser = (userId: string) => actAs(db.sql, user(userId), (tx) => getCurrentUser(tx));

  it('a new account is on the Free plan: 5 flights, no commission', async () => {
    const traveller = await createUser(db.sql);
    expect(await currentUser(traveller.id)).toMatchObject({ subscriptionTier: 'free', flightLimit: 5 });
    const under = await rebookingUnderWay(traveller.id);
    expect(await record(traveller.id, under, 10_000)).toEqual({ commission: 0 });
  });

  it("renaming a plan changes no one's commission, flight limit or tier", async () => {
    const admin = await createUser(db.sql, { admin: true });
    const gold = await createPlan(db.sql, { name: 'Gold', tier: 'premium', flightLimit: 3, commissionRate: 20 });
    const traveller = await createUser(db.sql);
    await setPlan(db.sql, traveller.id, gold);

    await renameAsAdmin(admin.id, gold, 'Gold Plus');

    expect(await currentUser(traveller.id)).toMatchObject({ subscriptionTier: 'premium', flightLimit: 3 });
    const under = await rebookingUnderWay(traveller.id);
    expect(await record(traveller.id, under, 10_000)).toEqual({ commission: 2_000 });
    // the limit is still the plan's 3 (the rebooked flight no longer counts): three flights fill it
    for (let i = 0; i < 3; i += 1) await createFlight(db.sql, traveller.id);
    expect(
      await attempt(
        db.sql,
        serviceRole,
        (tx) => tx`insert into public.flights ${tx({ user_id: traveller.id, ...flightInput() })}`,
      ),
    ).toMatchObject({ error: 'FB409', message: 'Flight limit reached: your plan monitors up to 3 flights.' });
  });

  it('the plan row governs: a new rate or limit applies to everyone on it', async () => {
    const plan = await createPlan(db.sql, { name: 'Flexible', tier: 'premium', flightLimit: 1, commissionRate: 10 });
    const traveller = await createUser(db.sql);
    await setPlan(db.sql, traveller.id, plan);
    await db.sql`update public.subscription_plans set commission_rate = 30, flight_limit = 4 where id = ${plan}`;
    expect(await currentUser(traveller.id)).toMatchObject({ flightLimit: 4 });
    const under = await rebookingUnderWay(traveller.id);
    expect(await record(traveller.id, under, 10_000)).toEqual({ commission: 3_000 });
  });

  it('a retired plan keeps its terms for the travellers on it, who still read it', async () => {
    const plan = await createPlan(db.sql, {
      name: 'Legacy Premium',
      tier: 'premium',
      flightLimit: -1,
      commissionRate: 15,
    });
    const traveller = await createUser(db.sql);
    const other = await createUser(db.sql);
    await setPlan(db.sql, traveller.id, plan);
    await db.sql`update public.subscription_plans set is_active = false where id = ${plan}`;

    expect(await currentUser(traveller.id)).toMatchObject({ subscriptionTier: 'premium', flightLimit: -1 });
    const seen = (id: string) =>
      actAs(
        db.sql,
        user(id),
        async (tx) => (await tx`select id from public.subscription_plans where id = ${plan}`).length,
      );
    expect(await seen(traveller.id)).toBe(1);
    expect(await seen(other.id)).toBe(0);
    const under = await rebookingUnderWay(traveller.id);
    expect(await record(traveller.id, under, 10_000)).toEqual({ commission: 1_500 });
  });

  it('a plan anyone is on cannot be deleted, and a profile must have a plan', async () => {
    const plan = await createPlan(db.sql, { name: 'In use' });
    const traveller = await createUser(db.sql);
    await setPlan(db.sql, traveller.id, plan);
    expect(
      await attempt(db.sql, serviceRole, (tx) => tx`delete from public.subscription_plans where id = ${plan}`),
    ).toMatchObject({ error: '23503' });
    expect(
      await attempt(
        db.sql,
        serviceRole,
        (tx) => tx`update public.profiles set plan_id = null where id = ${traveller.id}`,
      ),
    ).toMatchObject({ error: '23502' });
  });
});

describe('admins and the admin flag', () => {
  let adminId: string;
  beforeAll(async () => {
    adminId = (await createUser(db.sql, { admin: true })).id;
  });

  it('an admin grants and revokes admin on another user', async () => {
    const other = await createUser(db.sql);
    const grant = await actAs(
      db.sql,
      user(adminId),
      (tx) => tx`update public.profiles set is_admin = true where id = ${other.id}`,
      { commit: true },
    );
    expect(grant.count).toBe(1);
    expect((await profileOf(other.id)).is_admin).toBe(true);
    const revoke = await actAs(
      db.sql,
      user(adminId),
      (tx) => tx`update public.profiles set is_admin = false where id = ${other.id}`,
      { commit: true },
    );
    expect(revoke.count).toBe(1);
    expect((await profileOf(other.id)).is_admin).toBe(false);
  });

  it('an admin cannot revoke their own admin flag', async () => {
    const outcome = await attempt(
      db.sql,
      user(adminId),
      (tx) => tx`update public.profiles set is_admin = false where id = ${adminId}`,
    );
    expect(outcome).toMatchObject({ error: DENIED });
    expect((await profileOf(adminId)).is_admin).toBe(true);
  });

  it("an admin cannot change another user's preferences", async () => {
    const other = await createUser(db.sql);
    const outcome = await attempt(
      db.sql,
      user(adminId),
      (tx) => tx`update public.profiles set notify_price_drops = false where id = ${other.id}`,
    );
    expect(outcome).toMatchObject({ error: DENIED });
  });

  it.each([
    ['plan_id', '__premium__'],
    ['total_credits_earned', 10],
    ['commission_owed', 0],
  ])("an admin cannot set another user's %s directly", async (column, value) => {
    const other = await createUser(db.sql);
    const newValue = (await valueOf(value)) as string;
    const outcome = await attempt(db.sql, user(adminId), (tx) =>
      tx.unsafe(`update public.profiles set ${column} = $1 where id = $2`, [newValue, other.id]),
    );
    expect(outcome).toMatchObject({ error: DENIED });
  });

  it('a non-admin cannot grant admin to anyone', async () => {
    const traveller = await createUser(db.sql);
    const other = await createUser(db.sql);
    const onOther = await attempt(
      db.sql,
      user(traveller.id),
      (tx) => tx`update public.profiles set is_admin = true where id = ${other.id}`,
    );
    expect(onOther).toEqual({ rows: 0 });
    const onSelf = await attempt(
      db.sql,
      user(traveller.id),
      (tx) => tx`update public.profiles set is_admin = true where id = ${traveller.id}`,
    );
    expect(onSelf).toMatchObject({ error: DENIED });
  });

  it('private.make_admin flags an account by email, case-insensitively', async () => {
    const traveller = await createUser(db.sql, { email: 'Demo.Admin@example.com' });
    const [found] = await db.sql<
      { flagged: boolean }[]
    >`select private.make_admin('  demo.admin@EXAMPLE.com ') as flagged`;
    expect(found?.flagged).toBe(true);
    expect((await profileOf(traveller.id)).is_admin).toBe(true);
    const [missing] = await db.sql<{ flagged: boolean }[]>`select private.make_admin('nobody@example.com') as flagged`;
    expect(missing?.flagged).toBe(false);
  });
});
