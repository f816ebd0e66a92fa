// The one-click unsubscribe link of every notification email (services/unsubscribe.ts). Public:
// mounted before the auth middleware, since the signed token is the authority. GET says what the
// link turns off and changes nothing (mail scanners follow links); POST turns it off: the web
// page's button, and a mail client's RFC 8058 one-click POST (body List-Unsubscribe=One-Click,
// the token in the URL of the List-Unsubscribe header). Doing it twice answers the same.
import { Hono } from 'hono';
import {
  UNSUBSCRIBE_INVALID_LINK,
  UNSUBSCRIBE_KIND_DESCRIPTIONS,
  type UnsubscribeInfo,
  type UnsubscribeResponse,
  unsubscribedMessage,
} from '../../_shared/types/unsubscribe.ts';
import type { AppEnv } from '../context.ts';
import { HttpError } from '../errors.ts';
import { unsubscribeKind } from '../queries/notifications.ts';
import { unsubscribeSecret, type UnsubscribeClaims, verifyUnsubscribeToken } from '../services/unsubscribe.ts';

const describe = (kind: string) => UNSUBSCRIBE_KIND_DESCRIPTIONS[kind] ?? `"${kind.replaceAll('_', ' ')}" emails`;

async function claimsOf(c: {
  req: { query(name: string): string | undefined };
  var: AppEnv['Variables'];
}): Promise<UnsubscribeClaims> {
  const token = c.req.query('token') ?? '';
  const claims = token.length <= 200 ? await verifyUnsubscribeToken(unsubscribeSecret(c.var.deps.config), token) : null;
  if (!claims) throw new HttpError(400, UNSUBSCRIBE_INVALID_LINK);
  return claims;
}

export const unsubscribeRouter = new Hono<AppEnv>()
  .get('/', async (c) => {
    const claims = await claimsOf(c);
    return c.json<UnsubscribeInfo>({ kind: claims.kind, description: describe(claims.kind) });
  })
  .post('/', async (c) => {
    const claims = await claimsOf(c);
    const done = await c.var.deps.db.asService((tx) => unsubscribeKind(tx, claims.userId, claims.kind));
    // a deleted account, or a kind that has no switch (never signed): nothing to turn off
    if (!done) throw new HttpError(400, UNSUBSCRIBE_INVALID_LINK);
    c.var.deps.log({ level: 'info', msg: 'unsubscribed by link', userId: claims.userId, kind: claims.kind });
    return c.json<UnsubscribeResponse>({ message: unsubscribedMessage(describe(claims.kind)) });
  });
