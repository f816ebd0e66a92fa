// `npm run -s bench:web`: builds the web app (into a temporary directory, so a running stack's
// web/dist is left alone), then prints two figures for the landing page.
//
// 1. The gzipped JavaScript its first visit loads: the entry chunk, the landing page's lazy chunk,
//    and every chunk they import statically (what the browser fetches through <script>,
//    modulepreload and the page's import), each chunk gzipped on its own, as a server sends it.
//    Nothing else loads on that visit: TanStack Query, Chakra's slot recipes and the toast store
//    load with the first other route, menu or toast (see web/src/lib/query-runtime-loader.ts,
//    web/src/app/theme.ts). Target: under 150 KB.
// 2. Its largest contentful paint as a mid-range phone sees it: Debian's Chromium through
//    playwright-core, 375 x 812 px, the CPU slowed 4x (CDP Emulation.setCPUThrottlingRate), a new
//    browser context (cold cache) for each of --runs (default 5) visits, the build served on
//    loopback by the gateway's own static serving and compression (dev/gateway.ts `serveWeb`,
//    `compressed`). /api answers 404
//    here, so the page shows its published Premium price, as when the plan list cannot be read.
//    Prints each run's LCP and first contentful paint and the medians. Target: LCP under 1.0 s.
//
// 3. Lighthouse's mobile preset on `/`, `/login` and the signed-in `/dashboard` (bench/lighthouse.ts):
//    the build served by a local stack (dev/stack.ts: the gateway, auth and the api, on an in-memory
//    database, or a throwaway one on TEST_DATABASE_URL), the demo premium traveller signed in;
//    performance score, LCP, CLS and total blocking time of each of --lighthouse-runs (default 3)
//    rounds, and the medians. Target: score >= 90 on each, CLS < 0.1.
//
// --dist DIR measures a build made beforehand (another branch's, say) instead of building. The last
// line is the summary.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser } from 'playwright-core';
import { createTestDatabase } from '../dev/db/test-db.ts';
import { compressed, serveWeb } from '../dev/gateway.ts';
import { anyFreePorts, demoAccounts, startStack, type Stack } from '../dev/stack.ts';
import {
  formatFigures,
  LIGHTHOUSE_PAGES,
  lighthouseRuns,
  lighthouseVersion,
  medianFigures,
  type LighthousePage,
  type PageFigures,
} from './lighthouse.ts';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    'lighthouse-runs': { type: 'string', default: '3' },
    dist: { type: 'string' },
  },
});
const runs = Number(args.runs);
const lighthouseRounds = Number(args['lighthouse-runs']);
if ([runs, lighthouseRounds].some((n) => !Number.isInteger(n) || n < 1)) {
  process.stderr.write('--runs and --lighthouse-runs must be whole numbers of at least 1\n');
  process.exit(2);
}
const chromePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const LANDING = 'src/features/landing/landing-page.tsx';
const CPU_SLOWDOWN = 4;
const VIEWPORT = { width: 375, height: 812 };

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const seconds = (millis: number) => `${(millis / 1000).toFixed(2)} s`;

function landingJavaScript(outDir: string): number {
  const manifest = JSON.parse(readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest;
  const entry = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!entry) throw new Error('the build has no entry chunk');
  if (!manifest[LANDING]) throw new Error(`${LANDING} is not a chunk: is the landing route still lazy?`);

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

  const chunks = [...closure([entry, LANDING])].map((key) => ({ key, bytes: gzipped(key) }));
  chunks.sort((a, b) => b.bytes - a.bytes);
  for (const { key, bytes } of chunks) console.log(`  ${kb(bytes).padStart(9)}  ${key}`);
  const total = chunks.reduce((sum, chunk) => sum + chunk.bytes, 0);
  console.log(`landing route: ${kb(total)} of gzipped JavaScript in ${chunks.length} chunks`);
  return total;
}

async function serve(outDir: string): Promise<{ url: string; close(): Promise<void> }> {
  const web = serveWeb(outDir);
  if (!web) throw new Error(`${outDir} has no index.html`);
  const server = http.createServer(
    compressed((req, res) => {
      if (req.url === '/api' || req.url?.startsWith('/api/')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not found"}');
        return;
      }
      web(req, res);
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface Paints {
  lcp: number;
  fcp: number;
  element: string;
}

/** One cold visit: a fresh context (empty cache), the CPU slowed, paints read once the page is idle. */
async function visit(browser: Browser, url: string): Promise<Paints> {
  const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 2, isMobile: true });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    await page.goto(url, { waitUntil: 'networkidle' });
    await page.getByRole('heading', { level: 1, name: 'Airlines Owe You Money' }).waitFor();
    return await page.evaluate(
      () =>
        new Promise<Paints>((resolve) => {
          // buffered: the entries so far arrive in the first callback; the last is the LCP
          new PerformanceObserver((list) => {
            const entries = list.getEntries() as Array<PerformanceEntry & { element?: Element | null }>;
            const last = entries.at(-1);
            const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN;
            const element = last?.element;
            const text = element
              ? `<${element.tagName.toLowerCase()}> ${element.textContent?.slice(0, 40) ?? ''}`
              : '?';
            resolve({ lcp: last?.startTime ?? NaN, fcp, element: text });
          }).observe({ type: 'largest-contentful-paint', buffered: true });
        }),
    );
  } finally {
    await context.close();
  }
}

/** Lighthouse's runs against a local stack serving the build, and each page's medians. */
async function lighthouseOnStack(webDist: string): Promise<Map<LighthousePage, PageFigures>> {
  const database = process.env.TEST_DATABASE_URL ? await createTestDatabase({ seed: true }) : undefined;
  let stack: Stack | undefined;
  try {
    stack = await startStack({
      ...(database ? { databaseUrl: database.url } : {}),
      ports: anyFreePorts,
      webDist,
      demoAccounts: true,
      ticker: false,
    });
    const premium = demoAccounts.find((account) => account.username === 'premium')!;
    console.log(`Lighthouse ${lighthouseVersion}, mobile preset, ${lighthouseRounds} rounds at ${stack.url}:`);
    const all = await lighthouseRuns({ baseUrl: stack.url, runs: lighthouseRounds, user: premium, chromePath });
    const medians = new Map<LighthousePage, PageFigures>();
    for (const page of LIGHTHOUSE_PAGES) {
      const figures = medianFigures(all.get(page)!, median);
      medians.set(page, figures);
      console.log(`median     ${formatFigures(page, figures)}`);
    }
    return medians;
  } finally {
    await stack?.stop();
    await database?.close();
  }
}

const webDir = path.resolve(import.meta.dirname, '../web');
const outDir = args.dist ? path.resolve(args.dist) : mkdtempSync(path.join(os.tmpdir(), 'fareback-web-bench-'));
try {
  if (!args.dist) {
    execFileSync('npx', ['vite', 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'], {
      cwd: webDir,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  const javascript = landingJavaScript(outDir);

  const server = await serve(outDir);
  const browser = await chromium.launch({
    executablePath: chromePath,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  const paints: Paints[] = [];
  try {
    for (let run = 1; run <= runs; run++) {
      const result = await visit(browser, server.url);
      paints.push(result);
      console.log(
        `  run ${run}: LCP ${seconds(result.lcp)}, FCP ${seconds(result.fcp)}  (LCP element: ${result.element})`,
      );
    }
  } finally {
    await browser.close();
    await server.close();
  }
  const lcp = median(paints.map((p) => p.lcp));
  const fcp = median(paints.map((p) => p.fcp));
  console.log(
    `landing page at ${VIEWPORT.width} px, CPU ${CPU_SLOWDOWN}x slower, cold cache: median LCP ${seconds(lcp)}, FCP ${seconds(fcp)} over ${runs} runs`,
  );

  const phone = await lighthouseOnStack(outDir);
  const lighthouse = LIGHTHOUSE_PAGES.map((page) => {
    const f = phone.get(page)!;
    return `${page} ${f.score} (LCP ${seconds(f.lcp)}, CLS ${f.cls.toFixed(3)}, TBT ${f.tbt.toFixed(0)} ms)`;
  }).join('; ');
  console.log(
    `summary: landing LCP ${seconds(lcp)} (target < 1.0 s), ${kb(javascript)} of gzipped JavaScript (target < 150 KB); ` +
      `Lighthouse mobile, median of ${lighthouseRounds}: ${lighthouse} (target >= 90, CLS < 0.1); load ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
  );
} finally {
  if (!args.dist) rmSync(outDir, { recursive: true, force: true });
}
