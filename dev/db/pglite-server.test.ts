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

// PGlite ignores the startup packet's user; the server applies it, so the api and the migrations
// run as fareback_owner (a non-superuser) here as they do on PostgreSQL.
describe('PGlite socket server: the user a connection logs in as', () => {
  let server: PgliteServer;
  const connections: postgres.Sql[] = [];
  const connectAs = (user: string) => {
    const url = new URL(server.url);
    url.username = user;
    const sql = postgres(url.toString(), { max: 1, prepare: false, onnotice: () => {}, connect_timeout: 10 });
    connections.push(sql);
    return sql;
  };

  beforeAll(async () => {
    server = await startPgliteServer({ port: 0 });
    await server.db.exec(`
      create role app_owner login nosuperuser;
      create role no_login nologin;
      create table owned_by_superuser (id int);
    `);
  });

  afterAll(async () => {
    await Promise.all(connections.map((c) => c.end()));
    await server.stop();
  });

  it('runs each connection as its own user, whoever used the session before', async () => {
    const owner = connectAs('app_owner');
    const admin = connectAs('postgres');
    const whoAmI = (sql: postgres.Sql) =>
      sql<{ user: string; superuser: boolean }[]>`
        select current_user as user, rolsuper as superuser from pg_roles where rolname = current_user`;
    const seen = await Promise.all(Array.from({ length: 10 }, (_, i) => whoAmI(i % 2 ? admin : owner)));
    seen.forEach((rows, i) =>
      expect(rows[0]).toEqual(i % 2 ? { user: 'postgres', superuser: true } : { user: 'app_owner', superuser: false }),
    );
  });

  it('applies privileges and superuser checks to that user', async () => {
    const owner = connectAs('app_owner');
    const read = await owner`select * from owned_by_superuser`.catch((e: unknown) => e);
    expect((read as { code?: string }).code).toBe('42501');
    const promote = await owner`alter role app_owner superuser`.catch((e: unknown) => e);
    expect((promote as { code?: string }).code).toBe('42501');
  });

  it('refuses a user that does not exist or may not log in, as PostgreSQL does', async () => {
    for (const [user, message] of [
      ['nobody', 'role "nobody" does not exist'],
      ['no_login', 'role "no_login" is not permitted to log in'],
    ] as const) {
      const error = await connectAs(user)`select 1`.catch((e: unknown) => e);
      expect(error).toMatchObject({ code: '28000', message });
    }
  });
});
