import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { KEEP_SCROLL } from '@/lib/navigation-state';
import { DEFAULT_PAGE_SIZE, MAX_SEARCH_LENGTH, SORT_ORDERS, type ListQuery, type SortOrder } from '@/lib/pagination';

/** A pause in typing this long sends the search. */
export const SEARCH_DEBOUNCE_MS = 300;
/** The rows-per-page choices; the API takes at most MAX_PAGE_SIZE. */
export const DEFAULT_PAGE_SIZES = [10, 25, 50, 100] as const;

export interface TableUrlStateOptions<S extends string> {
  /** The sort keys the endpoint accepts; any other `sort` in the URL is ignored. */
  sortKeys: readonly S[];
  /** The order rows come in when the URL names none, as the endpoint's (left out of the URL). */
  defaultSort: S;
  defaultOrder?: SortOrder;
  pageSizes?: readonly number[];
  /** One of `pageSizes`; the API's DEFAULT_PAGE_SIZE (25) unless given. */
  defaultPageSize?: number;
  /**
   * Names this table's parameters (`users.page`, `users.q`) where one page holds several
   * tables, so each keeps its own state.
   */
  prefix?: string;
}

export interface TableUrlState<S extends string> {
  /** What the URL says, validated: what the query asks the server for. */
  params: ListQuery<S>;
  /** The search box's text, ahead of the URL by the debounce. */
  searchInput: string;
  setSearchInput: (value: string) => void;
  /** Empties the search at once, without waiting for the debounce. */
  clearSearch: () => void;
  setPage: (page: number, options?: { replace?: boolean }) => void;
  setPageSize: (pageSize: number) => void;
  /** A new column sorts ascending; the sorted column flips its order. Either goes to page 1. */
  toggleSort: (key: S) => void;
  pageSizes: readonly number[];
}

type Param = 'page' | 'pageSize' | 'sort' | 'order' | 'q';

function positiveInteger(value: string | null): number | undefined {
  if (value === null || !/^\d+$/.test(value)) return undefined;
  const number = Number(value);
  return Number.isSafeInteger(number) && number > 0 ? number : undefined;
}

/**
 * A server-paginated table's page, page size, sort, order and search, kept in the URL's search
 * parameters: a reload, a shared link, Back and Forward all show the same rows. Values the URL
 * holds are validated (unknown sort keys, page sizes and orders fall back to the defaults);
 * defaults are left out of the URL. Changing the search, sort or page size goes back to page 1.
 *
 * Each change is a new history entry (Back returns to the previous page of results, as in a
 * search engine); the search is written once typing pauses for SEARCH_DEBOUNCE_MS, so a typed
 * word is one entry. Corrections the table makes itself (a page past the end) replace it.
 */
export function useTableUrlState<S extends string>({
  sortKeys,
  defaultSort,
  defaultOrder = 'asc',
  pageSizes = DEFAULT_PAGE_SIZES,
  defaultPageSize = DEFAULT_PAGE_SIZE,
  prefix,
}: TableUrlStateOptions<S>): TableUrlState<S> {
  const [searchParams, setSearchParams] = useSearchParams();
  const name = useCallback((param: Param) => (prefix ? `${prefix}.${param}` : param), [prefix]);

  const urlSort = searchParams.get(name('sort'));
  const urlOrder = searchParams.get(name('order'));
  const urlPageSize = positiveInteger(searchParams.get(name('pageSize')));
  const sort = sortKeys.find((key) => key === urlSort) ?? defaultSort;
  const order = SORT_ORDERS.find((value) => value === urlOrder) ?? defaultOrder;
  const pageSize = pageSizes.find((size) => size === urlPageSize) ?? defaultPageSize;
  const page = positiveInteger(searchParams.get(name('page'))) ?? 1;
  // the API refuses a longer search
  const q = (searchParams.get(name('q')) ?? '').trim().slice(0, MAX_SEARCH_LENGTH);

  const params = useMemo<ListQuery<S>>(
    () => (q ? { page, pageSize, sort, order, q } : { page, pageSize, sort, order }),
    [page, pageSize, sort, order, q],
  );

  /** Writes the given parameters; undefined or a default removes one. */
  const write = useCallback(
    (changes: Partial<Record<Param, string | number | undefined>>, { replace = false } = {}) => {
      const defaults: Record<Param, string | undefined> = {
        page: '1',
        pageSize: String(defaultPageSize),
        sort: defaultSort,
        order: defaultOrder,
        q: '',
      };
      setSearchParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [param, value] of Object.entries(changes) as Array<[Param, string | number | undefined]>) {
            const text = value === undefined ? undefined : String(value);
            if (text === undefined || text === defaults[param]) next.delete(name(param));
            else next.set(name(param), text);
          }
          return next;
        },
        { replace, state: KEEP_SCROLL },
      );
    },
    [setSearchParams, name, defaultPageSize, defaultSort, defaultOrder],
  );

  // The search box runs ahead of the URL. It follows the URL when the URL changes for another
  // reason (Back, a link), but not when the change is the search it wrote itself: typing may
  // have gone on since, and that text must not be overwritten.
  const [searchInput, setSearchInput] = useState(q);
  const [shownQ, setShownQ] = useState(q);
  const written = useRef<string | null>(null);
  if (q !== shownQ) {
    setShownQ(q);
    if (q !== written.current) setSearchInput(q);
    written.current = null;
  }

  useEffect(() => {
    const wanted = searchInput.trim();
    // already in the URL, or written and on its way there
    if (wanted === q || wanted === written.current) return;
    const timer = setTimeout(() => {
      written.current = wanted;
      write({ q: wanted, page: undefined });
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [searchInput, q, write]);

  const clearSearch = useCallback(() => {
    setSearchInput('');
    written.current = '';
    write({ q: undefined, page: undefined });
  }, [write]);

  const setPage = useCallback(
    (next: number, options?: { replace?: boolean }) => write({ page: Math.max(1, Math.floor(next)) }, options),
    [write],
  );

  const setPageSize = useCallback((size: number) => write({ pageSize: size, page: undefined }), [write]);

  const toggleSort = useCallback(
    (key: S) => {
      const nextOrder: SortOrder = key === sort ? (order === 'asc' ? 'desc' : 'asc') : 'asc';
      // Both are written (defaults then drop out): with a default sort in descending order,
      // 'asc' is not the default.
      write({ sort: key, order: nextOrder, page: undefined });
    },
    [write, sort, order],
  );

  return { params, searchInput, setSearchInput, clearSearch, setPage, setPageSize, toggleSort, pageSizes };
}
