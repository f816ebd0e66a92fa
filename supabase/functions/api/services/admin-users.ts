// The admin flag: who may grant or revoke it and what each refusal says. The database holds the
// same rules (migration 20261122000400_admin_audit.sql: the last admin, the audit row; guard_profile_update: no
// admin changes their own flag), so they hold for the data API and operators too; here they get
// the api's words.
import postgres from 'postgres';
import type { UpdateUserAdminResponse } from '../../_shared/types/admin.ts';
import type { AppDeps } from '../context.ts';
import type { AuthClaims } from '../db.ts';
import { HttpError } from '../errors.ts';
import { adminUser, setAdminFlag } from '../queries/admin-users.ts';

export const ADMIN_USER_MESSAGES = {
  updated: 'Admin status updated',
  notFound: 'User not found',
  ownFlag: 'You cannot remove your own admin status',
  lastAdmin: 'The last admin cannot be removed',
} as const;

/** SQLSTATE of the last-admin rule (private.keep_an_admin). */
const LAST_ADMIN_SQLSTATE = 'FBADM';

/**
 * `PUT /api/admin/users/{id}/admin`, as the admin: the flag changes (and its audit row is written)
 * in one transaction. Asking for the flag the user already has answers 200 and changes nothing.
 */
export async function updateUserAdmin(
  deps: AppDeps,
  claims: AuthClaims,
  userId: string,
  isAdmin: boolean,
): Promise<UpdateUserAdminResponse> {
  if (userId === claims.sub && !isAdmin) throw new HttpError(409, ADMIN_USER_MESSAGES.ownFlag);
  try {
    return await deps.db.asUser(claims, async (tx) => {
      await setAdminFlag(tx, userId, isAdmin);
      const user = await adminUser(tx, userId);
      if (!user) throw new HttpError(404, ADMIN_USER_MESSAGES.notFound);
      return { success: true, message: ADMIN_USER_MESSAGES.updated, user };
    });
  } catch (error) {
    if (error instanceof postgres.PostgresError && error.code === LAST_ADMIN_SQLSTATE) {
      throw new HttpError(409, ADMIN_USER_MESSAGES.lastAdmin);
    }
    throw error;
  }
}
