// The settings calls' schemas and the database agree: every bound of SETTINGS_LIMITS, the
// threshold conditions, the notification frequencies and the time-of-day pattern are read back
// from the CHECK constraints of public.profiles (pg_constraint) and compared. And rebooking
// thresholds are premium's to change, through the data API's role too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTIFICATION_FREQUENCIES, THRESHOLD_CONDITIONS } from '../functions/_shared/constants.ts';
import {
  NOTIFICATION_TIME_PATTERN,
  SETTINGS_LIMITS,
  TIME_ZONE_PATTERN,
  isKnownTimeZone,
} from '../functions/_shared/schemas/settings.ts';
import { DENIED, attempt, createUser, openTestDatabase, serviceRole, setPlan, user, type TestDb } from './factories.ts';

let db: TestDb;

beforeAll(async () => {
  db = await openTestDatabase();
});

afterAll(async () => {
  await db?.close();
});

/** The request field each stored column is written from. */
const COLUMNS: Record<keyof typeof SETTINGS_LIMITS, string> = {
  minSavingsPercent: 'min_savings_percent',
  minSavingsAmount: 'min_savings_amount',
  internationalMinSavingsPercent: 'international_min_savings_percent',
  internationalMinSavingsAmount: 'international_min_savings_amount',
  minPriceDrop: 'min_price_drop',
  minPriceDropPercent: 'min_price_drop_percent',
};

/** The definitions of every CHECK constraint of public.profiles that mentions the column. */
async function checksOn(column: string): Promise<string[]> {
  const rows = await db.sql<{ def: string }[]>`
    select pg_get_constraintdef(c.oid) as def
      from pg_constraint c
      join pg_attribute a on a.attrelid = c.conrelid and a.attnum = any (c.conkey)
     where c.conrelid = 'public.profiles'::regclass and c.contype = 'c' and a.attname = ${column}
  `;
  return rows.map((row) => row.def);
}

/** The lower and upper bound a column's checks put on it (`x >= n`, `x <= n`, from BETWEEN). */
function bounds(column: string, defs: string[]): { min?: number; max?: number } {
  const found: { min?: number; max?: number } = {};
  for (const def of defs) {
    for (const match of def.matchAll(new RegExp(`\\(?${column}\\s*(>=|<=|>|<)\\s*\\(?(-?\\d+)\\)?`, 'g'))) {
      const [, op, raw] = match;
      const n = Number(raw);
      if (op === '>=') found.min = n;
      if (op === '>') found.min = n + 1;
      if (op === '<=') found.max = n;
      if (op === '<') found.max = n - 1;
    }
  }
  return found;
}

/** The quoted values of `column = ANY (ARRAY['a'::text, ...])`. */
function allowedValues(defs: string[]): string[] {
  const def = defs.find((d) => d.includes('ANY'));
  return [...(def ?? '').matchAll(/'([^']*)'::text/g)].map((m) => m[1] ?? '');
}

describe('stored limits', () => {
  it.each(Object.entries(COLUMNS))('%s has the bounds of %s', async (field, column) => {
    const defs = await checksOn(column);
    expect(defs.length, `no CHECK constraint on ${column}`).toBeGreaterThan(0);
    expect(bounds(column, defs)).toEqual(SETTINGS_LIMITS[field as keyof typeof SETTINGS_LIMITS]);
  });

  it('threshold_condition allows exactly the conditions the schema does', async () => {
    expect(allowedValues(await checksOn('threshold_condition'))).toEqual([...THRESHOLD_CONDITIONS]);
  });

  it('notification_frequency allows exactly the frequencies the schema does', async () => {
    expect(allowedValues(await checksOn('notification_frequency'))).toEqual([...NOTIFICATION_FREQUENCIES]);
  });

  it('notification_time has the schema pattern', async () => {
    const [def] = await checksOn('notification_time');
    expect(def).toContain(`'${NOTIFICATION_TIME_PATTERN.source}'`);
  });

  it('time_zone is checked with the pattern the schema uses, and they agree on names', async () => {
    const [fn] = await db.sql<{ def: string }[]>`
      select pg_get_functiondef('private.is_time_zone(text)'::regprocedure) as def`;
    expect(fn?.def).toContain(`'${TIME_ZONE_PATTERN.source.replaceAll('\\/', '/')}'`);
    for (const name of ['UTC', 'Europe/Paris', 'America/Argentina/Buenos_Aires', 'EST', 'UTC+5', 'Mars/Olympus']) {
      const [row] = await db.sql<{ ok: boolean }[]>`select private.is_time_zone(${name}) as ok`;
      expect(row?.ok, name).toBe(isKnownTimeZone(name));
    }
  });

  it('min_price_drop stops at its ceiling', async () => {
    const { id } = await createUser(db.sql);
    const set = (value: number) =>
      attempt(db.sql, user(id), (tx) => tx`update public.profiles set min_price_drop = ${value} where id = ${id}`);
    expect(await set(SETTINGS_LIMITS.minPriceDrop.max)).toEqual({ rows: 1 });
    expect(await set(SETTINGS_LIMITS.minPriceDrop.max + 1)).toMatchObject({ error: '23514' });
  });
});

describe('rebooking thresholds are premium', () => {
  const CHANGES: [string, unknown][] = [
    ['min_savings_percent', 30],
    ['min_savings_amount', 10000],
    ['threshold_condition', 'both'],
    ['use_separate_international_thresholds', true],
    ['international_min_savings_percent', 40],
    ['international_min_savings_amount', 20000],
  ];

  const setColumn = (actor: Parameters<typeof attempt>[1], id: string, column: string, value: unknown) =>
    attempt(db.sql, actor, (tx) =>
      tx.unsafe(`update public.profiles set ${column} = $1 where id = $2`, [value as string, id]),
    );

  it.each(CHANGES)('a free traveller may not change %s', async (column, value) => {
    const { id } = await createUser(db.sql);
    expect(await setColumn(user(id), id, column, value)).toEqual({
      error: DENIED,
      message: 'Premium subscription required to customize rebooking thresholds.',
    });
  });

  it.each(CHANGES)('a premium traveller may change %s', async (column, value) => {
    const { id } = await createUser(db.sql);
    await setPlan(db.sql, id, 'premium');
    expect(await setColumn(user(id), id, column, value)).toEqual({ rows: 1 });
  });

  it('a free traveller may still save the other settings, and the system may change thresholds', async () => {
    const { id } = await createUser(db.sql);
    expect(await setColumn(user(id), id, 'min_price_drop_percent', 30)).toEqual({ rows: 1 });
    // writing the stored value again is no change
    expect(await setColumn(user(id), id, 'min_savings_percent', 15)).toEqual({ rows: 1 });
    expect(await setColumn(serviceRole, id, 'min_savings_percent', 30)).toEqual({ rows: 1 });
  });
});
