// One rule, one home: the rebooking ledger is private.record_rebooking with the commission maths
// of private.commission_on (migration 20261129300000_rules_one_home), beside the payment ledger's
// functions. The maths as a table; then what one recorded rebooking writes (credits, commission
// owed, the pending commission billing row, the flight, the record, the notification), once; and
// the api's recordRebooking, which only calls it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tx as ApiTx } from '../functions/api/db.ts';
import { recordRebooking } from '../functions/api/queries/flights.ts';
import { notificationDataSchemas } from '../functions/api/services/notification-templates/data.ts';
import {
  actAs,
  apiRole,
  createFlight,
  createPlan,
  createRebooking,
  createUser,
  openTestDatabase,
  setPlan,
  user,
  type TestDb,
} from './factories.ts';

let db: TestDb;

beforeAll(async () => {
  db = await openTestDatabase();
});

afterAll(async () => {
  await db?.close();
});

const asApi = <T>(fn: (tx: ApiTx) => Promise<T>): Promise<T> =>
  actAs(db.sql, apiRole, (tx) => fn(tx as unknown as ApiTx), { commit: true });

describe('private.commission_on', () => {
  it.each([
    { credit: 10_000, rate: 25, commission: 2_500 },
    { credit: 1_234, rate: 25, commission: 309 }, // 308.5 rounds half up
    { credit: 1_230, rate: 25, commission: 308 }, // 307.5 rounds half up
    { credit: 1, rate: 25, commission: 0 },
    { credit: 2, rate: 25, commission: 1 }, // 0.5 rounds up
    { credit: 10_000, rate: 0, commission: 0 },
    { credit: 10_000, rate: null, commission: 0 },
    { credit: 0, rate: 25, commission: 0 },
    { credit: -500, rate: 25, commission: 0 },
    { credit: null, rate: 25, commission: 0 },
    { credit: 100_000_000, rate: 100, commission: 100_000_000 }, // no integer overflow on the way
  ])('$rate% of $credit cents is $commission', async ({ credit, rate, commission }) => {
    const [row] = await actAs(
      db.sql,
      apiRole,
      (tx) => tx<{ commission: number }[]>`select private.commission_on(${credit}, ${rate}) as commission`,
    );
    expect(row?.commission).toBe(commission);
  });

  it('is what the admin sees as the commission of a flight not yet rebooked', async () => {
    const admin = await createUser(db.sql, { admin: true });
    const [row] = await actAs(
      db.sql,
      user(admin.id),
      (tx) => tx<{ commission: number }[]>`select private.commission_on(4321, 25) as commission`,
    );
    expect(row?.commission).toBe(1_080);
  });
});

interface Ledger {
  credits: number;
  owed: number;
  bills: { amount: number; status: string; type: string; description: string; credits: number }[];
  flight: Record<string, unknown> | undefined;
  record: { state: string; commission: number | null } | undefined;
  notifications: { type: string; flight_id: number; dedupe_key: string; data: Record<string, unknown> }[];
}

async function ledgerOf(userId: string, flightId: number, rebookingId: number): Promise<Ledger> {
  const [profile] = await db.sql<{ credits: number; owed: number }[]>`
    select total_credits_earned as credits, commission_owed as owed from public.profiles where id = ${userId}`;
  const bills = await db.sql<Ledger['bills']>`
    select amount, status, type, description, credits_earned_in_period as credits
      from public.billing_transactions where user_id = ${userId} order by id`;
  const [flight] = await db.sql<Record<string, unknown>[]>`
    select status, has_been_rebooked, rebooking_price, current_price, airline_credit, credit_reference_number,
           credit_expiry_date::text, seat_number, commission_amount, commission_rate, credit_review, rebooking_claimed_at
      from public.flights where id = ${flightId}`;
  const [record] = await db.sql<{ state: string; commission: number | null }[]>`
    select state, commission from private.rebookings where id = ${rebookingId}`;
  const notifications = await db.sql<Ledger['notifications']>`
    select type, flight_id::int, dedupe_key, data from public.notification_history where user_id = ${userId} order by id`;
  return { credits: profile?.credits ?? 0, owed: profile?.owed ?? 0, bills, flight, record, notifications };
}

/** A traveller on a plan of this commission rate with a flight being rebooked (claimed). */
async function claimedRebooking(commissionRate: number | null) {
  const traveller = await createUser(db.sql);
  // a confirmed address: the outbox writes nothing for an unconfirmed one
  await db.sql`update public.profiles set email_confirmed_at = now() where id = ${traveller.id}`;
  const plan = await createPlan(db.sql, { tier: 'premium', price: 2499, commissionRate });
  await setPlan(db.sql, traveller.id, plan);
  const flightId = await createFlight(db.sql, traveller.id, {
    airline: 'Delta Air Lines',
    flight_number: 'DL450',
    status: 'rebooking',
    original_price: 45_000,
    current_price: 38_000,
  });
  const rebookingId = await createRebooking(db.sql, flightId, traveller.id, 'claimed');
  return { userId: traveller.id, flightId, rebookingId, plan };
}

const RESULT = {
  newPrice: 38_000,
  airlineCredit: 7_000,
  creditReference: 'CR-123',
  creditExpiryDate: '2027-12-31',
  seatNumber: '14C',
  rebookedAt: new Date('2026-11-28T10:00:00.000Z'),
};

describe('private.record_rebooking', () => {
  it('records a rebooking on a plan with a rate: credits, commission owed and billed, the flight, the record, the notification', async () => {
    const r = await claimedRebooking(25);
    const recorded = await asApi((tx) => recordRebooking(tx, { ...r, ...RESULT, creditReview: 'Low for the drop' }));
    expect(recorded).toEqual({ commission: 1_750 });
    expect(await ledgerOf(r.userId, r.flightId, r.rebookingId)).toEqual({
      credits: 7_000,
      owed: 1_750,
      bills: [
        {
          amount: 1_750,
          status: 'pending',
          type: 'commission',
          description: '25% commission on the Delta Air Lines DL450 rebooking',
          credits: 7_000,
        },
      ],
      flight: {
        status: 'rebooked',
        has_been_rebooked: true,
        rebooking_price: 38_000,
        current_price: 38_000,
        airline_credit: 7_000,
        credit_reference_number: 'CR-123',
        credit_expiry_date: '2027-12-31',
        seat_number: '14C',
        commission_amount: 1_750,
        commission_rate: 25,
        credit_review: 'Low for the drop',
        rebooking_claimed_at: null,
      },
      record: { state: 'recorded', commission: 1_750 },
      // the facts the rebooking template writes its email from (notification-templates/data.ts)
      notifications: [
        {
          type: 'rebooking',
          flight_id: r.flightId,
          dedupe_key: `rebooking:${r.rebookingId}`,
          data: {
            airline: 'Delta Air Lines',
            flightNumber: 'DL450',
            departureAirport: 'JFK',
            arrivalAirport: 'LAX',
            newPrice: 38_000,
            credit: 7_000,
            reference: 'CR-123',
            creditExpiresAt: '2027-12-31',
          },
        },
      ],
    });
  });

  it("writes the notification's data in the shape the rebooking template reads, with or without a credit reference", async () => {
    for (const creditReference of ['CR-9', null]) {
      const r = await claimedRebooking(25);
      await asApi((tx) => recordRebooking(tx, { ...r, ...RESULT, creditReference }));
      const [notification] = (await ledgerOf(r.userId, r.flightId, r.rebookingId)).notifications;
      expect(notificationDataSchemas.rebooking.safeParse(notification?.data).success, String(creditReference)).toBe(
        true,
      );
    }
  });

  it('records it once: a second call (the reconciler after a late request) answers null and changes nothing', async () => {
    const r = await claimedRebooking(25);
    await asApi((tx) => recordRebooking(tx, { ...r, ...RESULT }));
    const before = await ledgerOf(r.userId, r.flightId, r.rebookingId);
    expect(await asApi((tx) => recordRebooking(tx, { ...r, ...RESULT, airlineCredit: 9_000 }))).toBeNull();
    expect(await ledgerOf(r.userId, r.flightId, r.rebookingId)).toEqual(before);
  });

  it.each([0, null])('on a plan with a commission rate of %s: credits, no commission and no bill', async (rate) => {
    const r = await claimedRebooking(rate);
    expect(await asApi((tx) => recordRebooking(tx, { ...r, ...RESULT }))).toEqual({ commission: 0 });
    const ledger = await ledgerOf(r.userId, r.flightId, r.rebookingId);
    expect(ledger).toMatchObject({ credits: 7_000, owed: 0, bills: [], record: { state: 'recorded', commission: 0 } });
    expect(ledger.flight).toMatchObject({ status: 'rebooked', commission_amount: 0, commission_rate: 0 });
  });

  it('keeps the rate it charged when the plan changes its rate later', async () => {
    const r = await claimedRebooking(20);
    await asApi((tx) => recordRebooking(tx, { ...r, ...RESULT }));
    await db.sql`update public.subscription_plans set commission_rate = 40 where id = ${r.plan}`;
    expect((await ledgerOf(r.userId, r.flightId, r.rebookingId)).flight).toMatchObject({
      commission_amount: 1_400,
      commission_rate: 20,
    });
  });

  it('still credits and bills a rebooking whose flight was removed since, named by its number, without a notification', async () => {
    const r = await claimedRebooking(25);
    await db.sql`delete from public.flights where id = ${r.flightId}`;
    expect(await asApi((tx) => recordRebooking(tx, { ...r, ...RESULT }))).toEqual({ commission: 1_750 });
    const ledger = await ledgerOf(r.userId, r.flightId, r.rebookingId);
    expect(ledger).toMatchObject({
      credits: 7_000,
      owed: 1_750,
      bills: [{ amount: 1_750, description: `25% commission on rebooking #${r.rebookingId}` }],
      flight: undefined,
      record: { state: 'recorded', commission: 1_750 },
      notifications: [],
    });
  });

  it('records nothing for a rebooking given back, or for another traveller', async () => {
    const r = await claimedRebooking(25);
    const stranger = await createUser(db.sql);
    expect(await asApi((tx) => recordRebooking(tx, { ...r, ...RESULT, userId: stranger.id }))).toBeNull();
    await db.sql`update private.rebookings set state = 'released' where id = ${r.rebookingId}`;
    expect(await asApi((tx) => recordRebooking(tx, { ...r, ...RESULT }))).toBeNull();
    expect(await ledgerOf(r.userId, r.flightId, r.rebookingId)).toMatchObject({
      credits: 0,
      owed: 0,
      bills: [],
      flight: { status: 'rebooking', has_been_rebooked: false },
      notifications: [],
    });
  });

  it('keeps what was recorded on the record: the result given, or the one the source confirmed first', async () => {
    const r = await claimedRebooking(25);
    await asApi((tx) => recordRebooking(tx, { ...r, ...RESULT }));
    const [row] = await db.sql<
      { result: unknown }[]
    >`select result from private.rebookings where id = ${r.rebookingId}`;
    expect(row?.result).toEqual({ ...RESULT, rebookedAt: '2026-11-28T10:00:00.000Z' });

    const confirmed = await claimedRebooking(25);
    await db.sql`update private.rebookings set state = 'confirmed', result = '{"from": "source"}' where id = ${confirmed.rebookingId}`;
    await asApi((tx) => recordRebooking(tx, { ...confirmed, ...RESULT }));
    const [kept] = await db.sql<
      { result: unknown }[]
    >`select result from private.rebookings where id = ${confirmed.rebookingId}`;
    expect(kept?.result).toEqual({ from: 'source' });
  });

  it('is the api role’s only', async () => {
    const [row] = await db.sql<{ authenticated: boolean; service_role: boolean }[]>`
      select has_function_privilege('authenticated', p.oid, 'execute') as authenticated,
             has_function_privilege('service_role', p.oid, 'execute') as service_role
        from pg_proc p where p.proname = 'record_rebooking'`;
    expect(row).toEqual({ authenticated: false, service_role: false });
  });
});
