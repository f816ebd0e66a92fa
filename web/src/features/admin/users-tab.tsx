import { Badge, Button, HStack, Stack, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { AdminUser } from '@shared/types/admin.ts';
import { DataTable, type DataTableColumn } from '@/components/data-table/data-table';
import { useTableUrlState } from '@/hooks/use-table-url-state';
import { useCurrentUser } from '@/lib/auth';
import { formatDate, formatMoney } from '@/lib/format';
import { AdminFlagDialog } from './admin-flag-dialog';
import { CommissionPaymentDialog } from './commission-payment-dialog';
import { adminUsersQueryOptions, USERS_TABLE, type UsersSortKey } from './users-api';

type OpenDialog = { kind: 'admin' | 'payment'; user: AdminUser } | null;

export function AdminUsersTab() {
  const state = useTableUrlState(USERS_TABLE);
  const query = useQuery(adminUsersQueryOptions(state.params));
  const me = useCurrentUser().data;
  const [dialog, setDialog] = useState<OpenDialog>(null);

  const columns: DataTableColumn<AdminUser, UsersSortKey>[] = [
    {
      id: 'username',
      header: 'Username',
      sortKey: 'username',
      cell: (user) => (
        <HStack gap="2" whiteSpace="nowrap">
          <Text fontWeight="medium">{user.username}</Text>
          {user.isAdmin && (
            <Badge colorPalette="purple" variant="solid" size="sm">
              Admin
            </Badge>
          )}
          {user.id === me?.id && (
            <Badge variant="outline" size="sm">
              You
            </Badge>
          )}
        </HStack>
      ),
    },
    {
      id: 'email',
      header: 'Email',
      sortKey: 'email',
      // a long address breaks rather than pushing Actions out of the box at laptop widths
      cell: (user) => (
        <Text maxW="16rem" overflowWrap="anywhere">
          {user.email}
        </Text>
      ),
    },
    {
      id: 'plan',
      header: 'Plan',
      sortKey: 'tier',
      cell: (user) => (
        <Badge colorPalette={user.subscriptionTier === 'premium' ? 'brand' : 'gray'} variant="subtle">
          {user.planName}
        </Badge>
      ),
    },
    { id: 'flights', header: 'Flights', sortKey: 'flights', numeric: true, cell: (user) => user.flightCount },
    {
      id: 'credits',
      header: 'Credits earned',
      numeric: true,
      cell: (user) => formatMoney(user.totalCreditsEarned),
    },
    {
      // owed and paid stacked in one column (sorted by what is owed): two columns of their own
      // pushed Actions out of the table's box at 1280-1440 px
      id: 'commission',
      header: 'Commission',
      sortKey: 'commissionOwed',
      numeric: true,
      cell: (user) => (
        <Stack gap="0" whiteSpace="nowrap">
          <Text>{formatMoney(user.commissionOwed)} owed</Text>
          <Text color="fg.muted" fontSize="xs">
            {formatMoney(user.commissionPaid)} paid
          </Text>
        </Stack>
      ),
    },
    {
      id: 'joined',
      header: 'Joined',
      sortKey: 'createdAt',
      cell: (user) => <Text whiteSpace="nowrap">{formatDate(user.createdAt)}</Text>,
    },
    {
      id: 'actions',
      header: 'Actions',
      cell: (user) => (
        <UserActions
          user={user}
          isMe={user.id === me?.id}
          onAdmin={() => setDialog({ kind: 'admin', user })}
          onPayment={() => setDialog({ kind: 'payment', user })}
        />
      ),
    },
  ];

  return (
    <>
      <DataTable
        caption="Users"
        columns={columns}
        state={state}
        query={query}
        rowKey={(user) => user.id}
        searchLabel="Search users"
        errorTitle="Error loading users"
        empty={{ title: 'No users yet', description: 'Travellers appear here once they sign up.' }}
      />
      {dialog?.kind === 'admin' && <AdminFlagDialog user={dialog.user} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'payment' && <CommissionPaymentDialog user={dialog.user} onClose={() => setDialog(null)} />}
    </>
  );
}

interface UserActionsProps {
  user: AdminUser;
  isMe: boolean;
  onAdmin: () => void;
  onPayment: () => void;
}

function UserActions({ user, isMe, onAdmin, onPayment }: UserActionsProps) {
  // The api refuses it too (409); the row says why before anyone tries.
  const cannotRevoke = user.isAdmin && isMe;
  const reasonId = `cannot-revoke-${user.id}`;
  // One button under the other, and the reason wrapped to their width: side by side, with the
  // reason on one line, the column pushed itself out of the table's box at 1280-1440 px.
  return (
    <Stack gap="1" align="stretch" maxW="9.5rem">
      <Stack gap="1" align="stretch">
        <Button
          size="xs"
          variant="outline"
          onClick={onAdmin}
          disabled={cannotRevoke}
          aria-describedby={cannotRevoke ? reasonId : undefined}
          aria-label={`${user.isAdmin ? 'Revoke admin' : 'Grant admin'} for ${user.username}`}
        >
          {user.isAdmin ? 'Revoke admin' : 'Grant admin'}
        </Button>
        {user.commissionOwed > 0 && (
          <Button size="xs" variant="outline" onClick={onPayment} aria-label={`Record payment from ${user.username}`}>
            Record payment
          </Button>
        )}
      </Stack>
      {cannotRevoke && (
        <Text id={reasonId} fontSize="xs" color="fg.muted" whiteSpace="normal">
          You cannot remove your own admin status
        </Text>
      )}
    </Stack>
  );
}
