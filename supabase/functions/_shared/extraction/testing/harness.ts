// Test API for files that run under vitest (Node) and under `deno test` (the project's Deno
// suite walks supabase/functions/_shared). Under vitest this is vitest itself; under Deno,
// describe/it map onto Deno.test and expect is vitest's standalone expect.
import * as vitest from 'vitest';

type TestFunction = () => unknown;
interface DenoTestApi {
  test(definition: { name: string; fn: TestFunction; sanitizeOps: boolean; sanitizeResources: boolean }): void;
}
const deno = (globalThis as { Deno?: DenoTestApi }).Deno;
const prefixes: string[] = [];

function format(name: string, row: readonly unknown[]): string {
  let index = 0;
  return name.replace(/%[sdio#]/g, () => String(row[index++] ?? ''));
}

function denoIt(name: string, fn: TestFunction): void {
  deno?.test({ name: [...prefixes, name].join(' > '), fn, sanitizeOps: false, sanitizeResources: false });
}
denoIt.each =
  <T>(rows: readonly T[]) =>
  (name: string, fn: (...args: T extends readonly unknown[] ? T : [T]) => unknown): void => {
    for (const row of rows) {
      const args = (Array.isArray(row) ? row : [row]) as T extends readonly unknown[] ? T : [T];
      denoIt(format(name, args as readonly unknown[]), () => fn(...args));
    }
  };

function denoDescribe(name: string, body: () => void): void {
  prefixes.push(name);
  try {
    body();
  } finally {
    prefixes.pop();
  }
}

export const describe = (deno ? denoDescribe : vitest.describe) as typeof vitest.describe;
export const it = (deno ? denoIt : vitest.it) as typeof vitest.it;
export const expect = vitest.expect;
