import {
  Box,
  Button,
  ButtonGroup,
  chakra,
  Flex,
  HStack,
  IconButton,
  Input,
  NativeSelect,
  Pagination,
  Skeleton,
  Stack,
  Table,
  Text,
} from '@chakra-ui/react';
import type { UseQueryResult } from '@tanstack/react-query';
import { useEffect, useId, type ReactNode } from 'react';
import { LuArrowDown, LuArrowUp, LuArrowUpDown, LuChevronLeft, LuChevronRight } from 'react-icons/lu';
import { EmptyState, ErrorState, LoadingState, type EmptyStateProps } from '@/components/query-state/query-state';
import type { TableUrlState } from '@/hooks/use-table-url-state';
import { TableFrame } from './table-frame';
import { MAX_SEARCH_LENGTH, pageRange, type ListPage, type SortOrder } from '@/lib/pagination';

/*
 * A table of rows the server pages, sorts and searches. Its state lives in the URL
 * (useTableUrlState); the caller builds the query from `state.params` with
 * paginatedQueryOptions and hands both here. On a phone the table scrolls sideways inside its
 * own box; the page never does.
 */

export interface DataTableColumn<T, S extends string = string> {
  id: string;
  header: string;
  cell: (row: T) => ReactNode;
  /** The endpoint's sort key for this column; without one the column does not sort. */
  sortKey?: S;
  /** Numbers and money: aligned to the end. */
  numeric?: boolean;
}

export interface DataTableProps<T, S extends string = string> {
  /** Names the table for assistive technology ('Users'). */
  caption: string;
  columns: DataTableColumn<T, S>[];
  state: TableUrlState<S>;
  query: UseQueryResult<ListPage<T>>;
  rowKey: (row: T) => string | number;
  /** The search box's label ('Search users'); without it the table has no search. */
  searchLabel?: string;
  errorTitle: string;
  /** Shown when the list is empty without a search (a search that matches nothing says so itself). */
  empty: EmptyStateProps;
}

const ariaSortOf: Record<SortOrder, 'ascending' | 'descending'> = { asc: 'ascending', desc: 'descending' };

export function DataTable<T, S extends string = string>({
  caption,
  columns,
  state,
  query,
  rowKey,
  searchLabel,
  errorTitle,
  empty,
}: DataTableProps<T, S>) {
  const { params, setPage } = state;
  const data = query.data;

  // A page past the end (rows removed since, or a hand-edited URL): show the last page instead.
  useEffect(() => {
    if (!data || query.isPlaceholderData || data.items.length > 0 || data.total === 0) return;
    const { pageCount } = pageRange(data);
    if (params.page > pageCount) setPage(pageCount, { replace: true });
  }, [data, query.isPlaceholderData, params.page, setPage]);

  let body: ReactNode;
  if (query.isPending) {
    body = (
      <LoadingState label={`Loading ${caption.toLowerCase()}`}>
        <Skeleton height="10" borderRadius="md" />
        {Array.from({ length: 5 }, (_, index) => (
          <Skeleton key={index} height="8" borderRadius="md" />
        ))}
      </LoadingState>
    );
  } else if (query.isError) {
    body = (
      <ErrorState
        title={errorTitle}
        error={query.error}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  } else if (query.data.total === 0) {
    body = params.q ? (
      <EmptyState
        title="No matches"
        description={`Nothing matches “${params.q}”.`}
        action={
          <Button size="sm" variant="outline" onClick={state.clearSearch}>
            Clear search
          </Button>
        }
      />
    ) : (
      <EmptyState {...empty} />
    );
  } else {
    body = (
      <>
        <Rows
          caption={caption}
          columns={columns}
          state={state}
          page={query.data}
          rowKey={rowKey}
          busy={query.isPlaceholderData}
        />
        <Pager state={state} page={query.data} />
      </>
    );
  }

  return (
    <Stack gap="4">
      {searchLabel && <SearchBox label={searchLabel} state={state} />}
      {body}
    </Stack>
  );
}

function SearchBox<S extends string>({ label, state }: { label: string; state: TableUrlState<S> }) {
  return (
    <Input
      type="search"
      aria-label={label}
      placeholder={label}
      maxLength={MAX_SEARCH_LENGTH}
      maxW={{ base: 'full', sm: 'sm' }}
      value={state.searchInput}
      onChange={(event) => state.setSearchInput(event.target.value)}
    />
  );
}

interface RowsProps<T, S extends string> {
  caption: string;
  columns: DataTableColumn<T, S>[];
  state: TableUrlState<S>;
  page: ListPage<T>;
  rowKey: (row: T) => string | number;
  busy: boolean;
}

function Rows<T, S extends string>({ caption, columns, state, page, rowKey, busy }: RowsProps<T, S>) {
  const { sort, order } = state.params;
  return (
    <TableFrame label={caption}>
      <Table.Root size="sm" interactive aria-busy={busy} opacity={busy ? 0.6 : 1} transition="opacity 0.2s">
        <Table.Caption srOnly>{caption}</Table.Caption>
        <Table.Header>
          <Table.Row bg="bg.subtle">
            {columns.map((column) => {
              const sorted = column.sortKey !== undefined && column.sortKey === sort;
              return (
                <Table.ColumnHeader
                  key={column.id}
                  textAlign={column.numeric ? 'end' : 'start'}
                  whiteSpace="nowrap"
                  aria-sort={column.sortKey === undefined ? undefined : sorted ? ariaSortOf[order] : 'none'}
                >
                  {column.sortKey === undefined ? (
                    column.header
                  ) : (
                    <SortButton
                      label={column.header}
                      order={sorted ? order : undefined}
                      onClick={() => column.sortKey !== undefined && state.toggleSort(column.sortKey)}
                    />
                  )}
                </Table.ColumnHeader>
              );
            })}
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {page.items.map((row) => (
            <Table.Row key={rowKey(row)}>
              {columns.map((column) => (
                <Table.Cell key={column.id} textAlign={column.numeric ? 'end' : 'start'}>
                  {column.cell(row)}
                </Table.Cell>
              ))}
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </TableFrame>
  );
}

function SortButton({ label, order, onClick }: { label: string; order: SortOrder | undefined; onClick: () => void }) {
  const Icon = order === 'asc' ? LuArrowUp : order === 'desc' ? LuArrowDown : LuArrowUpDown;
  return (
    <Button
      variant="plain"
      size="sm"
      px="0"
      h="auto"
      fontWeight="inherit"
      color={order ? 'fg' : 'inherit'}
      onClick={onClick}
    >
      {label}
      <Box as="span" color={order ? 'fg' : 'fg.subtle'} aria-hidden>
        <Icon />
      </Box>
    </Button>
  );
}

function Pager<T, S extends string>({ state, page }: { state: TableUrlState<S>; page: ListPage<T> }) {
  const sizeId = useId();
  const { first, last } = pageRange(page);
  return (
    <Flex
      justify="space-between"
      align="center"
      gap="3"
      wrap="wrap"
      direction={{ base: 'column', sm: 'row' }}
      fontSize="sm"
    >
      <HStack gap="2">
        <chakra.label htmlFor={sizeId} color="fg.muted" whiteSpace="nowrap">
          Rows per page
        </chakra.label>
        <NativeSelect.Root size="sm" width="auto">
          <NativeSelect.Field
            id={sizeId}
            value={String(state.params.pageSize)}
            onChange={(event) => state.setPageSize(Number(event.target.value))}
          >
            {state.pageSizes.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </HStack>
      <Pagination.Root
        count={page.total}
        pageSize={state.params.pageSize}
        page={state.params.page}
        onPageChange={(details) => state.setPage(details.page)}
        siblingCount={1}
      >
        <HStack gap="3">
          <Text color="fg.muted" whiteSpace="nowrap" aria-live="polite">
            {first}–{last} of {page.total}
          </Text>
          <ButtonGroup variant="ghost" size="sm" gap="1">
            <Pagination.PrevTrigger asChild>
              <IconButton aria-label="Previous page">
                <LuChevronLeft />
              </IconButton>
            </Pagination.PrevTrigger>
            {/* page numbers where there is room; a phone has the arrows and the range */}
            <HStack gap="1" hideBelow="md">
              <Pagination.Items
                render={(item) => (
                  <IconButton variant={{ base: 'ghost', _selected: 'outline' }} aria-label={`Page ${item.value}`}>
                    {item.value}
                  </IconButton>
                )}
              />
            </HStack>
            <Pagination.NextTrigger asChild>
              <IconButton aria-label="Next page">
                <LuChevronRight />
              </IconButton>
            </Pagination.NextTrigger>
          </ButtonGroup>
        </HStack>
      </Pagination.Root>
    </Flex>
  );
}
