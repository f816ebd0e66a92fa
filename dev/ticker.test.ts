// The dev ticker: calls the one scheduler endpoint (POST /api/internal/jobs) with the secret,
// never two calls at once, and nothing after stop().
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { JOBS_EVERY_MS, startTicker, type Ticker } from './ticker.ts';

interface Call {
  method: string;
  url: string;
  authorization: string | undefined;
  body: string;
}

let server: http.Server | undefined;
let ticker: Ticker | undefined;

afterEach(async () => {
  await ticker?.stop();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
  ticker = undefined;
});

/** A stand-in api that records calls and answers each after `holdMs`. */
async function fakeApi(holdMs = 0) {
  const calls: Call[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  server = http.createServer((req, res) => {
    const call: Call = {
      method: req.method ?? '',
      url: req.url ?? '',
      authorization: req.headers.authorization,
      body: '',
    };
    calls.push(call);
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (call.body += chunk));
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    setTimeout(() => {
      inFlight--;
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    }, holdMs);
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { apiUrl: `http://127.0.0.1:${port}/api`, calls, maxInFlight: () => maxInFlight };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('the dev ticker', () => {
  it('POSTs the jobs endpoint, and only it, with the scheduler secret and an empty JSON body', async () => {
    const api = await fakeApi();
    ticker = startTicker({ apiUrl: api.apiUrl, cronSecret: 's3cret', everyMs: 10 });
    await until(() => api.calls.length >= 3);
    for (const call of api.calls) {
      expect(call).toEqual({ method: 'POST', url: '/api/internal/jobs', authorization: 'Bearer s3cret', body: '{}' });
    }
  });

  it('never overlaps calls and stops calling after stop()', async () => {
    const api = await fakeApi(60);
    ticker = startTicker({ apiUrl: api.apiUrl, cronSecret: 's3cret', everyMs: 5 });
    await until(() => api.calls.length >= 3);
    expect(api.maxInFlight()).toBe(1);
    await ticker.stop();
    const after = api.calls.length;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(api.calls.length).toBe(after);
  });

  it('calls every minute by default, as pg_cron does', async () => {
    const api = await fakeApi();
    const intervals = vi.spyOn(globalThis, 'setInterval');
    try {
      ticker = startTicker({ apiUrl: api.apiUrl, cronSecret: 's3cret' });
      expect(intervals.mock.calls.map((call) => call[1])).toEqual([JOBS_EVERY_MS]);
      expect(JOBS_EVERY_MS).toBe(60_000);
    } finally {
      intervals.mockRestore();
    }
  });
});
