// Email import: the OAuth configuration, connecting Gmail (and, locally, the sample mailbox),
// the connection's state and scans, the emails read, and the inbound mail provider's calls.
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import {
  importedEmailsQuerySchema,
  manualTokenExchangeSchema,
  oauthExchangeSchema,
} from '../../_shared/schemas/email.ts';
import type { EmailConfigErrorResponse, OAuthExchangeErrorResponse } from '../../_shared/types/email.ts';
import type { AppEnv } from '../context.ts';
import { readJson } from '../lib/body.ts';
import { readQuery } from '../lib/query-string.ts';
import { listImports } from '../queries/email.ts';
import {
  connectDev,
  connectionView,
  disconnect,
  EmailConfigError,
  finishConnect,
  manualTokenExchange,
  oauthCallbackRedirect,
  oauthConfig,
  OAuthExchangeError,
  requestScan,
  startConnect,
} from '../services/email/connection.ts';
import { confirmHeld, dismissHeld, heldBookings, heldId } from '../services/email/held.ts';
import { checkInboundSecret, INBOUND_MAX_BYTES, receiveInbound } from '../services/email/inbound.ts';

/** `GET /api/oauth/config` (signed in). */
export const oauthRouter = new Hono<AppEnv>().get('/config', (c) => c.json(oauthConfig(c.var.deps.config)));

/**
 * `GET /api/oauth2callback`: public (the browser returns from Google without the app's token); it
 * only passes the code and state on to the site's page, which finishes under its session.
 */
export const oauthCallbackRouter = new Hono<AppEnv>().get('/', (c) => {
  const location = oauthCallbackRedirect(c.var.deps.config.siteUrl, {
    code: c.req.query('code'),
    state: c.req.query('state'),
    error: c.req.query('error'),
  });
  c.header('Cache-Control', 'no-store');
  c.header('Referrer-Policy', 'no-referrer');
  return c.redirect(location, 302);
});

/**
 * `POST /api/email/inbound?recipient=`: public, authenticated by the inbound provider's shared
 * secret; answers 202 once the message is kept and queued (services/email/inbound.ts).
 */
export const inboundEmailRouter = new Hono<AppEnv>().post(
  '/',
  async (c, next) => {
    await checkInboundSecret(c.var.deps, c.req.header('Authorization'));
    await next();
  },
  bodyLimit({
    maxSize: INBOUND_MAX_BYTES,
    onError: (c) => c.json({ message: `Email is too large (limit ${INBOUND_MAX_BYTES / 1024 / 1024} MB)` }, 413),
  }),
  async (c) => {
    const raw = new Uint8Array(await c.req.arrayBuffer());
    return c.json(await receiveInbound(c.var.deps, raw, c.req.query('recipient')), 202);
  },
);

export const emailRouter = new Hono<AppEnv>()
  .get('/connect', async (c) => {
    try {
      return c.json(await startConnect(c.var.deps, c.var.claims));
    } catch (error) {
      if (!(error instanceof EmailConfigError)) throw error;
      const body: EmailConfigErrorResponse = { message: error.message, details: error.details };
      return c.json(body, 503);
    }
  })
  .post('/oauth-exchange', async (c) => {
    const input = await readJson(c, oauthExchangeSchema);
    try {
      return c.json(await finishConnect(c.var.deps, c.var.claims, input));
    } catch (error) {
      if (!(error instanceof OAuthExchangeError)) throw error;
      const body: OAuthExchangeErrorResponse = { message: error.message, error: error.code };
      return c.json(body, error.status);
    }
  })
  .post('/manual-token-exchange', async (c) => {
    const { code } = await readJson(c, manualTokenExchangeSchema);
    return c.json(await manualTokenExchange(c.var.deps, c.var.claims, code));
  })
  .get('/connect-dev', async (c) => c.json(await connectDev(c.var.deps, c.var.claims)))
  .post('/disconnect', async (c) => c.json(await disconnect(c.var.deps, c.var.claims)))
  .get('/connection', async (c) => c.json({ connection: await connectionView(c.var.deps, c.var.claims) }))
  .post('/scan', async (c) => c.json(await requestScan(c.var.deps, c.var.claims), 202))
  .get('/held', async (c) => c.json(await heldBookings(c.var.deps, c.var.claims)))
  .post('/held/:id/confirm', async (c) =>
    c.json(await confirmHeld(c.var.deps, c.var.claims, heldId(c.req.param('id')))),
  )
  .post('/held/:id/dismiss', async (c) =>
    c.json(await dismissHeld(c.var.deps, c.var.claims, heldId(c.req.param('id')))),
  )
  .get('/messages', async (c) => {
    const query = readQuery(c, importedEmailsQuerySchema);
    const claims = c.var.claims;
    return c.json(await c.var.deps.db.asUser(claims, (tx) => listImports(tx, claims.sub, query)));
  });
