// One rebooking rule: private.rebooking_qualifies (inlinable SQL, what the admin's stats and the
// start of an automatic run count) answers exactly what private.rebooking_verdict's 'qualifies'
// says, for any flight and owner: domestic and cross-border routes (unknown and lower-case airport
// codes too), 'either' and 'both', separate international thresholds on and off, change penalties
// larger or smaller than the drop, ineligible fares, no current fare and null fields. Rows are built
// in SQL (jsonb_populate_record), not stored, so nulls the table would refuse are covered as well.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openTestDatabase, type TestDb } from './factories.ts';

let db: TestDb;

beforeAll(async () => {
  db = await openTestDatabase();
});

afterAll(async () => {
  await db?.close();
});

// JFK/LAX US, YYZ CA, LHR GB; XXX is no airport; jfk checks the case-insensitive lookup
const airport = fc.constantFrom('JFK', 'LAX', 'YYZ', 'LHR', 'XXX', 'jfk', null);
const cents = fc.integer({ min: 0, max: 300_000 });
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { freq: 8, nil: null });

const flightArb = fc.record({
  original_price: maybe(fc.integer({ min: 1, max: 300_000 })),
  current_price: maybe(cents),
  change_penalty: maybe(fc.integer({ min: 0, max: 50_000 })),
  is_eligible_for_rebooking: maybe(fc.boolean()),
  departure_airport: airport,
  arrival_airport: airport,
  refund_form: fc.constantFrom('credit', 'cash'),
});

const profileArb = fc.record({
  min_savings_amount: maybe(fc.integer({ min: 0, max: 50_000 })),
  min_savings_percent: maybe(fc.integer({ min: 1, max: 90 })),
  international_min_savings_amount: maybe(fc.integer({ min: 0, max: 50_000 })),
  international_min_savings_percent: maybe(fc.integer({ min: 1, max: 90 })),
  threshold_condition: fc.constantFrom('either', 'both'),
  use_separate_international_thresholds: maybe(fc.boolean()),
});

it("rebooking_qualifies(f, p) is the verdict's qualifies for any flight and owner", async () => {
  await fc.assert(
    fc.asyncProperty(flightArb, profileArb, async (flight, profile) => {
      const [row] = await db.sql<{ qualifies: boolean | null; verdict: boolean | null; min_equal: boolean }[]>`
        select private.rebooking_qualifies(f, p) as qualifies,
               (private.rebooking_verdict(f, p) ->> 'qualifies')::boolean as verdict,
               (private.rebooking_verdict(f, p) -> 'minNetSavings') is not distinct from
                 case when f.current_price is null or f.current_price >= f.original_price then 'null'::jsonb
                      else to_jsonb(private.rebooking_min_net_savings(f, p)) end as min_equal
          from jsonb_populate_record(null::public.flights, ${db.sql.json(flight)}) f,
               jsonb_populate_record(null::public.profiles, ${db.sql.json(profile)}) p`;
      expect(row?.qualifies).toBe(row?.verdict);
      expect(row?.min_equal).toBe(true);
    }),
    { numRuns: 400 },
  );
});

it('covers both answers and the international thresholds (the generator reaches every branch)', async () => {
  const rows = await db.sql<{ route: string; qualifies: boolean }[]>`
    select r.route, private.rebooking_qualifies(f, p) as qualifies
      from (values ('domestic', 'JFK', 'LAX'), ('international', 'JFK', 'YYZ')) r(route, dep, arr)
     cross join lateral jsonb_populate_record(null::public.flights, jsonb_build_object(
             'original_price', 100000, 'current_price', 90000, 'change_penalty', 0,
             'is_eligible_for_rebooking', true, 'departure_airport', r.dep, 'arrival_airport', r.arr)) f
     cross join lateral jsonb_populate_record(null::public.profiles, jsonb_build_object(
             'min_savings_amount', 5000, 'min_savings_percent', 5, 'threshold_condition', 'both',
             'use_separate_international_thresholds', true,
             'international_min_savings_amount', 20000, 'international_min_savings_percent', 20)) p
     order by r.route`;
  // $100 saved on $1,000: meets $50 and 5% at home, not $200 and 20% across a border
  expect(rows).toEqual([
    { route: 'domestic', qualifies: true },
    { route: 'international', qualifies: false },
  ]);
});

it("is inlined: the admin stats' count calls no rebooking function per flight", async () => {
  const plan = await db.sql<{ 'QUERY PLAN': string }[]>`
    explain (verbose, costs off)
    select count(*) from public.flights f join public.profiles p on p.id = f.user_id
     where f.status = 'price_drop' and private.flight_is_watched(f) and private.rebooking_qualifies(f, p)`;
  const text = plan.map((r) => r['QUERY PLAN']).join('\n');
  expect(text).not.toMatch(/rebooking_qualifies|rebooking_min_net_savings|flight_is_watched|rebooking_verdict/);
  // the border lookup is the only call left, and only on the separate-thresholds branch
  expect(text).toMatch(/CASE WHEN \(p\.use_separate_international_thresholds AND private\.route_crosses_border/);
});
