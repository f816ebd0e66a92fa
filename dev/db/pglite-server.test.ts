import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPgliteServer, type PgliteServer } from './pglite-server.ts';

// PGlite is one session shared by every connection: these tests show that the server never lets
// two connections' transactions or extended-protocol exchanges interleave.
describe('PGlite socket server', () => {
  let server: PgliteServer;
  let clients: postgres.Sql[];

  beforeAll(async () => {
    server = await startPgliteServer({ port: 0 });
    clients = [0, 1, 2].map(() => postgres(server.url, { max: 1, prepare: false, onnotice: () => {} }));
    await clients[0]!`create table counters (name text primary key, value int not null)`;
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.end()));
    await server.stop();
  });

  it('keeps each transaction’s local settings to itself under concurrency', async () => {
    const runs = clients.flatMap((sql, c) =>
      Array.from({ length: 15 }, (_, i) =>
        sql.begin(async (tx) => {
          const mine = `client-${c}-run-${i}`;
          await tx`select set_config('app.owner', ${mine}, true)`;
          await tx`select pg_sleep(0.001)`;
          const [row] = await tx<{ owner: string }[]>`select current_setting('app.owner', true) as owner`;
          return { mine, seen: row?.owner };
        }),
      ),
    );
    const results = await Promise.all(runs);
    expect(results).toHaveLength(45);
    for (const r of results) expect(r.seen).toBe(r.mine);
  });

  it('runs concurrent parameterised queries from several connections without losing portals', async () => {
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => clients[i % 3]!<{ n: number }[]>`select ${i}::int + 1 as n`),
    );
    expect(results.map((r) => r[0]?.n)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
  });

  it('serialises read-modify-write transactions so no update is lost', async () => {
    await clients[0]!`insert into counters values ('hits', 0)`;
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        clients[i % 3]!.begin(async (tx) => {
          const [row] = await tx<{ value: number }[]>`select value from counters where name = 'hits'`;
          await tx`update counters set value = ${(row?.value ?? 0) + 1} where name = 'hits'`;
        }),
      ),
    );
    const [row] = await clients[1]!<{ value: number }[]>`select value from counters where name = 'hits'`;
    expect(row?.value).toBe(30);
  });

  it('rolls back the open transaction of a connection that goes away', async () => {
    const lost = postgres(server.url, { max: 1, prepare: false, onnotice: () => {} });
    const reserved = await lost.reserve();
    await reserved`begin`;
    await reserved`insert into counters values ('ghost', 1)`;
    await lost.end({ timeout: 0 });
    const rows = await clients[2]!`select * from counters where name = 'ghost'`;
    expect(rows).toHaveLength(0);
  });
});
