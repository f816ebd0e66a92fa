// The `api` edge function: one Hono app under /api (Supabase hands the function its own name as
// the first path segment). Request id, one JSON log line per request, CORS for the web origin,
// a body size cap, the refusal of NUL characters and one error handler apply to every route;
// public routes are mounted before the auth middleware, protected ones after it.
import { Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { HTTPException } from 'hono/http-exception';
import { requestId } from 'hono/request-id';
import { z } from 'zod';
import { createFareSource } from '../_shared/fare-source/index.ts';
import {
  BookingNotChangeableError,
  BookingNotFoundError,
  FareNoLongerAvailableError,
  FareSourceError,
  FlightCancelledError,
  FareSourceUnavailableError,
} from '../_shared/fare-source/types.ts';
import { createMailer } from '../_shared/mailer/index.ts';
import { createPayments } from '../_shared/payments/index.ts';
import { type Env, loadConfig } from './config.ts';
import type { AppDeps, AppEnv, Logger } from './context.ts';
import { createDb } from './db.ts';
import { fieldErrors, FieldValidationError, HttpError, validationMessage } from './errors.ts';
import { AuthUnavailableError, createAuthApi } from './lib/auth-api.ts';
import { INVALID_JSON_MESSAGE } from './lib/body.ts';
import { startUsage } from './lib/resource-usage.ts';
import { createTokenVerifier, requireAuth, withSessionCheck, withVerifiedTokenCache } from './middleware/auth.ts';
import { refuseNul } from './middleware/refuse-nul.ts';
import { localIntentStore } from './queries/billing.ts';
import { sessionIsActive } from './queries/sessions.ts';
import { accountRouter } from './routes/account.ts';
import { authRouter, publicAuthRouter } from './routes/auth.ts';
import { adminRouter } from './routes/admin.ts';
import { autoRebookingRunsRouter } from './routes/auto-rebooking-runs.ts';
import { contactRouter } from './routes/contact.ts';
import { dashboardRouter } from './routes/dashboard.ts';
import { emailRouter, inboundEmailRouter, oauthCallbackRouter, oauthRouter } from './routes/email.ts';
import { flightsRouter } from './routes/flights.ts';
import { airlinesRouter, airportsRouter } from './routes/airlines.ts';
import { healthRouter } from './routes/health.ts';
import { internalRouter } from './routes/internal.ts';
import { settingsRouter } from './routes/settings.ts';
import { billingRouter, publicStripeRouter, stripeRouter, subscriptionRouter } from './routes/billing.ts';
import { onboardingRouter } from './routes/onboarding.ts';
import { publicSubscriptionRouter } from './routes/subscription.ts';
import { unsubscribeRouter } from './routes/unsubscribe.ts';

export const MAX_BODY_BYTES = 64 * 1024;
/**
 * Stripe's webhook events carry the whole object (an invoice with its lines, a subscription with
 * its items, metadata), and Stripe publishes no maximum size; integrations that capped them at
 * 16 to 52 KB refused real events (mozilla/fxa#8861, fixed at 1 MB in mozilla/fxa#8873). The
 * webhook takes up to 1 MB: room for Stripe's largest events, still a bound on hostile bodies
 * (which are refused before the signature is computed).
 */
export const MAX_WEBHOOK_BODY_BYTES = 1024 * 1024;

export const jsonLogger: Logger = (entry) => {
  const line = JSON.stringify({ time: new Date().toISOString(), ...entry });
  if (entry.level === 'error') console.error(line);
  else console.log(line);
};

export interface CreateAppOptions extends Partial<AppDeps> {
  /** Environment to read the configuration from when `config` is not given (default: Deno.env). */
  env?: Env;
}

/** Builds the real adapters on first use, so importing the app reads no environment. */
function lazyDeps(options: CreateAppOptions): () => AppDeps {
  let deps: AppDeps | undefined;
  return () => {
    if (deps) return deps;
    const config = options.config ?? loadConfig(options.env ?? Deno.env.toObject());
    const db = options.db ?? createDb({ databaseUrl: config.databaseUrl, singleSession: config.dbSingleSession });
    deps = {
      config,
      db,
      authApi:
        options.authApi ??
        createAuthApi({
          supabaseUrl: config.supabaseUrl,
          anonKey: config.anonKey,
          serviceRoleKey: config.serviceRoleKey,
        }),
      verifyAccessToken:
        options.verifyAccessToken ??
        withSessionCheck(
          withVerifiedTokenCache(createTokenVerifier({ supabaseUrl: config.supabaseUrl, jwtSecret: config.jwtSecret })),
          (id, userId) => db.serviceStatement((sql) => sessionIsActive(sql, id, userId)),
        ),
      log: options.log ?? jsonLogger,
      fareSource: options.fareSource ?? createFareSource(config.fareSource),
      mailer: options.mailer ?? createMailer(config.mail),
      payments: options.payments ?? createPayments(config.payments, localIntentStore(db)),
    };
    return deps;
  };
}

interface PgError extends Error {
  name: 'PostgresError';
  code: string;
}
function isPgError(error: unknown): error is PgError {
  return (
    error instanceof Error && error.name === 'PostgresError' && typeof (error as Partial<PgError>).code === 'string'
  );
}

/**
 * Database refusals that can only come from what the client sent. The migrations' triggers and
 * functions raise 42501 (premium required, admin only), FB409 (flight limit, a plan edit that
 * would break sign-up or checkout) and FB400 (an amount above what is owed) with messages written
 * for users, which are passed on; Postgres's own wording (policy and constraint names) is not.
 */
const PG_CLIENT_ERRORS: Record<string, [HttpError['status'], string]> = {
  '22P02': [400, 'Invalid input: a value has the wrong format'],
  '22001': [400, 'Invalid input: a value is too long'],
  '22003': [400, 'Invalid input: a number is out of range'],
  '23514': [400, 'Invalid input: a value is outside its allowed range'],
  '23505': [409, 'This already exists'],
  '42501': [403, 'You are not allowed to do that'],
  FB409: [409, 'This would exceed your limit'],
  // the last-admin rule (migration 20261122000400_admin_audit.sql): a revoke or an account deletion
  FBADM: [409, 'The last admin cannot be removed'],
  FB400: [400, 'Invalid input'],
};
const POSTGRES_OWN_WORDING = /^(permission denied|new row violates|must be owner)/i;

function pgClientError(error: unknown): [HttpError['status'], string] | null {
  if (!isPgError(error)) return null;
  const known = PG_CLIENT_ERRORS[error.code];
  if (!known) return null;
  if (
    (error.code === '42501' || error.code === 'FB409' || error.code === 'FB400') &&
    error.message &&
    !POSTGRES_OWN_WORDING.test(error.message)
  ) {
    return [known[0], error.message];
  }
  return known;
}

export function createApp(options: CreateAppOptions = {}) {
  const getDeps = lazyDeps(options);
  const log = options.log ?? jsonLogger;
  const app = new Hono<AppEnv>().basePath('/api');

  app.use(requestId({ headerName: 'X-Request-Id' }));
  app.use(async (c, next) => {
    const started = performance.now();
    // CPU time and peak memory against the hosted Edge Functions' budget (lib/resource-usage.ts)
    const stopUsage = startUsage();
    await next();
    const usage = stopUsage();
    log({
      level: c.res.status >= 500 ? 'error' : 'info',
      msg: 'request',
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
      ...usage,
      userId: c.get('userId') ?? null,
      requestId: c.get('requestId'),
    });
  });
  app.use(async (c, next) => {
    c.set('deps', getDeps());
    await next();
  });
  // Built once, on the first request (the configuration is read then): making the middleware on
  // every request cost a measurable share of a small request's CPU (bench/api.ts).
  let corsForSite: MiddlewareHandler<AppEnv> | undefined;
  app.use((c, next) => {
    corsForSite ??= cors({
      // only the web app's own origin, never a wildcard: requests carry credentials
      origin: c.var.deps.config.siteUrl,
      credentials: true,
      allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
      allowHeaders: ['Authorization', 'Content-Type', 'apikey', 'x-client-info', 'X-Request-Id'],
      exposeHeaders: ['Retry-After', 'X-Request-Id'],
      maxAge: 600,
    });
    return corsForSite(c, next);
  });
  const jsonBodyLimit = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: (c) => c.json({ message: `Request body is too large (limit ${MAX_BODY_BYTES / 1024} KB)` }, 413),
  });
  const webhookBodyLimit = bodyLimit({
    maxSize: MAX_WEBHOOK_BODY_BYTES,
    onError: (c) => c.json({ message: `Request body is too large (limit ${MAX_WEBHOOK_BODY_BYTES / 1024} KB)` }, 413),
  });
  // a raw email from the inbound mail provider has its own, larger limit (routes/email.ts), and
  // so has Stripe's webhook
  app.use((c, next) =>
    c.req.path === '/api/email/inbound'
      ? next()
      : c.req.path === '/api/stripe/webhook'
        ? webhookBodyLimit(c, next)
        : jsonBodyLimit(c, next),
  );
  // a NUL in the address, a query parameter or a JSON body: 400 naming the field, for every route
  app.use(refuseNul);

  app.onError((error, c) => {
    if (error instanceof FieldValidationError) {
      return c.json({ message: error.message, errors: error.errors }, error.status, error.headers);
    }
    if (error instanceof HttpError) {
      return c.json({ ...error.extra, message: error.message }, error.status, error.headers);
    }
    if (error instanceof z.core.$ZodError) {
      return c.json({ message: validationMessage(error), errors: fieldErrors(error) }, 400);
    }
    if (error instanceof SyntaxError) {
      return c.json({ message: INVALID_JSON_MESSAGE }, 400);
    }
    if (error instanceof HTTPException) {
      const message = error.message || error.getResponse().statusText || 'Request failed';
      return c.json({ message }, error.status);
    }
    if (error instanceof AuthUnavailableError) {
      log({ level: 'error', msg: 'auth unavailable', requestId: c.get('requestId'), error: String(error.cause) });
      return c.json({ message: 'Authentication service is unavailable. Please try again later.' }, 503);
    }
    if (error instanceof FareSourceError) {
      // the fare source's refusals are the user's answer; its outages are ours to report
      const status =
        error instanceof BookingNotFoundError
          ? 404
          : error instanceof FareNoLongerAvailableError ||
              error instanceof BookingNotChangeableError ||
              error instanceof FlightCancelledError
            ? 409
            : error instanceof FareSourceUnavailableError
              ? 503
              : 502;
      log({
        level: status >= 500 ? 'error' : 'info',
        msg: 'fare source refused',
        requestId: c.get('requestId'),
        error: String(error.cause ?? error),
      });
      return c.json({ message: status === 502 ? new FareSourceUnavailableError().message : error.message }, status);
    }
    const refused = pgClientError(error);
    if (refused) {
      const [status, message] = refused;
      log({ level: 'warn', msg: 'database refused input', requestId: c.get('requestId'), error: String(error) });
      return c.json({ message }, status);
    }
    log({
      level: 'error',
      msg: 'unhandled error',
      requestId: c.get('requestId'),
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
    return c.json({ message: 'Internal server error' }, 500);
  });
  app.notFound((c) => c.json({ message: 'Not found' }, 404));

  // ---- public routes ----
  app.route('/health', healthRouter);
  app.route('/airlines', airlinesRouter);
  app.route('/airports', airportsRouter);
  app.route('/auth', publicAuthRouter);
  app.route('/contact', contactRouter);
  app.route('/subscription', publicSubscriptionRouter);
  // Stripe's webhook: signed by Stripe, not a user session (verified on the raw body)
  app.route('/stripe', publicStripeRouter);
  app.route('/notifications/unsubscribe', unsubscribeRouter);
  // scheduler endpoints: authenticated by the cron secret, not a user session
  app.route('/internal', internalRouter);
  // email import: Google's return to the site, and the inbound mail provider (a shared secret)
  app.route('/oauth2callback', oauthCallbackRouter);
  app.route('/email/inbound', inboundEmailRouter);

  // ---- protected routes: everything below needs a valid session ----
  app.use('*', requireAuth);
  app.route('/auth', authRouter);
  app.route('/account', accountRouter);
  app.route('/flights', flightsRouter);
  app.route('/dashboard', dashboardRouter);
  app.route('/admin', adminRouter);
  // /auto-rebooking/toggle and /thresholds, /notifications/preferences, /price-alerts/thresholds
  app.route('/', settingsRouter);
  app.route('/subscription', subscriptionRouter);
  app.route('/stripe', stripeRouter);
  app.route('/billing', billingRouter);
  app.route('/oauth', oauthRouter);
  app.route('/email', emailRouter);
  app.route('/auto-rebooking', autoRebookingRunsRouter);
  app.route('/onboarding', onboardingRouter);

  return app;
}

export const app = createApp();
