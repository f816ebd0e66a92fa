// Reads and validates a request's query string (a list's page, sort and search). A refusal is a
// ZodError, which onError answers as 400 naming each invalid parameter, as for bodies.
import type { Context } from 'hono';
import type { z } from 'zod';
import { queryParams } from '../../_shared/schemas/pagination.ts';
import { fieldNamingErrorMap } from '../errors.ts';

export function readQuery<S extends z.ZodType>(c: Context, schema: S): z.output<S> {
  return schema.parse(queryParams(new URL(c.req.url).searchParams), { error: fieldNamingErrorMap });
}
