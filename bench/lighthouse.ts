// The Lighthouse part of `npm run -s bench:web`: a phone's view of `/`, `/login` and the signed-in
// `/dashboard`, as Lighthouse's default (mobile) preset measures it: a Moto G Power sized screen,
// slow 4G and a CPU 4x slower, simulated (Lighthouse's own throttling model over an unthrottled
// load). Each is visited --lighthouse-runs times in Debian's Chromium, started by chrome-launcher
// with a fresh profile per round; a round visits `/` and `/login` as a visitor, then signs the demo
// premium traveller in (through the login form, in the same browser) and visits `/dashboard`.
// Lighthouse clears the HTTP cache before each visit (its storage reset), not localStorage, so the
// session stays. Prints each run's performance score, LCP, CLS and total blocking time, and the
// medians per page. Target: score >= 90 each, CLS < 0.1.
import { readFileSync } from 'node:fs';
import { launch, type LaunchedChrome } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';

export const lighthouseVersion = (
  JSON.parse(readFileSync(new URL('../node_modules/lighthouse/package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

export interface PageFigures {
  score: number;
  lcp: number;
  cls: number;
  tbt: number;
}

export const LIGHTHOUSE_PAGES = ['/', '/login', '/dashboard'] as const;
export type LighthousePage = (typeof LIGHTHOUSE_PAGES)[number];

/** What this machine's Chromium needs to run headless (no sandbox as root, no GPU) and stay quiet. */
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

async function audit(port: number, url: string): Promise<PageFigures> {
  const result = await lighthouse(url, { port, onlyCategories: ['performance'], output: 'json', logLevel: 'error' });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`Lighthouse could not audit ${url}: ${lhr.runtimeError.message}`);
  const numeric = (id: string): number => {
    const value = lhr.audits[id]?.numericValue;
    if (typeof value !== 'number')
      throw new Error(`${url}: no ${id} (${lhr.audits[id]?.errorMessage ?? 'not measured'})`);
    return value;
  };
  return {
    score: Math.round((lhr.categories.performance?.score ?? NaN) * 100),
    lcp: numeric('largest-contentful-paint'),
    cls: numeric('cumulative-layout-shift'),
    tbt: numeric('total-blocking-time'),
  };
}

/** Signs the traveller in through the login form in the browser Lighthouse drives (its default context). */
async function signIn(port: number, baseUrl: string, user: { username: string; password: string }): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0];
    if (!context) throw new Error('Chromium has no default context');
    const page = await context.newPage();
    await page.goto(`${baseUrl}/login`);
    await page.getByLabel('Username').fill(user.username);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.waitForURL(/\/dashboard$/, { timeout: 120_000 });
    await page.close();
  } finally {
    // disconnects; the browser chrome-launcher started keeps running
    await browser.close();
  }
}

const format = (page: string, f: PageFigures) =>
  `${page.padEnd(10)} performance ${String(f.score).padStart(3)}, LCP ${(f.lcp / 1000).toFixed(2)} s, CLS ${f.cls.toFixed(3)}, TBT ${f.tbt.toFixed(0)} ms`;

/** Every page's runs, in the order of LIGHTHOUSE_PAGES. */
export async function lighthouseRuns(options: {
  baseUrl: string;
  runs: number;
  user: { username: string; password: string };
  chromePath: string;
}): Promise<Map<LighthousePage, PageFigures[]>> {
  const figures = new Map<LighthousePage, PageFigures[]>(LIGHTHOUSE_PAGES.map((page) => [page, []]));
  for (let round = 1; round <= options.runs; round++) {
    let chrome: LaunchedChrome | undefined;
    try {
      chrome = await launch({ chromePath: options.chromePath, chromeFlags: CHROME_FLAGS, logLevel: 'error' });
      for (const page of LIGHTHOUSE_PAGES) {
        if (page === '/dashboard') await signIn(chrome.port, options.baseUrl, options.user);
        const result = await audit(chrome.port, `${options.baseUrl}${page}`);
        figures.get(page)!.push(result);
        console.log(`  run ${round}: ${format(page, result)}`);
      }
    } finally {
      chrome?.kill();
    }
  }
  return figures;
}

export function medianFigures(runs: PageFigures[], median: (values: number[]) => number): PageFigures {
  return {
    score: median(runs.map((r) => r.score)),
    lcp: median(runs.map((r) => r.lcp)),
    cls: median(runs.map((r) => r.cls)),
    tbt: median(runs.map((r) => r.tbt)),
  };
}

export { format as formatFigures };
