// A list's query string as a route reads it: the parsed query, or the ZodError that onError
// answers as 400 `{ message, errors }` (app.test.ts covers that mapping for bodies).
import assert from 'node:assert/strict';
import { Hono } from 'hono';
import { z } from 'zod';
import { listQuerySchema } from '../../_shared/schemas/pagination.ts';
import { fieldErrors, validationMessage } from '../errors.ts';
import { readQuery } from './query-string.ts';

const schema = listQuerySchema({ sortKeys: ['date', 'amount'], defaultSort: 'date', defaultOrder: 'desc' });

async function read(search: string): Promise<unknown> {
  let result: unknown;
  const app = new Hono()
    .get('/list', (c) => {
      result = readQuery(c, schema);
      return c.body(null, 204);
    })
    .onError((error) => {
      result = error;
      return new Response(null, { status: 500 });
    });
  await app.request(`/list${search}`);
  return result;
}

Deno.test('readQuery: the parsed list query, defaults filled in', async () => {
  assert.deepEqual(await read('?page=2&sort=amount&q=%20refund%20'), {
    page: 2,
    pageSize: 25,
    sort: 'amount',
    order: 'desc',
    q: 'refund',
  });
});

Deno.test('readQuery: refusals name each field, as the 400 answer lists them', async () => {
  const error = await read('?page=0&pageSize=500&sort=password&extra=1');
  assert.ok(error instanceof z.ZodError);
  assert.deepEqual(fieldErrors(error), [
    { field: 'page', message: 'Page must be a whole number of at least 1' },
    { field: 'pageSize', message: 'Page size must be a whole number from 1 to 100' },
    { field: 'sort', message: 'Sort must be one of: date, amount' },
    { field: '', message: 'Unknown parameter: extra' },
  ]);
  assert.equal(
    validationMessage(error),
    'Page must be a whole number of at least 1; Page size must be a whole number from 1 to 100; Sort must be one of: date, amount; Unknown parameter: extra',
  );
});
