// A forged flight row in Duffel mode, performed over HTTP against a stack whose fare source
// is the Duffel client talking to the local Duffel stub: a flight row altered to carry another
// customer's order id, a business cabin and a huge price paid must change nothing but the
// traveller's own order, at a lower fare, without FareBack's balance paying anything. Also the
// rebookings whose outcome the source left unknown, settled by asking the source.
import type postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AddFlightResponse,
  CheckPriceResponse,
  Flight,
  RebookResponse,
} from '../../supabase/functions/_shared/types/flights.ts';
import {
  type DuffelStub,
  startDuffelStub,
  type StubFlight,
} from '../../supabase/functions/_shared/fare-source/testing/duffel-stub.ts';
import type { Stack } from '../../dev/stack.ts';
import type { ApiClient } from './client.ts';
import { registerUser, runRecurringNow, type RegisteredUser } from './factories.ts';
import { startOwnStack, type OwnStack } from './own-stack.ts';

const OUT: StubFlight = {
  flightNumber: 'UA338',
  origin: 'EWR',
  destination: 'BOS',
  departingAt: '2027-02-24T17:35:00',
  arrivingAt: '2027-02-24T18:48:00',
};

let stub: DuffelStub;
let own: OwnStack;
let stack: Stack;
let api: ApiClient;
let sql: postgres.Sql;

function addOrder(bookingReference: string, familyName: string, totalAmount: string): string {
  const order = stub.addOrder({
    bookingReference,
    owner: { iata_code: 'UA', name: 'United Airlines' },
    passengers: [{ given_name: 'Sam', family_name: familyName, seat: '14C' }],
    slices: [OUT],
    cabinClass: 'economy',
    fareBrand: 'Flexible Economy',
    totalAmount,
    changeAllowed: true,
  }) as { id: string };
  return order.id;
}

beforeAll(async () => {
  stub = await startDuffelStub();
  // on sale now: the same economy fare for less, and business for much more
  stub.addFare({ slices: [OUT], fareBrand: 'Flexible Economy', cabinClass: 'economy', amount: '350.00' });
  stub.addFare({ slices: [OUT], fareBrand: 'Flexible Economy', cabinClass: 'business', amount: '1500.00' });
  own = await startOwnStack('duffel', {
    apiEnv: {
      FARE_SOURCE: 'duffel',
      DUFFEL_ACCESS_TOKEN: stub.token,
      DUFFEL_API_URL: stub.url,
      PRICE_CHECK_MIN_INTERVAL_SECONDS: '0',
    },
  });
  ({ stack, api, sql } = own);
});

afterAll(async () => {
  await own?.stop();
  await stub?.close();
});

const token = (user: RegisteredUser) => ({ token: user.session.access_token });

async function droppedFlight(user: RegisteredUser, bookingCode: string, lastName: string): Promise<Flight> {
  const added = await api.post<AddFlightResponse>(
    '/flights/manual',
    { airline: 'United Airlines', bookingCode, passengerLastName: lastName },
    token(user),
  );
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  expect(added.body.flight.originalPrice).toBe(40_000);
  const checked = await api.post<CheckPriceResponse>(`/flights/${added.body.flight.id}/check-price`, {}, token(user));
  expect(checked.status, JSON.stringify(checked.body)).toBe(200);
  expect(checked.body.flight.status).toBe('price_drop');
  expect(checked.body.flight.currentPrice).toBe(35_000);
  return checked.body.flight;
}

function requestsMentioning(id: string) {
  return stub.requests.filter((r) => r.path.includes(id) || JSON.stringify(r.body ?? {}).includes(id));
}

describe('rebooking in Duffel mode', () => {
  it("changes only the traveller's own order, in its own cabin, at a lower fare, never paying", async () => {
    const mine = addOrder('DFLMINE1', 'Smith', '400.00');
    const theirs = addOrder('DFLTHEIR1', 'Jones', '400.00');
    const user = await registerUser(api);
    const flight = await droppedFlight(user, 'DFLMINE1', 'Smith');

    // the attack: the row now names another customer's order, business class and a huge price paid
    await sql`update public.flights
              set source_reference = ${theirs}, cabin_class = 'Business', original_price = 2000000000
              where id = ${flight.id}`;
    const res = await api.post<RebookResponse>(`/flights/${flight.id}/rebook`, {}, token(user));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.flight.rebookingPrice).toBe(35_000);
    expect(res.body.flight.airlineCredit).toBe(5_000);

    expect(requestsMentioning(theirs)).toEqual([]);
    const changed = stub.confirmedChanges.filter((c: { order_id: string }) => c.order_id === mine);
    expect(changed).toHaveLength(1);
    const confirms = stub.requests.filter((r) => r.path.endsWith('/actions/confirm'));
    expect(confirms.every((r) => !(r.body as { data?: { payment?: unknown } })?.data?.payment)).toBe(true);
    const [profile] = await sql`select total_credits_earned from public.profiles where id = ${user.id}`;
    expect(profile?.total_credits_earned).toBe(5_000);
  });

  it('keeps a claim whose confirmation failed, and releases it once Duffel shows no change', async () => {
    const order = addOrder('DFLLOST1', 'Lee', '400.00');
    const user = await registerUser(api);
    const flight = await droppedFlight(user, 'DFLLOST1', 'Lee');
    stub.fault({ match: 'POST /air/order_changes/', status: 503 });

    const res = await api.post<{ message: string }>(`/flights/${flight.id}/rebook`, {}, token(user));
    expect(res.status).toBe(503);
    expect(res.body.message).toBe(
      'The airline did not confirm the change in time. FareBack is checking with the airline and will update this flight shortly; nothing more is needed from you.',
    );
    const [held] = await sql`select status from public.flights where id = ${flight.id}`;
    expect(held?.status).toBe('rebooking');
    expect(stub.confirmedChanges.filter((c: { order_id: string }) => c.order_id === order)).toHaveLength(0);

    await sql`update private.rebookings set claimed_at = now() - interval '10 minutes' where flight_id = ${flight.id}`;
    const run = await runRecurringNow<{ rebookings: { released: number } }>(
      { api, sql, cronSecret: stack.cronSecret },
      'maintenance',
    );
    expect(run.rebookings.released).toBeGreaterThanOrEqual(1);
    const [released] = await sql`select status from public.flights where id = ${flight.id}`;
    expect(released?.status).toBe('price_drop');
    const [record] = await sql`select state from private.rebookings where flight_id = ${flight.id}`;
    expect(record?.state).toBe('released');

    // and the traveller can rebook it now
    const again = await api.post<RebookResponse>(`/flights/${flight.id}/rebook`, {}, token(user));
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.flight.airlineCredit).toBe(5_000);
  });
});
