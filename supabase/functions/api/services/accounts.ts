// Accounts: sign-up, sign-in, sign-out and password recovery. Supabase Auth owns credentials and
// sessions; these functions put the product's rules around it (unique usernames, sign-in by
// username, limiting repeated failures, address confirmation, answers that never reveal whether
// an address exists, neither in what they say nor in how long they take).
// No database transaction is held while Auth is called: against PGlite, Auth shares the one
// database session, so it must never wait behind an open transaction of ours.
import * as jose from 'jose';
import { AFTER_LOGIN_PATH, RESET_PASSWORD_PATH } from '../../_shared/constants.ts';
import type { ForgotPasswordInput, LoginInput, RegisterInput, ResetPasswordInput } from '../../_shared/schemas/auth.ts';
import type { AuthResponse, AuthSession } from '../../_shared/types/auth.ts';
import type { CurrentUser } from '../../_shared/types/user.ts';
import { sha256Hex } from '../../_shared/sha256.ts';
import type { AppDeps } from '../context.ts';
import type { AuthClaims } from '../db.ts';
import { HttpError } from '../errors.ts';
import type { AuthFailure } from '../lib/auth-api.ts';
import { AuthUnavailableError } from '../lib/auth-api.ts';
import { runAfterResponse } from '../lib/after-response.ts';
import { checkUnknownAccountPassword } from '../lib/password-check.ts';
import { markEmailConfirmed } from '../queries/email-confirmations.ts';
import { loginDelayMs, loginThrottle, recordLoginAttempt } from '../queries/login-attempts.ts';
import {
  deleteAccount,
  findAccountByEmail,
  findLoginEmail,
  findTakenIdentity,
  getCurrentUser,
  getUsername,
} from '../queries/profiles.ts';
import { sendConfirmationEmail } from './email-confirmation.ts';

export const MESSAGES = {
  usernameTaken: 'Username is already taken',
  emailTaken: 'An account with this email already exists',
  invalidCredentials: 'Invalid username or password',
  loggedOut: 'Logged out',
  // An unconfirmed address is sent its confirmation link instead of a reset link; the answer says
  // so without telling whether the address has an account, or whether it is confirmed.
  forgotPassword:
    'If an account exists for that email, you will receive a link shortly: a password reset link, or, if the address has not been confirmed yet, a confirmation link to open first.',
  passwordReset: 'Password has been reset',
  resetLinkInvalid: 'This password reset link is invalid or has expired. Please request a new one.',
  samePassword: 'New password must be different from your current password',
  authRateLimited: 'Too many requests. Please wait a moment and try again.',
} as const;

export function tooManyLoginAttempts(retryAfterSeconds: number): HttpError {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return new HttpError(
    429,
    `Too many failed login attempts. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`,
    { 'Retry-After': String(retryAfterSeconds) },
  );
}

/** An Auth refusal we have no better wording for: its own 4xx message, or a 502 for its failures. */
function unexpectedAuthFailure(failure: AuthFailure, during: string): Error {
  if (failure.status === 429) return new HttpError(429, MESSAGES.authRateLimited);
  return new Error(`Auth refused ${during}: ${failure.status} ${failure.code} ${failure.message}`);
}

/** Claims of an access token Auth has just issued to us over the server-side channel. */
function sessionClaims(session: AuthSession): AuthClaims {
  return jose.decodeJwt(session.access_token) as AuthClaims;
}

async function loadUser(deps: AppDeps, session: AuthSession): Promise<CurrentUser> {
  const claims = sessionClaims(session);
  const user = await deps.db.asUser(claims, (tx) => getCurrentUser(tx, claims.email));
  if (!user) throw new Error(`No profile for user ${claims.sub}`);
  return user;
}

function throwIfTaken(taken: { usernameTaken: boolean; emailTaken: boolean }): void {
  if (taken.usernameTaken) throw new HttpError(409, MESSAGES.usernameTaken);
  if (taken.emailTaken) throw new HttpError(409, MESSAGES.emailTaken);
}

export async function registerAccount(deps: AppDeps, input: RegisterInput): Promise<AuthResponse> {
  const { db, authApi } = deps;
  throwIfTaken(await db.asService((tx) => findTakenIdentity(tx, input)));

  const created = await authApi.createUser(input);
  if (!created.ok) {
    // Someone may have taken the username or email between our check and Auth's insert.
    throwIfTaken(await db.asService((tx) => findTakenIdentity(tx, input)));
    if (created.code === 'weak_password') throw new HttpError(400, created.message);
    if (created.code === 'email_exists' || created.code === 'user_already_exists') {
      throw new HttpError(409, MESSAGES.emailTaken);
    }
    throw unexpectedAuthFailure(created, 'sign-up');
  }

  const userId = created.value.id;
  const username = await db.asService((tx) => getUsername(tx, userId));
  if (username?.toLowerCase() !== input.username.toLowerCase()) {
    // The profile trigger gave the account another name: a concurrent sign-up won this username.
    await db.asService((tx) => deleteAccount(tx, userId));
    if (username === null) throw new Error(`Sign-up created no profile for user ${userId}`);
    throw new HttpError(409, MESSAGES.usernameTaken);
  }

  const signedIn = await authApi.signInWithPassword(created.value.email, input.password);
  if (!signedIn.ok) throw unexpectedAuthFailure(signedIn, 'sign-in after sign-up');
  const user = await loadUser(deps, signedIn.value);
  // Auth counts the address as confirmed (or it could not sign the new account in); FareBack does
  // not until the owner opens the link, and mails it nothing else meanwhile.
  runAfterResponse(deps.log, 'confirmation email after sign-up', () =>
    sendConfirmationEmail(deps, { userId, email: user.email, emailConfirmed: false }),
  );
  return { user, session: signedIn.value };
}

/**
 * The address Auth is asked about for a login naming no account: under `.invalid`, which no
 * mailbox can have, and derived from the identifier, so retries of one name count as one account.
 */
export async function unknownAccountAddress(identifier: string): Promise<string> {
  const hex = (await sha256Hex(identifier)).slice(0, 24);
  return `no-account-${hex}@fareback.invalid`;
}

/** What logIn waits with and checks an unknown account's password with; tests replace them. */
export interface LoginHooks {
  sleep(ms: number): Promise<void>;
  checkUnknownAccountPassword(password: string): Promise<unknown>;
}

const loginHooks: LoginHooks = {
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  checkUnknownAccountPassword,
};

export async function logIn(
  deps: AppDeps,
  input: LoginInput,
  ip: string | null,
  hooks: LoginHooks = loginHooks,
): Promise<AuthResponse> {
  const { db, authApi } = deps;
  const { email, account, throttle } = await db.asService(async (tx) => {
    const email = await findLoginEmail(tx, input.username);
    const account = (email ?? input.username).toLowerCase();
    return { email, account, throttle: await loginThrottle(tx, { ip, account }) };
  });
  // Checked before the password, so a refused address cannot probe further.
  if (throttle.retryAfterSeconds > 0) throw tooManyLoginAttempts(throttle.retryAfterSeconds);
  // An account failing from many addresses is slowed, never locked: the owner still gets in.
  const delay = loginDelayMs(throttle.accountFailures);
  if (delay > 0) await hooks.sleep(delay);

  // An unknown account takes the path a known one takes, so the time a failure takes does not
  // tell whether the account exists: Auth is asked for an address no account has (one per
  // identifier, so Auth's per-account limits behave as for a real one), and the password is
  // compared against a bcrypt hash here at the same time, since Supabase Auth answers an unknown
  // address without comparing anything (the local auth server compares a dummy hash itself).
  const signedIn =
    email === null
      ? await Promise.all([
          authApi.signInWithPassword(await unknownAccountAddress(account), input.password, ip),
          hooks.checkUnknownAccountPassword(input.password),
        ]).then(([answer]) => (answer.ok ? null : answer))
      : await authApi.signInWithPassword(email, input.password, ip);
  if (signedIn !== null && !signedIn.ok && (signedIn.status === 429 || signedIn.status >= 500)) {
    throw unexpectedAuthFailure(signedIn, 'sign-in');
  }
  if (signedIn === null || !signedIn.ok) {
    await db.asService((tx) => recordLoginAttempt(tx, { ip, account, succeeded: false }));
    throw new HttpError(401, MESSAGES.invalidCredentials);
  }
  await db.asService((tx) => recordLoginAttempt(tx, { ip, account, succeeded: true }));
  return { user: await loadUser(deps, signedIn.value), session: signedIn.value };
}

/** Revokes the session the token belongs to; without one, or when it is already gone, nothing to do. */
export async function logOut(deps: AppDeps, accessToken: string | null): Promise<void> {
  if (!accessToken) return;
  try {
    const result = await deps.authApi.signOut(accessToken, 'local');
    if (!result.ok && result.status >= 500) {
      deps.log({ level: 'warn', msg: 'logout failed at Auth', status: result.status, code: result.code });
    }
  } catch (error) {
    deps.log({ level: 'warn', msg: 'logout failed at Auth', error: String(error) });
  }
}

/**
 * Answers at once and mails afterwards (runAfterResponse): the caller always gets the same answer
 * in the same time, so whether an address has an account cannot be learnt here. An account whose
 * address is not confirmed is sent the confirmation link instead of a reset link: FareBack mails
 * an unconfirmed address nothing else. Failures, Auth's rate limits included, are logged only.
 */
export function requestPasswordReset(deps: AppDeps, input: ForgotPasswordInput): void {
  runAfterResponse(deps.log, 'password recovery', () => sendRecoveryEmail(deps, input.email));
}

async function sendRecoveryEmail(deps: AppDeps, email: string): Promise<void> {
  const account = await deps.db.asService((tx) => findAccountByEmail(tx, email));
  if (!account) return;
  if (!account.emailConfirmed) {
    await sendConfirmationEmail(deps, account);
    return;
  }
  const result = await deps.authApi.recover(account.email, deps.config.siteUrl + RESET_PASSWORD_PATH);
  if (!result.ok) {
    deps.log({ level: 'warn', msg: 'password recovery refused by Auth', status: result.status, code: result.code });
  }
}

export async function resetPassword(deps: AppDeps, input: ResetPasswordInput): Promise<void> {
  const { authApi } = deps;
  const verified = await authApi.verifyRecovery(input.token);
  if (!verified.ok) {
    if (verified.status === 429 || verified.status >= 500) throw unexpectedAuthFailure(verified, 'recovery');
    throw new HttpError(400, MESSAGES.resetLinkInvalid);
  }
  const accessToken = verified.value.access_token;
  const updated = await authApi.updatePassword(accessToken, input.password);
  if (!updated.ok) {
    if (updated.code === 'same_password') throw new HttpError(400, MESSAGES.samePassword);
    if (updated.code === 'weak_password') throw new HttpError(400, updated.message);
    if (updated.status === 401 || updated.status === 403) throw new HttpError(400, MESSAGES.resetLinkInvalid);
    throw unexpectedAuthFailure(updated, 'password update');
  }
  // The reset link reached this inbox, which proves the address as the confirmation link does.
  const claims = sessionClaims(verified.value);
  if (claims.email) {
    const owner = { userId: claims.sub, email: claims.email };
    // the password is already changed: a failure here must not answer as if it were not
    await deps.db
      .asService((tx) => markEmailConfirmed(tx, owner))
      .catch((error: unknown) =>
        deps.log({
          level: 'error',
          msg: 'address not confirmed after reset',
          userId: owner.userId,
          error: String(error),
        }),
      );
  }
  // A reset means the old password may be known to someone else: end every session of the account.
  try {
    await authApi.signOut(accessToken, 'global');
  } catch (error) {
    if (!(error instanceof AuthUnavailableError)) throw error;
  }
}

export function googleSignInUrl(deps: AppDeps): string {
  const { supabasePublicUrl, siteUrl } = deps.config;
  return `${supabasePublicUrl}/auth/v1/authorize?provider=google&redirect_to=${encodeURIComponent(siteUrl + AFTER_LOGIN_PATH)}`;
}
