// Operators read the tables in Supabase Studio, which shows each table's and column's comment
// (each area migration's `comment on` statements, beside the object they describe). These tests
// hold every table, view and column of public and private to that: each has a comment, a money
// column's says "cents" and a percent column's says "percent". The rules below name the columns
// they apply to explicitly; a new column whose name fits a rule must say its unit.
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../dev/db/test-db.ts';

const SCHEMAS = ['public', 'private'];

/** Integer columns whose name says they hold a rate or a share: their comment says "percent". */
const PERCENT_NAME = /(^|_)(percent|rate)(_|$)/;

/** Integer columns whose name says they hold money: their comment says "cents" (unless PERCENT_NAME). */
const MONEY_NAME = /(^|_)(amount|price|credit|credits|commission|savings|fee|penalty|owed|paid|cents)(_|$)/;

/** Money columns whose names do not say so. */
const MONEY_COLUMNS = ['private.payments.applied', 'public.profiles.absolute_threshold'];

/** Columns MONEY_NAME matches that are not money, and why. */
const NOT_MONEY: Record<string, string> = {
  'public.price_check_logs.total_price_drops_found': 'a count of flights',
  'public.airline_rules.credit_valid_months': 'how long a credit lasts, in months',
};

const INTEGER_TYPES = ['smallint', 'integer', 'bigint', 'numeric'];

interface Column {
  column: string;
  type: string;
  comment: string | null;
}

let database: TestDatabase;
let sql: postgres.Sql;
let relations: { relation: string; kind: string; comment: string | null }[];
let columns: Column[];

beforeAll(async () => {
  database = await createTestDatabase();
  sql = postgres(database.url, { max: 1, prepare: !database.singleSession, onnotice: () => {} });
  relations = await sql<{ relation: string; kind: string; comment: string | null }[]>`
    select n.nspname || '.' || c.relname as relation, c.relkind::text as kind,
           obj_description(c.oid, 'pg_class') as comment
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname in ${sql(SCHEMAS)} and c.relkind in ('r', 'p', 'v', 'm', 'f')
     order by 1`;
  columns = await sql<Column[]>`
    select n.nspname || '.' || c.relname || '.' || a.attname as column,
           format_type(a.atttypid, null) as type,
           col_description(c.oid, a.attnum) as comment
      from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
     where n.nspname in ${sql(SCHEMAS)} and c.relkind in ('r', 'p', 'v', 'm', 'f')
     order by 1`;
});

afterAll(async () => {
  await sql?.end();
  await database?.close();
});

const blank = (comment: string | null): boolean => (comment ?? '').trim() === '';
const name = (column: string): string => column.split('.').at(-1) ?? '';
const isInteger = (c: Column): boolean => INTEGER_TYPES.includes(c.type);
const isPercent = (c: Column): boolean => isInteger(c) && PERCENT_NAME.test(name(c.column));
const isMoney = (c: Column): boolean =>
  MONEY_COLUMNS.includes(c.column) ||
  (isInteger(c) && MONEY_NAME.test(name(c.column)) && !isPercent(c) && !(c.column in NOT_MONEY));

describe('the catalog of public and private', () => {
  it('has a comment on every table and view', () => {
    expect(relations.length).toBeGreaterThan(20);
    expect(relations.filter((r) => blank(r.comment)).map((r) => r.relation)).toEqual([]);
  });

  it('has a comment on every column', () => {
    expect(columns.length).toBeGreaterThan(300);
    expect(columns.filter((c) => blank(c.comment)).map((c) => c.column)).toEqual([]);
  });

  it('says "cents" for every money column', () => {
    const money = columns.filter(isMoney);
    // the rules find the money columns they were written for
    expect(money.map((c) => c.column)).toEqual(
      expect.arrayContaining([
        'private.flight_bookings.price_paid',
        'private.payments.amount',
        'private.payments.applied',
        'private.rebookings.commission',
        'public.auto_rebooking_logs.total_savings',
        'public.billing_transactions.amount',
        'public.billing_transactions.credits_earned_in_period',
        'public.flight_prices.price',
        'public.flights.airline_credit',
        'public.flights.cancellation_fee',
        'public.flights.change_penalty',
        'public.flights.commission_amount',
        'public.flights.original_price',
        'public.profiles.absolute_threshold',
        'public.profiles.commission_owed',
        'public.profiles.commission_paid',
        'public.profiles.min_price_drop',
        'public.profiles.min_savings_amount',
        'public.profiles.total_credits_earned',
        'public.subscription_plans.price',
      ]),
    );
    expect(money.filter((c) => !/\bcents\b/i.test(c.comment ?? '')).map((c) => c.column)).toEqual([]);
  });

  it('says "percent" for every percent column', () => {
    const percent = columns.filter(isPercent);
    expect(percent.map((c) => c.column)).toEqual(
      expect.arrayContaining([
        'public.profiles.international_min_savings_percent',
        'public.profiles.min_price_drop_percent',
        'public.profiles.min_savings_percent',
        'public.profiles.percent_threshold',
        'public.subscription_plans.commission_rate',
      ]),
    );
    expect(percent.filter((c) => !/\bpercent\b/i.test(c.comment ?? '')).map((c) => c.column)).toEqual([]);
  });

  it('keeps its exceptions real: every listed column exists', () => {
    const all = new Set(columns.map((c) => c.column));
    expect([...MONEY_COLUMNS, ...Object.keys(NOT_MONEY)].filter((c) => !all.has(c))).toEqual([]);
  });
});
