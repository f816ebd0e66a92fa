// CORS for the browser app: only the configured origins (the site URL and the gateway, plus
// AUTH_ALLOWED_ORIGINS) get Access-Control-Allow-Origin, and only they get credentials. Any other
// origin gets no CORS headers, so a page elsewhere cannot read what the auth server answers.
// (The web app calls Auth on its own origin through the gateway; CORS matters only across origins.)
import type { MiddlewareHandler } from 'hono';

const ALLOW_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';
const ALLOW_HEADERS = 'authorization, apikey, content-type, x-client-info, x-supabase-api-version';
const EXPOSE_HEADERS = 'x-supabase-api-version, retry-after';
const MAX_AGE_SECONDS = '600';

/** The origin (scheme://host:port) of each URL; throws on one that is not a URL. */
export function originsOf(urls: readonly string[]): Set<string> {
  return new Set(
    urls.map((url) => {
      const origin = new URL(url).origin;
      if (origin === 'null') throw new Error(`not an http(s) origin: ${url}`);
      return origin;
    }),
  );
}

export function corsFor(allowed: ReadonlySet<string>): MiddlewareHandler {
  return async (c, next) => {
    const origin = c.req.header('origin');
    const permitted = origin !== undefined && allowed.has(origin);
    const preflight = c.req.method === 'OPTIONS' && c.req.header('access-control-request-method') !== undefined;
    if (preflight) {
      const headers: Record<string, string> = { Vary: 'Origin' };
      if (permitted) {
        Object.assign(headers, {
          'Access-Control-Allow-Origin': origin,
          'Access-Control-Allow-Credentials': 'true',
          'Access-Control-Allow-Methods': ALLOW_METHODS,
          'Access-Control-Allow-Headers': ALLOW_HEADERS,
          'Access-Control-Max-Age': MAX_AGE_SECONDS,
        });
      }
      return new Response(null, { status: 204, headers });
    }
    c.header('Vary', 'Origin', { append: true });
    if (permitted) {
      c.header('Access-Control-Allow-Origin', origin);
      c.header('Access-Control-Allow-Credentials', 'true');
      c.header('Access-Control-Expose-Headers', EXPOSE_HEADERS);
    }
    await next();
  };
}
