// The public contact form: a visitor's or traveller's message to FareBack's support address.
//
// Rules: a sender address may send 3 messages and a client address 10 within 10 minutes
// (CONTACT_LIMITS; 429 with Retry-After beyond that). The per-address limit stops one inbox
// being flooded in someone's name; the per-client limit stops one client cycling through made-up
// addresses. Only accepted messages count, so a visitor fixing a validation error is not
// penalised. A message is kept only if it was mailed: it is stored, then mailed,
// in one transaction on the service connection, and a failed send rolls the transaction back and
// answers 503 with the support address to write to directly. A message stored but never mailed
// would go unread (nothing in the product lists contact_messages yet) while its sender believed
// it had arrived. Storing before sending lets the database refuse a row before anyone is mailed;
// holding the transaction across the send costs one pooled connection for at most the mailer's
// timeout, and the sender's lock (taken first) keeps two simultaneous messages from both passing
// the limit.
import { SUPPORT_RESPONSE_TIME } from '../../_shared/constants.ts';
import type { OutgoingEmail } from '../../_shared/mailer/types.ts';
import type { ContactInput, ContactResponse } from '../../_shared/schemas/contact.ts';
import type { AppDeps } from '../context.ts';
import type { AuthClaims } from '../db.ts';
import { HttpError } from '../errors.ts';
import {
  type ContactLimits,
  type ContactSender,
  contactRetryAfterSeconds,
  insertContactMessage,
  lockSender,
  recordContactSubmission,
} from '../queries/contact.ts';

export const CONTACT_LIMITS: ContactLimits = { perAddress: 3, perIp: 10, windowMinutes: 10 };

export const CONTACT_MESSAGES = {
  sent: `Thank you for your message. We will reply within ${SUPPORT_RESPONSE_TIME}.`,
  tooMany: (minutes: number) =>
    `You have sent several messages in a short time. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} before sending another.`,
  mailUnavailable: (supportEmail: string) =>
    `We couldn't send your message right now. Please try again in a few minutes, or email us at ${supportEmail}.`,
} as const;

/** Who is writing: the verified account (null for a visitor) and the client address the proxy saw. */
export interface ContactOrigin {
  claims: AuthClaims | null;
  ip: string | null;
  /** For the log line of a failed send. */
  requestId?: string;
}

function tooManyContactMessages(retryAfterSeconds: number): HttpError {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return new HttpError(429, CONTACT_MESSAGES.tooMany(minutes), { 'Retry-After': String(retryAfterSeconds) });
}

/** Header values must stay on one line. */
const oneLine = (value: string) => value.replace(/\s*[\r\n]+\s*/g, ' ');

/**
 * The email to support. Its subject carries the sender's own subject: the one subject with user
 * text FareBack sends, and only to its own address.
 */
export function supportEmail(to: string, input: ContactInput, claims: AuthClaims | null): OutgoingEmail {
  const account = claims ? `signed in as ${claims.email ?? 'unknown email'} (user ${claims.sub})` : 'not signed in';
  return {
    to,
    subject: `[FareBack contact] ${oneLine(input.subject)}`,
    text: [
      'A new message from the FareBack contact form.',
      '',
      `From: ${oneLine(input.name)} <${input.email}>`,
      `Account: ${account}`,
      `Subject: ${oneLine(input.subject)}`,
      '',
      input.message,
      '',
      '-- Reply to this email to answer the sender directly.',
    ].join('\n'),
    replyTo: input.email,
  };
}

/** Checks the limits, stores the message and mails it to support, or changes nothing. */
export async function sendContactMessage(
  deps: Pick<AppDeps, 'db' | 'mailer' | 'config' | 'log'>,
  input: ContactInput,
  origin: ContactOrigin,
): Promise<ContactResponse> {
  const sender: ContactSender = { email: input.email.toLowerCase(), ip: origin.ip };
  await deps.db.asService(async (tx) => {
    await lockSender(tx, sender);
    const retryAfter = await contactRetryAfterSeconds(tx, sender, CONTACT_LIMITS);
    if (retryAfter > 0) throw tooManyContactMessages(retryAfter);
    await recordContactSubmission(tx, sender);
    await insertContactMessage(tx, input, origin.claims?.sub ?? null);
    try {
      await deps.mailer.send(supportEmail(deps.config.supportEmail, input, origin.claims));
    } catch (error) {
      deps.log({
        level: 'error',
        msg: 'contact message not mailed; nothing stored',
        requestId: origin.requestId,
        error: error instanceof Error ? error.message : String(error),
      });
      throw new HttpError(503, CONTACT_MESSAGES.mailUnavailable(deps.config.supportEmail));
    }
  });
  return { message: CONTACT_MESSAGES.sent };
}
