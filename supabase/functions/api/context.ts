// What every handler can reach through `c.var`.
import type { FareSource } from '../_shared/fare-source/types.ts';
import type { Mailer } from '../_shared/mailer/types.ts';
import type { Payments } from '../_shared/payments/types.ts';
import type { Config } from './config.ts';
import type { AuthClaims, Db } from './db.ts';
import type { AuthApi } from './lib/auth-api.ts';
import type { TokenVerifier } from './middleware/auth.ts';

export type LogEntry = Record<string, unknown> & { level: 'info' | 'warn' | 'error'; msg: string };
export type Logger = (entry: LogEntry) => void;

export interface AppDeps {
  config: Config;
  db: Db;
  authApi: AuthApi;
  verifyAccessToken: TokenVerifier;
  log: Logger;
  fareSource: FareSource;
  mailer: Mailer;
  /** Stripe, or the local test mode when no Stripe key is configured (_shared/payments). */
  payments: Payments;
}

export interface AppEnv {
  Variables: {
    deps: AppDeps;
    requestId: string;
    /** Set by requireAuth on protected routes. */
    claims: AuthClaims;
    /** The acting user once known (protected routes, successful login or sign-up), for the log. */
    userId: string;
  };
}
