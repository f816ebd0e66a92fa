import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * The layering of STYLE.md, checked on every import: `app/` composes, and so do the entry points
 * (main.tsx in the browser, entry-server.tsx at build time); shared code (components, hooks, lib,
 * testing) never imports a feature or the app; a feature never imports another feature or the app.
 */

const entryPoints = new Set(['main.tsx', 'entry-server.tsx', 'entry-server.test.tsx']);

const root = join(__dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Import specifiers resolved to a path under src/ ('features/auth/api'), or null if outside. */
function localImports(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  const specifiers = [...source.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((m) => m[1] ?? '');
  return specifiers.flatMap((specifier) => {
    if (specifier.startsWith('@/')) return [specifier.slice(2)];
    if (specifier.startsWith('.')) {
      return [
        relative(root, join(file, '..', specifier))
          .split(sep)
          .join('/'),
      ];
    }
    return [];
  });
}

function areaOf(path: string): string {
  const [top, second] = path.split('/');
  return top === 'features' ? `features/${second}` : (top ?? '');
}

describe('import boundaries', () => {
  it('keeps shared code free of features and the app, and features apart', () => {
    const violations: string[] = [];
    for (const file of sourceFiles(root)) {
      const from = relative(root, file).split(sep).join('/');
      const fromArea = areaOf(from);
      if (fromArea === 'app' || entryPoints.has(from)) continue;
      for (const target of localImports(file)) {
        const toArea = areaOf(target);
        const isFeature = toArea.startsWith('features/');
        const crossesFeature = isFeature && toArea !== fromArea;
        const reachesApp = toArea === 'app';
        // Test helpers may render the whole app.
        const allowed = fromArea === 'testing' && reachesApp;
        if ((crossesFeature || reachesApp) && !allowed) violations.push(`${from} -> ${target}`);
      }
    }
    expect(violations).toEqual([]);
  });
});
