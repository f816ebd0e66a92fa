// Price-drop alert emails: a check that finds a new drop queues an alert in the same statement
// as the price, and the api sends it through the mailer (locally: maildev). One alert per drop,
// only for travellers who want them, and only when a threshold is met.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AddFlightResponse, CheckPriceResponse } from '../../supabase/functions/_shared/types/flights.ts';
import { apiClient, databaseClient, emailsTo } from './client.ts';
import { registerUser, type RegisteredUser } from './factories.ts';

const api = apiClient();
const sql = databaseClient();

const code = (prefix: string) => `${prefix}${randomBytes(3).toString('hex').toUpperCase()}`;
const token = (user: RegisteredUser) => ({ token: user.session.access_token });

async function addAndCheck(user: RegisteredUser, bookingCode: string): Promise<CheckPriceResponse> {
  const added = await api.post<AddFlightResponse>(
    '/flights/manual',
    { airline: 'JetBlue Airways', bookingCode, passengerLastName: 'Rivera' },
    token(user),
  );
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  const checked = await api.post<CheckPriceResponse>(`/flights/${added.body.flight.id}/check-price`, {}, token(user));
  expect(checked.status).toBe(200);
  return checked.body;
}

async function alertRows(userId: string) {
  return sql<{ type: string; status: string; channel: string; title: string; flight_id: number }[]>`
    select type, status, channel, title, flight_id::int from public.notification_history where user_id = ${userId}
  `;
}

/** Waits briefly, then counts: for asserting that no email arrived. */
async function emailCount(address: string): Promise<number> {
  return (await emailsTo(address, { atLeast: 99, timeoutMs: 700 })).length;
}

describe('price-drop alerts', () => {
  it('emails the traveller once when a check finds a new drop', async () => {
    const user = await registerUser(api);
    const checked = await addAndCheck(user, code('DROP'));
    const { flight } = checked;
    const [mail] = await emailsTo(user.email);
    expect(mail?.subject).toBe(`Price drop on ${flight.airline} ${flight.flightNumber}`);
    const dollars = (cents: number) => `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`;
    expect(mail?.text).toContain(
      `dropped from ${dollars(flight.originalPrice)} to ${dollars(flight.currentPrice ?? 0)}`,
    );
    expect(mail?.text).toContain('/dashboard');
    expect(await alertRows(user.id)).toEqual([
      { type: 'price_drop', status: 'sent', channel: 'email', title: mail?.subject, flight_id: flight.id },
    ]);

    // still a drop on the next check: no second alert
    const again = await api.post(`/flights/${flight.id}/check-price`, {}, token(user));
    expect(again.status).toBe(200);
    expect(await emailCount(user.email)).toBe(1);
    expect(await alertRows(user.id)).toHaveLength(1);
  });

  it('stays quiet for travellers who turned price-drop alerts off', async () => {
    const user = await registerUser(api);
    await sql`update public.profiles set notify_price_drops = false where id = ${user.id}`;
    await addAndCheck(user, code('DROP'));
    expect(await emailCount(user.email)).toBe(0);
    expect(await alertRows(user.id)).toEqual([]);
  });

  it('stays quiet when the drop meets neither threshold', async () => {
    const user = await registerUser(api);
    // the simulated DROP fare is 20% below: ask for 50% or $100,000
    await sql`update public.profiles set min_price_drop = 10000000, min_price_drop_percent = 50 where id = ${user.id}`;
    const { flight } = await addAndCheck(user, code('DROP'));
    expect(flight.status).toBe('price_drop');
    expect(await emailCount(user.email)).toBe(0);
    expect(await alertRows(user.id)).toEqual([]);
  });

  it('fires on the dollar threshold alone (either threshold is enough)', async () => {
    const user = await registerUser(api);
    await sql`update public.profiles set min_price_drop = 0, min_price_drop_percent = 100 where id = ${user.id}`;
    await addAndCheck(user, code('DROP'));
    expect(await emailsTo(user.email)).toHaveLength(1);
  });

  it('sends nothing when the fare is above the price paid', async () => {
    const user = await registerUser(api);
    const { flight } = await addAndCheck(user, code('RISE'));
    expect(flight.status).not.toBe('price_drop');
    expect(await emailCount(user.email)).toBe(0);
  });
});
