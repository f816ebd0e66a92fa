import { keepPreviousData, queryOptions, type QueryKey } from '@tanstack/react-query';
import type { ListPage, ListQuery } from '@shared/schemas/pagination.ts';
import { apiRequest } from './api-client';

/*
 * The API's list convention (`_shared/schemas/pagination.ts`), page-based: a list is asked for
 * `page` (from 1), `pageSize`, `sort` (one of its whitelisted keys), `order` and `q`, and answers
 * `ListPage<T>` `{ items, total, page, pageSize }`, `total` counting every matching row.
 */

export type { ListPage, ListQuery };
export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, MAX_SEARCH_LENGTH, SORT_ORDERS } from '@shared/schemas/pagination.ts';
export type { SortOrder } from '@shared/schemas/pagination.ts';

/**
 * One page of a list endpoint, keyed by the area's key and the query. While the next page,
 * order or search loads, the previous answer stays on screen (`placeholderData`), so a table
 * does not collapse into a skeleton at every click.
 */
export function paginatedQueryOptions<T, S extends string = string>(key: QueryKey, path: string, query: ListQuery<S>) {
  return queryOptions({
    queryKey: [...key, query] as const,
    queryFn: () =>
      apiRequest<ListPage<T>>('GET', path, undefined, {
        query: {
          page: query.page,
          pageSize: query.pageSize,
          sort: query.sort,
          order: query.order,
          q: query.q || undefined,
        },
      }),
    placeholderData: keepPreviousData,
  });
}

/** The 1-based numbers of the first and last row on the page, and the number of pages. */
export function pageRange({ page, pageSize, total }: Pick<ListPage<unknown>, 'page' | 'pageSize' | 'total'>) {
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const first = (page - 1) * pageSize + 1;
  // an empty list, or a page past its end
  if (first > total) return { first: 0, last: 0, pageCount };
  return { first, last: Math.min(page * pageSize, total), pageCount };
}
