// The traveller's data is theirs: 'Download my data' (everything FareBack holds on them, as JSON)
// and 'Delete account'. Deletion re-checks the owner (their password, or a Google sign-in of the
// last few minutes for an account without one), keeps only what the law and the ledger require
// (billing rows and commission owed, anonymised: private.closed_account_ledger), deletes the rest
// in one transaction (the last-admin trigger refuses the last admin, 409), and then revokes the
// Gmail grant at Google through the mailbox adapter.
import type { DeleteAccountInput } from '../../_shared/schemas/auth.ts';
import type { AppDeps } from '../context.ts';
import type { AuthClaims } from '../db.ts';
import { HttpError } from '../errors.ts';
import { accountDataOf, deleteSignInAccount, hasPassword, retainLedger } from '../queries/account-data.ts';
import { deleteConnection } from '../queries/email.ts';
import { getSignInEmail } from '../queries/profiles.ts';
import { revokeRemovedGrant } from './email/connection.ts';

/** How recent a Google sign-in must be to stand in for the password. */
export const GOOGLE_RECHECK_SECONDS = 10 * 60;

export const DELETION_MESSAGES = {
  deleted: 'Your account and everything FareBack held on you have been deleted.',
  wrongPassword: 'Password is incorrect',
  passwordRequired: 'Enter your password to delete your account',
  googleRecheck: 'Sign in with Google again, then delete your account within 10 minutes.',
  /** Told to the traveller before they confirm, and stored with each kept row. */
  ledgerReason:
    'Payment records are kept for 7 years because tax law requires it, and commission still owed stays on the ledger; both are anonymised: they no longer name you.',
} as const;

export async function exportAccountData(deps: AppDeps, claims: AuthClaims): Promise<Record<string, unknown>> {
  const data = await deps.db.asService((tx) => accountDataOf(tx, claims.sub));
  return { exportedAt: new Date().toISOString(), ...data };
}

async function recheckOwner(deps: AppDeps, claims: AuthClaims, input: DeleteAccountInput): Promise<void> {
  const { db, authApi } = deps;
  const withPassword = await db.asService((tx) => hasPassword(tx, claims.sub));
  if (!withPassword) {
    const signedInAt = claims.iat ?? 0;
    if (Date.now() / 1000 - signedInAt > GOOGLE_RECHECK_SECONDS) {
      throw new HttpError(403, DELETION_MESSAGES.googleRecheck);
    }
    return;
  }
  if (!input.password) throw new HttpError(400, DELETION_MESSAGES.passwordRequired);
  const email = (await db.asService((tx) => getSignInEmail(tx, claims.sub))) ?? '';
  const signedIn = await authApi.signInWithPassword(email, input.password);
  if (!signedIn.ok) {
    if (signedIn.status === 429) throw new HttpError(429, 'Too many requests. Please wait a moment and try again.');
    if (signedIn.status >= 500) throw new Error(`Auth refused the password check: ${signedIn.status}`);
    throw new HttpError(400, DELETION_MESSAGES.wrongPassword);
  }
  // the session that check opened is of no use
  await authApi.signOut(signedIn.value.access_token, 'local').catch(() => undefined);
}

export async function deleteOwnAccount(
  deps: AppDeps,
  claims: AuthClaims,
  input: DeleteAccountInput,
): Promise<{ message: string }> {
  await recheckOwner(deps, claims, input);
  const removed = await deps.db.asService(async (tx) => {
    const connection = await deleteConnection(tx, claims.sub);
    await retainLedger(tx, claims.sub, DELETION_MESSAGES.ledgerReason);
    await deleteSignInAccount(tx, claims.sub);
    return connection;
  });
  if (removed) await revokeRemovedGrant(deps, claims.sub, removed);
  deps.log({ level: 'info', msg: 'account deleted', userId: claims.sub });
  return { message: DELETION_MESSAGES.deleted };
}
