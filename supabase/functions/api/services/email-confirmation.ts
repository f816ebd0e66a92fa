// Address confirmation: until an account's owner opens the link mailed to its address, FareBack
// sends that address nothing but the confirmation (no alerts, no reset links), so an account made
// with someone else's address cannot turn FareBack into a relay to them. The confirmation email
// is fixed text: no username or anything else a user wrote, in its subject or body.
// Links: a random 256-bit token, stored only as its SHA-256; single use, CONFIRMATION_LINK_VALID_HOURS.
import { CONFIRM_EMAIL_PATH, CONFIRMATION_LINK_VALID_HOURS } from '../../_shared/constants.ts';
import { randomToken } from '../../_shared/base64url.ts';
import { sha256Hex } from '../../_shared/sha256.ts';
import type { AppDeps } from '../context.ts';
import { HttpError } from '../errors.ts';
import { confirmEmailWithToken, recordConfirmationEmail } from '../queries/email-confirmations.ts';
import type { AccountAddress } from '../queries/profiles.ts';

export const CONFIRMATION_MESSAGES = {
  confirmed: 'Your email address is confirmed. Price-drop alerts will now reach you there.',
  linkInvalid:
    'This confirmation link is invalid or has expired. To get a new one, use "Forgot password?" on the login page with your email address.',
} as const;

export const CONFIRMATION_SUBJECT = 'Confirm your email address for FareBack';

type ConfirmationDeps = Pick<AppDeps, 'db' | 'mailer' | 'config' | 'log'>;

export function hashConfirmationToken(token: string): Promise<string> {
  return sha256Hex(token);
}

export function confirmationEmail(link: string): { subject: string; text: string; html: string } {
  const hours = CONFIRMATION_LINK_VALID_HOURS;
  const text = [
    'Please confirm that this is your email address, so FareBack can send you price-drop alerts here.',
    '',
    `Confirm your address: ${link}`,
    '',
    `The link works once and expires in ${hours} hours. Until the address is confirmed, FareBack sends it nothing but this confirmation. If you asked for a password reset, confirm your address first, then ask again.`,
    '',
    'If you did not create a FareBack account, ignore this email: nothing more will be sent to you.',
    '',
    'FareBack',
  ].join('\n');
  const html = [
    '<p>Please confirm that this is your email address, so FareBack can send you price-drop alerts here.</p>',
    `<p><a href="${link}">Confirm your email address</a></p>`,
    `<p>The link works once and expires in ${hours} hours. Until the address is confirmed, FareBack sends it nothing but this confirmation. If you asked for a password reset, confirm your address first, then ask again.</p>`,
    '<p style="color:#666;font-size:12px">If you did not create a FareBack account, ignore this email: nothing more will be sent to you.</p>',
  ].join('');
  return { subject: CONFIRMATION_SUBJECT, text, html };
}

/**
 * Mails the account a new confirmation link, unless it has had its hourly share; answers whether
 * a mail went out. The link is only recorded here: a failed send throws (and still counts).
 */
export async function sendConfirmationEmail(deps: ConfirmationDeps, account: AccountAddress): Promise<boolean> {
  const token = randomToken(32);
  const tokenHash = await hashConfirmationToken(token);
  const recorded = await deps.db.asService((tx) =>
    recordConfirmationEmail(tx, { userId: account.userId, email: account.email, tokenHash }),
  );
  if (!recorded) {
    deps.log({ level: 'warn', msg: 'confirmation email not sent: hourly limit reached', userId: account.userId });
    return false;
  }
  const link = `${deps.config.siteUrl}${CONFIRM_EMAIL_PATH}?token=${token}`;
  await deps.mailer.send({ to: account.email, ...confirmationEmail(link) });
  return true;
}

/** Spends a link from a confirmation email; a bad, used or expired one is a 400. */
export async function confirmEmail(deps: Pick<AppDeps, 'db'>, token: string): Promise<void> {
  const tokenHash = await hashConfirmationToken(token);
  const confirmed = await deps.db.asService((tx) => confirmEmailWithToken(tx, tokenHash));
  if (!confirmed) throw new HttpError(400, CONFIRMATION_MESSAGES.linkInvalid);
}
