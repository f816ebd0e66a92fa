// Database access, and the only place that decides whom a transaction acts as. Every user query
// runs in one transaction as role `authenticated` with the verified claims set (`asUser`), and
// every public read as role `anon` with an anonymous caller's claims (`asAnon`), exactly as
// Supabase's data API does, so row-level security and the end-user grants apply. System work
// (login lookups, rate limits, writes users may not make) runs as the connecting role
// (`asService`) and names the user. Queries never switch roles themselves.
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
  /** When the session was signed in (seconds); a fresh Google sign-in re-checks who it is. */
  iat?: number;
  email?: string;
  session_id?: string;
  [claim: string]: unknown;
}

/** What the data API sets for a request made with only the public anon key: no user. */
export const ANON_CLAIMS = { role: 'anon' } as const;

export interface Db {
  /** One transaction as the signed-in user: role `authenticated`, their verified claims. */
  asUser<T>(claims: AuthClaims, fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** One transaction as a visitor: role `anon`, no user (auth.uid() is null). */
  asAnon<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** One transaction as the connecting role (BYPASSRLS): system work that names its user. */
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

  /**
   * A transaction as an end-user role. The settings are local to the transaction, so they end
   * with it and the pooled connection goes back as the connecting role. They are sent at once and
   * pipelined with the handler's first query: the connection runs a transaction's statements in
   * order, so the role and claims are set before it runs, one round trip sooner than awaiting
   * them first.
   */
  const asRole = <T>(role: 'authenticated' | 'anon', claims: object, sub: string, fn: (tx: Tx) => Promise<T>) =>
    begin(async (tx) => {
      const settingClaims = tx`
        select set_config('role', ${role}, true),
               set_config('request.jwt.claims', ${JSON.stringify(claims)}, true),
               set_config('request.jwt.claim.sub', ${sub}, true),
               set_config('request.jwt.claim.role', ${role}, true)
      `.execute();
      const [, result] = await Promise.all([settingClaims, fn(tx)]);
      return result;
    });

  return {
    asUser(claims, fn) {
      return asRole('authenticated', claims, claims.sub, fn);
    },
    asAnon(fn) {
      // an empty sub reads as no user: auth.uid() is null, as for the data API's anon key
      return asRole('anon', ANON_CLAIMS, '', fn);
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
