// The one pagination convention of the API's lists (admin users, flights and billing, billing
// history...): page-based. A list reads `page` (from 1), `pageSize` (default 25, at most 100),
// `sort` (one of the list's own sort keys), `order` (asc or desc) and `q` (search text, trimmed,
// at most 100 characters; empty means no search) from the URL's query string, and answers
// `{ items, total, page, pageSize }`, `total` counting every matching row. Page numbers rather
// than cursors: the admin tables jump to a page and show "page 3 of 12", and their lists are
// small enough for an offset. The web app reads the same schema and types.
import { z } from 'zod';

export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;
export const MAX_SEARCH_LENGTH = 100;
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/** What a list is asked for, once parsed. */
export interface ListQuery<SortKey extends string = string> {
  page: number;
  pageSize: number;
  sort: SortKey;
  order: SortOrder;
  /** Search text, trimmed; absent when there is none. */
  q?: string;
}

/** What a list answers. */
export interface ListPage<Item> {
  items: Item[];
  /** Rows matching the search on every page. */
  total: number;
  page: number;
  pageSize: number;
}

/** A whole number from a query-string value (text) or from code (a number). */
function wholeNumber(message: string, min: number, max: number) {
  return z.coerce.number({ error: message }).int({ error: message }).min(min, { error: message }).max(max, {
    error: message,
  });
}

/**
 * The query schema of one list: its sort keys (the only values `sort` accepts), the default sort
 * and order, and optionally a smaller default page size. Every refusal names its field. Unknown
 * parameters are refused too, so a misspelt one is not silently ignored; a list with filters of
 * its own extends the schema with them.
 */
export function listQuerySchema<const SortKey extends string>(options: {
  sortKeys: readonly [SortKey, ...SortKey[]];
  defaultSort: NoInfer<SortKey>;
  defaultOrder?: SortOrder;
  defaultPageSize?: number;
}) {
  const sortKeys = options.sortKeys;
  return z.strictObject(
    {
      page: wholeNumber('Page must be a whole number of at least 1', 1, Number.MAX_SAFE_INTEGER).default(1),
      pageSize: wholeNumber(`Page size must be a whole number from 1 to ${MAX_PAGE_SIZE}`, 1, MAX_PAGE_SIZE).default(
        options.defaultPageSize ?? DEFAULT_PAGE_SIZE,
      ),
      sort: z.enum(sortKeys, { error: `Sort must be one of: ${sortKeys.join(', ')}` }).default(options.defaultSort),
      order: z.enum(SORT_ORDERS, { error: 'Order must be asc or desc' }).default(options.defaultOrder ?? 'asc'),
      q: z
        .string({ error: 'Search must be text' })
        .trim()
        .max(MAX_SEARCH_LENGTH, { error: `Search must be at most ${MAX_SEARCH_LENGTH} characters` })
        .optional()
        .transform((q) => (q ? q : undefined)),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `Unknown parameter${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}`
          : undefined,
    },
  );
}

/**
 * A query string as the schema's input: each parameter once (a repeated one becomes a list,
 * which no field accepts, so `?page=1&page=2` is refused rather than one of them picked).
 */
export function queryParams(search: URLSearchParams): Record<string, string | string[]> {
  const params: Record<string, string | string[]> = {};
  for (const key of new Set(search.keys())) {
    const values = search.getAll(key);
    params[key] = values.length === 1 ? (values[0] ?? '') : values;
  }
  return params;
}
