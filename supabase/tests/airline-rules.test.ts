// The airline rulebook (migration 20261122000600_rebooking.sql, public.airline_rules) against a
// real database: the verdict for every seeded rule, a property that the automatic run never claims
// a flight whose rule is not 'automatic', the kill switch, and the approval link of
// services/rebooking-approvals.ts driven through the api's own rebook path.
import fc from 'fast-check';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../dev/db/test-db.ts';
import { createSimulatedFareSource } from '../functions/_shared/fare-source/simulated.ts';
import { itineraryOfBooking } from '../functions/_shared/fare-source/types.ts';
import { isEligibleFareType } from '../functions/_shared/flights/rules.ts';
import type { RebookingVerdict } from '../functions/_shared/types/flights.ts';
import type { AppDeps } from '../functions/api/context.ts';
import { type AuthClaims, createDb, type Db } from '../functions/api/db.ts';
import { HttpError } from '../functions/api/errors.ts';
import { loadBatchFlights } from '../functions/api/queries/auto-rebooking.ts';
import { claimRebooking, insertFlight } from '../functions/api/queries/flights.ts';
import { recordPriceChecks } from '../functions/api/queries/price-checks.ts';
import { confirmPendingDrops } from '../functions/api/services/drop-confirmation.ts';
import { rebookFlight } from '../functions/api/services/flights.ts';
import { requestApproval, signApprovalToken } from '../functions/api/services/rebooking-approvals.ts';
import { createFlight, createUser, type TestUser } from './factories.ts';

let database: TestDatabase;
let sql: postgres.Sql;
let api: Db;
const simulated = createSimulatedFareSource();

const deps: AppDeps = {
  config: {
    siteUrl: 'http://site.test',
    unsubscribeSecret: 'test-secret',
    serviceRoleKey: 'unused',
  } as AppDeps['config'],
  get db() {
    return api;
  },
  authApi: undefined as never,
  verifyAccessToken: undefined as never,
  fareSource: simulated,
  mailer: undefined as never,
  payments: undefined as never,
  log: () => {},
};

beforeAll(async () => {
  database = await createTestDatabase();
  sql = postgres(database.url, { max: 4, prepare: !database.singleSession, onnotice: () => {} });
  api = createDb({ databaseUrl: database.ownerUrl, singleSession: database.singleSession });
});

afterAll(async () => {
  await api?.close();
  await sql?.end();
  await database?.close();
});

async function premiumTraveller(): Promise<TestUser> {
  const traveller = await createUser(sql, { premium: true });
  await sql`update public.profiles set auto_rebooking = true, email_confirmed_at = now(),
                   min_savings_amount = 100, min_savings_percent = 1 where id = ${traveller.id}`;
  return traveller;
}

async function verdictOf(flightId: number): Promise<RebookingVerdict> {
  const [row] = await sql<{ v: RebookingVerdict }[]>`
    select private.rebooking_verdict(f, p) as v
      from public.flights f join public.profiles p on p.id = f.user_id where f.id = ${flightId}`;
  if (!row) throw new Error('no flight');
  return row.v;
}

describe('the verdict under each seeded rule', () => {
  // airline, flight number, fare: the mode, the fee (cents, null: the quote's), the credit form and months
  const cases: {
    airline: string;
    flight: string;
    fare: string;
    mode: string;
    fee: number | null;
    refund: string;
    months: number | null;
    explanation: string;
  }[] = [
    {
      airline: 'Delta Air Lines',
      flight: 'DL10',
      fare: 'Main Cabin',
      mode: 'automatic',
      fee: 0,
      refund: 'credit',
      months: 12,
      explanation: 'Delta Main Cabin: no change fee; the difference comes back as an eCredit valid 1 year',
    },
    {
      airline: 'Delta Air Lines',
      flight: 'DL11',
      fare: 'Basic Economy',
      mode: 'none',
      fee: null,
      refund: 'none',
      months: null,
      explanation: 'Delta Basic Economy: cannot be changed, so a lower fare cannot be claimed',
    },
    {
      airline: 'Delta Air Lines',
      flight: 'DL12',
      fare: 'Refundable Economy',
      mode: 'automatic',
      fee: 0,
      refund: 'cash',
      months: null,
      explanation: 'Delta refundable fares: no change fee; the difference is refunded to the original payment',
    },
    {
      airline: 'Delta Air Lines',
      flight: 'DL13',
      fare: 'First Class',
      mode: 'automatic',
      fee: 0,
      refund: 'credit',
      months: 12,
      explanation:
        'Delta Comfort+, First, Premium Select and Delta One: no change fee; the difference comes back as an eCredit valid 1 year',
    },
    {
      airline: 'United Airlines',
      flight: 'UA10',
      fare: 'Flexible Economy',
      mode: 'automatic',
      fee: 0,
      refund: 'credit',
      months: 12,
      explanation:
        'United Economy and premium cabins: no change fee; the difference comes back as a future flight credit valid 1 year',
    },
    {
      airline: 'United Airlines',
      flight: 'UA11',
      fare: 'Basic Economy',
      mode: 'none',
      fee: null,
      refund: 'none',
      months: null,
      explanation: 'United Basic Economy: cannot be changed',
    },
    {
      airline: 'United Airlines',
      flight: 'UA12',
      fare: 'Refundable Economy',
      mode: 'automatic',
      fee: 0,
      refund: 'cash',
      months: null,
      explanation: 'United refundable fares: no change fee',
    },
    {
      airline: 'American Airlines',
      flight: 'AA10',
      fare: 'Main Cabin',
      mode: 'approval',
      fee: 0,
      refund: 'credit',
      months: 12,
      explanation:
        "American Airlines Main Cabin and above: no change fee; the difference comes back as a trip credit valid 1 year. American's conditions of carriage forbid automated re-shopping, so FareBack changes it only after you approve",
    },
    {
      airline: 'American Airlines',
      flight: 'AA11',
      fare: 'Basic Economy',
      mode: 'none',
      fee: null,
      refund: 'none',
      months: null,
      explanation: 'American Airlines Basic Economy: cannot be changed',
    },
    {
      airline: 'Southwest Airlines',
      flight: 'WN10',
      fare: 'Wanna Get Away',
      mode: 'automatic',
      fee: 0,
      refund: 'credit',
      months: 12,
      explanation:
        'Southwest Wanna Get Away and Wanna Get Away Plus: no change fee; the difference comes back as a flight credit valid 1 year',
    },
    {
      airline: 'Southwest Airlines',
      flight: 'WN11',
      fare: 'Basic',
      mode: 'automatic',
      fee: 0,
      refund: 'credit',
      months: 6,
      explanation: 'Southwest Basic: no change fee; the difference comes back as a flight credit valid 6 months',
    },
    {
      airline: 'Southwest Airlines',
      flight: 'WN12',
      fare: 'Anytime',
      mode: 'automatic',
      fee: 0,
      refund: 'cash',
      months: null,
      explanation: 'Southwest Anytime and Business Select: no change fee; the difference is refunded',
    },
    {
      airline: 'JetBlue Airways',
      flight: 'B610',
      fare: 'Blue',
      mode: 'automatic',
      fee: 0,
      refund: 'credit',
      months: 12,
      explanation:
        'JetBlue Blue, Blue Extra and Mint: no change fee; the difference comes back as a Travel Bank credit valid 1 year',
    },
    {
      airline: 'JetBlue Airways',
      flight: 'B611',
      fare: 'Blue Basic',
      mode: 'none',
      fee: null,
      refund: 'none',
      months: null,
      explanation: 'JetBlue Blue Basic: cannot be changed',
    },
    {
      airline: 'Alaska Airlines',
      flight: 'AS10',
      fare: 'Main',
      mode: 'automatic',
      fee: 0,
      refund: 'credit',
      months: 12,
      explanation: 'Alaska Main and First Class: no change fee',
    },
    {
      airline: 'Alaska Airlines',
      flight: 'AS11',
      fare: 'Saver',
      mode: 'none',
      fee: null,
      refund: 'none',
      months: null,
      explanation: 'Alaska Saver: cannot be changed',
    },
    {
      airline: 'Air Canada',
      flight: 'AC10',
      fare: 'Flexible Economy',
      mode: 'automatic',
      fee: null,
      refund: 'credit',
      months: null,
      explanation:
        'Air Canada Standard, Flex and above: the change fee the airline quotes; the difference comes back as a travel credit',
    },
    {
      airline: 'Air Canada',
      flight: 'AC11',
      fare: 'Economy Basic',
      mode: 'none',
      fee: null,
      refund: 'none',
      months: null,
      explanation: 'Air Canada Economy Basic: cannot be changed',
    },
    {
      airline: 'British Airways',
      flight: 'BA10',
      fare: 'Business Class',
      mode: 'automatic',
      fee: null,
      refund: 'credit',
      months: null,
      explanation: 'British Airways Economy and above: the change fee the airline quotes',
    },
    {
      airline: 'British Airways',
      flight: 'BA11',
      fare: 'Basic',
      mode: 'none',
      fee: null,
      refund: 'none',
      months: null,
      explanation: 'British Airways Basic (hand baggage only): cannot be changed',
    },
    {
      airline: 'Lufthansa',
      flight: 'LH10',
      fare: 'Premium Economy',
      mode: 'automatic',
      fee: null,
      refund: 'credit',
      months: null,
      explanation: 'Lufthansa Classic, Flex and above',
    },
    {
      airline: 'Lufthansa',
      flight: 'LH11',
      fare: 'Economy Light',
      mode: 'none',
      fee: null,
      refund: 'none',
      months: null,
      explanation: 'Lufthansa Economy Light: cannot be changed',
    },
    {
      airline: 'Air France',
      flight: 'AF10',
      fare: 'Flexible Economy',
      mode: 'automatic',
      fee: null,
      refund: 'credit',
      months: null,
      explanation: 'Air France Standard, Flex and above',
    },
    {
      airline: 'Air France',
      flight: 'AF11',
      fare: 'Light',
      mode: 'none',
      fee: null,
      refund: 'none',
      months: null,
      explanation: 'Air France Light: cannot be changed',
    },
    {
      airline: 'Japan Airlines',
      flight: 'JL10',
      fare: 'Business Class',
      mode: 'automatic',
      fee: null,
      refund: 'credit',
      months: null,
      explanation: 'Japan Airlines Standard, Flex and above',
    },
    {
      airline: 'Japan Airlines',
      flight: 'JL11',
      fare: 'Saver',
      mode: 'none',
      fee: null,
      refund: 'none',
      months: null,
      explanation: 'Japan Airlines Saver and Basic: cannot be changed',
    },
    {
      airline: 'Emirates',
      flight: 'EK10',
      fare: 'Flexible Economy',
      mode: 'automatic',
      fee: null,
      refund: 'credit',
      months: null,
      explanation: 'Emirates Saver, Flex and above',
    },
    {
      airline: 'Emirates',
      flight: 'EK11',
      fare: 'Economy Special',
      mode: 'none',
      fee: null,
      refund: 'none',
      months: null,
      explanation: 'Emirates Economy Special: cannot be changed',
    },
    {
      airline: 'Qatar Airways',
      flight: 'QR10',
      fare: 'Business Class',
      mode: 'automatic',
      fee: null,
      refund: 'credit',
      months: null,
      explanation: 'Qatar Airways Classic, Convenience and above',
    },
    {
      airline: 'Qatar Airways',
      flight: 'QR11',
      fare: 'Economy Lite',
      mode: 'none',
      fee: null,
      refund: 'none',
      months: null,
      explanation: 'Qatar Airways Economy Lite: cannot be changed',
    },
    {
      airline: 'Singapore Airlines',
      flight: 'SQ10',
      fare: 'First Class',
      mode: 'automatic',
      fee: null,
      refund: 'credit',
      months: null,
      explanation: 'Singapore Airlines Standard, Flexi and above',
    },
    {
      airline: 'Singapore Airlines',
      flight: 'SQ11',
      fare: 'Economy Lite',
      mode: 'none',
      fee: null,
      refund: 'none',
      months: null,
      explanation: 'Singapore Airlines Economy Lite: cannot be changed',
    },
    {
      airline: 'Spirit Airlines',
      flight: 'NK10',
      fare: 'Flexible Economy',
      mode: 'approval',
      fee: null,
      refund: 'credit',
      months: null,
      explanation:
        'This airline (no published rule on file): the change fee the airline quotes; the difference comes back as an airline credit. FareBack asks you before changing a booking on an airline it has no rule for',
    },
  ];

  let traveller: TestUser;
  beforeAll(async () => {
    traveller = await premiumTraveller();
  });

  it.each(cases)('$airline $fare: $mode', async (c) => {
    const id = await createFlight(sql, traveller.id, {
      airline: c.airline,
      flight_number: c.flight,
      fare_type: c.fare,
      is_eligible_for_rebooking: true,
      rebooking_method: 'source',
      original_price: 40_000,
      current_price: 30_000,
      status: 'price_drop',
    });
    const v = await verdictOf(id);
    expect(v.rebookingMode).toBe(c.mode);
    expect(v.rule.changeFee).toBe(c.fee);
    expect(v.rule.refundForm).toBe(c.refund);
    expect(v.rule.creditValidMonths).toBe(c.months);
    expect(v.rule.explanation).toContain(c.explanation);
    expect(v.rule.source).toBeTruthy();
    expect(v.qualifies).toBe(c.mode !== 'none');
  });

  it('is effective-dated: Southwest credits from before May 28, 2025 do not expire', async () => {
    const [before] = await sql<{ months: number | null; label: string }[]>`
      select (r).credit_valid_months as months, (r).fare_label as label
        from (select private.airline_rule('WN', 'Wanna Get Away', '2025-05-27') as r) x`;
    const [after] = await sql<{ months: number | null }[]>`
      select (private.airline_rule('WN', 'Wanna Get Away', '2025-05-28')).credit_valid_months as months`;
    expect(before).toEqual({ months: null, label: 'all fares' });
    expect(after?.months).toBe(12);
    // American's approval rule starts with its conditions of carriage of May 2023
    const [aa] = await sql<{ mode: string }[]>`
      select (private.airline_rule('AA', 'Main Cabin', '2023-04-30')).rebooking_mode as mode`;
    expect(aa?.mode).toBe('approval');
  });

  it('refuses overlapping validity for one airline and fare pattern, and a negative fee', async () => {
    await expect(sql`
      insert into public.airline_rules (airline_code, airline_name, fare_pattern, fare_label, valid_from,
        refund_form, rebooking_mode, source)
      values ('DL', 'Delta', '*', 'Main Cabin', '2024-01-01', 'credit', 'automatic', 'test')`).rejects.toMatchObject({
      code: 'FBRUL',
    });
    await expect(sql`
      insert into public.airline_rules (airline_code, airline_name, fare_pattern, fare_label, valid_from,
        change_fees, refund_form, rebooking_mode, source)
      values ('ZZ', 'Zed', '*', 'All', '2024-01-01', '{"USD": -1}', 'credit', 'automatic', 'test')`).rejects.toMatchObject(
      {
        code: '23514',
      },
    );
  });
});

describe('the automatic run', () => {
  const AIRLINES = [
    ['Delta Air Lines', 'DL'],
    ['American Airlines', 'AA'],
    ['United Airlines', 'UA'],
    ['Spirit Airlines', 'NK'],
    ['Air France', 'AF'],
  ] as const;
  const FARES = ['Main Cabin', 'Basic Economy', 'Refundable Economy', 'Flexible Economy', 'Light', 'Saver'];

  it('never claims a flight whose airline rule is not automatic (random flights, rules and pauses)', async () => {
    const traveller = await premiumTraveller();
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          airline: fc.constantFrom(...AIRLINES),
          fare: fc.constantFrom(...FARES),
          eligible: fc.boolean(),
          method: fc.constantFrom('source' as const, 'assisted' as const),
          paused: fc.boolean(),
          mode: fc.constantFrom('automatic', 'approval', 'assisted', 'none', null),
          drop: fc.integer({ min: 1, max: 30_000 }),
        }),
        async (r) => {
          const name: string = r.airline[0];
          const code: string = r.airline[1];
          // a random rule of the airline's own, in force today, for this fare (or none: the seed's)
          const ruleId = r.mode
            ? (
                await sql<{ id: string }[]>`
                  insert into public.airline_rules (airline_code, airline_name, fare_pattern, fare_label, valid_from,
                    change_allowed, refund_form, rebooking_mode, source)
                  values (${code}, 'Random', ${'^' + r.fare + '$'}, 'random', current_date - 1, ${r.eligible},
                          'credit', ${r.mode}, 'property test') returning id`
              )[0]?.id
            : null;
          if (r.paused) await sql`select private.set_airline_automation(${code}, false, null, 'property test')`;
          const flightId = await createFlight(sql, traveller.id, {
            airline: name,
            flight_number: `${code}${100 + (r.drop % 800)}`,
            fare_type: r.fare,
            is_eligible_for_rebooking: r.eligible,
            rebooking_method: r.method,
            original_price: 40_000,
            current_price: 40_000 - r.drop,
            status: 'price_drop',
          });
          try {
            const [row] = await sql<{ mode: string }[]>`
              select private.flight_rebooking_mode(f, private.flight_airline_rule(f)) as mode
                from public.flights f where f.id = ${flightId}`;
            const claimed = await api.asService((tx) =>
              claimRebooking(tx, { userId: traveller.id, flightId, method: 'source', request: null, automatic: true }),
            );
            if (row?.mode !== 'automatic') expect(claimed).toBeNull();
            if (r.paused) expect(claimed).toBeNull();
          } finally {
            await sql`delete from private.rebookings where flight_id = ${flightId}`;
            await sql`delete from public.flights where id = ${flightId}`;
            if (ruleId) await sql`delete from public.airline_rules where id = ${ruleId}`;
            await sql`delete from public.airline_automation_pauses`;
          }
        },
      ),
      { numRuns: 60 },
    );
  }, 120_000);

  it('the kill switch drops the carrier from queued automatic work; switching it on lifts the pause', async () => {
    const traveller = await premiumTraveller();
    const delta = await createFlight(sql, traveller.id, {
      rebooking_method: 'source',
      fare_type: 'Main Cabin',
      original_price: 40_000,
      current_price: 30_000,
      status: 'price_drop',
    });
    const united = await createFlight(sql, traveller.id, {
      airline: 'United Airlines',
      flight_number: 'UA77',
      rebooking_method: 'source',
      fare_type: 'Main Cabin',
      original_price: 40_000,
      current_price: 30_000,
      status: 'price_drop',
    });
    const [run] = await sql<{ run_id: string; batches: number }[]>`
      select * from private.start_auto_rebooking_run('admin', null, ${traveller.id}::uuid, 100)`;
    expect(run?.batches).toBe(1);
    const [dropped] = await sql<
      { n: number }[]
    >`select private.set_airline_automation('DL', false, null, 'incident') as n`;
    expect(dropped?.n).toBe(1);
    const [job] = await sql<{ ids: number[] }[]>`
      select payload -> 'flightIds' as ids from public.jobs where kind = 'auto_rebook_own' and status = 'queued'
       and (payload ->> 'runId')::bigint = ${run?.run_id ?? 0}`;
    expect(job?.ids.map(Number)).toEqual([united]);
    // a batch still holding the flight would find it approval-only: never claimed
    expect((await verdictOf(delta)).rebookingMode).toBe('approval');
    const claimed = await api.asService((tx) =>
      claimRebooking(tx, { userId: traveller.id, flightId: delta, method: 'source', request: null, automatic: true }),
    );
    expect(claimed).toBeNull();
    await sql`select private.set_airline_automation('DL', true, null, null)`;
    expect((await verdictOf(delta)).rebookingMode).toBe('automatic');
    await sql`update public.jobs set status = 'done', finished_at = now() where status = 'queued'`;
    await sql`delete from public.flights where id in (${delta}, ${united})`;
  });
});

describe('approval where the airline bars automation', () => {
  let codes = 0;
  const claimsOf = (u: TestUser): AuthClaims => ({
    sub: u.id,
    role: 'authenticated',
    aud: 'authenticated',
    exp: Math.floor(Date.now() / 1000) + 3600,
  });

  /** An American Airlines DROP booking as the api adds it, priced 20% lower by a check and its confirming second quote. */
  async function americanDrop(userId: string): Promise<number> {
    const booking = await simulated.retrieveBooking({
      airline: 'American Airlines',
      bookingCode: `DROP${Date.now().toString(36).toUpperCase()}${codes++}`,
      passengerLastName: 'Lee',
    });
    const flightId = await api.asService((tx) =>
      insertFlight(tx, {
        userId,
        source: 'simulated',
        booking,
        isEligibleForRebooking: isEligibleFareType(booking.fareType, booking.fareChangeable),
        notes: null,
        isManualEntry: true,
      }),
    );
    const quote = await simulated.quote(itineraryOfBooking(booking));
    await api.asService((tx) =>
      recordPriceChecks(tx, [
        { flightId, userId, price: quote.price, currency: quote.currency, checkedAt: new Date(), source: 'simulated' },
      ]),
    );
    // a drop is believed on its second quote (services/drop-confirmation.ts)
    await confirmPendingDrops(deps, { maxJobs: 1 });
    return flightId;
  }

  async function askApproval(flightId: number): Promise<string> {
    const [flight] = await api.asService((tx) => loadBatchFlights(tx, [flightId]));
    if (!flight) throw new Error('the flight does not qualify');
    expect(flight.verdict.rebookingMode).toBe('approval');
    expect(await requestApproval(deps, flight)).toBe(true);
    const [note] = await sql<{ data: { link: string; rule: string; newPrice: number; netSavings: number } }[]>`
      select data from public.notification_history where flight_id = ${flightId} and type = 'rebooking_approval'`;
    expect(note?.data.rule).toContain('American Airlines');
    expect(note?.data.netSavings).toBeGreaterThan(0);
    const link = new URL(note?.data.link ?? '');
    expect(link.pathname).toBe('/dashboard');
    return link.searchParams.get('approve') ?? '';
  }

  const status = (error: unknown) => (error instanceof HttpError ? error.status : error);
  const stateOf = async (id: number) =>
    (await sql<{ status: string }[]>`select status from public.flights where id = ${id}`)[0]?.status;

  it('the owner approves once through the link: rebooked; the same link again is 409', async () => {
    const traveller = await premiumTraveller();
    const flightId = await americanDrop(traveller.id);
    const token = await askApproval(flightId);
    const answer = await rebookFlight(deps, claimsOf(traveller), flightId, { approvalToken: token });
    expect(answer.flight.hasBeenRebooked).toBe(true);
    expect(await rebookFlight(deps, claimsOf(traveller), flightId, { approvalToken: token }).catch(status)).toBe(409);
    // asked once per flight and fare: a second request sends nothing
    const [flight] = await api.asService((tx) => loadBatchFlights(tx, [flightId]));
    expect(flight).toBeUndefined();
  });

  it("another traveller's, an expired, a forged or a used link: 4xx and nothing changed", async () => {
    const traveller = await premiumTraveller();
    const other = await premiumTraveller();
    const flightId = await americanDrop(traveller.id);
    const token = await askApproval(flightId);

    // another traveller cannot see the flight at all (404), whatever link they hold
    expect(await rebookFlight(deps, claimsOf(other), flightId, { approvalToken: token }).catch(status)).toBe(404);
    const parts = token.split('.');
    const forged = [...parts.slice(0, 4), 'A'.repeat(43)].join('.');
    expect(await rebookFlight(deps, claimsOf(traveller), flightId, { approvalToken: forged }).catch(status)).toBe(400);
    const unsigned = await signApprovalToken('another-secret', {
      approvalId: Number(parts[0]),
      flightId,
      userId: traveller.id,
      expiresAt: Date.now() + 3_600_000,
    });
    expect(await rebookFlight(deps, claimsOf(traveller), flightId, { approvalToken: unsigned }).catch(status)).toBe(
      400,
    );

    await sql`update private.rebooking_approvals set expires_at = now() - interval '1 second' where flight_id = ${flightId}`;
    expect(await rebookFlight(deps, claimsOf(traveller), flightId, { approvalToken: token }).catch(status)).toBe(410);
    expect(await stateOf(flightId)).toBe('price_drop');
    const [approval] = await sql<{ used_at: Date | null }[]>`
      select used_at from private.rebooking_approvals where flight_id = ${flightId}`;
    expect(approval?.used_at).toBeNull();

    await sql`update private.rebooking_approvals set expires_at = now() + interval '1 hour', used_at = now()
               where flight_id = ${flightId}`;
    expect(await rebookFlight(deps, claimsOf(traveller), flightId, { approvalToken: token }).catch(status)).toBe(409);
    expect(await stateOf(flightId)).toBe('price_drop');
  });

  it('the automatic claim never takes an American Airlines flight', async () => {
    const traveller = await premiumTraveller();
    const flightId = await americanDrop(traveller.id);
    const claimed = await api.asService((tx) =>
      claimRebooking(tx, { userId: traveller.id, flightId, method: 'source', request: null, automatic: true }),
    );
    expect(claimed).toBeNull();
  });
});
