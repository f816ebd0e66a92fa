// U+0000 (NUL) in a request: refused here, for every route, before anything reads the request.
// PostgreSQL cannot store it in text ("invalid byte sequence for encoding UTF8: 0x00", 22021) nor
// in jsonb (22P05), so a NUL anywhere a route passes on to the database or the auth server was an
// unhandled error (500) after part of the work was done. No field of FareBack has a use for it.
// Checked: every path segment and query parameter (%00 in the URL), and every string and key of
// a JSON body, raw or escaped as \u0000. Not the raw email of /api/email/inbound (MIME, not
// JSON; its reader decodes what it stores), nor Stripe's signed webhook events: an event is
// Stripe's, not a client's, its effects are read back from Stripe rather than from its body, and
// a 400 would only make Stripe deliver it again for days.
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../context.ts';
import { fieldLabel, FieldValidationError, HttpError } from '../errors.ts';

export const NUL_RULE = 'must not contain a NUL character (U+0000)';

/** Paths whose body is not a client's JSON and is not read here. */
const RAW_BODY_PATHS = new Set(['/api/email/inbound', '/api/stripe/webhook']);

function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part; // a malformed escape is the route's to refuse; it holds no %00
  }
}

/** The JSON path of the first string or key holding a NUL, or null when none does. */
function pathToNul(value: unknown, path: (string | number)[] = []): (string | number)[] | null {
  if (typeof value === 'string') return value.includes('\0') ? path : null;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = pathToNul(item, [...path, index]);
      if (found) return found;
    }
    return null;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (key.includes('\0')) return [...path, key];
      const found = pathToNul(item, [...path, key]);
      if (found) return found;
    }
  }
  return null;
}

function refusedField(path: (string | number)[]): never {
  // a key holding the NUL is named by where it stands, not by itself
  const shown = path.map((part) => (typeof part === 'string' ? part.replaceAll('\0', '\\u0000') : part));
  // named as its nearest key says it (`items.1` -> 'Items'), as the schemas' messages are
  const message = `${fieldLabel(shown.filter((part) => typeof part === 'string'))} ${NUL_RULE}`;
  throw new FieldValidationError([{ field: shown.join('.'), message }]);
}

export const refuseNul = createMiddleware<AppEnv>(async (c, next) => {
  const url = new URL(c.req.url);
  if (url.pathname.split('/').some((segment) => decoded(segment).includes('\0'))) {
    throw new HttpError(400, `The address ${NUL_RULE}`);
  }
  for (const [name, value] of url.searchParams) {
    if (name.includes('\0') || value.includes('\0')) {
      const shown = name.replaceAll('\0', '\\u0000');
      throw new FieldValidationError([{ field: shown, message: `Parameter ${shown} ${NUL_RULE}` }]);
    }
  }
  if (c.req.raw.body && !RAW_BODY_PATHS.has(url.pathname)) {
    // a clone: the route reads the body as if nobody had (billing.ts clones it again)
    const text = await c.req.raw.clone().text();
    if (text.includes('\\u0000') || text.includes('\0')) {
      // a raw NUL is not valid JSON inside a string: read it as the escape to find its field
      let body: unknown;
      try {
        body = JSON.parse(text.replaceAll('\0', '\\u0000'));
      } catch {
        body = undefined;
      }
      const path = pathToNul(body);
      if (path) refusedField(path);
      if (text.includes('\0')) throw new HttpError(400, `The request body ${NUL_RULE}`);
    }
  }
  await next();
});
