// Where the shared fixtures (`shared/fixtures/` beside the repository) are: `FAREBACK_SHARED_DIR`
// when set (CI sets it for a clone that does not sit beside `shared/`), else `../shared` next to
// the repository. Never a path of one machine.
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../..');

/** The email corpus with its truth, or undefined when no shared directory is found. */
export function emailCorpusDir(): string | undefined {
  const candidates = [process.env.FAREBACK_SHARED_DIR, resolve(repoRoot, '../shared')]
    .filter((dir): dir is string => Boolean(dir))
    .map((dir) => resolve(dir, 'fixtures/emails'));
  return candidates.find((path) => existsSync(path));
}
