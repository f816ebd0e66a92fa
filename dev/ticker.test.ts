// The dev ticker: calls each scheduler endpoint with the secret, never two calls of one task at
// once, and nothing after stop().
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { priceSweepEveryMinutes, schedulerTasks, startTicker, type Ticker } from './ticker.ts';

interface Call {
  method: string;
  url: string;
  authorization: string | undefined;
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
    calls.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization });
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
  it('POSTs each task to its endpoint with the scheduler secret', async () => {
    const api = await fakeApi();
    ticker = startTicker({
      apiUrl: api.apiUrl,
      cronSecret: 's3cret',
      tasks: [
        { name: 'price-sweep', path: '/internal/price-sweep', everyMs: 10 },
        { name: 'maintenance', path: '/internal/maintenance', everyMs: 15 },
      ],
    });
    await until(() => new Set(api.calls.map((c) => c.url)).size === 2);
    for (const call of api.calls) {
      expect(call.method).toBe('POST');
      expect(call.authorization).toBe('Bearer s3cret');
      expect(['/api/internal/price-sweep', '/api/internal/maintenance']).toContain(call.url);
    }
  });

  it('never overlaps calls of one task and stops calling after stop()', async () => {
    const api = await fakeApi(60);
    ticker = startTicker({
      apiUrl: api.apiUrl,
      cronSecret: 's3cret',
      tasks: [{ name: 'price-sweep', path: '/internal/price-sweep', everyMs: 5 }],
    });
    await until(() => api.calls.length >= 3);
    expect(api.maxInFlight()).toBe(1);
    await ticker.stop();
    const after = api.calls.length;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(api.calls.length).toBe(after);
  });

  it('reads PRICE_SWEEP_EVERY_MINUTES (default 15) and refuses nonsense', () => {
    expect(priceSweepEveryMinutes({})).toBe(15);
    expect(priceSweepEveryMinutes({ PRICE_SWEEP_EVERY_MINUTES: '0.5' })).toBe(0.5);
    expect(() => priceSweepEveryMinutes({ PRICE_SWEEP_EVERY_MINUTES: 'soon' })).toThrow(/PRICE_SWEEP_EVERY_MINUTES/);
    expect(schedulerTasks({}).map((t) => [t.path, t.everyMs])).toEqual([
      ['/internal/price-sweep', 15 * 60_000],
      ['/internal/maintenance', 60 * 60_000],
      ['/internal/jobs', 60_000],
    ]);
  });
});
