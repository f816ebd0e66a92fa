// The local stand-in for Supabase's API gateway on one port: /auth/v1 goes to the auth server,
// /functions/v1/api and /api to the Deno function (which, as on Supabase, sees its own name as the
// first path segment: /api/...), and everything else is the built web app: a prerendered public
// page where there is one, else the app's shell (the single-page fallback). Like a static host
// and Supabase's gateway, it compresses what is worth compressing (`compressed`). Nothing here is
// deployed.
import { existsSync } from 'node:fs';
import http from 'node:http';
import compression from 'compression';
import httpProxy from 'http-proxy';
import sirv from 'sirv';

export interface Gateway {
  url: string;
  port: number;
  stop(): Promise<void>;
}

const compress = compression({ threshold: 1024 });

/**
 * `handler` with its responses compressed as a static host and Supabase's gateway compress them:
 * brotli or gzip as the client's Accept-Encoding allows (as is, to a client that accepts neither),
 * text, JSON, JavaScript, CSS and SVG of 1 KB or more, `Vary: Accept-Encoding`; a response already
 * encoded (by the api) passes as it is.
 */
export function compressed(handler: http.RequestListener): http.RequestListener {
  return (req, res) => {
    compress(req as Parameters<typeof compress>[0], res as Parameters<typeof compress>[1], () => handler(req, res));
  };
}

/**
 * The built web app in `webDist`, as the gateway serves it (bench/web.ts measures it the same
 * way), or null when it is not built. The build (web/scripts/prerender.ts) holds a page for each
 * prerendered path (`/` is index.html, `/contact` contact.html...) and `spa.html`, the app's
 * shell, which answers every other path. Hashed assets may be cached for good; HTML must always be
 * revalidated.
 */
export function serveWeb(webDist: string): http.RequestListener | null {
  if (!existsSync(`${webDist}/spa.html`)) return null;
  const files = sirv(webDist, { single: 'spa.html', etag: true, gzip: false, dev: false, immutable: false });
  return (req, res) => {
    if (req.url?.startsWith('/assets/')) res.setHeader('cache-control', 'public, max-age=31536000, immutable');
    else res.setHeader('cache-control', 'no-cache');
    files(req, res, () => {
      res.statusCode = 404;
      res.end('Not found');
    });
  };
}

export async function startGateway(options: {
  port: number;
  host?: string;
  authUrl: string;
  apiUrl: string;
  webDist: string;
}): Promise<Gateway> {
  const host = options.host ?? '127.0.0.1';
  const proxy = httpProxy.createProxyServer({ xfwd: true, proxyTimeout: 120_000 });
  proxy.on('error', (err, _req, res) => {
    const response = res as http.ServerResponse;
    if (!response.headersSent && typeof response.writeHead === 'function') {
      response.writeHead(502, { 'content-type': 'application/json' });
    }
    response.end(JSON.stringify({ message: `Local service unavailable: ${err.message}` }));
  });

  const web = serveWeb(options.webDist);

  const server = http.createServer(
    compressed((req, res) => {
      const url = req.url ?? '/';
      if (url.startsWith('/auth/v1')) {
        proxy.web(req, res, { target: options.authUrl });
        return;
      }
      if (url.startsWith('/functions/v1/api')) {
        req.url = url.slice('/functions/v1'.length);
        proxy.web(req, res, { target: options.apiUrl });
        return;
      }
      // Google's OAuth redirect (the site path registered with Google) is the api's public callback
      if (url === '/oauth2callback' || url.startsWith('/oauth2callback?')) {
        req.url = `/api${url}`;
        proxy.web(req, res, { target: options.apiUrl });
        return;
      }
      if (url === '/api' || url.startsWith('/api/') || url.startsWith('/api?')) {
        proxy.web(req, res, { target: options.apiUrl });
        return;
      }
      if (web) {
        web(req, res);
        return;
      }
      res.writeHead(503, { 'content-type': 'text/plain' });
      res.end('The web app is not built. Run `npm start`, which builds it.');
    }),
  );

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    url: `http://${host}:${port}`,
    port,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      proxy.close();
    },
  };
}
