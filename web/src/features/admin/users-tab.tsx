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
    { id: 'email', header: 'Email', sortKey: 'email', cell: (user) => user.email },
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
      id: 'owed',
      header: 'Commission owed',
      sortKey: 'commissionOwed',
      numeric: true,
      cell: (user) => formatMoney(user.commissionOwed),
    },
    { id: 'paid', header: 'Commission paid', numeric: true, cell: (user) => formatMoney(user.commissionPaid) },
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
  return (
    <Stack gap="1" align="flex-start">
      <HStack gap="2">
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
      </HStack>
      {cannotRevoke && (
        <Text id={reasonId} fontSize="xs" color="fg.muted" whiteSpace="nowrap">
          You cannot remove your own admin status
        </Text>
      )}
    </Stack>
  );
}
