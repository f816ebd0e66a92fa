// The traveller's data is theirs: 'Download my data' (GET /api/account/export) and 'Delete
// account' (POST /api/account/delete): the password re-check, what goes, what the ledger keeps
// (anonymised). The last-admin rule is the database's trigger (private.keep_an_admin, deletes
// included: supabase/tests). Gmail revocation on deletion: email-google.test.ts.
import { describe, expect, it } from 'vitest';
import { apiClient, databaseClient } from './client.ts';
import { newIp, registerUser } from './factories.ts';

const api = apiClient();
const sql = databaseClient();
const auth = (token: string) => ({ token, ip: newIp() });

async function addFlight(token: string): Promise<void> {
  const res = await api.post(
    '/flights/manual',
    {
      airline: 'United Airlines',
      bookingCode: `DEL${Date.now().toString(36).slice(-3).toUpperCase()}`,
      passengerLastName: 'Lovelace',
    },
    auth(token),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

describe('GET /api/account/export', () => {
  it('answers everything held on the traveller as JSON, without tokens', async () => {
    const user = await registerUser(api);
    const token = user.session.access_token;
    await addFlight(token);
    const res = await api.get<Record<string, unknown>>('/account/export', auth(token));
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(
      expect.arrayContaining([
        'exportedAt',
        'account',
        'profile',
        'flights',
        'priceHistory',
        'notifications',
        'billingTransactions',
        'emailConnection',
      ]),
    );
    expect((res.body.profile as { username: string }).username).toBe(user.username);
    expect((res.body.account as { email: string }).email).toBe(user.email);
    expect(res.body.flights).toHaveLength(1);
    expect(JSON.stringify(res.body)).not.toMatch(/token_encrypted|encrypted_password/);
    expect(await api.get('/account/export')).toMatchObject({ status: 401 });
  });
});

describe('POST /api/account/delete', () => {
  it('refuses a wrong password and deletes nothing', async () => {
    const user = await registerUser(api);
    const token = user.session.access_token;
    expect(await api.post('/account/delete', { password: 'Wrong@Password1' }, auth(token))).toMatchObject({
      status: 400,
      body: { message: 'Password is incorrect' },
    });
    expect(await api.post('/account/delete', {}, auth(token))).toMatchObject({
      status: 400,
      body: { message: 'Enter your password to delete your account' },
    });
    const [row] = await sql`select count(*)::int as n from public.profiles where id = ${user.id}`;
    expect(row?.n).toBe(1);
  });

  it('deletes the account and its data, keeping its billing rows and commission owed anonymised', async () => {
    const user = await registerUser(api);
    const token = user.session.access_token;
    await addFlight(token);
    await sql`insert into public.billing_transactions (user_id, amount, status, type, description)
              values (${user.id}, 2499, 'completed', 'subscription', ${`Premium for ${user.username}`})`;
    await sql`update public.profiles set commission_owed = 1234 where id = ${user.id}`;
    const before = await sql<{ n: number }[]>`select count(*)::int as n from private.closed_account_ledger`;

    const res = await api.post('/account/delete', { password: user.password }, auth(token));
    expect(res).toMatchObject({
      status: 200,
      body: { message: 'Your account and everything FareBack held on you have been deleted.' },
    });
    const [left] = await sql`
      select (select count(*)::int from auth.users where id = ${user.id})
           + (select count(*)::int from public.profiles where id = ${user.id})
           + (select count(*)::int from public.flights where user_id = ${user.id})
           + (select count(*)::int from public.billing_transactions where user_id = ${user.id}) as n`;
    expect(left?.n).toBe(0);
    const kept = await sql<{ kind: string; amount: number; reason: string; closed_account_ref: string }[]>`
      select kind, amount, reason, closed_account_ref::text from private.closed_account_ledger
       order by id desc limit 2`;
    expect(kept.map((k) => [k.kind, k.amount]).sort()).toEqual([
      ['billing_transaction', 2499],
      ['commission_owed', 1234],
    ]);
    expect(kept[0]?.reason).toMatch(/tax law/);
    expect(kept[0]?.closed_account_ref).not.toBe(user.id);
    expect(JSON.stringify(kept)).not.toContain(user.username);
    const after = await sql<{ n: number }[]>`select count(*)::int as n from private.closed_account_ledger`;
    expect(after[0]!.n - before[0]!.n).toBe(2);
    // the account can no longer sign in
    expect(
      (await api.post('/auth/login', { username: user.username, password: user.password }, { ip: newIp() })).status,
    ).toBe(401);
  });
});
