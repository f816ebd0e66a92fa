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
   * with it and the pooled connection goes back as the connecting role. BEGIN, the settings and
   * the handler's first query are pipelined on one reserved connection, which runs them in order:
   * the role and claims are set before the query runs, and the request waits for one round trip
   * where sql.begin() waited for BEGIN first (bench/api.ts: the floor makes none of these). A
   * handler that throws, or a statement that fails, rolls back; the connection goes back to the
   * pool only after COMMIT or ROLLBACK.
   */
  const asRole = async <T>(role: 'authenticated' | 'anon', claims: object, sub: string, fn: (tx: Tx) => Promise<T>) => {
    const reserved = await sql.reserve();
    const tx = reserved as unknown as Tx;
    let open = false;
    try {
      const beginning = reserved.unsafe('begin').execute();
      open = true;
      const settingClaims = reserved`
        select set_config('role', ${role}, true),
               set_config('request.jwt.claims', ${JSON.stringify(claims)}, true),
               set_config('request.jwt.claim.sub', ${sub}, true),
               set_config('request.jwt.claim.role', ${role}, true)
      `.execute();
      // every part settles before anything else is sent, so no statement of the handler's can
      // reach the connection after ROLLBACK or after it is back in the pool
      const settled = await Promise.allSettled([beginning, settingClaims, fn(tx)]);
      const failed = settled.find((part) => part.status === 'rejected');
      if (failed) throw failed.reason;
      open = false;
      await reserved`commit`;
      return (settled[2] as PromiseFulfilledResult<T>).value;
    } catch (error) {
      if (open) await reserved`rollback`.catch(() => {});
      throw error;
    } finally {
      reserved.release();
    }
  };

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
