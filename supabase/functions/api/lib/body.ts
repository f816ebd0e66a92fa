// Reads and validates a JSON request body. Everything a client can get wrong here is a 400 that
// says what is wrong; the body size is capped by the bodyLimit middleware in app.ts.
import type { Context } from 'hono';
import type { z } from 'zod';
import { fieldNamingErrorMap, HttpError } from '../errors.ts';

export const INVALID_JSON_MESSAGE = 'Request body must be valid JSON';

export async function readJson<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  const text = await c.req.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HttpError(400, INVALID_JSON_MESSAGE);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(400, 'Request body must be a JSON object');
  }
  // A ZodError propagates to onError, which answers 400 naming each invalid field.
  return await schema.parseAsync(body, { error: fieldNamingErrorMap });
}
