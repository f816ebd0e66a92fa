// Mail forwarded to a traveller's private address (trips+<token>@INBOUND_EMAIL_DOMAIN), handed
// over by the inbound mail provider (on the local stack: the mail catcher) as the raw message.
// The provider authenticates with the shared INBOUND_EMAIL_SECRET (`Authorization: Bearer`) and
// names the envelope recipient in the `recipient` query parameter: the message is routed by that
// alone, never by its headers (From, To, Delivered-To are whatever the sender wrote). Anyone who
// knows an address can send to it, which is why the token is long and random and a traveller
// sees every email read for them (GET /api/email/messages).
//
// Reading an email is heavy (MIME, HTML, the extractor), so the request only checks the message,
// keeps it (private.inbound_emails) and queues a job (kind 'email_inbound'); it answers 202 at
// once, and the job worker reads the message after the answer (kickInbound), or at the
// scheduler's next call. The extractor's own budget (extraction/budget.ts) bounds that reading
// and yields to other requests between its stages, so one email never holds the api.
import type { InboundEmailResponse } from '../../../_shared/types/email.ts';
import type { AppDeps } from '../../context.ts';
import { HttpError } from '../../errors.ts';
import { runAfterResponse } from '../../lib/after-response.ts';
import { sameSecret } from '../../lib/same-secret.ts';
import { queueOverLimitNotice, userByForwardingToken } from '../../queries/email.ts';
import { flightAllowance } from '../../queries/flights.ts';
import {
  deleteInboundEmail,
  inboundEmail,
  INBOUND_EMAIL_KIND,
  INBOUND_MAX_WAITING,
  storeInboundEmail,
} from '../../queries/inbound-email.ts';
import { sha256Hex } from '../../lib/sha256.ts';
import { type JobHandler, runDueJobs } from '../job-runner.ts';
import { importEmail, readEmail } from './importer.ts';

export const INBOUND_MAX_BYTES = 5 * 1024 * 1024;

export const INBOUND_MESSAGES = {
  notConfigured: 'Inbound email is not configured on this server (INBOUND_EMAIL_SECRET is not set)',
  badSecret: 'A valid inbound email secret is required',
  notAMessage: 'The body must be a raw email message (RFC 822)',
  noRecipient: 'The envelope recipient is required: pass it as the recipient query parameter',
  unknownAddress: 'No traveller has this forwarding address',
  queued: 'Email received: it will be read shortly',
  alreadyWaiting: 'This email is already waiting to be read',
  tooManyWaiting: `${INBOUND_MAX_WAITING} emails are already waiting to be read for this address; send this one again later`,
} as const;

export async function checkInboundSecret(deps: AppDeps, authorization: string | undefined): Promise<void> {
  const secret = deps.config.email.inboundSecret;
  if (!secret) throw new HttpError(503, INBOUND_MESSAGES.notConfigured);
  const match = /^Bearer\s+(.+)$/i.exec((authorization ?? '').trim());
  if (!match?.[1] || !(await sameSecret(match[1], secret))) throw new HttpError(401, INBOUND_MESSAGES.badSecret);
}

/** The forwarding token of the envelope recipient, when it is one of this server's addresses. */
export function forwardingTokenOf(domain: string, recipient: string): string | null {
  const escaped = domain.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`^\\s*<?trips\\+([a-z0-9]{12,32})@${escaped}>?\\s*$`, 'i');
  return pattern.exec(recipient)?.[1]?.toLowerCase() ?? null;
}

function headerBlock(raw: string): string {
  const end = raw.search(/\r?\n\r?\n/);
  return end === -1 ? raw : raw.slice(0, end);
}

/**
 * The Message-ID, when it is printable ASCII (RFC 5322 3.6.4): any other byte (a NUL, which
 * PostgreSQL text cannot hold, or a byte over 0x7f) falls back to the message's hash.
 */
function messageIdOf(headers: string): string | null {
  const match = /^message-id:[ \t]*(<[^>\r\n]{1,290}>|[^\s]{1,290})/im.exec(headers);
  const id = match?.[1];
  return id && /^[\x20-\x7e]+$/.test(id) ? id : null;
}

/**
 * Checks the message and its envelope recipient, keeps it and queues its reading: nothing is
 * parsed here beyond the header block.
 */
export async function receiveInbound(
  deps: AppDeps,
  raw: Uint8Array,
  recipient: string | undefined,
): Promise<InboundEmailResponse> {
  if (!recipient?.trim()) throw new HttpError(400, INBOUND_MESSAGES.noRecipient);
  const domain = deps.config.email.inboundDomain;
  const text = new TextDecoder('latin1').decode(raw);
  const headers = headerBlock(text);
  if (raw.length === 0 || !/^[!-9;-~]+:/m.test(headers)) throw new HttpError(400, INBOUND_MESSAGES.notAMessage);
  const token = domain ? forwardingTokenOf(domain, recipient) : null;
  const userId = token ? await deps.db.asService((tx) => userByForwardingToken(tx, token)) : null;
  if (!userId) throw new HttpError(404, INBOUND_MESSAGES.unknownAddress);

  const messageId = messageIdOf(headers) ?? `sha256:${await sha256Hex(text)}`;
  const stored = await deps.db.asService((tx) => storeInboundEmail(tx, { userId, messageId, raw }));
  if (!stored.stored && stored.reason === 'no_traveller') throw new HttpError(404, INBOUND_MESSAGES.unknownAddress);
  if (!stored.stored && stored.reason === 'too_many_waiting') throw new HttpError(429, INBOUND_MESSAGES.tooManyWaiting);
  kickInbound(deps);
  return stored.stored
    ? { message: INBOUND_MESSAGES.queued, queued: true }
    : { message: INBOUND_MESSAGES.alreadyWaiting, queued: false };
}

/**
 * Job 'email_inbound': reads one kept message and imports it, then deletes it. The import commits
 * first (it claims the message once per traveller), so a run that loses its claim and runs again
 * finds it imported and only deletes the message.
 */
export const inboundEmailHandler: JobHandler<{ inboundId: number }> = {
  kind: INBOUND_EMAIL_KIND,
  leaseSeconds: 120,
  async run(job, ctx) {
    const { deps } = ctx;
    const { inboundId } = job.payload;
    const message = await deps.db.asService((tx) => inboundEmail(tx, inboundId));
    if (!message) return await ctx.finish(); // read already
    const { userId, messageId } = message;
    const email = await readEmail(message.raw);
    const result = await importEmail(deps.db, { userId, via: 'forwarded', messageId, email });
    await ctx.finish(async (tx) => {
      if (result && result.counts.notWatched > 0) {
        const { flightLimit, watched } = await flightAllowance(tx, userId);
        await queueOverLimitNotice(
          tx,
          userId,
          { found: result.counts.notWatched, watched, limit: flightLimit },
          `import_over_limit:forwarded:${messageId}`,
        );
      }
      await deleteInboundEmail(tx, inboundId);
      return { outcome: result?.outcome ?? 'already_imported' };
    });
  },
};

/** Reads the queued forwarded emails now, after the answer is sent, rather than at the scheduler's next call. */
export function kickInbound(deps: AppDeps): void {
  runAfterResponse(deps.log, 'inbound email', () =>
    runDueJobs(deps, [inboundEmailHandler as JobHandler<never>], { kinds: [INBOUND_EMAIL_KIND], budgetMs: 45_000 }),
  );
}
