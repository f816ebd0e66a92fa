// The function's settings, read once from the environment (names as on Supabase; see
// docs/architecture.md). Missing required settings fail at the first request with a message
// that names them, rather than as an obscure fetch or connection error later.
import { DEFAULT_SUPPORT_EMAIL } from '../_shared/constants.ts';

export interface Config {
  /** Project URL the function calls Auth through (and fetches the JWKS from). */
  supabaseUrl: string;
  /** Browser-facing project URL, for redirects such as Google sign-in. */
  supabasePublicUrl: string;
  anonKey: string;
  serviceRoleKey: string;
  databaseUrl: string;
  /** HS256 secret of projects that still sign with one; tokens are otherwise checked against the JWKS. */
  jwtSecret: string | null;
  /** Web origin, without a trailing slash. */
  siteUrl: string;
  supportEmail: string;
  /** The database is one PGlite session: hold one connection and never prepare statements. */
  dbSingleSession: boolean;
  port: number;
}

export type Env = Record<string, string | undefined>;

const REQUIRED = [
  'SUPABASE_URL',
  'SUPABASE_ANON_KEY',
  'SUPABASE_SERVICE_ROLE_KEY',
  'SUPABASE_DB_URL',
  'SITE_URL',
] as const;

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

export function loadConfig(env: Env): Config {
  const missing = REQUIRED.filter((name) => !nonEmpty(env[name]));
  if (missing.length > 0) {
    throw new Error(`Missing environment variable${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`);
  }
  const get = (name: (typeof REQUIRED)[number]): string => nonEmpty(env[name]) as string;
  const supabaseUrl = trimSlash(get('SUPABASE_URL'));
  const port = Number(nonEmpty(env.PORT) ?? 8000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT must be a port number, got '${env.PORT}'`);
  }
  return {
    supabaseUrl,
    supabasePublicUrl: trimSlash(nonEmpty(env.SUPABASE_PUBLIC_URL) ?? supabaseUrl),
    anonKey: get('SUPABASE_ANON_KEY'),
    serviceRoleKey: get('SUPABASE_SERVICE_ROLE_KEY'),
    databaseUrl: get('SUPABASE_DB_URL'),
    jwtSecret: nonEmpty(env.SUPABASE_JWT_SECRET) ?? null,
    siteUrl: trimSlash(get('SITE_URL')),
    supportEmail: nonEmpty(env.SUPPORT_EMAIL) ?? DEFAULT_SUPPORT_EMAIL,
    dbSingleSession: nonEmpty(env.DB_SINGLE_SESSION)?.toLowerCase() === 'true',
    port,
  };
}
