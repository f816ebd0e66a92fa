// POST /api/contact (spec sections 2, 5, 7 and 8): the public contact form. Mounted before the
// auth middleware: visitors may write. A valid session token, when sent, attaches the message to
// the account; an invalid or expired one is ignored rather than refused, since a stale tab
// should still be able to reach support.
//
// The message is stored and mailed to the support address in one transaction. If the mail
// cannot be sent, the transaction rolls back and the sender gets 503 with the support address
// to write to directly: a message stored but never mailed would go unread (nothing in the
// product lists contact_messages yet), and the sender would believe it had arrived. Holding the
// transaction across the send costs one pooled connection for at most the mailer's timeout.
import { Hono } from 'hono';
import { SUPPORT_RESPONSE_TIME } from '../../_shared/constants.ts';
import { type ContactInput, contactInputSchema } from '../../_shared/schemas/contact.ts';
import type { AppDeps, AppEnv } from '../context.ts';
import type { AuthClaims } from '../db.ts';
import { HttpError } from '../errors.ts';
import { readJson } from '../lib/body.ts';
import { clientIp } from '../lib/client-ip.ts';
import { bearerToken } from '../middleware/auth.ts';
import {
  contactRetryAfterSeconds,
  insertContactMessage,
  lockSender,
  recordContactSubmission,
} from '../queries/contact.ts';

export const CONTACT_SENT_MESSAGE = `Thank you for your message. We will reply within ${SUPPORT_RESPONSE_TIME}.`;

export function tooManyContactMessages(retryAfterSeconds: number): HttpError {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return new HttpError(
    429,
    `You have sent several messages in a short time. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} before sending another.`,
    { 'Retry-After': String(retryAfterSeconds) },
  );
}

export function mailUnavailable(supportEmail: string): HttpError {
  return new HttpError(
    503,
    `We couldn't send your message right now. Please try again in a few minutes, or email us at ${supportEmail}.`,
  );
}

/** The sender's verified claims, or null for a visitor (no token, or one that does not verify). */
async function optionalClaims(deps: AppDeps, header: string | undefined): Promise<AuthClaims | null> {
  const token = bearerToken(header);
  if (!token) return null;
  try {
    return await deps.verifyAccessToken(token);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return null;
  }
}

/** Header values must stay on one line. */
const oneLine = (value: string) => value.replace(/\s*[\r\n]+\s*/g, ' ');

function supportEmailText(input: ContactInput, claims: AuthClaims | null): string {
  return [
    'A new message from the FareBack contact form.',
    '',
    `From: ${oneLine(input.name)} <${input.email}>`,
    `Account: ${claims ? `signed in as ${claims.email ?? 'unknown email'} (user ${claims.sub})` : 'not signed in'}`,
    `Subject: ${oneLine(input.subject)}`,
    '',
    input.message,
    '',
    '-- Reply to this email to answer the sender directly.',
  ].join('\n');
}

export const contactRouter = new Hono<AppEnv>().post('/', async (c) => {
  const deps = c.var.deps;
  const input = await readJson(c, contactInputSchema);
  const claims = await optionalClaims(deps, c.req.header('Authorization'));
  if (claims) c.set('userId', claims.sub);
  const sender = { email: input.email.toLowerCase(), ip: clientIp(c.req.raw.headers, deps.config.trustedProxyHops) };

  await deps.db.asService(async (tx) => {
    await lockSender(tx, sender);
    const retryAfter = await contactRetryAfterSeconds(tx, sender);
    if (retryAfter > 0) throw tooManyContactMessages(retryAfter);
    await recordContactSubmission(tx, sender);
    await insertContactMessage(tx, input, claims);
    try {
      await deps.mailer.send({
        to: deps.config.supportEmail,
        subject: `[FareBack contact] ${oneLine(input.subject)}`,
        text: supportEmailText(input, claims),
        replyTo: input.email,
      });
    } catch (error) {
      deps.log({
        level: 'error',
        msg: 'contact message not mailed; nothing stored',
        requestId: c.get('requestId'),
        error: error instanceof Error ? error.message : String(error),
      });
      throw mailUnavailable(deps.config.supportEmail);
    }
  });

  return c.json({ message: CONTACT_SENT_MESSAGE }, 201);
});
