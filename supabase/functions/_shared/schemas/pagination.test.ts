import assert from 'node:assert/strict';
import { z } from 'zod';
import { listQuerySchema, MAX_PAGE_SIZE, queryParams } from './pagination.ts';

const usersQuery = listQuerySchema({
  sortKeys: ['createdAt', 'email', 'username'],
  defaultSort: 'createdAt',
  defaultOrder: 'desc',
});

function parse(search: string) {
  return usersQuery.safeParse(queryParams(new URLSearchParams(search)));
}

/** Each invalid field with its first message, as the API's `errors` lists them. */
function refusals(search: string): Record<string, string> {
  const result = parse(search);
  assert.equal(result.success, false, `expected '${search}' to be refused`);
  const byField: Record<string, string> = {};
  for (const issue of result.success ? [] : result.error.issues) {
    byField[issue.path.join('.') || '(query)'] ??= issue.message;
  }
  return byField;
}

Deno.test('list query: defaults for an empty query string', () => {
  assert.deepEqual(parse('').data, { page: 1, pageSize: 25, sort: 'createdAt', order: 'desc' });
});

Deno.test('list query: reads every parameter from text, trimming the search', () => {
  assert.deepEqual(parse('page=3&pageSize=50&sort=email&order=asc&q=%20%20ada%40example%20').data, {
    page: 3,
    pageSize: 50,
    sort: 'email',
    order: 'asc',
    q: 'ada@example',
  });
});

Deno.test('list query: an empty or blank search is no search', () => {
  assert.equal(parse('q=').data?.q, undefined);
  assert.equal(parse('q=%20%20%20').data?.q, undefined);
});

Deno.test('list query: a list may default to a smaller page; numbers from code are taken too', () => {
  const small = listQuerySchema({ sortKeys: ['date'], defaultSort: 'date', defaultPageSize: 10 });
  assert.equal(small.parse({}).pageSize, 10);
  assert.equal(small.parse({ page: 2, pageSize: 100 }).page, 2);
  assert.equal(small.parse({}).order, 'asc');
});

Deno.test('list query: page must be a whole number from 1', () => {
  for (const page of ['0', '-1', '1.5', 'abc', '', 'Infinity']) {
    assert.deepEqual(refusals(`page=${page}`), { page: 'Page must be a whole number of at least 1' }, page);
  }
});

Deno.test('list query: page size from 1 to the maximum', () => {
  assert.equal(parse(`pageSize=${MAX_PAGE_SIZE}`).data?.pageSize, 100);
  for (const size of ['0', '101', '10000', '2.5', 'all']) {
    assert.deepEqual(
      refusals(`pageSize=${size}`),
      { pageSize: 'Page size must be a whole number from 1 to 100' },
      size,
    );
  }
});

Deno.test("list query: sort only by the list's own keys, never a column name or expression", () => {
  for (const sort of ['password', 'created_at', 'email; drop table users', 'constructor', '__proto__', '']) {
    assert.deepEqual(
      refusals(`sort=${encodeURIComponent(sort)}`),
      { sort: 'Sort must be one of: createdAt, email, username' },
      sort,
    );
  }
});

Deno.test('list query: order is asc or desc', () => {
  assert.deepEqual(refusals('order=DESC'), { order: 'Order must be asc or desc' });
  assert.deepEqual(refusals('order=random()'), { order: 'Order must be asc or desc' });
});

Deno.test('list query: search text is capped', () => {
  assert.equal(parse(`q=${'a'.repeat(100)}`).data?.q?.length, 100);
  // the cap applies after trimming
  assert.equal(parse(`q=${encodeURIComponent(` ${'a'.repeat(100)} `)}`).success, true);
  assert.deepEqual(refusals(`q=${'a'.repeat(101)}`), { q: 'Search must be at most 100 characters' });
});

Deno.test('list query: a repeated parameter is refused rather than one of them picked', () => {
  assert.deepEqual(refusals('page=1&page=2'), { page: 'Page must be a whole number of at least 1' });
  assert.deepEqual(refusals('q=a&q=b'), { q: 'Search must be text' });
});

Deno.test('list query: unknown parameters are refused by name; every invalid field is named at once', () => {
  assert.deepEqual(refusals('pagesize=10&limit=5'), { '(query)': 'Unknown parameters: pagesize, limit' });
  assert.deepEqual(Object.keys(refusals('page=0&pageSize=0&sort=x&order=up')), ['page', 'pageSize', 'sort', 'order']);
});

Deno.test('list query: a list with filters of its own extends the schema', () => {
  const billingQuery = usersQuery.extend({ status: z.enum(['pending', 'completed']).optional() });
  assert.deepEqual(billingQuery.parse({ status: 'pending', page: '2' }), {
    page: 2,
    pageSize: 25,
    sort: 'createdAt',
    order: 'desc',
    status: 'pending',
  });
  assert.equal(billingQuery.safeParse({ other: '1' }).success, false);
});
