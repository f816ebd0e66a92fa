// POST /api/contact: the public contact form. Mounted before the auth middleware: visitors may
// write. A valid session token, when sent, attaches the message to the account; an invalid or
// expired one is ignored rather than refused, since a stale tab should still be able to reach
// support. The limits, the store-and-mail order and the answers are the service's.
import { Hono } from 'hono';
import { contactInputSchema } from '../../_shared/schemas/contact.ts';
import type { AppDeps, AppEnv } from '../context.ts';
import type { AuthClaims } from '../db.ts';
import { HttpError } from '../errors.ts';
import { readJson } from '../lib/body.ts';
import { clientIp } from '../lib/client-ip.ts';
import { bearerToken } from '../middleware/auth.ts';
import { sendContactMessage } from '../services/contact.ts';

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

export const contactRouter = new Hono<AppEnv>().post('/', async (c) => {
  const deps = c.var.deps;
  const input = await readJson(c, contactInputSchema);
  const claims = await optionalClaims(deps, c.req.header('Authorization'));
  if (claims) c.set('userId', claims.sub);
  const ip = clientIp(c.req.raw.headers, deps.config.trustedProxyHops);
  return c.json(await sendContactMessage(deps, input, { claims, ip, requestId: c.get('requestId') }), 201);
});
