import { Button, Card, Heading, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { DataTable, type DataTableColumn } from '@/components/data-table/data-table';
import { QueryState } from '@/components/query-state/query-state';
import { StatusBadge, type StatusTone } from '@/components/ui/status-badge';
import { notify } from '@/components/ui/toaster';
import { useTableUrlState } from '@/hooks/use-table-url-state';
import { formatDate, formatMoney, sentenceCase } from '@/lib/format';
import {
  HISTORY_SORT_KEYS,
  historyQueryOptions,
  useCommission,
  useCurrentSubscription,
  usePayCommission,
  type ConfirmPaymentToasts,
  type HistorySortKey,
} from '../api';
import { CardPayment, PaymentsUnavailableNotice } from './card-payment';
import { PaymentFrame } from './payment-frame';
import type { BillingHistoryItem, PaymentIntentResponse } from '@shared/types/billing.ts';

/** Each status its own badge: completed green, pending orange, failed red, refunded plain. */
const STATUS_TONES: Record<BillingHistoryItem['status'], StatusTone> = {
  completed: 'success',
  pending: 'warning',
  failed: 'danger',
  refunded: 'outline',
};

const columns: DataTableColumn<BillingHistoryItem, HistorySortKey>[] = [
  { id: 'date', header: 'Date', cell: (row) => formatDate(row.date), sortKey: 'date' },
  {
    id: 'type',
    header: 'Type',
    // the payment's purpose in words (the row's description), under its type
    cell: (row) => (
      <Stack gap="0">
        <Text>{sentenceCase(row.type)}</Text>
        {row.description && (
          <Text fontSize="xs" color="fg.muted">
            {row.description}
          </Text>
        )}
      </Stack>
    ),
  },
  { id: 'amount', header: 'Amount', cell: (row) => formatMoney(row.amount), numeric: true },
  {
    id: 'status',
    header: 'Status',
    cell: (row) => <StatusBadge tone={STATUS_TONES[row.status]}>{row.status}</StatusBadge>,
  },
];

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap="1" p="4" borderWidth="1px" borderRadius="md">
      <Text fontSize="sm" color="fg.muted">
        {label}
      </Text>
      <Text fontSize="2xl" fontWeight="bold">
        {value}
      </Text>
    </Stack>
  );
}

const COMMISSION_TOASTS: ConfirmPaymentToasts = {
  declinedTitle: 'Payment Failed',
  declinedFallback: 'Unable to process payment. Please try again.',
  errorTitle: 'Payment Failed',
  errorFallback: 'Unable to process payment. Please try again.',
};

function notifyProcessed(amount: number) {
  notify({
    title: 'Payment Processed',
    description: `Your commission payment of ${formatMoney(amount)} has been received.`,
    status: 'success',
  });
}

/**
 * Pays the commission owed: with a saved card the server charges it at once; otherwise the
 * answer is an intent the card form confirms (in a dialog). Nothing owed: a toast, no call.
 */
function PayCommission({ owed }: { owed: number }) {
  const pay = usePayCommission();
  const subscription = useCurrentSubscription();
  const [intent, setIntent] = useState<PaymentIntentResponse | null>(null);

  if (owed <= 0) {
    return (
      <Button
        variant="outline"
        alignSelf="flex-start"
        onClick={() =>
          notify({
            title: 'No commission due',
            description: "You don't have any commission payments due at this time.",
            status: 'info',
          })
        }
      >
        No commission due
      </Button>
    );
  }

  if (subscription.data?.paymentMode === 'unavailable') return <PaymentsUnavailableNotice />;

  const onPay = () =>
    pay.mutate(undefined, {
      onSuccess: (result) => {
        if (result.status === 'succeeded') notifyProcessed(result.amount);
        else if (result.success) setIntent(result);
        else
          notify({
            title: 'Payment Failed',
            description: result.message || COMMISSION_TOASTS.declinedFallback,
            status: 'error',
          });
      },
    });

  return (
    <>
      <Button alignSelf="flex-start" onClick={onPay} loading={pay.isPending} loadingText="Processing...">
        Pay Commission ({formatMoney(owed)})
      </Button>
      {intent && (
        <PaymentFrame title="Pay Commission" onClose={() => setIntent(null)}>
          <CardPayment
            intent={intent}
            amount={intent.amount}
            toasts={COMMISSION_TOASTS}
            onPaid={() => {
              notifyProcessed(intent.amount);
              setIntent(null);
            }}
          />
        </PaymentFrame>
      )}
    </>
  );
}

/**
 * The commission owed, the credits earned and the payment history, on any plan (a traveller who
 * downgraded still sees and pays what they owe). With `onlyWhenUsed` it shows nothing to someone
 * with nothing owed and no history (a Free traveller who never paid).
 */
export function BillingSummary({ onlyWhenUsed = false }: { onlyWhenUsed?: boolean }) {
  const commission = useCommission();
  const table = useTableUrlState<HistorySortKey>({
    sortKeys: HISTORY_SORT_KEYS,
    defaultSort: 'date',
    defaultOrder: 'desc',
    defaultPageSize: 10,
    prefix: 'payments',
  });
  const history = useQuery(historyQueryOptions(table.params));
  const unused = commission.data?.commissionOwed === 0 && history.data?.total === 0;
  if (onlyWhenUsed && (unused || commission.isPending || history.isPending)) return null;

  return (
    <Card.Root variant="outline">
      <Card.Header>
        <Heading as="h3" size="md">
          Billing
        </Heading>
      </Card.Header>
      <Card.Body gap="6">
        <QueryState
          query={commission}
          loadingLabel="Loading commission"
          skeleton={<Skeleton height="24" borderRadius="md" />}
          errorTitle="Commission could not be loaded"
        >
          {(summary) => (
            <Stack gap="4">
              <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4">
                <Figure label="Commission Owed" value={formatMoney(summary.commissionOwed)} />
                <Figure label="Total Credits Earned" value={formatMoney(summary.totalCreditsEarned)} />
              </SimpleGrid>
              <PayCommission owed={summary.commissionOwed} />
            </Stack>
          )}
        </QueryState>
        <Stack gap="3">
          <Heading as="h4" size="sm">
            Payment History
          </Heading>
          <DataTable
            caption="Payment History"
            columns={columns}
            state={table}
            query={history}
            rowKey={(row) => row.id}
            errorTitle="Payment history could not be loaded"
            empty={{ title: 'No payment history found' }}
          />
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}
