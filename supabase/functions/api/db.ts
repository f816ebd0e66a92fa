// Database access. Every user query runs in one transaction as role `authenticated` with the
// verified claims set, exactly as Supabase's data API does, so row-level security applies.
// System work (login lookups, rate limits) runs as the connecting role and names the user.
//
// Against PGlite (DB_SINGLE_SESSION=true) the pool is one connection without prepared
// statements: PGlite is one database session and its socket multiplexer breaks under concurrent
// extended-protocol queries. postgres.js then queues every query behind the open transaction, so
// two requests' transactions can never interleave and leak each other's claims.
//
// Through a transaction pooler (Supabase's Supavisor on port 6543, or any URL marked
// `pgbouncer=true`) each transaction may run on a different server connection, where a statement
// prepared on another is unknown, so statements are not prepared there either.
//
// The connecting role is the project's `postgres` (locally fareback_owner, dev/platform.sql): the
// owner of the schema, with BYPASSRLS, but not a superuser.
import postgres from 'postgres';

export type Tx = postgres.TransactionSql;

export interface AuthClaims {
  sub: string;
  role: string;
  aud: string | string[];
  exp: number;
  email?: string;
  session_id?: string;
  [claim: string]: unknown;
}

export interface Db {
  asUser<T>(claims: AuthClaims, fn: (tx: Tx) => Promise<T>): Promise<T>;
  asService<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * One statement on the connecting role outside any transaction: a single read needs no
   * BEGIN/COMMIT round trips (the per-request session check).
   */
  serviceStatement<T>(fn: (sql: Tx) => Promise<T>): Promise<T>;
  /** True when the database answers within the timeout. */
  ping(timeoutMs?: number): Promise<boolean>;
  close(): Promise<void>;
}

export interface DbOptions {
  databaseUrl: string;
  singleSession: boolean;
}

/** The port of Supabase's transaction pooler (its session pooler and direct connections use 5432). */
const TRANSACTION_POOLER_PORT = '6543';

/**
 * The URL postgres.js connects to and whether it may prepare statements. `pgbouncer=true` is a
 * marker for clients, never sent to the server (postgres.js would pass it on as a setting).
 */
export function connectionOptions(databaseUrl: string, singleSession: boolean): { url: string; prepare: boolean } {
  const parsed = new URL(databaseUrl);
  const pooled = parsed.searchParams.get('pgbouncer') === 'true' || parsed.port === TRANSACTION_POOLER_PORT;
  let url = databaseUrl;
  if (parsed.searchParams.has('pgbouncer')) {
    parsed.searchParams.delete('pgbouncer');
    url = parsed.toString();
  }
  return { url, prepare: !singleSession && !pooled };
}

export function createDb({ databaseUrl, singleSession }: DbOptions): Db {
  const { url, prepare } = connectionOptions(databaseUrl, singleSession);
  const sql = postgres(url, {
    max: singleSession ? 1 : 5,
    prepare,
    idle_timeout: 30,
    connect_timeout: 10,
    onnotice: () => {},
    connection: { application_name: 'fareback-api' },
  });

  // sql.begin's declared result unwraps nested promise arrays; handlers return plain values.
  const begin = <T>(fn: (tx: Tx) => Promise<T>): Promise<T> => sql.begin((tx) => fn(tx)) as Promise<T>;

  return {
    asUser(claims, fn) {
      return begin(async (tx) => {
        // Sent at once and pipelined with the handler's first query: the connection runs a
        // transaction's statements in order, so the role and claims are set before it runs,
        // one round trip sooner than awaiting them first.
        const settingClaims = tx`
          select set_config('role', 'authenticated', true),
                 set_config('request.jwt.claims', ${JSON.stringify(claims)}, true),
                 set_config('request.jwt.claim.sub', ${claims.sub}, true),
                 set_config('request.jwt.claim.role', 'authenticated', true)
        `.execute();
        const [, result] = await Promise.all([settingClaims, fn(tx)]);
        return result;
      });
    },
    asService(fn) {
      return begin(fn);
    },
    serviceStatement(fn) {
      // the pool and a transaction take tagged-template statements alike
      return fn(sql as unknown as Tx);
    },
    async ping(timeoutMs = 3000) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      });
      try {
        return await Promise.race([sql`select 1 as ok`.then(() => true), timeout]);
      } catch {
        return false;
      } finally {
        clearTimeout(timer);
      }
    },
    close() {
      return sql.end({ timeout: 5 });
    },
  };
}
