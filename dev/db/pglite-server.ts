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
import { PGlite } from '@electric-sql/pglite';
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

/** Same interface as pglite-socket's QueryQueueManager, with session ownership per connection. */
export class SessionQueue {
  private queue: QueuedMessage[] = [];
  private processing = false;
  private owner: number | null = null;

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
  const db = await PGlite.create(options.dataDir ? { dataDir: options.dataDir } : {});
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
