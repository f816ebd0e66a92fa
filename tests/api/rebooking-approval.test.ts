// The approval link over HTTP (issue 24): where the airline rule says 'approval' (American Airlines
// Main Cabin), the traveller's automatic run changes nothing and emails a signed, single-use link;
// `POST /api/flights/{id}/rebook {approvalToken}` as the owner rebooks once. Expired, reused,
// another traveller's and forged links change nothing. And the kill switch over HTTP: an airline an
// admin paused is asked about instead of changed. Runs its own stack: the switch is global.
import type postgres from 'postgres';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ExecuteAutoRebookingResponse } from '../../supabase/functions/_shared/types/auto-rebooking.ts';
import type { AddFlightResponse, FlightsResponse } from '../../supabase/functions/_shared/types/flights.ts';
import type { ApiClient } from './client.ts';
import { newIp, putOnPremium, registerUser, type RegisteredUser } from './factories.ts';
import { startOwnStack, type OwnStack } from './own-stack.ts';

let own: OwnStack;
let api: ApiClient;
let sql: postgres.Sql;

beforeAll(async () => {
  own = await startOwnStack('rebooking-approval', { apiEnv: { PRICE_CHECK_MIN_INTERVAL_SECONDS: '0' } });
  ({ api, sql } = own);
});

afterAll(async () => {
  await own?.stop();
});

// the demo travellers of the seed must not take part in the runs asserted on here
beforeEach(async () => {
  await sql`update public.profiles set auto_rebooking = false`;
});

const bearer = (user: RegisteredUser) => ({ token: user.session.access_token, ip: newIp() });
let codes = 0;

async function premiumTraveller(): Promise<RegisteredUser> {
  const user = await registerUser(api);
  await putOnPremium(sql, user.id);
  // the approval goes by email, and only to a confirmed address (this stack's mail is not read back)
  await sql`update public.profiles set auto_rebooking = true, email_confirmed_at = now() where id = ${user.id}`;
  return user;
}

/** A booking with a drop (the simulated source's DROP control), added and checked through the api. */
async function droppedFlight(user: RegisteredUser, airline: string): Promise<number> {
  const added = await api.post<AddFlightResponse>(
    '/flights/manual',
    { airline, bookingCode: `DROP${Date.now().toString(36)}${codes++}`, passengerLastName: 'Lee' },
    bearer(user),
  );
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  const checked = await api.post(`/flights/${added.body.flight.id}/check-price`, {}, bearer(user));
  expect(checked.status, JSON.stringify(checked.body)).toBe(200);
  return added.body.flight.id;
}

async function flightOf(user: RegisteredUser, id: number) {
  const res = await api.get<FlightsResponse>('/flights', bearer(user));
  expect(res.status).toBe(200);
  return res.body.flights.find((f) => f.id === id);
}

/** Runs the traveller's automatic rebooking and answers the approval links it emailed, oldest first. */
async function runAndReadLinks(user: RegisteredUser): Promise<string[]> {
  const run = await api.post<ExecuteAutoRebookingResponse>('/auto-rebooking/execute', undefined, bearer(user));
  expect(run.status, JSON.stringify(run.body)).toBe(200);
  expect(run.body.count).toBe(0);
  const rows = await sql<{ link: string }[]>`
    select data ->> 'link' as link from public.notification_history
     where user_id = ${user.id} and type = 'rebooking_approval' order by id`;
  return rows.map((r) => r.link);
}

const tokenOf = (link: string) => {
  const token = new URL(link).searchParams.get('approve');
  expect(token).toBeTruthy();
  return token ?? '';
};

const rebook = (user: RegisteredUser, flightId: number, approvalToken: string) =>
  api.post<{ error?: string; details?: string }>(`/flights/${flightId}/rebook`, { approvalToken }, bearer(user));

async function approvalOf(flightId: number) {
  const [row] = await sql<{ used: boolean; outcome: string | null }[]>`
    select used_at is not null as used, outcome from private.rebooking_approvals where flight_id = ${flightId}`;
  return row;
}

describe('the approval link: POST /api/flights/{id}/rebook {approvalToken}', () => {
  it('asks instead of changing an American Airlines flight, and its link rebooks it once', async () => {
    const me = await premiumTraveller();
    const id = await droppedFlight(me, 'American Airlines');
    expect(await flightOf(me, id)).toMatchObject({ status: 'price_drop', rebookingMode: 'approval' });

    const links = await runAndReadLinks(me);
    expect(links).toHaveLength(1);
    expect((await flightOf(me, id))?.status).toBe('price_drop');
    const token = tokenOf(links[0] ?? '');

    const res = await rebook(me, id, token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await flightOf(me, id)).toMatchObject({ status: 'rebooked', hasBeenRebooked: true });
    expect(await approvalOf(id)).toEqual({ used: true, outcome: 'rebooked' });

    // the same link again: the flight is rebooked already, and stays as it is
    const again = await rebook(me, id, token);
    expect(again.status).toBe(409);
    expect(JSON.stringify(again.body)).toContain('This flight has already been rebooked.');
    const [rebookings] = await sql<{ n: number }[]>`
      select count(*)::int as n from private.rebookings where flight_id = ${id}`;
    expect(rebookings?.n).toBe(1);
  });

  it('refuses a link already used by an attempt that did not rebook, and changes nothing', async () => {
    const me = await premiumTraveller();
    const id = await droppedFlight(me, 'American Airlines');
    const [link] = await runAndReadLinks(me);
    // an earlier attempt used it and the source refused (outcome 'refused'): the link is spent
    await sql`update private.rebooking_approvals set used_at = now(), outcome = 'refused' where flight_id = ${id}`;

    const res = await rebook(me, id, tokenOf(link ?? ''));
    expect(res.status).toBe(409);
    expect(JSON.stringify(res.body)).toContain('This approval link has already been used.');
    expect((await flightOf(me, id))?.status).toBe('price_drop');
  });

  it('refuses an expired link and changes nothing', async () => {
    const me = await premiumTraveller();
    const id = await droppedFlight(me, 'American Airlines');
    const [link] = await runAndReadLinks(me);
    await sql`update private.rebooking_approvals set expires_at = now() - interval '1 minute' where flight_id = ${id}`;

    const res = await rebook(me, id, tokenOf(link ?? ''));
    expect(res.status).toBe(410);
    expect(JSON.stringify(res.body)).toContain('This approval link expired with its quote.');
    expect((await flightOf(me, id))?.status).toBe('price_drop');
    expect(await approvalOf(id)).toEqual({ used: false, outcome: null });
  });

  it('is useless to another traveller and to a forger, and changes nothing', async () => {
    const me = await premiumTraveller();
    const other = await premiumTraveller();
    const id = await droppedFlight(me, 'American Airlines');
    const theirs = await droppedFlight(other, 'American Airlines');
    const token = tokenOf((await runAndReadLinks(me))[0] ?? '');

    // another traveller with my link, on my flight: not theirs to see
    expect((await rebook(other, id, token)).status).toBe(404);
    // another traveller with my link on their own flight: the link names my flight
    const wrongFlight = await rebook(other, theirs, token);
    expect(wrongFlight.status).toBe(400);
    expect(JSON.stringify(wrongFlight.body)).toContain('This approval link is not valid.');

    // forged: the signature changed, and a well-formed token naming me that this server never signed
    const [approvalId, flightId, userId, expires, signature] = token.split('.');
    const flipped = `${signature?.startsWith('A') ? 'B' : 'A'}${signature?.slice(1) ?? ''}`;
    for (const forged of [
      `${approvalId}.${flightId}.${userId}.${expires}.${flipped}`,
      `${approvalId}.${flightId}.${userId}.${Number(expires) + 3600}.${signature}`,
      'not-a-token',
    ]) {
      const res = await rebook(me, id, forged);
      expect(res.status, forged).toBe(400);
      expect(JSON.stringify(res.body)).toContain('This approval link is not valid.');
    }

    expect((await flightOf(me, id))?.status).toBe('price_drop');
    expect((await flightOf(other, theirs))?.status).toBe('price_drop');
    expect(await approvalOf(id)).toEqual({ used: false, outcome: null });
  });
});

describe('the kill switch: PUT /api/admin/airline-rules/airlines/{code}/automation', () => {
  it('is for admins only; a paused airline is asked about instead of changed, and resuming lifts it', async () => {
    const admin = await registerUser(api);
    await sql`update public.profiles set is_admin = true where id = ${admin.id}`;
    const traveller = await premiumTraveller();

    const refused = await api.request(
      'PUT',
      '/admin/airline-rules/airlines/UA/automation',
      { enabled: false },
      bearer(traveller),
    );
    expect(refused.status).toBe(403);

    const paused = await api.request(
      'PUT',
      '/admin/airline-rules/airlines/UA/automation',
      { enabled: false, reason: 'api test' },
      bearer(admin),
    );
    expect(paused.status, JSON.stringify(paused.body)).toBe(200);
    const [audit] = await sql<{ n: number }[]>`
      select count(*)::int as n from public.admin_audit_log where actor_id = ${admin.id}`;
    expect(audit?.n).toBe(1);

    const id = await droppedFlight(traveller, 'United Airlines');
    expect((await flightOf(traveller, id))?.rebookingMode).toBe('approval');
    expect(await runAndReadLinks(traveller)).toHaveLength(1);
    expect((await flightOf(traveller, id))?.status).toBe('price_drop');

    const resumed = await api.request(
      'PUT',
      '/admin/airline-rules/airlines/UA/automation',
      { enabled: true },
      bearer(admin),
    );
    expect(resumed.status, JSON.stringify(resumed.body)).toBe(200);
    expect((await flightOf(traveller, id))?.rebookingMode).toBe('automatic');
    const run = await api.post<ExecuteAutoRebookingResponse>('/auto-rebooking/execute', undefined, bearer(traveller));
    expect(run.body.count).toBe(1);
    expect((await flightOf(traveller, id))?.status).toBe('rebooked');
  });
});
