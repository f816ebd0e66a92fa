// The row-level security matrix: every table, for a visitor (anon), two travellers, an admin and
// the service role, each of select / insert / update / delete. Each cell is either the number of
// rows the statement returned or affected, or DENIED (SQLSTATE 42501: no grant, a policy's
// check, or a guard trigger). Every attempt runs in a transaction that is rolled back, so all
// cells start from the same world.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DENIED,
  actAs,
  anon,
  attempt,
  createAutoRebookingLog,
  createBillingTransaction,
  createContactMessage,
  createEmailConnection,
  createFareSourceCall,
  createFlight,
  createFlightBooking,
  createFlightPrice,
  createJob,
  createNotification,
  createPlan,
  createPriceCheckLog,
  createRebooking,
  createUser,
  flightInput,
  openTestDatabase,
  serviceRole,
  user,
  type Actor,
  type Outcome,
  type TestDb,
  type TestUser,
  type Tx,
} from './factories.ts';

type ActorName = 'anon' | 'userA' | 'userB' | 'admin' | 'service';
type Command = 'select' | 'insert' | 'update' | 'delete';
type Cell = number | 'denied';

interface World {
  a: TestUser;
  b: TestUser;
  admin: TestUser;
  flights: Record<'a' | 'b' | 'admin', number>;
}

interface Statement {
  run: (tx: Tx) => Promise<{ count: number }>;
  setup?: (tx: Tx) => Promise<unknown>;
}

interface TableCase {
  table: string;
  statements: (world: World, actor: ActorName) => Record<Command, Statement>;
  /** [select, insert, update, delete] per actor */
  expected: Record<ActorName, [Cell, Cell, Cell, Cell]>;
}

const D = 'denied' as const;
const actors: ActorName[] = ['anon', 'userA', 'userB', 'admin', 'service'];
const commands: Command[] = ['select', 'insert', 'update', 'delete'];

/** The user an actor acts as; anon and the service role write on user A's behalf. */
function ownerOf(world: World, actor: ActorName): { id: string; flightId: number } {
  if (actor === 'userB') return { id: world.b.id, flightId: world.flights.b };
  if (actor === 'admin') return { id: world.admin.id, flightId: world.flights.admin };
  return { id: world.a.id, flightId: world.flights.a };
}

/** A fresh auth user (and so a profile), created as the superuser inside the attempt's transaction. */
function freshAuthUser(id: string) {
  return (tx: Tx) =>
    tx`insert into auth.users (id, email, raw_user_meta_data) values (${id}, ${`${id}@example.com`}, '{}'::jsonb)`;
}

const tables: TableCase[] = [
  {
    table: 'profiles',
    statements: () => {
      const id = randomUUID();
      return {
        select: { run: (tx) => tx`select id from public.profiles` },
        insert: {
          // the trigger made a profile for the new auth user; remove it so only privileges decide
          setup: async (tx) => {
            await freshAuthUser(id)(tx);
            await tx`delete from public.profiles where id = ${id}`;
          },
          run: (tx) =>
            tx`insert into public.profiles (id, username, email) values (${id}, ${`u${id.slice(0, 8)}`}, ${`${id}@example.com`})`,
        },
        update: { run: (tx) => tx`update public.profiles set notify_price_drops = not notify_price_drops` },
        // every profile but the admin's: removing the last admin is refused with its own code
        // (FBADM, supabase/tests/admin-audit.test.ts)
        delete: { run: (tx) => tx`delete from public.profiles where not is_admin` },
      };
    },
    expected: {
      anon: [D, D, D, D],
      userA: [1, D, 1, D],
      userB: [1, D, 1, D],
      // an admin may see every profile, but on other users may change only is_admin
      admin: [3, D, D, D],
      service: [3, 1, 3, 2],
    },
  },
  {
    table: 'flights',
    statements: (world, actor) => {
      const owner = ownerOf(world, actor);
      return {
        select: { run: (tx) => tx`select id from public.flights` },
        insert: { run: (tx) => tx`insert into public.flights ${tx({ user_id: owner.id, ...flightInput() })}` },
        update: { run: (tx) => tx`update public.flights set notes = 'Aisle seat, please'` },
        delete: { run: (tx) => tx`delete from public.flights` },
      };
    },
    expected: {
      // only the api writes flights, on its service connection, after retrieving the booking
      // (migration 20261122000500_flights_and_prices.sql); travellers read and remove their own
      anon: [D, D, D, D],
      userA: [1, D, D, 1],
      userB: [1, D, D, 1],
      admin: [3, D, D, 1],
      service: [3, 1, 3, 3],
    },
  },
  {
    table: 'flight_prices',
    statements: (world, actor) => {
      const owner = ownerOf(world, actor);
      return {
        select: { run: (tx) => tx`select id from public.flight_prices` },
        insert: {
          run: (tx) =>
            tx`insert into public.flight_prices (flight_id, user_id, price) values (${owner.flightId}, ${owner.id}, 39900)`,
        },
        update: { run: (tx) => tx`update public.flight_prices set price = price + 1` },
        delete: { run: (tx) => tx`delete from public.flight_prices` },
      };
    },
    expected: {
      anon: [D, D, D, D],
      userA: [1, D, D, D],
      userB: [1, D, D, D],
      admin: [3, D, D, D],
      service: [3, 1, 3, 3],
    },
  },
  {
    table: 'notification_history',
    statements: (world, actor) => {
      const owner = ownerOf(world, actor);
      return {
        select: { run: (tx) => tx`select id from public.notification_history` },
        insert: {
          run: (tx) => tx`insert into public.notification_history (user_id, flight_id, type, data)
                          values (${owner.id}, ${owner.flightId}, 'rebooking', '{"credit": 4000}')`,
        },
        update: { run: (tx) => tx`update public.notification_history set read_at = now()` },
        delete: { run: (tx) => tx`delete from public.notification_history` },
      };
    },
    expected: {
      anon: [D, D, D, D],
      userA: [1, D, 1, D],
      userB: [1, D, 1, D],
      admin: [3, D, 1, D],
      service: [3, 1, 3, 3],
    },
  },
  {
    table: 'billing_transactions',
    statements: (world, actor) => {
      const owner = ownerOf(world, actor);
      return {
        select: { run: (tx) => tx`select id from public.billing_transactions` },
        insert: {
          run: (tx) => tx`insert into public.billing_transactions (user_id, amount, type, status)
                          values (${owner.id}, 1000, 'commission', 'completed')`,
        },
        update: { run: (tx) => tx`update public.billing_transactions set status = 'refunded'` },
        delete: { run: (tx) => tx`delete from public.billing_transactions` },
      };
    },
    expected: {
      anon: [D, D, D, D],
      userA: [1, D, 0, D],
      userB: [1, D, 0, D],
      admin: [3, D, 3, D],
      service: [3, 1, 3, 3],
    },
  },
  {
    table: 'subscription_plans',
    statements: () => ({
      select: { run: (tx) => tx`select id from public.subscription_plans` },
      insert: {
        run: (tx) => tx`insert into public.subscription_plans (name, price, flight_limit, commission_rate)
                        values ('Business', 9900, 50, 20)`,
      },
      update: { run: (tx) => tx`update public.subscription_plans set description = 'Updated description'` },
      // the plans nobody is on (a plan in use cannot go: the profiles' foreign key)
      delete: {
        run: (tx) =>
          tx`delete from public.subscription_plans sp
              where not exists (select 1 from public.profiles p where p.plan_id = sp.id)`,
      },
    }),
    expected: {
      // two active plans and one inactive; plans are never deleted, only retired
      anon: [2, D, D, D],
      userA: [2, D, 0, D],
      userB: [2, D, 0, D],
      admin: [3, 1, 3, D],
      service: [3, 1, 3, 2],
    },
  },
  {
    table: 'price_check_logs',
    statements: () => ({
      select: { run: (tx) => tx`select id from public.price_check_logs` },
      insert: { run: (tx) => tx`insert into public.price_check_logs (total_flights_checked) values (1)` },
      update: { run: (tx) => tx`update public.price_check_logs set success = false` },
      delete: { run: (tx) => tx`delete from public.price_check_logs` },
    }),
    expected: {
      anon: [D, D, D, D],
      userA: [0, D, D, D],
      userB: [0, D, D, D],
      admin: [2, D, D, D],
      service: [2, 1, 2, 2],
    },
  },
  {
    table: 'auto_rebooking_logs',
    statements: () => ({
      select: { run: (tx) => tx`select id from public.auto_rebooking_logs` },
      insert: { run: (tx) => tx`insert into public.auto_rebooking_logs (total_flights_evaluated) values (1)` },
      update: { run: (tx) => tx`update public.auto_rebooking_logs set success = false` },
      delete: { run: (tx) => tx`delete from public.auto_rebooking_logs` },
    }),
    expected: {
      anon: [D, D, D, D],
      userA: [0, D, D, D],
      userB: [0, D, D, D],
      admin: [2, D, D, D],
      service: [2, 1, 2, 2],
    },
  },
  {
    table: 'contact_messages',
    statements: (world, actor) => {
      const owner = ownerOf(world, actor);
      return {
        select: { run: (tx) => tx`select id from public.contact_messages` },
        insert: {
          // only the api inserts, on its service connection (migration 20261122001000_contact.sql)
          run: (tx) =>
            actor === 'anon'
              ? tx`insert into public.contact_messages (name, email, subject, message)
                   values ('Visitor', 'visitor@example.com', 'Pricing question', 'Is premium billed yearly?')`
              : tx`insert into public.contact_messages (user_id, name, email, subject, message)
                   values (${owner.id}, 'Member', 'member@example.com', 'Pricing question', 'Is premium billed yearly?')`,
        },
        update: { run: (tx) => tx`update public.contact_messages set status = 'read'` },
        delete: { run: (tx) => tx`delete from public.contact_messages` },
      };
    },
    expected: {
      anon: [D, D, D, D],
      userA: [0, D, 0, D],
      userB: [0, D, 0, D],
      admin: [3, D, 3, D],
      service: [3, 1, 3, 3],
    },
  },
  {
    table: 'email_connections',
    statements: () => {
      const id = randomUUID();
      return {
        // only the columns users are granted; the token columns are tested in email-connections.test.ts
        select: { run: (tx) => tx`select id, user_id, provider, status from public.email_connections` },
        insert: {
          setup: freshAuthUser(id),
          run: (tx) => tx`insert into public.email_connections (user_id, provider_account_email, access_token_encrypted)
                          values (${id}, 'new@gmail.com', 'enc:v1:abc')`,
        },
        update: { run: (tx) => tx`update public.email_connections set status = 'expired'` },
        delete: { run: (tx) => tx`delete from public.email_connections` },
      };
    },
    expected: {
      anon: [D, D, D, D],
      userA: [1, D, D, 1],
      userB: [1, D, D, 1],
      // mailbox connections are private even from admins
      admin: [1, D, D, 1],
      service: [3, 1, 3, 3],
    },
  },
  {
    table: 'jobs',
    statements: () => ({
      select: { run: (tx) => tx`select id from public.jobs` },
      insert: { run: (tx) => tx`insert into public.jobs (kind) values ('price_check')` },
      update: { run: (tx) => tx`update public.jobs set run_at = now()` },
      delete: { run: (tx) => tx`delete from public.jobs` },
    }),
    expected: {
      anon: [D, D, D, D],
      userA: [0, D, D, D],
      userB: [0, D, D, D],
      // two price checks, and each of the three flights' first_price_check (queued as it was added)
      admin: [5, D, D, D],
      service: [5, 1, 5, 5],
    },
  },
  {
    table: 'private.flight_bookings',
    statements: (world, actor) => {
      const owner = ownerOf(world, actor);
      let flightId = 0;
      return {
        select: { run: (tx) => tx`select flight_id from private.flight_bookings` },
        insert: {
          // a flight retrieved just now, its booking not yet kept
          setup: async (tx) => {
            flightId = await createFlight(tx, owner.id);
          },
          run: (tx) => tx`insert into private.flight_bookings (flight_id, user_id, source, airline, booking_code,
                            passenger_last_name, price_paid, currency, fare_changeable, rebooking_method, booking)
                          values (${flightId}, ${owner.id}, 'simulated', 'Delta Air Lines', 'FORGED', 'Smith',
                                  2000000000, 'USD', true, 'source', '{}'::jsonb)`,
        },
        update: { run: (tx) => tx`update private.flight_bookings set price_paid = 2000000000` },
        delete: { run: (tx) => tx`delete from private.flight_bookings` },
      };
    },
    expected: {
      anon: [D, D, D, D],
      userA: [D, D, D, D],
      userB: [D, D, D, D],
      admin: [D, D, D, D],
      // what the fare source returned is the api's alone: rebookings read it instead of the flight row
      service: [3, 1, 3, 3],
    },
  },
  {
    table: 'private.rebookings',
    statements: (world, actor) => {
      const owner = ownerOf(world, actor);
      return {
        select: { run: (tx) => tx`select id from private.rebookings` },
        insert: {
          run: (tx) => tx`insert into private.rebookings (flight_id, user_id, method)
                          values (${owner.flightId}, ${owner.id}, 'source')`,
        },
        update: { run: (tx) => tx`update private.rebookings set state = 'released'` },
        delete: { run: (tx) => tx`delete from private.rebookings` },
      };
    },
    expected: {
      anon: [D, D, D, D],
      userA: [D, D, D, D],
      userB: [D, D, D, D],
      admin: [D, D, D, D],
      // the record of every attempt outlives the flight card, so not even the api deletes it
      service: [2, 1, 2, D],
    },
  },
  {
    table: 'private.fare_source_calls',
    statements: (world, actor) => {
      const owner = ownerOf(world, actor);
      return {
        select: { run: (tx) => tx`select id from private.fare_source_calls` },
        insert: {
          run: (tx) => tx`insert into private.fare_source_calls (user_id, flight_id, kind)
                          values (${owner.id}, ${owner.flightId}, 'check')`,
        },
        update: { run: (tx) => tx`update private.fare_source_calls set called_at = now() - interval '1 day'` },
        delete: { run: (tx) => tx`delete from private.fare_source_calls` },
      };
    },
    expected: {
      anon: [D, D, D, D],
      userA: [D, D, D, D],
      userB: [D, D, D, D],
      admin: [D, D, D, D],
      // the api counts calls and prunes old ones; it never rewrites when a call was made
      service: [2, 1, D, 2],
    },
  },
  {
    table: 'admin_audit_log',
    statements: () => ({
      select: { run: (tx) => tx`select id from public.admin_audit_log` },
      insert: {
        run: (tx) => tx`insert into public.admin_audit_log (actor_name, action, target_type)
                        values ('forger', 'admin.grant', 'user')`,
      },
      update: { run: (tx) => tx`update public.admin_audit_log set actor_name = 'someone else'` },
      delete: { run: (tx) => tx`delete from public.admin_audit_log` },
    }),
    expected: {
      // the admin's grant and the Legacy plan's creation; written only by
      // private.record_admin_action, changed by nobody (the owner too: admin-audit.test.ts)
      anon: [D, D, D, D],
      userA: [0, D, D, D],
      userB: [0, D, D, D],
      admin: [2, D, D, D],
      service: [2, D, D, D],
    },
  },
  {
    table: 'private.login_attempts',
    statements: () => ({
      select: { run: (tx) => tx`select id from private.login_attempts` },
      insert: { run: (tx) => tx`insert into private.login_attempts (ip, account) values ('198.51.100.7', 'pat')` },
      update: { run: (tx) => tx`update private.login_attempts set succeeded = true` },
      delete: { run: (tx) => tx`delete from private.login_attempts` },
    }),
    expected: {
      anon: [D, D, D, D],
      userA: [D, D, D, D],
      userB: [D, D, D, D],
      admin: [D, D, D, D],
      // the api's system connection records and prunes attempts; it never rewrites them
      service: [2, 1, D, 2],
    },
  },
  {
    table: 'airline_rules',
    statements: () => ({
      select: { run: (tx) => tx`select id from public.airline_rules where airline_code = 'AA'` },
      insert: {
        run: (tx) => tx`insert into public.airline_rules (airline_code, airline_name, fare_pattern, fare_label,
                          valid_from, change_allowed, refund_form, rebooking_mode, source)
                        values ('ZZ', 'Forged Air', '*', 'all fares', '2020-01-01', true, 'cash', 'automatic',
                                'a test')`,
      },
      update: {
        run: (tx) => tx`update public.airline_rules set rebooking_mode = 'automatic' where airline_code = 'AA'`,
      },
      delete: { run: (tx) => tx`delete from public.airline_rules where airline_code = 'AA'` },
    }),
    expected: {
      // what airlines publish: every signed-in reader; written by the api after requireAdmin
      // (audited there), never deleted (a rule is closed by its validTo)
      anon: [D, D, D, D],
      userA: [2, D, D, D],
      userB: [2, D, D, D],
      admin: [2, D, D, D],
      service: [2, 1, 2, D],
    },
  },
  {
    table: 'airline_automation_pauses',
    statements: () => ({
      select: { run: (tx) => tx`select airline_code from public.airline_automation_pauses` },
      insert: {
        run: (tx) => tx`insert into public.airline_automation_pauses (airline_code, reason) values ('AA', 'forged')`,
      },
      update: { run: (tx) => tx`update public.airline_automation_pauses set reason = 'changed'` },
      delete: { run: (tx) => tx`delete from public.airline_automation_pauses` },
    }),
    expected: {
      // the kill switch: read by every card, switched only through private.set_airline_automation
      anon: [D, D, D, D],
      userA: [1, D, D, D],
      userB: [1, D, D, D],
      admin: [1, D, D, D],
      service: [1, D, D, D],
    },
  },
  {
    table: 'airlines',
    statements: () => ({
      select: { run: (tx) => tx`select code from public.airlines where code in ('AA', 'DL')` },
      insert: { run: (tx) => tx`insert into public.airlines (code, name) values ('ZZ', 'Forged Air')` },
      update: { run: (tx) => tx`update public.airlines set automatic_rebooking = true where code = 'AA'` },
      delete: { run: (tx) => tx`delete from public.airlines where code = 'AA'` },
    }),
    expected: {
      // read by the api only; service_role keeps Supabase's defaults (20261122000100_platform.sql)
      anon: [D, D, D, D],
      userA: [D, D, D, D],
      userB: [D, D, D, D],
      admin: [D, D, D, D],
      service: [2, 1, 1, 1],
    },
  },
  ...(['private.price_drops', 'private.closed_account_ledger'] as const).map((table): TableCase => ({
    table,
    statements: () => ({
      select: { run: (tx) => tx`select 1 from ${tx.unsafe(table)}` },
      insert: { run: (tx) => tx`insert into ${tx.unsafe(table)} default values` },
      update: { run: (tx) => tx`update ${tx.unsafe(table)} set id = id` },
      delete: { run: (tx) => tx`delete from ${tx.unsafe(table)}` },
    }),
    // the api's own: nobody but the owner role reads or writes them
    expected: {
      anon: [D, D, D, D],
      userA: [D, D, D, D],
      userB: [D, D, D, D],
      admin: [D, D, D, D],
      service: [D, D, D, D],
    },
  })),
  {
    table: 'private.rebooking_approvals',
    statements: (world) => ({
      select: { run: (tx) => tx`select id from private.rebooking_approvals` },
      insert: {
        run: (tx) => tx`insert into private.rebooking_approvals (flight_id, user_id, fare, net_savings,
                          rule_explanation, expires_at)
                        values (${world.flights.a}, ${world.a.id}, 200, 50, 'forged', now() + interval '1 hour')`,
      },
      update: { run: (tx) => tx`update private.rebooking_approvals set used_at = null, outcome = null` },
      delete: { run: (tx) => tx`delete from private.rebooking_approvals` },
    }),
    expected: {
      // the approval links' single use: the api's service connection only, kept (never deleted)
      anon: [D, D, D, D],
      userA: [D, D, D, D],
      userB: [D, D, D, D],
      admin: [D, D, D, D],
      service: [1, 1, 1, D],
    },
  },
];

let db: TestDb;
let world: World;

function actorFor(name: ActorName): Actor {
  switch (name) {
    case 'anon':
      return anon;
    case 'userA':
      return user(world.a.id);
    case 'userB':
      return user(world.b.id);
    case 'admin':
      return user(world.admin.id);
    case 'service':
      return serviceRole;
  }
}

beforeAll(async () => {
  db = await openTestDatabase();
  const { sql } = db;
  const a = await createUser(sql);
  const b = await createUser(sql);
  const admin = await createUser(sql, { admin: true });
  const flights = {
    a: await createFlight(sql, a.id),
    b: await createFlight(sql, b.id),
    admin: await createFlight(sql, admin.id),
  };
  for (const [owner, flightId] of [
    [a, flights.a],
    [b, flights.b],
    [admin, flights.admin],
  ] as const) {
    await createFlightPrice(sql, flightId, owner.id);
    await createNotification(sql, owner.id, flightId);
    await createBillingTransaction(sql, owner.id);
    await createEmailConnection(sql, owner.id);
    await createFlightBooking(sql, flightId);
  }
  await createRebooking(sql, flights.a, a.id);
  await createRebooking(sql, flights.b, b.id, 'claimed');
  await createFareSourceCall(sql, a.id, flights.a);
  await createFareSourceCall(sql, b.id, null, 'add');
  // the migrations' Free and Premium plans, every account on Free, and a retired plan nobody is on
  await createPlan(sql, { name: 'Legacy', isActive: false });
  await createPriceCheckLog(sql, null);
  await createPriceCheckLog(sql, admin.id);
  await createAutoRebookingLog(sql, null);
  await createAutoRebookingLog(sql, admin.id);
  await createContactMessage(sql, a.id);
  await createContactMessage(sql, b.id);
  await createContactMessage(sql, null);
  await createJob(sql, 'price_check');
  await createJob(sql, 'price_check');
  // one approval link waiting for A, and American Airlines paused (the kill switch)
  await sql`insert into private.rebooking_approvals (flight_id, user_id, fare, net_savings, rule_explanation, expires_at)
            values (${flights.a}, ${a.id}, 100, 50, 'a rule', now() + interval '1 hour')`;
  await sql`select private.set_airline_automation('AA', false, ${admin.id}::uuid, 'rls matrix')`;
  await sql`insert into private.login_attempts (ip, account, succeeded)
            values ('198.51.100.7', 'pat', false), ('198.51.100.8', 'sam', true)`;
  world = { a, b, admin, flights };
});

afterAll(async () => {
  await db?.close();
});

function describeCell(cell: Cell): string {
  return cell === 'denied' ? 'is denied' : `touches ${cell} row${cell === 1 ? '' : 's'}`;
}

describe.each(tables)('$table', (tableCase) => {
  const cells = actors.flatMap((actor) =>
    commands.map((command, index) => ({ actor, command, cell: tableCase.expected[actor][index] as Cell })),
  );

  it.each(cells)('$actor $command', async ({ actor, command, cell }) => {
    const statement = tableCase.statements(world, actor)[command];
    const outcome: Outcome = await attempt(db.sql, actorFor(actor), statement.run, { setup: statement.setup });
    const expected: Outcome | { error: string } = cell === 'denied' ? { error: DENIED } : { rows: cell };
    expect(outcome, `${tableCase.table}: ${actor} ${command} ${describeCell(cell)}`).toMatchObject(expected);
  });
});

describe('each traveller sees only their own rows', () => {
  const owned = [
    'flights',
    'flight_prices',
    'notification_history',
    'billing_transactions',
    'email_connections',
  ] as const;

  it.each(owned)('%s', async (table) => {
    for (const who of ['a', 'b'] as const) {
      const me = world[who];
      const rows = await attemptRows(me.id, table);
      expect(rows.length).toBe(1);
      expect(rows.every((r) => r.user_id === me.id)).toBe(true);
    }
  });

  it('profiles', async () => {
    const rows = await attemptRows(world.a.id, 'profiles');
    expect(rows.map((r) => r.id)).toEqual([world.a.id]);
  });
});

async function attemptRows(userId: string, table: string): Promise<{ id: string; user_id?: string }[]> {
  // table names come from the fixed lists above
  const columns = table === 'profiles' ? 'id::text as id' : 'id::text as id, user_id::text as user_id';
  return actAs(db.sql, user(userId), async (tx) => [
    ...(await tx.unsafe<{ id: string; user_id?: string }[]>(`select ${columns} from public.${table}`)),
  ]);
}
