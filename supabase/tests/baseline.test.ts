// The baseline (supabase/migrations/, one file per area) builds the same schema as the history it
// replaced (supabase/migrations-archive/), except the differences baseline-differences.ts lists
// and gives a reason for. Each history migrates a fresh database; dev/db/catalog.ts reads both
// (tables, columns, constraints, indexes, policies, functions with their bodies, triggers, views,
// types, grants, default privileges, comments, extensions, the rows migrations insert) and the
// differences must be exactly the listed ones. The same comparison runs again on two throwaway
// clusters with pg_cron loaded, where the migrations schedule their cron jobs, so the jobs are
// compared too.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { diffCatalogs, dumpCatalog, formatDifference, type Catalog } from '../../dev/db/catalog.ts';
import { migrate, migrationsDir } from '../../dev/db/migrate.ts';
import { createTestDatabase } from '../../dev/db/test-db.ts';
import { intendedDifferences } from './baseline-differences.ts';
import { pgCronMissing, startPgCronCluster } from './pg-cron-cluster.ts';

const archiveDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../migrations-archive');

function requireArchive(): void {
  if (!existsSync(archiveDir)) {
    throw new Error(
      'supabase/migrations-archive/ is missing: this test compares the baseline with the migration history it replaced, kept there until the baseline lands',
    );
  }
}

async function catalogOf(url: string): Promise<Catalog> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    return await dumpCatalog(sql);
  } finally {
    await sql.end();
  }
}

/** Fails, naming each, on a difference not listed and on a listed one that did not occur. */
function expectOnlyIntendedDifferences(old: Catalog, baseline: Catalog): void {
  const differences = diffCatalogs(old, baseline);
  const intended = new Set(intendedDifferences.map((d) => d.key));
  const found = new Set(differences.map((d) => d.key));
  const unexpected = differences.filter((d) => !intended.has(d.key));
  // a cron job can differ only where pg_cron is: the plain server's catalogs have none
  const hasCron = [...Object.keys(old), ...Object.keys(baseline)].some((key) => key.startsWith('cron job '));
  const missing = intendedDifferences.filter((d) => !found.has(d.key) && (hasCron || !d.key.startsWith('cron job ')));
  const report = [
    ...(unexpected.length
      ? [`${unexpected.length} difference(s) not in baseline-differences.ts:`, ...unexpected.map(formatDifference)]
      : []),
    ...(missing.length
      ? [
          `${missing.length} intended difference(s) that did not occur (remove them from baseline-differences.ts):`,
          ...missing.map((d) => `${d.key}  (${d.reason})`),
        ]
      : []),
  ].join('\n');
  expect(unexpected.length + missing.length, report).toBe(0);
}

describe('the baseline builds the schema of the archived history', () => {
  it('lists each intended difference once, with a reason', () => {
    const keys = intendedDifferences.map((d) => d.key);
    expect(keys.filter((key, i) => keys.indexOf(key) !== i)).toEqual([]);
    expect(intendedDifferences.filter((d) => d.reason.trim().length < 10)).toEqual([]);
  });

  it('on the test server: the catalogs differ only as listed', async () => {
    requireArchive();
    const [old, baseline] = await Promise.all([
      createTestDatabase({ migrationsDir: archiveDir }),
      createTestDatabase({ migrationsDir }),
    ]);
    try {
      const [oldCatalog, baselineCatalog] = await Promise.all([catalogOf(old.url), catalogOf(baseline.url)]);
      expectOnlyIntendedDifferences(oldCatalog, baselineCatalog);
    } finally {
      await Promise.all([old.close(), baseline.close()]);
    }
  }, 120_000);

  if (pgCronMissing) console.warn(`SKIPPED the baseline comparison with pg_cron: ${pgCronMissing}`);

  it.skipIf(pgCronMissing !== null)(
    'with pg_cron loaded: the catalogs, cron jobs included, differ only as listed',
    async () => {
      requireArchive();
      const clusters = await Promise.allSettled([startPgCronCluster(), startPgCronCluster()]);
      try {
        const [old, baseline] = clusters.map((c) => {
          if (c.status === 'rejected') throw c.reason;
          return c.value;
        });
        await Promise.all([migrate(old!.url, { dir: archiveDir }), migrate(baseline!.url, { dir: migrationsDir })]);
        const [oldCatalog, baselineCatalog] = await Promise.all([catalogOf(old!.url), catalogOf(baseline!.url)]);
        expect(Object.keys(oldCatalog).some((key) => key.startsWith('cron job '))).toBe(true);
        expectOnlyIntendedDifferences(oldCatalog, baselineCatalog);
      } finally {
        await Promise.all(clusters.map((c) => (c.status === 'fulfilled' ? c.value.stop() : undefined)));
      }
    },
    120_000,
  );
});
