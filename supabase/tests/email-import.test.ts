// Email import's tables: a traveller reads their own scans and the emails read for them and
// nothing else, writes none of it, never reaches the OAuth attempts or forwarding tokens
// (private), and flights found past the plan's limit are kept but not watched until there is room.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DENIED,
  actAs,
  anon,
  attempt,
  createFlight,
  createUser,
  openTestDatabase,
  user,
  type TestDb,
  type TestUser,
} from './factories.ts';

let db: TestDb;
let traveller: TestUser;
let other: TestUser;

beforeAll(async () => {
  db = await openTestDatabase();
  traveller = await createUser(db.sql);
  other = await createUser(db.sql);
  for (const owner of [traveller, other]) {
    await db.sql`insert into public.email_scans (user_id, provider, status, scanned, total) values (${owner.id}, 'sample', 'done', 3, 3)`;
    await db.sql`insert into public.email_imports (user_id, via, message_id, sender, subject, outcome)
                 values (${owner.id}, 'sample', ${`m-${owner.id}`}, 'United <a@united.com>', 'Your flight', 'created')`;
  }
  await db.sql`insert into private.email_oauth_attempts (user_id, session_id, state_hash, code_verifier)
               values (${traveller.id}, 's', 'hash', 'verifier')`;
  await db.sql`insert into private.email_forwarding_addresses (user_id, token) values (${traveller.id}, 'abcdefghijkl0123')`;
});

afterAll(async () => {
  await db?.close();
});

describe('scans and the emails read', () => {
  it('a traveller reads only their own', async () => {
    for (const table of ['public.email_scans', 'public.email_imports']) {
      const rows = await actAs(db.sql, user(traveller.id), (tx) => tx.unsafe(`select user_id from ${table}`));
      expect(rows.map((r) => r.user_id)).toEqual([traveller.id]);
    }
  });

  it.each([
    [
      "insert into public.email_imports (user_id, via, message_id, outcome) values (auth.uid(), 'forwarded', 'x', 'created')",
    ],
    ["update public.email_imports set outcome = 'cancelled'"],
    ['delete from public.email_imports'],
    ["insert into public.email_scans (user_id, provider) values (auth.uid(), 'gmail')"],
    ["update public.email_scans set status = 'failed'"],
    ['delete from public.email_scans'],
  ])('a traveller writes none of it: %s', async (statement) => {
    expect(await attempt(db.sql, user(traveller.id), (tx) => tx.unsafe(statement))).toMatchObject({ error: DENIED });
  });

  it('a visitor reads nothing', async () => {
    for (const table of ['public.email_scans', 'public.email_imports']) {
      expect(await attempt(db.sql, anon, (tx) => tx.unsafe(`select * from ${table}`))).toMatchObject({ error: DENIED });
    }
  });

  it('OAuth attempts, forwarding tokens and held bookings are out of every user role’s reach', async () => {
    for (const table of [
      'private.email_oauth_attempts',
      'private.email_forwarding_addresses',
      'private.email_held_bookings',
    ]) {
      for (const actor of [user(traveller.id), anon]) {
        expect(await attempt(db.sql, actor, (tx) => tx.unsafe(`select * from ${table}`))).toMatchObject({
          error: DENIED,
        });
      }
    }
  });

  it('one open scan per traveller', async () => {
    const fresh = await createUser(db.sql);
    await db.sql`insert into public.email_scans (user_id, provider) values (${fresh.id}, 'gmail')`;
    await expect(
      db.sql`insert into public.email_scans (user_id, provider) values (${fresh.id}, 'gmail')`,
    ).rejects.toThrow(/email_scans_one_open_idx/);
  });
});

describe('the hourly scan of connected mailboxes', () => {
  it('opens a scan and queues its job for each connected mailbox not synced since, and no other', async () => {
    const stale = await createUser(db.sql);
    const fresh = await createUser(db.sql);
    const revoked = await createUser(db.sql);
    const busy = await createUser(db.sql);
    for (const [owner, status, synced] of [
      [stale, 'connected', '2 hours'],
      [fresh, 'connected', '1 minute'],
      [revoked, 'revoked', '2 hours'],
      [busy, 'connected', '2 hours'],
    ] as const) {
      await db.sql`insert into public.email_connections (user_id, provider, status, last_synced_at, history_id)
                   values (${owner.id}, 'gmail', ${status}, now() - ${synced}::interval, '1234')`;
    }
    await db.sql`insert into public.email_scans (user_id, provider, status) values (${busy.id}, 'gmail', 'scanning')`;

    const [first] = await db.sql<{ n: number }[]>`select private.open_due_email_scans(now() - interval '1 hour') as n`;
    const scans = await db.sql`
      select s.user_id, s.mode, s.status from public.email_scans s
       where s.user_id in (${stale.id}, ${fresh.id}, ${revoked.id}, ${busy.id}) order by s.id`;
    expect(scans.map((s) => [s.user_id, s.mode, s.status])).toEqual([
      [busy.id, 'full', 'scanning'],
      [stale.id, 'incremental', 'queued'],
    ]);
    expect(first?.n).toBeGreaterThanOrEqual(1);
    const [job] = await db.sql`select kind, payload from public.jobs where payload ->> 'userId' = ${stale.id}`;
    expect(job).toMatchObject({ kind: 'email_scan', payload: { userId: stale.id } });
    // an open scan is not opened twice
    await db.sql`select private.open_due_email_scans(now() - interval '1 hour')`;
    const [count] = await db.sql<{ n: number }[]>`
      select count(*)::int as n from public.email_scans where user_id = ${stale.id}`;
    expect(count?.n).toBe(1);
  });
});

describe('flights found past the plan limit', () => {
  it('are kept but not watched, do not count against the limit, and are promoted when there is room', async () => {
    const fresh = await createUser(db.sql);
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push(await createFlight(db.sql, fresh.id));
    // a sixth is refused as a watched flight, and fits as found, not watched
    await expect(createFlight(db.sql, fresh.id)).rejects.toThrow(/Flight limit reached/);
    const found = await createFlight(db.sql, fresh.id, { is_manual_entry: false, over_limit: true } as never);
    const watched = async () =>
      (
        await db.sql<{ n: number }[]>`
          select count(*)::int as n from public.flights f where f.user_id = ${fresh.id} and private.flight_is_watched(f)`
      )[0]?.n;
    expect(await watched()).toBe(5);

    const [none] = await db.sql<{ n: number }[]>`select private.promote_found_flights(${fresh.id}) as n`;
    expect(none?.n).toBe(0);
    await db.sql`delete from public.flights where id = ${ids[0] ?? 0}`;
    const [one] = await db.sql<{ n: number }[]>`select private.promote_found_flights(${fresh.id}) as n`;
    expect(one?.n).toBe(1);
    expect(await watched()).toBe(5);
    const [row] = await db.sql`select over_limit from public.flights where id = ${found}`;
    expect(row?.over_limit).toBe(false);
  });
});
