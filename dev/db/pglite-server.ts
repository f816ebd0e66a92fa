// Serves an embedded PGlite database over the PostgreSQL wire protocol, for the local stack.
//
// PGlite is ONE database session. pglite-socket's own multiplexer hands that session to whichever
// connection sent the next message, and only keeps a connection exclusive while an explicit
// transaction is open. An extended-protocol exchange (Parse/Bind/Execute ... Sync) is several
// messages long even outside a transaction, so two clients interleave inside it and one of them
// gets 'portal "" does not exist'. This server's queue therefore gives the session to one
// connection from its first message until PGlite reports ReadyForQuery outside a transaction
// (after Sync or a simple Query), so requests' transactions can never interleave. A connection
// that disconnects while it owns the session has its transaction rolled back.
//
// PGlite itself ignores the user a client names in its startup packet: its one session is the
// superuser `postgres`. So that the api and the migrations really run as fareback_owner (a
// non-superuser, dev/platform.sql), this server reads that user, refuses it as PostgreSQL would
// when it does not exist or may not log in, and each time the session passes to a connection,
// first runs SET SESSION AUTHORIZATION to that connection's user: privileges, ownership and
// superuser checks then apply as on a real server. One gap remains: the session was opened by a
// superuser, so a client could SET SESSION AUTHORIZATION back to postgres by itself, which a
// real server refuses. Tests on PostgreSQL (TEST_DATABASE_URL, CI) cover that.
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketHandler } from '@electric-sql/pglite-socket';
import { createServer, type Server, type Socket } from 'node:net';

interface QueuedMessage {
  handlerId: number;
  message: Uint8Array;
  onData: (chunk: Uint8Array) => void;
  resolve: (bytes: number) => void;
  reject: (error: Error) => void;
}

const SYNC = 'S'.charCodeAt(0);
const QUERY = 'Q'.charCodeAt(0);
const TERMINATE = 'X'.charCodeAt(0);
const PROTOCOL_3 = 196608;
/** The user PGlite's session starts as. */
const PGLITE_USER = 'postgres';

/** The `user` of a StartupMessage (length, protocol 3.0, then name/value C strings), else null. */
export function startupUser(message: Uint8Array): string | null {
  if (message.length < 8) return null;
  const view = new DataView(message.buffer, message.byteOffset, message.byteLength);
  if (view.getInt32(4) !== PROTOCOL_3) return null;
  const fields = new TextDecoder().decode(message.subarray(8)).split('\0');
  for (let i = 0; i + 1 < fields.length && fields[i] !== ''; i += 2) {
    if (fields[i] === 'user') return fields[i + 1] ?? null;
  }
  return PGLITE_USER;
}

/** A FATAL ErrorResponse, as a server sends when it refuses a login. */
function fatal(code: string, message: string): Uint8Array {
  const body = new TextEncoder().encode(`SFATAL\0VFATAL\0C${code}\0M${message}\0\0`);
  const out = new Uint8Array(5 + body.length);
  out[0] = 'E'.charCodeAt(0);
  new DataView(out.buffer).setInt32(1, 4 + body.length);
  out.set(body, 5);
  return out;
}

const quoteIdent = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/** Same interface as pglite-socket's QueryQueueManager, with session ownership per connection. */
export class SessionQueue {
  private queue: QueuedMessage[] = [];
  private processing = false;
  private owner: number | null = null;
  /** The user each connection logged in as. */
  private users = new Map<number, string>();
  /** The connection whose user the session was last authorized as. */
  private authorizedFor: number | null = null;

  constructor(private readonly db: PGlite) {}

  enqueue(handlerId: number, message: Uint8Array, onData: (chunk: Uint8Array) => void): Promise<number> {
    return new Promise((resolve, reject) => {
      this.queue.push({ handlerId, message, onData, resolve, reject });
      void this.processQueue();
    });
  }

  getQueueLength(): number {
    return this.queue.length;
  }

  clearQueueForHandler(handlerId: number): void {
    this.users.delete(handlerId);
    this.queue = this.queue.filter((item) => {
      if (item.handlerId !== handlerId) return true;
      item.reject(new Error('Handler disconnected'));
      return false;
    });
  }

  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    if (this.owner !== handlerId) return;
    if (this.db.isInTransaction()) await this.db.exec('ROLLBACK');
    this.owner = null;
    void this.processQueue();
  }

  private next(): QueuedMessage | undefined {
    if (this.owner === null) return this.queue.shift();
    const index = this.queue.findIndex((item) => item.handlerId === this.owner);
    return index === -1 ? undefined : this.queue.splice(index, 1)[0];
  }

  private async processQueue(): Promise<void> {
    if (this.processing) return;
    this.processing = true;
    try {
      for (let item = this.next(); item; item = this.next()) {
        const type = item.message[0] ?? 0;
        // Startup and SSL/cancel requests begin with a length, not a message type letter.
        const typed = type >= 0x41 && type <= 0x7a;
        if (type === TERMINATE) {
          // The client is leaving: PGlite's session outlives it, so end what it left open.
          if (this.owner === item.handlerId || this.owner === null) {
            if (this.db.isInTransaction()) await this.db.exec('ROLLBACK');
            this.owner = null;
          }
          item.resolve(0);
          continue;
        }
        try {
          const user = typed ? null : startupUser(item.message);
          if (user !== null) {
            const refusal = await this.refusal(user);
            if (refusal) {
              item.onData(refusal);
              item.resolve(refusal.length);
              continue;
            }
            this.users.set(item.handlerId, user);
          }
          if (typed && this.owner !== item.handlerId) await this.authorize(item.handlerId);
        } catch (error) {
          item.reject(error instanceof Error ? error : new Error(String(error)));
          continue;
        }
        if (typed) this.owner = item.handlerId;
        let written = 0;
        try {
          const current = item;
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(current.message, {
              onRawData: (chunk: Uint8Array) => {
                written += chunk.length;
                current.onData(chunk);
              },
            }),
          );
        } catch (error) {
          item.reject(error instanceof Error ? error : new Error(String(error)));
          continue;
        }
        if (typed && (type === SYNC || type === QUERY) && !this.db.isInTransaction()) {
          this.owner = null;
        }
        item.resolve(written);
      }
    } finally {
      this.processing = false;
    }
  }

  /** Why PostgreSQL would refuse `user` at login, as the ErrorResponse it would send; else null. */
  private async refusal(user: string): Promise<Uint8Array | null> {
    const { rows } = await this.db.query<{ rolcanlogin: boolean }>(
      'select rolcanlogin from pg_roles where rolname = $1',
      [user],
    );
    if (!rows[0]) return fatal('28000', `role "${user}" does not exist`);
    if (!rows[0].rolcanlogin) return fatal('28000', `role "${user}" is not permitted to log in`);
    return null;
  }

  /** Runs the session as the user `handlerId` logged in as, before it takes the session. */
  private async authorize(handlerId: number): Promise<void> {
    if (this.authorizedFor === handlerId) return;
    const user = this.users.get(handlerId) ?? PGLITE_USER;
    await this.db.exec(`set session authorization ${quoteIdent(user)}`);
    this.authorizedFor = handlerId;
  }
}

export interface PgliteServer {
  url: string;
  port: number;
  db: PGlite;
  stop(): Promise<void>;
}

/** Opens PGlite (persisted in dataDir, or in memory) and serves it on host:port (0 = any free port). */
export async function startPgliteServer(options: {
  dataDir?: string;
  port: number;
  host?: string;
}): Promise<PgliteServer> {
  const host = options.host ?? '127.0.0.1';
  // pg_trgm: the admin lists' contains-search indexes (migration 20261122000100_platform.sql)
  const db = await PGlite.create({ ...(options.dataDir ? { dataDir: options.dataDir } : {}), extensions: { pg_trgm } });
  const queue = new SessionQueue(db);
  const handlers = new Set<PGLiteSocketHandler>();

  const server: Server = createServer((socket: Socket) => {
    const handler = new PGLiteSocketHandler({
      // pglite-socket types its queue as its own class; ours has the same public surface.
      queryQueue: queue as unknown as ConstructorParameters<typeof PGLiteSocketHandler>[0]['queryQueue'],
      closeOnDetach: true,
    });
    handlers.add(handler);
    const forget = () => handlers.delete(handler);
    handler.addEventListener('close', forget);
    handler.addEventListener('error', forget);
    handler.attach(socket).catch(() => {
      forget();
      socket.destroy();
    });
  });
  server.maxConnections = 64;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;

  return {
    url: `postgres://postgres@${host}:${port}/postgres`,
    port,
    db,
    async stop() {
      for (const handler of handlers) await handler.detach(true);
      handlers.clear();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await db.close();
    },
  };
}
