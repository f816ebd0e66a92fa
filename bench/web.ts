// `npm run -s bench:web`: builds the web app (into a temporary directory, so a running stack's
// web/dist is left alone) and prints the gzipped JavaScript the landing route's first visit
// loads: the entry chunk, the landing page's lazy chunk, and every chunk they import statically
// (what the browser fetches through <script>, modulepreload and the page's import). Each chunk
// is gzipped on its own, as a server sends it. Nothing else loads on that visit: TanStack Query,
// Chakra's slot recipes and the toast store load with the first other route, menu or toast (see
// web/src/lib/query-runtime-loader.ts, web/src/app/theme.ts). Lines: one per chunk, largest
// first, and on the last line the landing route's total. Target (issue 4): under 150 KB.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const LANDING = 'src/features/landing/landing-page.tsx';

const webDir = path.resolve(import.meta.dirname, '../web');
const outDir = mkdtempSync(path.join(os.tmpdir(), 'fareback-web-bench-'));
try {
  execFileSync('npx', ['vite', 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'], {
    cwd: webDir,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const manifest = JSON.parse(readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest;
  const entry = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!entry) throw new Error('the build has no entry chunk');

  const closure = (keys: string[], seen = new Set<string>()): Set<string> => {
    for (const key of keys) {
      if (seen.has(key)) continue;
      seen.add(key);
      closure(manifest[key]?.imports ?? [], seen);
    }
    return seen;
  };
  const gzipped = (key: string): number => {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`no chunk ${key} in the manifest`);
    return gzipSync(readFileSync(path.join(outDir, chunk.file))).length;
  };
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

  if (!manifest[LANDING]) throw new Error(`${LANDING} is not a chunk: is the landing route still lazy?`);
  const chunks = [...closure([entry, LANDING])].map((key) => ({ key, bytes: gzipped(key) }));
  chunks.sort((a, b) => b.bytes - a.bytes);
  for (const { key, bytes } of chunks) console.log(`  ${kb(bytes).padStart(9)}  ${key}`);
  const total = chunks.reduce((sum, chunk) => sum + chunk.bytes, 0);
  console.log(`landing route: ${kb(total)} of gzipped JavaScript in ${chunks.length} chunks`);
} finally {
  rmSync(outDir, { recursive: true, force: true });
}
