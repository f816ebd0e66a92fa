// The local stand-in for Supabase Auth: an HTTP server on its own port serving GoTrue's API under
// /auth/v1 (routes in app.ts), behind the gateway at `${publicUrl}/auth/v1`. It talks to the
// project database with postgres.js (one connection, unprepared statements, when the database is
// PGlite) and to the mail catcher over SMTP. Never deployed: on Supabase the real Auth does this.
import { createAdaptorServer } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { createAuthApp } from './app.ts';
import type { SigningKey } from './keys.ts';
import { createMailer } from './mailer.ts';

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
  const mailer = createMailer({
    smtp: options.smtp,
    from: options.mailFrom ?? 'FareBack <no-reply@fareback.local>',
    recoveryTemplatePath: options.recoveryTemplatePath ?? DEFAULT_RECOVERY_TEMPLATE,
  });
  const app = createAuthApp({
    sql,
    signingKey: options.signingKey,
    serviceRoleKey: options.serviceRoleKey,
    publicUrl: options.publicUrl,
    siteUrl: options.siteUrl,
    mailer,
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
    mailer.close();
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
        mailer.close();
        await sql.end({ timeout: 5 });
      })();
      return stopping;
    },
  };
}
