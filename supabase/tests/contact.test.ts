// Contact messages: only the api stores them (anyone may send one through it), nobody but admins
// reads them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DENIED,
  anon,
  attempt,
  createContactMessage,
  createUser,
  openTestDatabase,
  serviceRole,
  user,
  type TestDb,
  type TestUser,
} from './factories.ts';

let db: TestDb;
let traveller: TestUser;
let other: TestUser;
let admin: TestUser;

beforeAll(async () => {
  db = await openTestDatabase();
  traveller = await createUser(db.sql);
  other = await createUser(db.sql);
  admin = await createUser(db.sql, { admin: true });
});

afterAll(async () => {
  await db?.close();
});

const message = {
  name: 'Pat Traveller',
  email: 'pat@example.com',
  subject: 'Question about credits',
  message: 'How long does an airline credit stay valid?',
};

describe('sending a contact message', () => {
  // Only the api stores messages, on its service connection after validating and rate-limiting
  // them (migration 20261122001000_contact.sql). On Supabase an insert grant to anon or
  // authenticated is a public endpoint: POST /rest/v1/contact_messages took 1,000 rows at once.
  it('a visitor cannot insert directly, one row or a thousand', async () => {
    expect(await attempt(db.sql, anon, (tx) => tx`insert into public.contact_messages ${tx(message)}`)).toMatchObject({
      error: DENIED,
    });
    const flood = Array.from({ length: 1000 }, (_, i) => ({ ...message, subject: `Question number ${i}` }));
    expect(await attempt(db.sql, anon, (tx) => tx`insert into public.contact_messages ${tx(flood)}`)).toMatchObject({
      error: DENIED,
    });
    const [row] = await db.sql<{ n: number }[]>`
      select count(*)::int as n from public.contact_messages where subject like 'Question number %'`;
    expect(row?.n).toBe(0);
  });

  it('a traveller cannot insert directly, as themselves, anonymously or as someone else', async () => {
    for (const userId of [traveller.id, null, other.id]) {
      const row = userId === null ? message : { ...message, user_id: userId };
      expect(
        await attempt(db.sql, user(traveller.id), (tx) => tx`insert into public.contact_messages ${tx(row)}`),
      ).toMatchObject({ error: DENIED });
    }
    expect(
      await attempt(db.sql, user(admin.id), (tx) => tx`insert into public.contact_messages ${tx(message)}`),
    ).toMatchObject({ error: DENIED });
  });

  it("the system stores them, with or without the sender's account", async () => {
    expect(await attempt(db.sql, serviceRole, (tx) => tx`insert into public.contact_messages ${tx(message)}`)).toEqual({
      rows: 1,
    });
    expect(
      await attempt(
        db.sql,
        serviceRole,
        (tx) => tx`insert into public.contact_messages ${tx({ ...message, user_id: traveller.id })}`,
      ),
    ).toEqual({ rows: 1 });
  });

  it.each([
    ['a one-letter name', { name: 'P' }],
    ['a 101-character name', { name: 'P'.repeat(101) }],
    ['a malformed email', { email: 'not-an-email' }],
    ['a four-character subject', { subject: 'Help' }],
    ['a 201-character subject', { subject: 'S'.repeat(201) }],
    ['a nine-character message', { message: 'Too short' }],
    ['a 5001-character message', { message: 'M'.repeat(5001) }],
    ['a message of spaces', { message: ' '.repeat(20) }],
  ])('rejects %s', async (_what, overrides) => {
    const outcome = await attempt(
      db.sql,
      serviceRole,
      (tx) => tx`insert into public.contact_messages ${tx({ ...message, ...overrides })}`,
    );
    expect(outcome).toMatchObject({ error: '23514' });
  });

  it('accepts the minimum lengths', async () => {
    const outcome = await attempt(
      db.sql,
      serviceRole,
      (tx) =>
        tx`insert into public.contact_messages ${tx({ ...message, name: 'Al', subject: 'Hello', message: 'Ten chars!' })}`,
    );
    expect(outcome).toEqual({ rows: 1 });
  });
});

describe('handling contact messages', () => {
  it('only admins read and update them', async () => {
    const id = await createContactMessage(db.sql, traveller.id);
    expect(
      await attempt(db.sql, user(traveller.id), (tx) => tx`select id from public.contact_messages where id = ${id}`),
    ).toEqual({
      rows: 0,
    });
    expect(
      await attempt(db.sql, user(admin.id), (tx) => tx`select id from public.contact_messages where id = ${id}`),
    ).toEqual({
      rows: 1,
    });
    expect(
      await attempt(
        db.sql,
        user(admin.id),
        (tx) => tx`update public.contact_messages set status = 'replied' where id = ${id}`,
      ),
    ).toEqual({ rows: 1 });
    expect(
      await attempt(
        db.sql,
        user(admin.id),
        (tx) => tx`update public.contact_messages set message = 'rewritten' where id = ${id}`,
      ),
    ).toMatchObject({ error: DENIED });
  });

  it('rejects an unknown status', async () => {
    const id = await createContactMessage(db.sql, null);
    expect(
      await attempt(
        db.sql,
        serviceRole,
        (tx) => tx`update public.contact_messages set status = 'spam' where id = ${id}`,
      ),
    ).toMatchObject({ error: '23514' });
  });

  it('keeps the message when its sender leaves', async () => {
    const leaving = await createUser(db.sql);
    const id = await createContactMessage(db.sql, leaving.id);
    await db.sql`delete from auth.users where id = ${leaving.id}`;
    const [row] = await db.sql`select user_id from public.contact_messages where id = ${id}`;
    expect(row).toEqual({ user_id: null });
  });
});
