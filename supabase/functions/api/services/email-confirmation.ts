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
import { type EmailContext, layout, p, type RenderedEmail, renderBoth } from './notification-templates/layout.ts';

export const CONFIRMATION_MESSAGES = {
  confirmed: 'Your email address is confirmed. Price-drop alerts will now reach you there.',
  linkInvalid:
    'This confirmation link is invalid or has expired. To get a new one, use "Forgot password?" on the login page with your email address.',
  resent: 'Confirmation email sent. Open the link in it to start receiving alerts.',
  alreadyConfirmed: 'Your email address is already confirmed.',
  resendLimited: 'A confirmation email was sent recently. Please check your inbox, or try again in an hour.',
} as const;

export const CONFIRMATION_SUBJECT = 'Confirm your email address for FareBack';

type ConfirmationDeps = Pick<AppDeps, 'db' | 'mailer' | 'config' | 'log'>;

export function hashConfirmationToken(token: string): Promise<string> {
  return sha256Hex(token);
}

/**
 * Rendered with the notification emails' layout (React Email: the same frame, button and footer),
 * with no greeting: the email carries nothing a user wrote.
 */
export async function confirmationEmail(
  link: string,
  ctx: Pick<EmailContext, 'siteUrl' | 'supportEmail'>,
): Promise<RenderedEmail> {
  const hours = CONFIRMATION_LINK_VALID_HOURS;
  const tree = layout(
    {
      heading: 'Confirm your email address',
      lines: [
        p('Please confirm that this is your email address, so FareBack can send you price-drop alerts here.'),
        p(
          `The link works once and expires in ${hours} hours. Until the address is confirmed, FareBack sends it nothing but this confirmation. If you asked for a password reset, confirm your address first, then ask again.`,
        ),
        p('If you did not create a FareBack account, ignore this email: nothing more will be sent to you.'),
      ],
      action: { label: 'Confirm your email address', href: link },
    },
    { ...ctx, username: null, unsubscribeUrl: null, kind: null },
  );
  return { subject: CONFIRMATION_SUBJECT, ...(await renderBoth(tree)) };
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
  const { siteUrl, supportEmail } = deps.config;
  await deps.mailer.send({ to: account.email, ...(await confirmationEmail(link, { siteUrl, supportEmail })) });
  return true;
}

/** Spends a link from a confirmation email; a bad, used or expired one is a 400. */
export async function confirmEmail(deps: Pick<AppDeps, 'db'>, token: string): Promise<void> {
  const tokenHash = await hashConfirmationToken(token);
  const confirmed = await deps.db.asService((tx) => confirmEmailWithToken(tx, tokenHash));
  if (!confirmed) throw new HttpError(400, CONFIRMATION_MESSAGES.linkInvalid);
}

/** 'Resend confirmation' from the signed-in notice: a 429 once the address has had its hourly share. */
export async function resendConfirmation(deps: ConfirmationDeps, account: AccountAddress): Promise<string> {
  if (account.emailConfirmed) return CONFIRMATION_MESSAGES.alreadyConfirmed;
  const sent = await sendConfirmationEmail(deps, account);
  if (!sent) throw new HttpError(429, CONFIRMATION_MESSAGES.resendLimited);
  return CONFIRMATION_MESSAGES.resent;
}
