// Price-drop alert emails: a check that finds a new drop has it confirmed by a second quote
// through the job queue (services/drop-confirmation.ts), which queues the alert in the same
// statement as that price, and the api sends it through the mailer (locally: maildev). One alert per drop,
// only for travellers who want them, only when a threshold is met, and only to an address its
// owner has confirmed; the subject is fixed text.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AddFlightResponse, CheckPriceResponse } from '../../supabase/functions/_shared/types/flights.ts';
import { apiClient, databaseClient, emailsTo } from './client.ts';
import { CONFIRMATION_SUBJECT, confirmAddress, confirmationEmails } from './confirmation.ts';
import { registerUser, runRecurringNow, type RegisteredUser } from './factories.ts';

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

const ALERT_SUBJECT = 'A fare dropped on one of your flights';

/** A traveller whose address is confirmed (the link from the mail catcher), as alerts need. */
async function confirmedTraveller(): Promise<RegisteredUser> {
  const user = await registerUser(api);
  await confirmAddress(api, user);
  return user;
}

/** Mails to this address other than the confirmation, waiting for at least `atLeast`. */
async function alertMails(address: string, atLeast = 1) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const mails = (await emailsTo(address, { atLeast: 0, timeoutMs: 0 })).filter(
      (mail) => mail.subject !== CONFIRMATION_SUBJECT,
    );
    if (mails.length >= atLeast || Date.now() > deadline) return mails;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function alertRows(userId: string) {
  return sql<{ type: string; status: string; channel: string; flight_id: number }[]>`
    select type, status, channel, flight_id::int from public.notification_history where user_id = ${userId}
  `;
}

/** Waits briefly, then counts alert emails: for asserting that none arrived. */
async function emailCount(address: string): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 700));
  return (await alertMails(address, 0)).length;
}

describe('price-drop alerts', () => {
  it('emails the traveller once when a check finds a new drop', async () => {
    const user = await confirmedTraveller();
    const checked = await addAndCheck(user, code('DROP'));
    const { flight } = checked;
    const [mail] = await alertMails(user.email);
    expect(mail?.subject).toBe(ALERT_SUBJECT);
    const dollars = (cents: number) => `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`;
    expect(mail?.text).toContain(
      `dropped from ${dollars(flight.originalPrice)} to ${dollars(flight.currentPrice ?? 0)}`,
    );
    expect(mail?.text).toContain('/dashboard');
    expect(await alertRows(user.id)).toEqual([
      { type: 'price_drop', status: 'sent', channel: 'email', flight_id: flight.id },
    ]);

    // still a drop on the next check: no second alert
    const again = await api.post(`/flights/${flight.id}/check-price`, {}, token(user));
    expect(again.status).toBe(200);
    expect(await emailCount(user.email)).toBe(1);
    expect(await alertRows(user.id)).toHaveLength(1);
  });

  it('a GHOST fare that dips for one quote alerts nobody: its second quote finds it gone, the drop unconfirmed', async () => {
    const user = await confirmedTraveller();
    const ghost = await addAndCheck(user, code('GHOST'));
    expect(ghost.priceDropped).toBe(false);
    expect(ghost.flight.status).toBe('monitoring');
    expect(ghost.flight.currentPrice).toBeGreaterThanOrEqual(ghost.flight.originalPrice);
    expect(ghost.flight.dropQuotes).toBeNull();
    // the dip was seen (the first quote), then not believed (the second, taken through the queue)
    expect(ghost.flight.priceHistory.map((p) => p.price < ghost.flight.originalPrice)).toEqual([true, false]);
    const drops = await sql<{ state: string; reason: string | null; quotes: unknown[]; alerted: boolean }[]>`
      select state, reason, quotes, alerted_at is not null as alerted
        from private.price_drops where flight_id = ${ghost.flight.id}`;
    expect(drops).toMatchObject([{ state: 'unconfirmed', reason: 'fare_vanished', alerted: false }]);
    expect(drops[0]?.quotes).toHaveLength(2);
    expect(await alertRows(user.id)).toEqual([]);

    // a real drop afterwards is the one and only alert this traveller gets
    const real = await addAndCheck(user, code('DROP'));
    const mails = await alertMails(user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toContain(real.flight.flightNumber);
    expect(mails[0]?.text).not.toContain(ghost.flight.flightNumber);
    expect(await alertRows(user.id)).toEqual([
      { type: 'price_drop', status: 'sent', channel: 'email', flight_id: real.flight.id },
    ]);
  });

  it('a confirmed drop keeps the two quotes that proved it (time, source, offer, price)', async () => {
    const user = await confirmedTraveller();
    const { flight, priceDropped } = await addAndCheck(user, code('DROP'));
    expect(priceDropped).toBe(true);
    expect(flight.status).toBe('price_drop');
    expect(flight.dropQuotes).toHaveLength(2);
    for (const quote of flight.dropQuotes ?? []) {
      expect(quote).toMatchObject({ source: 'simulated', price: flight.currentPrice, currency: 'USD' });
      expect(quote.offerId).toMatch(/^sim_/);
      expect(Number.isNaN(Date.parse(quote.quotedAt))).toBe(false);
    }
    const [first, second] = flight.dropQuotes ?? [];
    expect(Date.parse(second?.quotedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(first?.quotedAt ?? ''));
    expect(await alertMails(user.email)).toHaveLength(1);
  });

  it('stays quiet for travellers who turned price-drop alerts off', async () => {
    const user = await confirmedTraveller();
    await sql`update public.profiles set notify_price_drops = false where id = ${user.id}`;
    await addAndCheck(user, code('DROP'));
    expect(await emailCount(user.email)).toBe(0);
    expect(await alertRows(user.id)).toEqual([]);
  });

  it('stays quiet when the drop meets neither threshold', async () => {
    const user = await confirmedTraveller();
    // the simulated DROP fare is 20% below: ask for 50% or $100,000
    await sql`update public.profiles set min_price_drop = 10000000, min_price_drop_percent = 50 where id = ${user.id}`;
    const { flight } = await addAndCheck(user, code('DROP'));
    expect(flight.status).toBe('price_drop');
    expect(await emailCount(user.email)).toBe(0);
    expect(await alertRows(user.id)).toEqual([]);
  });

  it('fires on the dollar threshold alone (either threshold is enough)', async () => {
    const user = await confirmedTraveller();
    await sql`update public.profiles set min_price_drop = 0, min_price_drop_percent = 100 where id = ${user.id}`;
    await addAndCheck(user, code('DROP'));
    expect(await alertMails(user.email)).toHaveLength(1);
  });

  it('sends nothing when the fare is above the price paid', async () => {
    const user = await confirmedTraveller();
    const { flight } = await addAndCheck(user, code('RISE'));
    expect(flight.status).not.toBe('price_drop');
    expect(await emailCount(user.email)).toBe(0);
  });

  it('sends nothing to an unconfirmed address; once confirmed, the next drop arrives with a fixed subject', async () => {
    // the relay attack: an account made with someone else's address, steering alert emails to it
    const user = await registerUser(api);
    const first = await addAndCheck(user, code('DROP'));
    expect(first.flight.status).toBe('price_drop');
    expect(await alertRows(user.id)).toEqual([]);
    expect(await emailCount(user.email)).toBe(0);

    await confirmAddress(api, user);
    const bookingCode = code('DROP');
    const second = await addAndCheck(user, bookingCode);
    const [mail, ...more] = await alertMails(user.email);
    expect(more).toHaveLength(0);
    expect(mail?.subject).toBe(ALERT_SUBJECT);
    for (const userText of [bookingCode, 'Rivera', 'JetBlue', user.username, second.flight.flightNumber]) {
      expect(mail?.subject).not.toContain(userText);
    }
    expect(await alertRows(user.id)).toEqual([
      { type: 'price_drop', status: 'sent', channel: 'email', flight_id: second.flight.id },
    ]);
  });

  it('one-click unsubscribe from the email turns price-drop alerts off, without logging in', async () => {
    const user = await confirmedTraveller();
    await addAndCheck(user, code('DROP'));
    const [mail] = await alertMails(user.email);
    const headers = (mail as unknown as { headers: Record<string, string> }).headers;
    expect(headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    const oneClick = /^<(https?:\/\/[^>]+\/functions\/v1\/api\/notifications\/unsubscribe\?token=[^>]+)>$/.exec(
      headers['list-unsubscribe'] ?? '',
    )?.[1];
    expect(oneClick).toBeDefined();
    // the body's link opens the web page with the same token
    const token = new URL(oneClick!).searchParams.get('token');
    expect(mail?.text).toContain(`/unsubscribe?token=${token}`);

    // a forged token (someone else's kind): refused, nothing changes
    const forged = await api.post(`/notifications/unsubscribe?token=${user.id}.rebooking.${'A'.repeat(43)}`);
    expect(forged.status).toBe(400);

    // what the web page shows, then the mail client's one-click POST (RFC 8058)
    const info = await api.get(`/notifications/unsubscribe?token=${encodeURIComponent(token!)}`);
    expect(info.body).toEqual({ kind: 'price_drop', description: 'price-drop alert emails' });
    const res = await fetch(oneClick!, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(res.status).toBe(200);
    const [profile] =
      await sql`select notify_price_drops, notify_rebookings from public.profiles where id = ${user.id}`;
    expect(profile).toEqual({ notify_price_drops: false, notify_rebookings: true });

    // the next drop sends nothing
    await addAndCheck(user, code('DROP'));
    expect(await emailCount(user.email)).toBe(1);
  });

  it('the sender refuses too: a queued alert for an unconfirmed address is suppressed, not sent', async () => {
    const user = await registerUser(api);
    await confirmationEmails(user.email);
    // queued by anything (the address changed after queueing, an old row): the sender checks again
    const [queued] = await sql<{ id: number }[]>`
      insert into public.notification_history (user_id, type, data, status, channel)
      values (${user.id}, 'price_drop', '{"airline": "Invoice overdue: pay now at evil.example"}', 'pending', 'email')
      returning id::int`;
    // the scheduler's maintenance gives whatever is pending a delivery job, which the run sends
    const cronSecret = await readFile(path.join(path.dirname(api.stack.signingKeyPath), 'cron-secret'), 'utf8');
    await runRecurringNow({ api, sql, cronSecret: cronSecret.trim() }, 'maintenance', ['notification_email']);
    const [row] = await sql<{ status: string }[]>`
      select status from public.notification_history where id = ${queued!.id}`;
    expect(row?.status).toBe('suppressed');
    expect(await emailCount(user.email)).toBe(0);
  });
});
