// POST /api/stripe/pay-commission with {userId, amount}: an admin records a commission payment a
// traveller made outside the app. The commission comes from a real rebooking (a premium
// traveller's DROP... booking, checked and rebooked through the api), so the ledger checked
// afterwards is the one rebookings write: commission recorded = owed + paid. Without a body the
// call stays the traveller's own payment (tests/api/billing.test.ts covers that flow in full).
import { randomBytes, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AdminCommissionPaymentResponse } from '../../supabase/functions/_shared/types/admin.ts';
import type {
  BillingHistoryResponse,
  CommissionSummaryResponse,
  PaymentIntentResponse,
} from '../../supabase/functions/_shared/types/billing.ts';
import type {
  AddFlightResponse,
  CheckPriceResponse,
  RebookResponse,
} from '../../supabase/functions/_shared/types/flights.ts';
import { apiClient, databaseClient } from './client.ts';
import { putOnPremium, registerUser, type RegisteredUser } from './factories.ts';

const api = apiClient();
const sql = databaseClient();
const auth = (user: RegisteredUser) => ({ token: user.session.access_token });

let admin: RegisteredUser;

interface Refusal {
  message: string;
  errors?: { field: string; message: string }[];
}

const record = (body: unknown, as = admin) =>
  api.post<AdminCommissionPaymentResponse & Refusal>('/stripe/pay-commission', body, auth(as));

beforeAll(async () => {
  admin = await registerUser(api);
  await sql`update public.profiles set is_admin = true where id = ${admin.id}`;
});

/** A premium traveller with one rebooking made through the api: its commission is owed. */
async function travellerOwing(): Promise<{ traveller: RegisteredUser; commission: number; credit: number }> {
  const traveller = await registerUser(api);
  await putOnPremium(sql, traveller.id);
  const bookingCode = `DROP${randomBytes(3).toString('hex').toUpperCase()}`;
  const added = await api.post<AddFlightResponse>(
    '/flights/manual',
    { airline: 'United Airlines', bookingCode, passengerLastName: 'Smith' },
    auth(traveller),
  );
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  const id = added.body.flight.id;
  const checked = await api.post<CheckPriceResponse>(`/flights/${id}/check-price`, {}, auth(traveller));
  expect(checked.body.flight?.status, JSON.stringify(checked.body)).toBe('price_drop');
  const rebooked = await api.post<RebookResponse>(`/flights/${id}/rebook`, {}, auth(traveller));
  expect(rebooked.status, JSON.stringify(rebooked.body)).toBe(200);
  expect(rebooked.body.commission).toBeGreaterThan(0);
  return { traveller, commission: rebooked.body.commission, credit: rebooked.body.savings };
}

async function state(userId: string) {
  const [row] = await sql<{ owed: number; paid: number; credits: number; rebooked: number; manual: number }[]>`
    select p.commission_owed as owed, p.commission_paid as paid, p.total_credits_earned as credits,
           (select coalesce(sum(f.commission_amount), 0)::int from public.flights f where f.user_id = p.id) as rebooked,
           (select count(*)::int from public.billing_transactions b
             where b.user_id = p.id and b.payment_method = 'manual') as manual
      from public.profiles p where p.id = ${userId}`;
  if (!row) throw new Error('no profile');
  return row;
}

async function auditRows(userId: string) {
  return sql`select actor_id, action, before, after from public.admin_audit_log
              where action = 'commission.payment' and target_id = ${userId} order by id`;
}

describe('POST /api/stripe/pay-commission {userId, amount} (admin)', () => {
  it('records a part payment: owed goes down, paid up, a completed manual row, an audit row', async () => {
    const { traveller, commission, credit } = await travellerOwing();
    expect(commission).toBe(Math.round(credit * 0.25));
    const part = Math.floor(commission / 3);

    const res = await record({ userId: traveller.id, amount: part });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      success: true,
      message: 'Commission payment recorded',
      userId: traveller.id,
      amount: part,
      transactionId: expect.any(Number),
      commissionOwed: commission - part,
      commissionPaid: part,
    });
    const after = await state(traveller.id);
    expect(after).toMatchObject({ owed: commission - part, paid: part, manual: 1 });
    // the ledger: what rebookings recorded = owed + paid
    expect(after.owed + after.paid).toBe(after.rebooked);

    const [row] = await sql`select amount, status, type, payment_method from public.billing_transactions
                             where id = ${res.body.transactionId}`;
    expect(row).toEqual({ amount: part, status: 'completed', type: 'commission', payment_method: 'manual' });
    expect(await auditRows(traveller.id)).toEqual([
      {
        actor_id: admin.id,
        action: 'commission.payment',
        before: { commissionOwed: commission, commissionPaid: 0 },
        after: { commissionOwed: commission - part, commissionPaid: part },
      },
    ]);
  });

  it('the traveller sees it: commission summary and billing history', async () => {
    const { traveller, commission } = await travellerOwing();
    const res = await record({ userId: traveller.id, amount: commission });
    expect(res.status, JSON.stringify(res.body)).toBe(200);

    const summary = await api.get<CommissionSummaryResponse>('/billing/commission', auth(traveller));
    expect(summary.body.commissionSummary.commissionOwed).toBe(0);
    const history = await api.get<BillingHistoryResponse>('/billing/history', auth(traveller));
    expect(history.body.transactions.find((t) => t.id === res.body.transactionId)).toMatchObject({
      type: 'commission',
      amount: commission,
      status: 'completed',
    });
    // paying the exact amount owed settles the rebooking's pending commission row too
    expect(history.body.transactions.map((t) => t.status)).toEqual(['completed', 'completed']);

    // nothing left: the traveller's own payment answers as before
    const own = await api.post<Refusal>('/stripe/pay-commission', undefined, auth(traveller));
    expect(own.status).toBe(400);
    expect(own.body.message).toBe("You don't have any commission payments due at this time.");
  });

  it('refuses an amount above what is owed (400 with the amount), changing nothing; the exact amount is fine', async () => {
    const { traveller, commission } = await travellerOwing();
    const owed = `$${(commission / 100).toFixed(2)}`;
    const res = await record({ userId: traveller.id, amount: commission + 1 });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: `Amount exceeds the commission owed (${owed})` });
    expect(await state(traveller.id)).toMatchObject({ owed: commission, paid: 0, manual: 0 });
    expect(await auditRows(traveller.id)).toEqual([]);

    const exact = await record({ userId: traveller.id, amount: commission });
    expect(exact.status, JSON.stringify(exact.body)).toBe(200);
    expect(exact.body).toMatchObject({ commissionOwed: 0, commissionPaid: commission });
    const again = await record({ userId: traveller.id, amount: 1 });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe('Amount exceeds the commission owed ($0.00)');
    const after = await state(traveller.id);
    expect(after).toMatchObject({ owed: 0, paid: commission, manual: 1 });
    expect(after.owed + after.paid).toBe(after.rebooked);
  });

  it('refuses invalid bodies with a 400 per field, and an unknown traveller with a 404', async () => {
    const { traveller, commission } = await travellerOwing();
    const cases: [unknown, string, string][] = [
      [{ userId: traveller.id, amount: 0 }, 'amount', 'Amount must be above 0'],
      [{ userId: traveller.id, amount: -5 }, 'amount', 'Amount must be above 0'],
      [{ userId: traveller.id, amount: 1.5 }, 'amount', 'Amount must be a whole number of cents'],
      [{ userId: traveller.id, amount: '100' }, 'amount', 'Amount must be a number of cents'],
      [{ userId: traveller.id }, 'amount', 'Amount must be a number of cents'],
      [{ userId: 'not-a-user', amount: 100 }, 'userId', 'User id must be a user id'],
      [{ amount: 100 }, 'userId', 'User id must be a user id'],
    ];
    for (const [body, field, message] of cases) {
      const res = await record(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors, JSON.stringify(body)).toEqual([{ field, message }]);
    }
    const extra = await record({ userId: traveller.id, amount: 100, note: 'cash' });
    expect(extra.status).toBe(400);
    expect(extra.body.message).toBe('Unknown field: note');

    const unknown = await record({ userId: randomUUID(), amount: 100 });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: 'User not found' });
    expect(await state(traveller.id)).toMatchObject({ owed: commission, paid: 0, manual: 0 });
  });

  it('refuses an admin recording their own commission as paid (403): another admin must (issue 21, finding 11)', async () => {
    const owing = await registerUser(api);
    await sql`update public.profiles set is_admin = true, commission_owed = 1200 where id = ${owing.id}`;
    const own = await record({ userId: owing.id, amount: 1200 }, owing);
    expect(own.status).toBe(403);
    expect(own.body).toEqual({ message: 'Another admin must record a payment of your own commission.' });
    expect(await state(owing.id)).toMatchObject({ owed: 1200, paid: 0, manual: 0 });
    expect(await auditRows(owing.id)).toEqual([]);

    // another admin may
    const other = await record({ userId: owing.id, amount: 1200 });
    expect(other.status, JSON.stringify(other.body)).toBe(200);
    expect(other.body).toMatchObject({ commissionOwed: 0, commissionPaid: 1200 });
    expect(await auditRows(owing.id)).toHaveLength(1);
  });

  it('is refused to a non-admin (403) before anything is read or changed; 401 signed out', async () => {
    const { traveller, commission } = await travellerOwing();
    for (const body of [
      { userId: traveller.id, amount: commission },
      { userId: 'x', amount: -1 },
    ]) {
      const res = await record(body, traveller);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: 'Admin access required' });
    }
    const signedOut = await api.post('/stripe/pay-commission', { userId: traveller.id, amount: commission });
    expect(signedOut.status).toBe(401);
    expect(await state(traveller.id)).toMatchObject({ owed: commission, paid: 0, manual: 0 });
    const [payments] = await sql<{ n: number }[]>`
      select count(*)::int as n from private.payments where user_id = ${traveller.id}`;
    expect(payments?.n).toBe(0);
    expect(await auditRows(traveller.id)).toEqual([]);
  });

  it('gives up a card payment the traveller had started (it was for the old amount); a new one is for what is left', async () => {
    const { traveller, commission } = await travellerOwing();
    const started = await api.post<PaymentIntentResponse>('/stripe/pay-commission', undefined, auth(traveller));
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body.amount).toBe(commission);

    const part = Math.floor(commission / 2);
    expect((await record({ userId: traveller.id, amount: part })).status).toBe(200);
    const [payment] = await sql`select status from private.payments where id = ${started.body.paymentIntentId}`;
    expect(payment).toEqual({ status: 'failed' });
    const [row] = await sql`select status from public.billing_transactions
                             where payment_reference = ${started.body.paymentIntentId}`;
    expect(row).toEqual({ status: 'failed' });
    const [intent] = await sql`select status from private.local_payment_intents
                                where id = ${started.body.paymentIntentId}`;
    expect(intent).toEqual({ status: 'canceled' });

    const next = await api.post<PaymentIntentResponse>('/stripe/pay-commission', undefined, auth(traveller));
    expect(next.status, JSON.stringify(next.body)).toBe(200);
    expect(next.body.amount).toBe(commission - part);
  });

  it('without a body (or with {}) it stays the traveller’s own payment, for admins too', async () => {
    const { traveller, commission } = await travellerOwing();
    for (const body of [undefined, {}]) {
      const res = await api.post<PaymentIntentResponse>('/stripe/pay-commission', body, auth(traveller));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ success: true, amount: commission, paymentMode: 'test' });
    }
    // an admin without a body pays their own commission: nothing owed here
    const adminOwn = await api.post<Refusal>('/stripe/pay-commission', undefined, auth(admin));
    expect(adminOwn.status).toBe(400);
    expect(adminOwn.body.message).toBe("You don't have any commission payments due at this time.");
    expect(await state(traveller.id)).toMatchObject({ owed: commission, paid: 0, manual: 0 });
  });
});
