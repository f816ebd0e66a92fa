// A NUL character (U+0000) in a request (issue 21, finding 9): it used to reach PostgreSQL, which
// cannot store it, and the api answered 500, after part of the work. Each endpoint the issue
// names is sent one, as an escape in JSON, raw, in a query parameter or in the address: 400 with
// a message that names the field, and nothing read or written (middleware/refuse-nul.ts).
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient, databaseClient, type ApiResponse, type RequestOptions } from './client.ts';
import { newIp, registerUser, type RegisteredUser } from './factories.ts';

const api = apiClient();
const sql = databaseClient();
const tag = randomBytes(4).toString('hex');
const NUL = '\u0000';

let traveller: RegisteredUser;
let admin: RegisteredUser;
let paymentIntentId: string;
const auth = (user: RegisteredUser, options: RequestOptions = {}) => ({ token: user.session.access_token, ...options });

beforeAll(async () => {
  traveller = await registerUser(api);
  admin = await registerUser(api);
  await sql`update public.profiles set is_admin = true where id = ${admin.id}`;
  // a payment the traveller started: confirming it with a NUL must not complete it
  const [premium] = await sql<{ id: number; price: number }[]>`
    select id::int, price from public.subscription_plans
     where tier = 'premium' and is_active and price > 0 order by price, id limit 1`;
  const started = await api.post<{ paymentIntentId: string }>(
    '/stripe/payment-intent',
    { amount: premium?.price, planId: premium?.id },
    auth(traveller),
  );
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  paymentIntentId = started.body.paymentIntentId;
});

/** What any of these requests could have changed, for the two accounts and this file's names. */
async function state() {
  const [row] = await sql`
    select (select count(*)::int from public.flights where user_id = ${traveller.id}) as flights,
           (select count(*)::int from public.subscription_plans where name like ${`%${tag}%`}) as plans,
           (select count(*)::int from private.login_attempts
             where account in (${traveller.username}, ${traveller.email})) as login_attempts,
           (select plan_id::int from public.profiles where id = ${traveller.id}) as plan_id,
           (select count(*)::int from public.billing_transactions where user_id = ${traveller.id}) as billing_rows,
           (select count(*)::int from public.admin_audit_log where actor_id = ${admin.id}) as audit_rows`;
  return row;
}

interface Case {
  endpoint: string;
  send: () => Promise<ApiResponse>;
  /** The field the answer names (null: the message alone says where). */
  field: string | null;
  message: string;
}

const RULE = 'must not contain a NUL character (U+0000)';

const CASES: [string, Case][] = [
  [
    'public login: the username (escaped in JSON)',
    {
      endpoint: 'POST /api/auth/login',
      send: () => api.post('/auth/login', { username: `${traveller.username}${NUL}`, password: 'x' }, { ip: newIp() }),
      field: 'username',
      message: `Username ${RULE}`,
    },
  ],
  [
    'public login: the password, a raw NUL',
    {
      endpoint: 'POST /api/auth/login',
      send: () =>
        api.request('POST', '/auth/login', undefined, {
          raw: `{"username":"${traveller.username}","password":"Secret${NUL}"}`,
          ip: newIp(),
        }),
      field: 'password',
      message: `Password ${RULE}`,
    },
  ],
  [
    'the auth proxy: sign-up',
    {
      endpoint: 'POST /api/auth/register',
      send: () =>
        api.post(
          '/auth/register',
          { username: `nul_${tag}`, email: `nul.${tag}@example.com`, password: `Secret@${NUL}1A` },
          { ip: newIp() },
        ),
      field: 'password',
      message: `Password ${RULE}`,
    },
  ],
  [
    'the auth proxy: password recovery',
    {
      endpoint: 'POST /api/auth/forgot-password',
      send: () => api.post('/auth/forgot-password', { email: `${traveller.email}${NUL}` }, { ip: newIp() }),
      field: 'email',
      message: `Email ${RULE}`,
    },
  ],
  [
    'flight notes',
    {
      endpoint: 'POST /api/flights/manual',
      send: () =>
        api.post(
          '/flights/manual',
          {
            airline: 'Delta Air Lines',
            bookingCode: 'NUL123',
            passengerLastName: 'Smith',
            notes: `Window seat${NUL}`,
          },
          auth(traveller),
        ),
      field: 'notes',
      message: `Notes ${RULE}`,
    },
  ],
  [
    'test-mode confirmation of a started payment',
    {
      endpoint: 'POST /api/stripe/test-mode/confirm',
      send: () =>
        api.post(
          '/stripe/test-mode/confirm',
          { paymentIntentId: `${paymentIntentId}${NUL}`, outcome: 'succeeded' },
          auth(traveller),
        ),
      field: 'paymentIntentId',
      message: `Payment intent id ${RULE}`,
    },
  ],
  ...(['users', 'flights', 'billing', 'audit'] as const).map((list): [string, Case] => [
    `admin search: ${list}`,
    {
      endpoint: `GET /api/admin/${list}?q=`,
      send: () => api.get(`/admin/${list}?q=smith%00`, auth(admin)),
      field: 'q',
      message: `Parameter q ${RULE}`,
    },
  ]),
  [
    'plan description',
    {
      endpoint: 'POST /api/admin/subscription-plans',
      send: () =>
        api.post(
          '/admin/subscription-plans',
          {
            name: `Nul plan ${tag}`,
            price: 999,
            flightLimit: 10,
            commissionRate: 10,
            description: `Line one${NUL}line two`,
            autoRebookingEnabled: true,
          },
          auth(admin),
        ),
      field: 'description',
      message: `Description ${RULE}`,
    },
  ],
  [
    'a plan id in the address',
    {
      endpoint: 'PUT /api/admin/subscription-plans/{id}',
      send: () =>
        api.request(
          'PUT',
          '/admin/subscription-plans/1%00',
          { name: `Nul plan ${tag}`, price: 0, flightLimit: 5 },
          auth(admin),
        ),
      field: null,
      message: `The address ${RULE}`,
    },
  ],
];

describe('a NUL character in a request', () => {
  it.each(CASES)('%s: 400 naming the field, nothing changed', async (_, { endpoint, send, field, message }) => {
    const before = await state();
    const res = await send();
    expect(res.status, `${endpoint}: ${JSON.stringify(res.body)}`).toBe(400);
    expect(res.body).toEqual(field === null ? { message } : { message, errors: [{ field, message }] });
    expect(await state()).toEqual(before);
  });

  it('the payment confirmed with a NUL is still open, and completes with its real id', async () => {
    const [intent] = await sql<{ status: string }[]>`
      select status from private.local_payment_intents where id = ${paymentIntentId}`;
    expect(intent?.status).not.toBe('succeeded');
    const done = await api.post(
      '/stripe/test-mode/confirm',
      { paymentIntentId, outcome: 'succeeded' },
      auth(traveller),
    );
    expect(done.status, JSON.stringify(done.body)).toBe(200);
  });
});
