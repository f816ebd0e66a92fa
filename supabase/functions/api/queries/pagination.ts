// One page of a list, in one statement: the rows of the page and how many rows match in all.
// The count is an uncorrelated subquery over the matching rows, which PostgreSQL runs once, apart
// from the page (an InitPlan): the page itself is then free to read only its rows through an index
// in the sort order and stop, where `count(*) over ()` had to build and sort every matching row
// first (a second of the admin flights list's first page at 100,000 flights, npm run bench:admin).
// The count is planned on its own too, without the page's columns: joins that add columns but
// cannot change the number of rows (left joins on a unique key) are not even made.
//
// A list hands over its matching rows as a query fragment with its output columns named as the
// API names them, and a map from each of its sort keys to one of those columns, written in code:
// the request only ever picks a key of that map, never names a column. Every order ends with the list's unique column, so rows with equal
// sort values keep one order and no row shows on two pages or none. Empty values sort last
// either way.
import postgres from 'postgres';
import type { ListPage, ListQuery } from '../../_shared/schemas/pagination.ts';
import type { Tx } from '../db.ts';

export interface ListColumns<SortKey extends string> {
  /** Each sort key to the output column of the matching rows it orders by. */
  sort: Readonly<Record<SortKey, string>>;
  /** A unique output column (the id): the last key of every order. */
  unique: string;
}

/** A LIKE pattern matching `text` anywhere, its own %, _ and \ taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export async function listPage<Item extends Record<string, unknown>, SortKey extends string>(
  tx: Tx,
  matching: postgres.PendingQuery<postgres.Row[]>,
  query: ListQuery<SortKey>,
  columns: ListColumns<SortKey>,
): Promise<ListPage<Item>> {
  if (!Object.hasOwn(columns.sort, query.sort)) throw new Error(`unknown sort key: ${query.sort}`);
  const sortColumn: string = columns.sort[query.sort];
  const direction = query.order === 'desc' ? tx`desc` : tx`asc`;
  const offset = (query.page - 1) * query.pageSize;
  const rows = await tx<Array<{ __total: number } & postgres.Row>>`
    select l.*, (select count(*) from (${matching}) c)::int as __total
      from (${matching}) l
     order by l.${tx(sortColumn)} ${direction} nulls last, l.${tx(columns.unique)} ${direction}
     limit ${query.pageSize} offset ${offset}
  `;
  let total = rows[0]?.__total ?? 0;
  if (rows.length === 0 && offset > 0) {
    // a page past the end (rows went while paging): no row carries the count, so ask for it
    const [row] = await tx<{ total: number }[]>`select count(*)::int as total from (${matching}) l`;
    total = row?.total ?? 0;
  }
  const items = rows.map((row) => {
    const { __total: _total, ...item } = row;
    return item as Item;
  });
  return { items, total, page: query.page, pageSize: query.pageSize };
}
