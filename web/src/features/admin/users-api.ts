import { useMutation } from '@tanstack/react-query';
import { adminUsersQuerySchema, type AdminCommissionPaymentBody } from '@shared/schemas/admin.ts';
import type { AdminCommissionPaymentResponse, AdminUser, UpdateUserAdminResponse } from '@shared/types/admin.ts';
import { notify } from '@/components/ui/toaster';
import { apiRequest } from '@/lib/api-client';
import { formatMoney } from '@/lib/format';
import { paginatedQueryOptions, type ListQuery } from '@/lib/pagination';
import { adminKeys } from './api';
import { tableOptionsOf } from './list-table-options';

/*
 * The Users tab's calls. Both mutations refresh every admin query (adminKeys.all): a new admin
 * or a payment changes the list, the stats' commission tiles and the audit log.
 */

/** The table's URL state (`users.page`, `users.q`...) over the endpoint's sort keys and defaults. */
export const USERS_TABLE = tableOptionsOf(adminUsersQuerySchema, 'users');
export type UsersSortKey = (typeof USERS_TABLE.sortKeys)[number];

export const adminUsersQueryOptions = (query: ListQuery<UsersSortKey>) =>
  paginatedQueryOptions<AdminUser, UsersSortKey>(adminKeys.users(), '/admin/users', query);

export function setUserAdmin(userId: string, isAdmin: boolean): Promise<UpdateUserAdminResponse> {
  return apiRequest<UpdateUserAdminResponse>('PUT', `/admin/users/${encodeURIComponent(userId)}/admin`, { isAdmin });
}

export function recordCommissionPayment(body: AdminCommissionPaymentBody): Promise<AdminCommissionPaymentResponse> {
  return apiRequest<AdminCommissionPaymentResponse>('POST', '/stripe/pay-commission', body);
}

/** Grant or revoke; a refusal's reason ('You cannot remove your own admin status') follows the spec's toast text. */
export function useSetUserAdmin() {
  return useMutation({
    mutationFn: ({ user, isAdmin }: { user: AdminUser; isAdmin: boolean }) => setUserAdmin(user.id, isAdmin),
    meta: {
      invalidates: [adminKeys.all],
      errorTitle: 'Update Failed',
      errorDescription: 'Failed to update user admin status',
    },
    onSuccess: ({ user }) =>
      notify({
        title: 'Admin Status Updated',
        description: user.isAdmin ? `${user.username} is now an admin.` : `${user.username} is no longer an admin.`,
        status: 'success',
      }),
  });
}

export function useRecordCommissionPayment() {
  return useMutation({
    mutationFn: ({ body }: { body: AdminCommissionPaymentBody; username: string }) => recordCommissionPayment(body),
    meta: {
      invalidates: [adminKeys.all],
      errorTitle: 'Payment Failed',
      errorDescription: 'Failed to process commission payment',
    },
    onSuccess: (result, { username }) =>
      notify({
        title: 'Commission Payment Processed',
        description: `Recorded ${formatMoney(result.amount)} from ${username}; ${formatMoney(result.commissionOwed)} still owed.`,
        status: 'success',
      }),
  });
}
