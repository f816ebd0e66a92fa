// The admin area's users: the list and the admin flag. Every statement runs as the admin (asUser):
// the profiles' and flights' policies let admins read every row, and the flag changes through the
// policy "Admins can update any profile" and the triggers of migration 20261122000400_admin_audit.sql (the audit
// row, the last-admin rule) with the admin as the actor.
import type postgres from 'postgres';
import type { ListPage, ListQuery } from '../../_shared/schemas/pagination.ts';
import type { AdminUser } from '../../_shared/types/admin.ts';
import type { Tx } from '../db.ts';
import { containsPattern, listPage } from './pagination.ts';

const USER_SORT = {
  createdAt: 'createdAt',
  username: 'username',
  email: 'email',
  tier: 'subscriptionTier',
  flights: 'flightCount',
  commissionOwed: 'commissionOwed',
} as const;
export type AdminUserSortKey = keyof typeof USER_SORT;

/** The users matching a condition, with their output columns in API names. */
function adminUsers(tx: Tx, where: postgres.PendingQuery<postgres.Row[]>) {
  return tx`
    select p.id, p.username, p.email, p.is_admin as "isAdmin", sp.tier as "subscriptionTier",
           sp.name as "planName", p.email_connected as "emailConnected",
           p.flight_count as "flightCount",
           p.total_credits_earned as "totalCreditsEarned", p.commission_owed as "commissionOwed",
           p.commission_paid as "commissionPaid", p.created_at as "createdAt"
      from public.profiles p
      join public.subscription_plans sp on sp.id = p.plan_id
     ${where}
  `;
}

function toAdminUser(row: Record<string, unknown>): AdminUser {
  const user = row as unknown as AdminUser;
  return {
    ...user,
    email: user.email ?? '',
    createdAt: new Date(user.createdAt).toISOString(),
  };
}

/** `GET /api/admin/users`: search by username or email. */
export async function adminUsersPage(tx: Tx, query: ListQuery<AdminUserSortKey>): Promise<ListPage<AdminUser>> {
  // the matching ids come from their owner, where the trigram indexes apply (ILIKE under a policy
  // cannot use them; migration 20261122001100_admin_reports.sql); the rows are then read under the policies
  const where = query.q
    ? tx`where p.id in (select private.admin_profile_ids_matching(${containsPattern(query.q)}))`
    : tx``;
  const page = await listPage<Record<string, unknown>, AdminUserSortKey>(tx, adminUsers(tx, where), query, {
    sort: USER_SORT,
    unique: 'id',
  });
  return { ...page, items: page.items.map(toAdminUser) };
}

/** One user as the list shows them, or null when there is none. */
export async function adminUser(tx: Tx, userId: string): Promise<AdminUser | null> {
  const [row] = await adminUsers(tx, tx`where p.id = ${userId}`);
  return row ? toAdminUser(row) : null;
}

/**
 * Sets the user's admin flag when it differs (granting to an admin or revoking from a non-admin
 * changes nothing and writes no audit row). True when the flag changed.
 */
export async function setAdminFlag(tx: Tx, userId: string, isAdmin: boolean): Promise<boolean> {
  const rows = await tx`
    update public.profiles set is_admin = ${isAdmin}
     where id = ${userId} and is_admin is distinct from ${isAdmin}
  `;
  return rows.count === 1;
}
