import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from './gateway.ts';

// The gateway compresses as a static host and Supabase's gateway do: the web app's files and the
// api's answers, brotli or gzip as the client accepts, and as they are to a client that accepts
// neither.

const script = `export const rows = [${Array.from({ length: 400 }, (_, i) => `"row ${i}"`).join(',')}];\n`;
const json = JSON.stringify({ flights: Array.from({ length: 200 }, (_, i) => ({ id: i, airline: 'United' })) });

let webDist: string;
let api: http.Server;
let gateway: Gateway;

beforeAll(async () => {
  webDist = mkdtempSync(path.join(os.tmpdir(), 'fareback-gateway-test-'));
  mkdirSync(path.join(webDist, 'assets'));
  writeFileSync(path.join(webDist, 'spa.html'), `<!doctype html><div id="root"></div>${'<!-- shell -->'.repeat(200)}`);
  writeFileSync(path.join(webDist, 'assets', 'app-abc123.js'), script);
  api = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(json));
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  const apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  gateway = await startGateway({ port: 0, authUrl: apiUrl, apiUrl, webDist });
});

afterAll(async () => {
  await gateway?.stop();
  await new Promise((resolve) => api?.close(resolve));
  rmSync(webDist, { recursive: true, force: true });
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A raw GET (fetch would ask for and undo the compression itself). */
function get(pathname: string, acceptEncoding?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      `${gateway.url}${pathname}`,
      { headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    request.on('error', reject);
  });
}

describe('the gateway compresses', () => {
  it.each([
    ['a script of the web app', '/assets/app-abc123.js', script],
    ["the app's shell", '/dashboard', undefined],
    ["the api's JSON", '/api/flights', json],
  ])('%s with brotli or gzip as the client accepts', async (_what, pathname, expected) => {
    const brotli = await get(pathname, 'gzip, deflate, br');
    expect(brotli.status).toBe(200);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers.vary).toMatch(/accept-encoding/i);
    const text = brotliDecompressSync(brotli.body).toString();
    expect(brotli.body.length).toBeLessThan(text.length / 2);
    if (expected) expect(text).toBe(expected);

    const gzip = await get(pathname, 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).toString()).toBe(text);
  });

  it.each([
    ['no Accept-Encoding', undefined],
    ['identity only', 'identity'],
  ])('and serves as it is to a client that accepts no compression (%s)', async (_what, acceptEncoding) => {
    for (const [pathname, expected] of [
      ['/assets/app-abc123.js', script],
      ['/api/flights', json],
    ] as const) {
      const plain = await get(pathname, acceptEncoding);
      expect(plain.status).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.toString()).toBe(expected);
    }
  });
});
