// The Account Settings page's 'Update Email' and 'Change Password', through Supabase Auth.
// - Email: Auth mails a confirmation link to the new address (PUT /auth/v1/user {email}; the
//   email_change template points at /account?email_change_token=...); the address changes only
//   when that link is spent (POST /api/auth/confirm-email-change), and the profile follows
//   auth.users through the email trigger. Only the new address is asked (config.toml:
//   double_confirm_changes = false): the request itself needs the signed-in session.
// - Password: the current password is checked by signing in with it (Auth's own limits apply,
//   and the api's login throttle counts a wrong one), and that fresh session sets the new one,
//   which satisfies secure_password_change and ends every other session of the account, the
//   browser's included: the caller is handed the fresh session to carry on with.
import type { ChangeEmailInput, ChangePasswordInput } from '../../_shared/schemas/auth.ts';
import type { AuthSession } from '../../_shared/types/auth.ts';
import * as jose from 'jose';
import type { AppDeps } from '../context.ts';
import type { AuthClaims } from '../db.ts';
import { HttpError } from '../errors.ts';
import type { AuthFailure } from '../lib/auth-api.ts';
import { markEmailConfirmed } from '../queries/email-confirmations.ts';
import { loginThrottle, recordLoginAttempt } from '../queries/login-attempts.ts';
import { findTakenIdentity, getSignInEmail } from '../queries/profiles.ts';
import { MESSAGES, tooManyLoginAttempts } from './accounts.ts';

export const ACCOUNT_MESSAGES = {
  sameEmail: 'That is already your email address',
  emailChangeSent: (email: string) =>
    `We sent a confirmation link to ${email}. Your email address changes when you open it.`,
  emailChanged: 'Your email address has been updated.',
  emailChangeLinkInvalid: 'This email change link is invalid or has expired. Please ask for a new one.',
  wrongPassword: 'Current password is incorrect',
  passwordChanged: 'Your password has been changed.',
} as const;

function authRefusal(failure: AuthFailure, during: string): Error {
  if (failure.status === 429) return new HttpError(429, MESSAGES.authRateLimited);
  return new Error(`Auth refused ${during}: ${failure.status} ${failure.code} ${failure.message}`);
}

export async function requestEmailChange(
  deps: AppDeps,
  { claims, accessToken }: { claims: AuthClaims; accessToken: string },
  input: ChangeEmailInput,
): Promise<{ message: string }> {
  const current = await deps.db.asService((tx) => getSignInEmail(tx, claims.sub));
  if (input.email.toLowerCase() === (current ?? '').toLowerCase()) {
    throw new HttpError(400, ACCOUNT_MESSAGES.sameEmail);
  }
  const taken = await deps.db.asService((tx) => findTakenIdentity(tx, { username: '', email: input.email }));
  if (taken.emailTaken) throw new HttpError(409, MESSAGES.emailTaken);
  const result = await deps.authApi.requestEmailChange(accessToken, input.email);
  if (!result.ok) {
    if (result.code === 'email_exists') throw new HttpError(409, MESSAGES.emailTaken);
    if (result.status === 422 || result.status === 400) throw new HttpError(400, result.message);
    throw authRefusal(result, 'email change');
  }
  return { message: ACCOUNT_MESSAGES.emailChangeSent(input.email) };
}

export async function confirmEmailChange(deps: AppDeps, token: string): Promise<{ message: string }> {
  const verified = await deps.authApi.verifyEmailChange(token);
  if (!verified.ok) {
    if (verified.status === 429 || verified.status >= 500) throw authRefusal(verified, 'email change link');
    throw new HttpError(400, ACCOUNT_MESSAGES.emailChangeLinkInvalid);
  }
  const claims = jose.decodeJwt(verified.value.access_token) as AuthClaims;
  // The link reached the new inbox: that address is proved, as a confirmation link would.
  if (claims.email) {
    const owner = { userId: claims.sub, email: claims.email };
    await deps.db.asService((tx) => markEmailConfirmed(tx, owner));
  }
  // The session Auth issues with the link is not needed: the browser keeps its own.
  await deps.authApi.signOut(verified.value.access_token, 'local');
  return { message: ACCOUNT_MESSAGES.emailChanged };
}

export async function changePassword(
  deps: AppDeps,
  { claims, ip }: { claims: AuthClaims; ip: string | null },
  input: ChangePasswordInput,
): Promise<{ message: string; session: AuthSession }> {
  const { db, authApi } = deps;
  const email = (await db.asService((tx) => getSignInEmail(tx, claims.sub))) ?? '';
  const account = email.toLowerCase();
  const throttle = await db.asService((tx) => loginThrottle(tx, { ip, account }));
  if (throttle.retryAfterSeconds > 0) throw tooManyLoginAttempts(throttle.retryAfterSeconds);

  const signedIn = await authApi.signInWithPassword(email, input.currentPassword, ip);
  if (!signedIn.ok) {
    if (signedIn.status === 429 || signedIn.status >= 500) throw authRefusal(signedIn, 'password check');
    await db.asService((tx) => recordLoginAttempt(tx, { ip, account, succeeded: false }));
    throw new HttpError(400, ACCOUNT_MESSAGES.wrongPassword);
  }
  const session = signedIn.value;
  const updated = await authApi.updatePassword(session.access_token, input.newPassword);
  if (!updated.ok) {
    // the fresh session is of no use now
    await authApi.signOut(session.access_token, 'local').catch(() => undefined);
    if (updated.code === 'same_password') throw new HttpError(400, MESSAGES.samePassword);
    if (updated.code === 'weak_password' || updated.code === 'validation_failed') {
      throw new HttpError(400, updated.message);
    }
    throw authRefusal(updated, 'password change');
  }
  return { message: ACCOUNT_MESSAGES.passwordChanged, session };
}
