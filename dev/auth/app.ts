// The router of the local auth server: the part of Supabase Auth's (GoTrue's) HTTP API that
// supabase-js and the api function use, with GoTrue's paths, bodies, status codes and error
// codes. Storage is GoTrue's own auth.* tables (store.ts); tokens are ES256 (tokens.ts).
// The settings supabase/config.toml gives the real one are mirrored (config.test.ts compares
// them): password rules, secure password change, the refresh-token reuse interval; sign-up at
// /signup is off unless enabled (the api creates accounts with the admin call). Beyond GoTrue:
// failed password sign-ins are limited per account and client address (login-limiter.ts).
// Deliberate simplifications: e-mail sign-ups are confirmed at once (mailer_autoconfirm), and
// Google sign-in is a local account chooser that never links to an existing account.
// Here: logging, CORS, the body limit and GoTrue's error shape for every endpoint; each group of
// endpoints is a file in routes/, and what they share (settings, sessions, background mail) is
// context.ts.
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { type AuthAppDeps, createAuthContext, type Env } from './context.ts';
import { corsFor, originsOf } from './cors.ts';
import { AuthError, errorResponse } from './errors.ts';
import { adminUserRoutes } from './routes/admin-users.ts';
import { googleRoutes } from './routes/google.ts';
import { recoveryRoutes } from './routes/recovery.ts';
import { serviceRoutes } from './routes/service.ts';
import { sessionRoutes } from './routes/sessions.ts';
import { userRoutes } from './routes/user.ts';

export type { AuthAppDeps, SessionJson } from './context.ts';

export interface AuthApp {
  app: Hono<Env>;
  /** Resolves once the emails being sent in the background have gone (or failed). */
  drain(): Promise<void>;
}

export function createAuthApp(deps: AuthAppDeps): AuthApp {
  const ctx = createAuthContext(deps);
  const app = new Hono<Env>().basePath('/auth/v1');

  app.use('*', async (c, next) => {
    const started = performance.now();
    await next();
    if (process.env.AUTH_LOG === '1') {
      const line = {
        time: new Date().toISOString(),
        component: 'auth',
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
      };
      process.stdout.write(`${JSON.stringify(line)}\n`);
    }
  });

  app.use('*', corsFor(originsOf(deps.allowedOrigins)));

  // Every body is read through this: past the limit (declared or streamed), 413 before any parsing.
  app.use(
    '*',
    bodyLimit({
      maxSize: deps.maxBodyBytes,
      onError: () => {
        throw new AuthError(
          413,
          'request_too_large',
          `Request body is larger than ${deps.maxBodyBytes} bytes`,
          {},
          {
            Connection: 'close',
          },
        );
      },
    }),
  );

  app.onError((error, c) => {
    let authError: AuthError;
    if (error instanceof AuthError) {
      authError = error;
    } else {
      console.error('[auth] unexpected failure', c.req.method, c.req.path, error);
      authError = new AuthError(
        500,
        'unexpected_failure',
        'Unexpected failure, please check server logs for more information',
      );
    }
    const { status, body, headers } = errorResponse(authError, c.req.raw.headers);
    for (const [name, value] of Object.entries(headers)) c.header(name, value);
    return c.json(body, status as 400);
  });

  app.notFound((c) => {
    const { status, body } = errorResponse(new AuthError(404, 'not_found', 'Not Found'), c.req.raw.headers);
    return c.json(body, status as 404);
  });

  app.route('/', serviceRoutes(ctx));
  app.route('/', sessionRoutes(ctx));
  app.route('/', userRoutes(ctx));
  app.route('/', recoveryRoutes(ctx));
  app.route('/', googleRoutes(ctx));
  app.route('/', adminUserRoutes(ctx));

  return { app, drain: ctx.drain };
}
