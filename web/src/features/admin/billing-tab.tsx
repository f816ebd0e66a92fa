import { Stack, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { adminBillingQuerySchema } from '@shared/schemas/admin.ts';
import type { AdminTransaction } from '@shared/types/admin.ts';
import { DataTable, type DataTableColumn } from '@/components/data-table/data-table';
import { StatusBadge, type StatusTone } from '@/components/ui/status-badge';
import { useTableUrlState } from '@/hooks/use-table-url-state';
import { formatDate, formatMoney, sentenceCase } from '@/lib/format';
import { paginatedQueryOptions, type ListQuery } from '@/lib/pagination';
import { adminKeys } from './api';
import { tableOptionsOf } from './list-table-options';

/** The table's URL state (`billing.page`, `billing.q`...) over the endpoint's sort keys and defaults. */
const BILLING_TABLE = tableOptionsOf(adminBillingQuerySchema, 'billing');
type BillingSortKey = (typeof BILLING_TABLE.sortKeys)[number];

export const adminBillingQueryOptions = (query: ListQuery<BillingSortKey>) =>
  paginatedQueryOptions<AdminTransaction, BillingSortKey>(adminKeys.billing(), '/admin/billing', query);

/** Spec: completed is a success, pending is waiting, anything else (failed, refunded) failed-style. */
export function transactionTone(status: string): StatusTone {
  if (status === 'completed') return 'success';
  if (status === 'pending') return 'warning';
  return 'danger';
}

const columns: DataTableColumn<AdminTransaction, BillingSortKey>[] = [
  {
    id: 'date',
    header: 'Date',
    cell: (row) => <Text whiteSpace="nowrap">{formatDate(row.date)}</Text>,
    sortKey: 'date',
  },
  {
    id: 'traveller',
    header: 'Traveller',
    cell: (row) => (
      <Stack gap="0">
        <Text fontWeight="medium">{row.username}</Text>
        <Text fontSize="xs" color="fg.muted">
          {row.email}
        </Text>
      </Stack>
    ),
    sortKey: 'user',
  },
  { id: 'type', header: 'Type', cell: (row) => sentenceCase(row.type), sortKey: 'type' },
  { id: 'amount', header: 'Amount', cell: (row) => formatMoney(row.amount), sortKey: 'amount', numeric: true },
  {
    id: 'status',
    header: 'Status',
    cell: (row) => <StatusBadge tone={transactionTone(row.status)}>{row.status}</StatusBadge>,
    sortKey: 'status',
  },
  { id: 'description', header: 'Description', cell: (row) => row.description ?? '—' },
  {
    // method and the provider's reference in one column, so the table fits at 1280 px
    id: 'payment',
    header: 'Payment',
    cell: (row) => (
      <Stack gap="0">
        <Text>{row.paymentMethod ?? '—'}</Text>
        {row.paymentReference && (
          <Text fontFamily="mono" fontSize="xs" color="fg.muted" wordBreak="break-all" minW="32">
            {row.paymentReference}
          </Text>
        )}
      </Stack>
    ),
  },
];

/** Every traveller's payments, paged, sorted and searched (traveller, type or status) on the server. */
export function AdminBillingTab() {
  const table = useTableUrlState(BILLING_TABLE);
  const transactions = useQuery(adminBillingQueryOptions(table.params));
  return (
    <DataTable
      caption="Transactions"
      columns={columns}
      state={table}
      query={transactions}
      rowKey={(row) => row.id}
      searchLabel="Search transactions"
      errorTitle="Error loading transactions"
      empty={{ title: 'No transactions yet', description: 'Payments appear here once travellers make them.' }}
    />
  );
}
