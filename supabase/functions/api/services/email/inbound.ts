// Mail forwarded to a traveller's private address (trips+<token>@INBOUND_EMAIL_DOMAIN), handed
// over by the inbound mail provider (on the local stack: the mail catcher) as the raw message.
// The provider authenticates with the shared INBOUND_EMAIL_SECRET (`Authorization: Bearer`); the
// recipient is the `recipient` query parameter (the envelope's, as providers pass it) or else the
// first forwarding address found in the message's delivery headers (Delivered-To, X-Original-To,
// To, Cc). Anyone who knows an address can send to it, which is why the token is long and
// random and a traveller sees every email read for them (GET /api/email/messages).
import type { InboundEmailResponse } from '../../../_shared/types/email.ts';
import type { AppDeps } from '../../context.ts';
import { HttpError } from '../../errors.ts';
import { sameSecret } from '../../lib/same-secret.ts';
import { queueOverLimitNotice, userByForwardingToken } from '../../queries/email.ts';
import { flightAllowance } from '../../queries/flights.ts';
import { sha256Hex } from './google.ts';
import { importEmail, readEmail } from './importer.ts';

export const INBOUND_MAX_BYTES = 5 * 1024 * 1024;

export const INBOUND_MESSAGES = {
  notConfigured: 'Inbound email is not configured on this server (INBOUND_EMAIL_SECRET is not set)',
  badSecret: 'A valid inbound email secret is required',
  notAMessage: 'The body must be a raw email message (RFC 822)',
  unknownAddress: 'No traveller has this forwarding address',
  imported: 'Email imported',
  alreadyImported: 'This email was already imported',
} as const;

export async function checkInboundSecret(deps: AppDeps, authorization: string | undefined): Promise<void> {
  const secret = deps.config.email.inboundSecret;
  if (!secret) throw new HttpError(503, INBOUND_MESSAGES.notConfigured);
  const match = /^Bearer\s+(.+)$/i.exec((authorization ?? '').trim());
  if (!match?.[1] || !(await sameSecret(match[1], secret))) throw new HttpError(401, INBOUND_MESSAGES.badSecret);
}

/** The forwarding token the message (or the envelope recipient) is addressed to. */
export function forwardingTokenOf(domain: string, headerBlock: string, recipient?: string): string | null {
  const escaped = domain.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`trips\\+([a-z0-9]{12,32})@${escaped}(?![a-z0-9.-])`, 'i');
  for (const text of [recipient ?? '', headerBlock]) {
    const match = pattern.exec(text);
    if (match?.[1]) return match[1].toLowerCase();
  }
  return null;
}

function headerBlock(raw: string): string {
  const end = raw.search(/\r?\n\r?\n/);
  return end === -1 ? raw : raw.slice(0, end);
}

function messageIdOf(headers: string): string | null {
  const match = /^message-id:\s*(<[^>\r\n]{1,290}>|[^\s]{1,290})/im.exec(headers);
  return match?.[1] ?? null;
}

export async function receiveInbound(
  deps: AppDeps,
  raw: Uint8Array,
  recipient: string | undefined,
): Promise<InboundEmailResponse> {
  const domain = deps.config.email.inboundDomain;
  const text = new TextDecoder('latin1').decode(raw);
  const headers = headerBlock(text);
  if (raw.length === 0 || !/^[!-9;-~]+:/m.test(headers)) throw new HttpError(400, INBOUND_MESSAGES.notAMessage);
  const token = domain ? forwardingTokenOf(domain, headers, recipient) : null;
  const userId = token ? await deps.db.asService((tx) => userByForwardingToken(tx, token)) : null;
  if (!userId) throw new HttpError(404, INBOUND_MESSAGES.unknownAddress);

  const messageId = messageIdOf(headers) ?? `sha256:${await sha256Hex(text)}`;
  const email = await readEmail(raw);
  const result = await importEmail(deps.db, { userId, via: 'forwarded', messageId, email });
  if (!result) return { message: INBOUND_MESSAGES.alreadyImported, outcome: 'unchanged', flightIds: [] };
  if (result.counts.notWatched > 0) {
    await deps.db.asService(async (tx) => {
      const { flightLimit, watched } = await flightAllowance(tx, userId);
      await queueOverLimitNotice(
        tx,
        userId,
        { found: result.counts.notWatched, watched, limit: flightLimit },
        `import_over_limit:forwarded:${messageId}`,
      );
    });
  }
  return { message: INBOUND_MESSAGES.imported, outcome: result.outcome, flightIds: result.flightIds };
}
