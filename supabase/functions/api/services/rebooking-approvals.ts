// Approval where the airline bars automation (issue 24; docs/architecture.md "Automatic
// rebooking"). The automatic run never changes a flight whose airline rule says 'approval'
// (private.flight_rebooking_mode: American Airlines, an airline an admin paused, any airline
// without a rule): it emails the owner a link instead. The link carries a token naming the request,
// its flight, its owner and its expiry, signed with HMAC-SHA256 (the unsubscribe links' secret, its
// own purpose), so nobody can make one; the request's row makes it single use and the expiry
// (the quote's) makes it short-lived. The link opens the dashboard, which posts the token to
// `POST /api/flights/{id}/rebook` as the signed-in owner: the same claim and source path as the
// card's button, so a forwarded link is useless to anyone else.
import { fromBase64Url, toBase64Url } from '../../_shared/base64url.ts';
import type { AppDeps } from '../context.ts';
import { HttpError } from '../errors.ts';
import type { BatchFlight } from '../queries/auto-rebooking.ts';
import { findApproval, openApproval, queueApprovalRequest, useApproval } from '../queries/rebooking-approvals.ts';
import { hmacKey, unsubscribeSecret } from './unsubscribe.ts';

/**
 * How long a quote holds: the simulated source prices an itinerary per 6-hour period, so its quote
 * is good until then; the link expires with it.
 */
export const QUOTE_VALID_MS = 6 * 3_600_000;

export const APPROVAL_MESSAGES = {
  invalid: 'This approval link is not valid. Open the flight on your dashboard to rebook it.',
  otherTraveller: 'This approval link was sent to another traveller.',
  used: 'This approval link has already been used.',
  expired: 'This approval link expired with its quote. Check the price again for a new one.',
  fareGone: 'The fare you approved is no longer available, so nothing was changed.',
} as const;

export interface ApprovalClaims {
  approvalId: number;
  flightId: number;
  userId: string;
  expiresAt: number;
}

const PURPOSE = 'rebooking-approval';
const encoder = new TextEncoder();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ID = /^[1-9][0-9]{0,17}$/;

const secretOf = (deps: Pick<AppDeps, 'config'>) => unsubscribeSecret(deps.config);

/** `<approvalId>.<flightId>.<userId>.<expires epoch s>.<signature>`, URL-safe. */
export async function signApprovalToken(secret: string, c: ApprovalClaims): Promise<string> {
  const payload = `${c.approvalId}.${c.flightId}.${c.userId}.${Math.floor(c.expiresAt / 1000)}`;
  const signature = await crypto.subtle.sign('HMAC', await hmacKey(secret, PURPOSE), encoder.encode(payload));
  return `${payload}.${toBase64Url(new Uint8Array(signature))}`;
}

/** The claims of a token this server signed; null for anything else. */
export async function verifyApprovalToken(secret: string, token: string): Promise<ApprovalClaims | null> {
  const parts = token.split('.');
  if (parts.length !== 5) return null;
  const [approvalId, flightId, userId, expires, signature] = parts as [string, string, string, string, string];
  if (!ID.test(approvalId) || !ID.test(flightId) || !UUID.test(userId) || !ID.test(expires)) return null;
  if (!/^[A-Za-z0-9_-]{43}$/.test(signature)) return null;
  const valid = await crypto.subtle.verify(
    'HMAC',
    await hmacKey(secret, PURPOSE),
    fromBase64Url(signature),
    encoder.encode(`${approvalId}.${flightId}.${userId}.${expires}`),
  );
  if (!valid) return null;
  return { approvalId: Number(approvalId), flightId: Number(flightId), userId, expiresAt: Number(expires) * 1000 };
}

/**
 * The run met a qualifying drop it may not change itself: asks the owner, once per flight and fare.
 * Answers whether an email was queued.
 */
export async function requestApproval(deps: Pick<AppDeps, 'db' | 'config'>, f: BatchFlight): Promise<boolean> {
  const checked = f.lastChecked ? Date.parse(f.lastChecked) : Date.now();
  const expiresAt = new Date(checked + QUOTE_VALID_MS);
  if (expiresAt.getTime() <= Date.now()) return false;
  const secret = secretOf(deps);
  return await deps.db.asService(async (tx) => {
    const approval = await openApproval(tx, {
      flightId: f.flightId,
      userId: f.userId,
      fare: f.currentPrice,
      netSavings: f.verdict.netSavings,
      ruleId: f.verdict.rule.id,
      ruleExplanation: f.verdict.rule.explanation,
      expiresAt,
    });
    if (!approval) return false;
    const token = await signApprovalToken(secret, {
      approvalId: approval.id,
      flightId: f.flightId,
      userId: f.userId,
      expiresAt: approval.expiresAt.getTime(),
    });
    await queueApprovalRequest(tx, {
      approval,
      airline: f.airline,
      flightNumber: f.flightNumber,
      departureAirport: f.departureAirport,
      arrivalAirport: f.arrivalAirport,
      oldPrice: f.originalPrice,
      currency: f.currency,
      link: `${deps.config.siteUrl}/dashboard?approve=${encodeURIComponent(token)}`,
    });
    return true;
  });
}

/**
 * Checks an approval link for `POST /api/flights/{id}/rebook` and uses it (once): forged or for
 * another flight 400, another traveller's 403, used 409, expired 410, a fare above the one approved
 * 409; nothing is changed by a refusal. Answers the approval's id, to close it with the outcome.
 */
export async function redeemApproval(
  deps: Pick<AppDeps, 'db' | 'config'>,
  r: { token: string; callerId: string; flightId: number; currentPrice: number | null },
): Promise<number> {
  const claims = await verifyApprovalToken(secretOf(deps), r.token);
  if (!claims || claims.flightId !== r.flightId) throw new HttpError(400, APPROVAL_MESSAGES.invalid);
  if (claims.userId !== r.callerId) throw new HttpError(403, APPROVAL_MESSAGES.otherTraveller);
  const approval = await deps.db.asService((tx) => findApproval(tx, claims.approvalId));
  if (!approval || approval.flightId !== claims.flightId || approval.userId !== claims.userId) {
    throw new HttpError(400, APPROVAL_MESSAGES.invalid);
  }
  if (approval.usedAt) throw new HttpError(409, APPROVAL_MESSAGES.used);
  if (approval.expiresAt.getTime() <= Date.now()) throw new HttpError(410, APPROVAL_MESSAGES.expired);
  if (r.currentPrice === null || r.currentPrice > approval.fare) throw new HttpError(409, APPROVAL_MESSAGES.fareGone);
  const used = await deps.db.asService((tx) => useApproval(tx, approval.id));
  if (!used) throw new HttpError(409, APPROVAL_MESSAGES.used);
  return approval.id;
}
