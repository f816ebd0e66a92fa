// The list helper (supabase/functions/api/queries/pagination.ts) against a real database: pages
// that cover every row once whatever the ties, both orders, empty values last, the total on every
// page and past the end, search text taken literally, and sort keys that only pick from the list's
// own columns.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../dev/db/test-db.ts';
import type { ListQuery } from '../functions/_shared/schemas/pagination.ts';
import { createDb, type Db, type Tx } from '../functions/api/db.ts';
import { containsPattern, type ListColumns, listPage } from '../functions/api/queries/pagination.ts';

let database: TestDatabase;
let db: Db;

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb({ databaseUrl: database.ownerUrl, singleSession: database.singleSession });
});

afterAll(async () => {
  await db?.close();
  await database?.close();
});

interface Traveller extends Record<string, unknown> {
  id: number;
  displayName: string;
  tier: string;
  credit: number | null;
}
type SortKey = 'name' | 'tier' | 'credit';
const columns: ListColumns<SortKey> = { sort: { name: 'displayName', tier: 'tier', credit: 'credit' }, unique: 'id' };

const TRAVELLERS: Array<[string, string, number | null]> = [
  ['Ada', 'premium', 5000],
  ['Grace', 'free', null],
  ['Alan', 'free', 1200],
  ['Edsger', 'premium', null],
  ['Barbara', 'free', 1200],
  ['Donald', 'premium', 90],
  ['Margaret 50% off', 'free', 0],
];

/** Runs `fn` in a transaction holding a fresh table of TRAVELLERS, gone when it ends. */
function withTravellers<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.asService(async (tx) => {
    await tx`create temporary table travellers (id int primary key, name text, tier text, credit int) on commit drop`;
    await tx`insert into travellers ${tx(TRAVELLERS.map(([name, tier, credit], i) => ({ id: i + 1, name, tier, credit })))}`;
    return fn(tx);
  });
}

function matching(tx: Tx, q?: string) {
  return tx`
    select t.id, t.name as "displayName", t.tier, t.credit
      from travellers t
     where ${q ? tx`t.name ilike ${containsPattern(q)}` : tx`true`}`;
}

const query = (overrides: Partial<ListQuery<SortKey>> = {}): ListQuery<SortKey> => ({
  page: 1,
  pageSize: 3,
  sort: 'name',
  order: 'asc',
  ...overrides,
});

describe('listPage', () => {
  it('answers one page of items, the total on every page, and the page asked for', async () => {
    const page = await withTravellers((tx) => listPage<Traveller, SortKey>(tx, matching(tx), query(), columns));
    expect(page).toEqual({
      items: [
        { id: 1, displayName: 'Ada', tier: 'premium', credit: 5000 },
        { id: 3, displayName: 'Alan', tier: 'free', credit: 1200 },
        { id: 5, displayName: 'Barbara', tier: 'free', credit: 1200 },
      ],
      total: 7,
      page: 1,
      pageSize: 3,
    });
  });

  it('covers every row exactly once across the pages, ties broken by id, in both orders', async () => {
    for (const order of ['asc', 'desc'] as const) {
      const ids = await withTravellers(async (tx) => {
        const seen: number[] = [];
        for (let page = 1; page <= 3; page++) {
          const result = await listPage<Traveller, SortKey>(
            tx,
            matching(tx),
            query({ sort: 'tier', order, page }),
            columns,
          );
          expect(result.total).toBe(7);
          seen.push(...result.items.map((item) => item.id));
        }
        return seen;
      });
      // free: 2, 3, 5, 7; premium: 1, 4, 6 (each tier's rows by id, in the same order as the tiers)
      expect(ids, order).toEqual(order === 'asc' ? [2, 3, 5, 7, 1, 4, 6] : [6, 4, 1, 7, 5, 3, 2]);
    }
  });

  it('puts empty values last whichever the order', async () => {
    for (const order of ['asc', 'desc'] as const) {
      const credits = await withTravellers(async (tx) => {
        const all = await listPage<Traveller, SortKey>(
          tx,
          matching(tx),
          query({ sort: 'credit', order, pageSize: 10 }),
          columns,
        );
        return all.items.map((item) => item.credit);
      });
      expect(credits, order).toEqual(
        order === 'asc' ? [0, 90, 1200, 1200, 5000, null, null] : [5000, 1200, 1200, 90, 0, null, null],
      );
    }
  });

  it('answers no items but the true total for a page past the end', async () => {
    const page = await withTravellers((tx) =>
      listPage<Traveller, SortKey>(tx, matching(tx), query({ page: 4 }), columns),
    );
    expect(page).toEqual({ items: [], total: 7, page: 4, pageSize: 3 });
  });

  it('counts only what the search matches, taking %, _ and \\ literally', async () => {
    const found = await withTravellers(async (tx) => ({
      a: await listPage<Traveller, SortKey>(tx, matching(tx, 'a'), query({ pageSize: 2 }), columns),
      percent: await listPage<Traveller, SortKey>(tx, matching(tx, '50%'), query(), columns),
      underscore: await listPage<Traveller, SortKey>(tx, matching(tx, 'A_a'), query(), columns),
      backslash: await listPage<Traveller, SortKey>(tx, matching(tx, '\\'), query(), columns),
      nothing: await listPage<Traveller, SortKey>(tx, matching(tx, 'zzz'), query(), columns),
    }));
    expect(found.a.total).toBe(6);
    expect(found.a.items.map((item) => item.displayName)).toEqual(['Ada', 'Alan']);
    expect(found.percent.items.map((item) => item.displayName)).toEqual(['Margaret 50% off']);
    expect(found.underscore.total).toBe(0);
    expect(found.backslash.total).toBe(0);
    expect(found.nothing).toEqual({ items: [], total: 0, page: 1, pageSize: 3 });
  });

  it('orders only by a column of the list: an unknown key is refused before any SQL runs', async () => {
    for (const sort of ['constructor', 'toString', 'name; drop table travellers', 'id']) {
      const error = await withTravellers((tx) =>
        listPage<Traveller, SortKey>(tx, matching(tx), query({ sort: sort as SortKey }), columns),
      ).catch((e: unknown) => e);
      expect((error as Error).message, sort).toBe(`unknown sort key: ${sort}`);
    }
  });
});

describe('containsPattern', () => {
  it('escapes the LIKE wildcards and the escape character', () => {
    expect(containsPattern('50%_off\\')).toBe('%50\\%\\_off\\\\%');
  });
});
