// The layout of supabase/migrations/: one file per area (docs/architecture.md "Migrations"), each
// function, policy and trigger created in exactly one place. A change to an object edits its
// area's file (until the first deploy); a second `create or replace function` of the same name,
// in another file or further down the same one, is the shape this layout replaced. Reads the SQL
// text only: no database.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrationsDir } from '../../dev/db/migrate.ts';

const MAX_FILES = 20;

const files = readdirSync(migrationsDir)
  .filter((file) => file.endsWith('.sql'))
  .sort();

/** The file's statements without `--` comments, which often name the objects they explain. */
function sqlOf(file: string): string {
  return readFileSync(path.join(migrationsDir, file), 'utf8')
    .split('\n')
    .map((line) => line.replace(/--.*$/, ''))
    .join('\n');
}

/** Each name the pattern's first group captures, with every file (once per occurrence) it occurs in. */
function occurrences(pattern: RegExp, name: (match: RegExpMatchArray) => string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of files) {
    for (const match of sqlOf(file).matchAll(pattern)) {
      const key = name(match);
      found.set(key, [...(found.get(key) ?? []), file]);
    }
  }
  return found;
}

function createdMoreThanOnce(found: Map<string, string[]>): Record<string, string[]> {
  return Object.fromEntries([...found].filter(([, where]) => where.length > 1));
}

const unquote = (identifier: string) => identifier.toLowerCase().replaceAll('"', '');

describe('supabase/migrations', () => {
  it(`holds at most ${MAX_FILES} files, each named YYYYMMDDHHMMSS_area.sql`, () => {
    expect(files.length).toBeGreaterThan(0);
    expect(files.length).toBeLessThanOrEqual(MAX_FILES);
    expect(files.filter((file) => !/^\d{14}_[a-z0-9_]+\.sql$/.test(file))).toEqual([]);
    expect(readdirSync(migrationsDir).filter((file) => !file.endsWith('.sql'))).toEqual([]);
  });

  it('creates each function name once, in one file', () => {
    const functions = occurrences(/\bcreate\s+(?:or\s+replace\s+)?function\s+([\w."]+)\s*\(/gi, (m) => unquote(m[1]!));
    expect(functions.size).toBeGreaterThan(50);
    expect(createdMoreThanOnce(functions)).toEqual({});
  });

  it('creates each policy once', () => {
    const policies = occurrences(
      /\bcreate\s+policy\s+("[^"]+"|\w+)\s+on\s+([\w."]+)/gi,
      (m) => `${unquote(m[2]!)} ${m[1]!.replaceAll('"', '')}`,
    );
    expect(policies.size).toBeGreaterThan(20);
    expect(createdMoreThanOnce(policies)).toEqual({});
  });

  it('creates each trigger once', () => {
    const triggers = occurrences(
      /\bcreate\s+(?:or\s+replace\s+)?(?:constraint\s+)?trigger\s+(\w+)\s[\s\S]*?\bon\s+([\w."]+)/gi,
      (m) => `${unquote(m[2]!)} ${m[1]!.toLowerCase()}`,
    );
    expect(triggers.size).toBeGreaterThan(20);
    expect(createdMoreThanOnce(triggers)).toEqual({});
  });

  it('drops nothing it created: a baseline states each object in its final form', () => {
    const drops = files.flatMap((file) =>
      [...sqlOf(file).matchAll(/\bdrop\s+(function|policy|trigger|index|table|view)\b[^;]*/gi)].map(
        (m) => `${file}: ${m[0].replace(/\s+/g, ' ')}`,
      ),
    );
    expect(drops).toEqual([]);
  });
});
