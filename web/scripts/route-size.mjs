// Prints the gzipped JavaScript each route's first visit loads: the entry chunk, the route's
// lazy page chunk, and every chunk they import statically. Run after `vite build`.
//   node scripts/route-size.mjs [src/features/landing/landing-page.tsx ...]
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const dist = new URL('../dist/', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('.vite/manifest.json', dist), 'utf8'));

function closure(keys, seen = new Set()) {
  for (const key of keys) {
    if (seen.has(key)) continue;
    seen.add(key);
    closure(manifest[key]?.imports ?? [], seen);
  }
  return seen;
}

const gz = (file) => gzipSync(readFileSync(new URL(file, dist))).length;
const entry = Object.keys(manifest).find((key) => manifest[key].isEntry);
const pages = process.argv.slice(2);
const routes = pages.length
  ? pages
  : [
      'src/features/landing/landing-page.tsx',
      'src/features/auth/pages/login-page.tsx',
      'src/app/routes/dashboard.tsx',
      'src/features/admin/admin-page.tsx',
    ];

for (const page of routes) {
  if (!manifest[page]) {
    console.log(`${page}: not a chunk in the manifest`);
    continue;
  }
  const chunks = [...closure([entry, page])];
  const bytes = chunks.reduce((sum, key) => sum + gz(manifest[key].file), 0);
  console.log(`${page}: ${(bytes / 1024).toFixed(1)} KB gzipped JS in ${chunks.length} chunks`);
}
