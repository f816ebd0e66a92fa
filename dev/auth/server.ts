// The local stand-in for Supabase Auth: an HTTP server on its own port serving GoTrue's API under
// /auth/v1 (the router app.ts, its endpoints in routes/), behind the gateway at
// `${publicUrl}/auth/v1`. It talks to the project database with postgres.js (one connection,
// unprepared statements, when the database is PGlite) and to the mail catcher over SMTP. Never deployed: on Supabase the real Auth does this.
// Environment (each also an option): AUTH_ENABLE_SIGNUP=true opens POST /signup,
// TRUSTED_PROXY_HOPS (default 1, the gateway) says whose X-Forwarded-For entries to believe,
// AUTH_ALLOWED_ORIGINS (comma-separated) adds CORS origins to the site and the gateway.
import { createAdaptorServer } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { createAuthApp } from './app.ts';
import { trustedHopsFromEnv } from './client-address.ts';
import type { SigningKey } from './keys.ts';
import { DEFAULT_LOGIN_LIMITS, type LoginLimits } from './login-limiter.ts';
import { createMailer, type Mailer } from './mailer.ts';
import { bcryptHasher, DEFAULT_PASSWORD_POLICY, type PasswordHasher, type PasswordPolicy } from './passwords.ts';

/** supabase/config.toml's `refresh_token_reuse_interval`. */
export const REFRESH_TOKEN_REUSE_INTERVAL_SECONDS = 10;
/** supabase/config.toml's `[auth.email] secure_password_change`. */
export const SECURE_PASSWORD_CHANGE = true;
export const MAX_BODY_BYTES = 1024 * 1024;

export interface AuthServerOptions {
  databaseUrl: string;
  /** 0 picks a free port. */
  port: number;
  host?: string;
  /** The gateway URL, e.g. http://127.0.0.1:54321: the token issuer is `${publicUrl}/auth/v1`. */
  publicUrl: string;
  /** Where emails link to and the default redirect target. */
  siteUrl: string;
  signingKey: SigningKey;
  serviceRoleKey: string;
  smtp: { host: string; port: number };
  mailFrom?: string;
  recoveryTemplatePath?: string;
  /** The database is PGlite, one session shared by every client: one connection, no prepared statements. */
  singleSession?: boolean;
  /** POST /signup creates accounts; default AUTH_ENABLE_SIGNUP === 'true', else refused as on a project with signups off. */
  enableSignup?: boolean;
  /** CORS origins; default the site URL's and the public URL's, plus AUTH_ALLOWED_ORIGINS. */
  allowedOrigins?: string[];
  /** Default TRUSTED_PROXY_HOPS, else 1. */
  trustedProxyHops?: number;
  passwordPolicy?: PasswordPolicy;
  securePasswordChange?: boolean;
  refreshTokenReuseIntervalSeconds?: number;
  loginLimits?: Partial<LoginLimits>;
  maxBodyBytes?: number;
  /** Tests: observe password comparisons, delays, the clock, or the mail. */
  passwords?: PasswordHasher;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  wrapMailer?: (mailer: Mailer) => Mailer;
}

export interface AuthServer {
  url: string;
  port: number;
  stop(): Promise<void>;
}

const DEFAULT_RECOVERY_TEMPLATE = fileURLToPath(new URL('../../supabase/templates/recovery.html', import.meta.url));

export async function startAuthServer(options: AuthServerOptions): Promise<AuthServer> {
  const sql = postgres(options.databaseUrl, {
    max: options.singleSession ? 1 : 5,
    prepare: !options.singleSession,
    onnotice: () => {},
    connection: { application_name: 'fareback-local-auth' },
  });
  const smtpMailer = createMailer({
    smtp: options.smtp,
    from: options.mailFrom ?? 'FareBack <no-reply@fareback.local>',
    recoveryTemplatePath: options.recoveryTemplatePath ?? DEFAULT_RECOVERY_TEMPLATE,
  });
  const mailer = options.wrapMailer ? options.wrapMailer(smtpMailer) : smtpMailer;
  const extraOrigins = (process.env.AUTH_ALLOWED_ORIGINS ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  const { app, drain } = createAuthApp({
    sql,
    signingKey: options.signingKey,
    serviceRoleKey: options.serviceRoleKey,
    publicUrl: options.publicUrl,
    siteUrl: options.siteUrl,
    mailer,
    enableSignup: options.enableSignup ?? process.env.AUTH_ENABLE_SIGNUP === 'true',
    allowedOrigins: options.allowedOrigins ?? [options.siteUrl, options.publicUrl, ...extraOrigins],
    trustedProxyHops: options.trustedProxyHops ?? trustedHopsFromEnv(process.env.TRUSTED_PROXY_HOPS),
    passwordPolicy: options.passwordPolicy ?? DEFAULT_PASSWORD_POLICY,
    securePasswordChange: options.securePasswordChange ?? SECURE_PASSWORD_CHANGE,
    refreshTokenReuseIntervalSeconds: options.refreshTokenReuseIntervalSeconds ?? REFRESH_TOKEN_REUSE_INTERVAL_SECONDS,
    loginLimits: { ...DEFAULT_LOGIN_LIMITS, ...options.loginLimits },
    maxBodyBytes: options.maxBodyBytes ?? MAX_BODY_BYTES,
    passwords: options.passwords ?? bcryptHasher,
    sleep: options.sleep ?? ((ms) => sleep(ms)),
    now: options.now ?? Date.now,
  });

  // overrideGlobalObjects off: the stack runs other servers in this process.
  const server = createAdaptorServer({ fetch: app.fetch, overrideGlobalObjects: false }) as Server;
  const host = options.host ?? '127.0.0.1';
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    smtpMailer.close();
    await sql.end({ timeout: 1 });
    throw error;
  }
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;

  let stopping: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    stop() {
      stopping ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        // Emails still being sent after their answer go out first (or fail) before SMTP closes.
        await Promise.race([drain(), new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
        smtpMailer.close();
        await sql.end({ timeout: 5 });
      })();
      return stopping;
    },
  };
}
