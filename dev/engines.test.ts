// The Node versions `package.json` promises (and the README repeats) are ones every installed
// package accepts, so an install on a promised version prints no engine warning.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

const ours = (JSON.parse(read('package.json')) as { engines?: { node?: string } }).engines?.node ?? '';

describe('engines', () => {
  it('names a Node range', () => {
    expect(semver.validRange(ours)).not.toBeNull();
  });

  it("fits inside every installed package's own range", () => {
    const lock = JSON.parse(read('package-lock.json')) as {
      packages: Record<string, { engines?: { node?: string } | string[] }>;
    };
    const parted = Object.entries(lock.packages).flatMap(([name, pkg]) => {
      const node = Array.isArray(pkg.engines) ? undefined : pkg.engines?.node;
      if (!name || !node || !semver.validRange(node)) return [];
      return semver.subset(ours, node) ? [] : [`${name} wants ${node}`];
    });
    expect(parted).toEqual([]);
  });

  it('is what the README says', () => {
    const lowest = semver.minVersion(ours);
    expect(lowest).not.toBeNull();
    expect(read('README.md')).toContain(`Node.js ${lowest?.major}.${lowest?.minor}+`);
  });
});
