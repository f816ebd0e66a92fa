// A notification is a type and data; its email's words are written by the api's template for the
// type (supabase/functions/api/services/notification-templates/), never by whoever queues it.
// These tests read every call that queues one, in the migrated database's functions and in the
// api's SQL, and hold each to that: no text literal passed (a sentence has spaces; a type, a JSON
// key or a dedupe key has none), and a type with a template.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isNotificationType } from '../functions/api/services/notification-templates/index.ts';
import { openTestDatabase, type TestDb } from './factories.ts';

/** The functions that write notifications; alert_admins always writes 'admin_alert'. */
const QUEUEING = /\b(queue_notification|alert_admins)\s*\(/g;

interface Call {
  where: string;
  fn: string;
  args: string[];
}

/** The top-level arguments of the call whose '(' is at `open`. */
function argumentsAt(source: string, open: number): string[] {
  const args: string[] = [];
  let depth = 0;
  let current = '';
  for (let i = open; i < source.length; i += 1) {
    const c = source[i]!;
    if (c === "'") {
      // a SQL literal, '' escaping a quote
      const end = source.indexOf("'", i + 1);
      let close = end;
      while (source[close + 1] === "'") close = source.indexOf("'", close + 2);
      current += source.slice(i, close + 1);
      i = close;
      continue;
    }
    if (c === '(') {
      depth += 1;
      if (depth === 1) continue;
    } else if (c === ')') {
      depth -= 1;
      if (depth === 0) {
        args.push(current.trim());
        return args;
      }
    } else if (c === ',' && depth === 1) {
      args.push(current.trim());
      current = '';
      continue;
    }
    current += c;
  }
  throw new Error(`unbalanced call at ${open}`);
}

function callsIn(where: string, source: string): Call[] {
  return [...source.matchAll(QUEUEING)]
    .filter((match) => !/function\s+private\.$/.test(source.slice(Math.max(0, match.index - 30), match.index)))
    .map((match) => ({
      where,
      fn: match[1]!,
      args: argumentsAt(source, match.index + match[0].length - 1),
    }));
}

const literals = (arg: string): string[] => [...arg.matchAll(/'((?:[^']|'')*)'/g)].map((m) => m[1]!);

let db: TestDb;
let calls: Call[];

beforeAll(async () => {
  db = await openTestDatabase();
  const functions = await db.sql<{ name: string; source: string }[]>`
    select n.nspname || '.' || p.proname as name, p.prosrc as source
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace
     where n.nspname in ('public', 'private') and p.prosrc ~ '(queue_notification|alert_admins)\\s*\\('`;
  calls = functions.flatMap((f) => callsIn(f.name, f.source));
  // the api's SQL: template literals calling the database function
  const queries = path.join(import.meta.dirname, '../functions/api/queries');
  for (const file of await readdir(queries)) {
    if (!file.endsWith('.ts')) continue;
    const source = await readFile(path.join(queries, file), 'utf8');
    calls.push(...callsIn(`queries/${file}`, source).filter((call) => call.fn === 'queue_notification'));
  }
});

afterAll(async () => {
  await db?.close();
});

describe('whoever queues a notification', () => {
  it('is found: the SQL producers and the api', () => {
    const where = new Set(calls.map((call) => call.where));
    for (const producer of [
      'private.alert_admins',
      'private.run_notification_passes',
      'private.expire_subscriptions',
      'private.payment_failed',
      'private.payment_unapplied_refunded',
      'private.unapplied_refund_failed',
      'queries/notifications.ts',
      'queries/price-checks.ts',
      'queries/flights.ts',
    ]) {
      expect(where, producer).toContain(producer);
    }
  });

  it('passes a type and data, never a sentence', () => {
    const sentences = calls.flatMap((call) =>
      call.args
        .flatMap(literals)
        .filter((text) => /\s/.test(text))
        .map((text) => `${call.where}: '${text}'`),
    );
    expect(sentences).toEqual([]);
    for (const call of calls.filter((c) => c.fn === 'queue_notification')) {
      // (user, type, data, flight, dedupe key): five at most, no title or message
      expect(call.args.length, `${call.where}: ${call.args.join(', ')}`).toBeLessThanOrEqual(5);
    }
  });

  it('names a type that has an email template', () => {
    const types = calls
      .filter((call) => call.fn === 'queue_notification')
      .map((call) => /^'([a-z_]+)'$/.exec(call.args[1] ?? '')?.[1])
      .filter((type): type is string => type !== undefined);
    expect(types.length).toBeGreaterThan(5);
    expect(types.filter((type) => !isNotificationType(type))).toEqual([]);
  });
});
