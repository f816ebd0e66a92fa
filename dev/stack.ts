// Starts the whole local stack (docs/architecture.md, "Processes and ports"): the database
// (PGlite served on a socket, or an external PostgreSQL), migrations and seed, the mail catcher,
// the local auth server, the `api` function under Deno, and the gateway in front of them.
// `npm start`, the HTTP API tests and the browser tests all start it through startStack().
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startAuthServer } from './auth/server.ts';
import { loadOrCreateSigningKey, mintApiKey } from './auth/keys.ts';
import { openLocalDatabase } from './db/local-database.ts';
import { connect, OutdatedDatabaseError } from './db/migrate.ts';
import { resetScope } from './db/reset-database.ts';
import { ensurePremiumDemo } from './demo-billing.ts';
import { startGateway } from './gateway.ts';
import { startMailCatcher } from './mail.ts';
import { lockStateDir, reapChildren, recordChild, StackStartError } from './processes.ts';
import { startTicker } from './ticker.ts';

export { StackStartError };

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface Ports {
  gateway: number;
  database: number;
  mailWeb: number;
  mailSmtp: number;
  auth: number;
  api: number;
}

/** Every part on any free port: tests and parallel stacks. */
export const anyFreePorts: Ports = { gateway: 0, database: 0, mailWeb: 0, mailSmtp: 0, auth: 0, api: 0 };

/** Supabase's local defaults where it has one; 0 anywhere means any free port. */
export const defaultPorts: Ports = {
  gateway: 54321,
  database: 54322,
  mailWeb: 54324,
  mailSmtp: 54325,
  auth: 54331,
  api: 54332,
};

export const demoAccounts = [
  { username: 'admin', email: 'admin@example.com', password: 'Admin@2026!', isAdmin: true },
  { username: 'traveller', email: 'traveller@example.com', password: 'Travel@2026!', isAdmin: false },
  // premium, with a paid year, rebooked flights, commission owed and a payment history (dev/demo-billing.ts)
  { username: 'premium', email: 'premium@example.com', password: 'Premium@2026!', isAdmin: false },
] as const;

export interface StackOptions {
  /** An external PostgreSQL (DATABASE_URL, or a test database), as a superuser; without it, PGlite. */
  databaseUrl?: string;
  /** Where PGlite data, keys, mail and logs persist; without it, a fresh temporary directory
   * and an in-memory database. */
  stateDir?: string;
  ports?: Partial<Ports>;
  seed?: boolean;
  /** Rebuild the database from the migrations and the seed first (`npm start -- --reset`). */
  reset?: boolean;
  /** The migrations folder; supabase/migrations by default (tests of the rebuild). */
  migrationsDir?: string;
  demoAccounts?: boolean;
  webDist?: string;
  /** Extra environment for the api function (feature flags of later issues, test knobs). */
  apiEnv?: Record<string, string>;
  /** Call the jobs endpoint every minute as pg_cron would (dev/ticker.ts); default true. Tests pass false. */
  ticker?: boolean;
}

export interface Stack {
  url: string;
  apiUrl: string;
  authUrl: string;
  mailUrl: string;
  /** As a superuser (platform work, the auth server, test factories). */
  databaseUrl: string;
  /** As fareback_owner, what the api function connects as (SUPABASE_DB_URL): not a superuser. */
  apiDatabaseUrl: string;
  singleSession: boolean;
  anonKey: string;
  serviceRoleKey: string;
  /** The api's CRON_SECRET for /api/internal/* (also written to <stateDir>/cron-secret). */
  cronSecret: string;
  /** The mail catcher's SMTP port (mail to the inbound domain goes on to the api). */
  mailSmtpPort: number;
  /** What the catcher sends the api as INBOUND_EMAIL_SECRET. */
  inboundSecret: string;
  logDir: string;
  stop(): Promise<void>;
}

/** A port the OS says is free on 127.0.0.1 right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function resolvePort(port: number): Promise<number> {
  return port === 0 ? freePort() : port;
}

export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

async function assertPortsFree(ports: Ports): Promise<void> {
  const busy: string[] = [];
  for (const [name, port] of Object.entries(ports) as Array<[keyof Ports, number]>) {
    if (port !== 0 && !(await portIsFree(port))) busy.push(`${port} (${name})`);
  }
  if (busy.length > 0) {
    throw new StackStartError(
      `Port${busy.length > 1 ? 's' : ''} ${busy.join(', ')} ${busy.length > 1 ? 'are' : 'is'} already in use. ` +
        'Is FareBack (or a Supabase local stack) already running?',
    );
  }
}

async function waitFor(url: string, child: ChildProcess, logFile: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError = '';
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`the api function exited with code ${child.exitCode}; see ${logFile}`);
    }
    try {
      const res = await fetch(url);
      if (res.ok) return;
      lastError = `${res.status}`;
    } catch (error) {
      lastError = (error as Error).message;
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`timed out waiting for ${url} (${lastError}); see ${logFile}`);
}

function denoBinary(): string {
  return path.join(repoRoot, 'node_modules/.bin/deno');
}

/** The local stack's forwarding addresses: trips+<token>@inbound.fareback.test (the mail catcher's). */
export const LOCAL_INBOUND_DOMAIN = 'inbound.fareback.test';

/** 32 random bytes, base64: kept in the state directory so stored Gmail tokens survive a restart. */
function loadOrCreateEmailTokenKey(file: string | undefined): string {
  if (file && existsSync(file)) return readFileSync(file, 'utf8').trim();
  const key = randomBytes(32).toString('base64');
  if (file) writeFileSync(file, key, { mode: 0o600 });
  return key;
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const ports: Ports = { ...defaultPorts, ...options.ports };
  const stateDir = options.stateDir ?? (await mkdtemp(path.join(os.tmpdir(), 'fareback-stack-')));
  const persistent = options.stateDir !== undefined;
  const logDir = path.join(stateDir, 'logs');
  mkdirSync(logDir, { recursive: true });
  const stops: Array<() => Promise<void>> = [];
  const stop = async () => {
    for (const s of stops.reverse()) await s().catch(() => {});
    stops.length = 0;
  };

  try {
    if (persistent) {
      const unlock = lockStateDir(stateDir);
      stops.push(async () => unlock());
      // what a previous run that did not stop cleanly left running (it would hold its port)
      const reaped = await reapChildren(stateDir);
      if (reaped.length > 0) console.warn(`Stopped what an earlier run left running: ${reaped.join(', ')}.`);
    }
    await assertPortsFree({ ...ports, ...(options.databaseUrl ? { database: 0 } : {}) });

    // Database. One rebuilt because its migration files changed (or on --reset) starts over
    // from the seed: say so, since every account but the demo ones is gone.
    const database = await openLocalDatabase({
      ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : {}),
      ...(persistent ? { dataDir: path.join(stateDir, 'pgdata') } : {}),
      port: ports.database,
      seed: options.seed ?? true,
      reset: options.reset ?? false,
      ...(options.migrationsDir ? { migrationsDir: options.migrationsDir } : {}),
    }).catch((error: unknown) => {
      if (error instanceof OutdatedDatabaseError) {
        throw new StackStartError(
          `DATABASE_URL: ${error.message}. npm start does not drop an external database unasked: ` +
            `\`npm start -- --reset\` rebuilds it (dropping ${resetScope}), or point DATABASE_URL at an empty database.`,
        );
      }
      throw error;
    });
    stops.push(() => database.stop());
    if (database.rebuilt) {
      console.warn(
        `Rebuilt the local database from the migrations and the seed ${database.rebuilt}: accounts and data other than the seed's and the demo accounts are gone.`,
      );
    }
    const { url: databaseUrl, singleSession } = database;
    // the api connects as the role the migrations ran as: their owner, not a superuser, as on
    // Supabase (dev/platform.sql)
    const apiDatabaseUrl = database.ownerUrl;

    // Mail catcher. Mail to the inbound domain (a traveller's forwarding address) is handed to the
    // api as the inbound mail provider would (POST /api/email/inbound with the shared secret)
    const inboundSecret = options.apiEnv?.INBOUND_EMAIL_SECRET ?? randomBytes(32).toString('hex');
    const inboundDomain = options.apiEnv?.INBOUND_EMAIL_DOMAIN ?? LOCAL_INBOUND_DOMAIN;
    let inboundUrl: string | null = null;
    const mailSmtp = await resolvePort(ports.mailSmtp);
    const mail = await startMailCatcher({
      onMessage: (raw, recipients) => {
        for (const recipient of recipients) {
          if (!inboundUrl || !recipient.toLowerCase().endsWith(`@${inboundDomain}`)) continue;
          void fetch(`${inboundUrl}?recipient=${encodeURIComponent(recipient)}`, {
            method: 'POST',
            headers: { authorization: `Bearer ${inboundSecret}`, 'content-type': 'message/rfc822' },
            body: new Uint8Array(raw),
          }).then(
            (res) => res.body?.cancel(),
            () => undefined,
          );
        }
      },
      webPort: await resolvePort(ports.mailWeb),
      smtpPort: mailSmtp,
      ...(persistent ? { mailDirectory: path.join(stateDir, 'mail') } : {}),
    });
    stops.push(() => mail.stop());

    // Keys, then the gateway URL everything else refers to
    const signingKey = await loadOrCreateSigningKey(persistent ? path.join(stateDir, 'auth-key.json') : undefined);
    const anonKey = await mintApiKey(signingKey, 'anon');
    const serviceRoleKey = await mintApiKey(signingKey, 'service_role');
    const gatewayPort = await resolvePort(ports.gateway);
    const publicUrl = `http://127.0.0.1:${gatewayPort}`;

    // Auth server
    const auth = await startAuthServer({
      databaseUrl,
      port: ports.auth,
      publicUrl,
      siteUrl: publicUrl,
      signingKey,
      serviceRoleKey,
      smtp: { host: '127.0.0.1', port: mailSmtp },
      mailFrom: 'FareBack <no-reply@fareback.app>',
      recoveryTemplatePath: path.join(repoRoot, 'supabase/templates/recovery.html'),
      singleSession,
    });
    stops.push(() => auth.stop());

    // The api function under Deno; a fresh scheduler secret each start, kept in the state
    // directory (like the signing key) for whoever needs to call /api/internal by hand
    const cronSecret = options.apiEnv?.CRON_SECRET ?? randomBytes(32).toString('hex');
    writeFileSync(path.join(stateDir, 'cron-secret'), cronSecret, { mode: 0o600 });
    const apiPort = await resolvePort(ports.api);
    const apiLog = path.join(logDir, 'api.log');
    const logStream = createWriteStream(apiLog, { flags: 'a' });
    const apiEntry = path.join(repoRoot, 'supabase/functions/api/index.ts');
    const deno = spawn(
      denoBinary(),
      [
        'run',
        '--allow-net',
        '--allow-env',
        '--allow-read',
        '--config',
        path.join(repoRoot, 'supabase/functions/deno.json'),
        // exits when its stdin pipe closes, i.e. when this process ends, however it ends
        '--preload',
        path.join(repoRoot, 'dev/exit-with-parent.ts'),
        apiEntry,
      ],
      {
        cwd: repoRoot,
        // stdin: the pipe dev/exit-with-parent.ts watches; nothing is ever written to it
        stdio: ['pipe', 'pipe', 'pipe'],
        env: {
          ...process.env,
          PORT: String(apiPort),
          LISTEN_HOST: '127.0.0.1',
          SUPABASE_URL: publicUrl,
          SUPABASE_PUBLIC_URL: publicUrl,
          SUPABASE_ANON_KEY: anonKey,
          SUPABASE_SERVICE_ROLE_KEY: serviceRoleKey,
          SUPABASE_DB_URL: apiDatabaseUrl,
          DB_SINGLE_SESSION: singleSession ? 'true' : 'false',
          SITE_URL: publicUrl,
          SMTP_HOST: '127.0.0.1',
          SMTP_PORT: String(mailSmtp),
          CRON_SECRET: cronSecret,
          // email import: the sample mailbox (dev/mailbox), the token key kept with the state, and
          // forwarding addresses at the catcher's inbound domain
          EMAIL_DEV_MAILBOX: 'true',
          PAYMENTS_TEST_MODE: 'true', // payments without Stripe (no card charged); never on a deployment
          EMAIL_TOKEN_KEY: loadOrCreateEmailTokenKey(persistent ? path.join(stateDir, 'email-token-key') : undefined),
          INBOUND_EMAIL_DOMAIN: inboundDomain,
          INBOUND_EMAIL_SECRET: inboundSecret,
          ...options.apiEnv,
        },
      },
    );
    deno.stdout?.pipe(logStream);
    deno.stderr?.pipe(logStream);
    // a later start reaps it should this process end without stopping it (processes.ts)
    const forgetApi = deno.pid
      ? recordChild(stateDir, 'api', { pid: deno.pid, marker: apiEntry, port: apiPort })
      : null;
    stops.push(() =>
      new Promise<void>((resolve) => {
        if (deno.exitCode !== null || deno.signalCode !== null) return resolve();
        deno.once('exit', () => resolve());
        deno.kill('SIGTERM');
        setTimeout(() => deno.kill('SIGKILL'), 3000).unref();
      }).then(() => forgetApi?.()),
    );
    const apiUrl = `http://127.0.0.1:${apiPort}`;
    inboundUrl = `${apiUrl}/api/email/inbound`;

    // Gateway
    const gateway = await startGateway({
      port: gatewayPort,
      authUrl: auth.url,
      apiUrl,
      webDist: options.webDist ?? path.join(repoRoot, 'web/dist'),
    });
    stops.push(() => gateway.stop());

    // Readiness: every part answers through the gateway.
    await waitFor(`${apiUrl}/api/health`, deno, apiLog, 120_000);
    await waitFor(`${gateway.url}/api/health`, deno, apiLog, 10_000);
    await waitFor(`${gateway.url}/auth/v1/health`, deno, apiLog, 10_000);
    await waitFor(`${mail.url}/email`, deno, apiLog, 10_000);

    if (options.demoAccounts) await ensureDemoAccounts(gateway.url, serviceRoleKey, databaseUrl, singleSession);

    // The scheduler: pg_cron is not available here, so the stack calls the jobs endpoint itself
    if (options.ticker !== false) {
      const ticker = startTicker({
        apiUrl: `${gateway.url}/api`,
        cronSecret,
        logFile: path.join(logDir, 'ticker.log'),
      });
      stops.push(() => ticker.stop());
    }

    return {
      url: gateway.url,
      apiUrl: `${gateway.url}/api`,
      authUrl: `${gateway.url}/auth/v1`,
      mailUrl: mail.url,
      databaseUrl,
      apiDatabaseUrl,
      singleSession,
      anonKey,
      serviceRoleKey,
      cronSecret,
      mailSmtpPort: mailSmtp,
      inboundSecret,
      logDir,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The demo admin and traveller, created through the auth server like any sign-up, addresses confirmed. */
async function ensureDemoAccounts(
  gatewayUrl: string,
  serviceRoleKey: string,
  databaseUrl: string,
  singleSession: boolean,
): Promise<void> {
  for (const account of demoAccounts) {
    const res = await fetch(`${gatewayUrl}/auth/v1/admin/users`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        apikey: serviceRoleKey,
        authorization: `Bearer ${serviceRoleKey}`,
      },
      body: JSON.stringify({
        email: account.email,
        password: account.password,
        email_confirm: true,
        user_metadata: { username: account.username },
      }),
    });
    if (!res.ok && res.status !== 422) {
      throw new Error(`could not create demo account ${account.email}: ${res.status} ${await res.text()}`);
    }
  }
  const sql = connect(databaseUrl, singleSession);
  try {
    for (const account of demoAccounts) {
      // their addresses belong to nobody: confirmed by hand, so alerts reach the mail catcher
      await sql`select private.confirm_email_address(${account.email})`;
      if (account.isAdmin) await sql`select private.make_admin(${account.email})`;
      // the demo accounts show the product in use: past the onboarding wizard
      await sql`update public.profiles set onboarding_completed_at = coalesce(onboarding_completed_at, now())
                 where lower(email) = lower(${account.email})`;
    }
    const premium = demoAccounts.find((a) => a.username === 'premium');
    if (premium) await ensurePremiumDemo(sql, premium.email);
  } finally {
    await sql.end();
  }
}
