import { describe, expect, it } from '../extraction/testing/harness.ts';
import { creditExpiryDate } from '../flights/rules.ts';
import { centsToMoney, createDuffelFareSource, DuffelApiError, moneyToCents, retryAfterMs } from './duffel.ts';
import { withResilience } from './resilient.ts';
import { type DuffelStub, startDuffelStub, type StubFlight } from './testing/duffel-stub.ts';
import {
  BookingNotChangeableError,
  BookingNotFoundError,
  FareNoLongerAvailableError,
  type FareSource,
  FareSourceUnavailableError,
  type Itinerary,
  type RebookRequest,
  RetryableFareSourceError,
  type RetrievedBooking,
} from './types.ts';

const NOW = new Date('2026-11-22T12:00:00Z');
const OUT: StubFlight = {
  flightNumber: 'UA338',
  origin: 'EWR',
  destination: 'BOS',
  departingAt: '2027-02-24T17:35:00',
  arrivingAt: '2027-02-24T18:48:00',
};
const BACK: StubFlight = {
  flightNumber: 'UA339',
  origin: 'BOS',
  destination: 'EWR',
  departingAt: '2027-03-02T08:10:00',
  arrivingAt: '2027-03-02T09:31:00',
};

/** A stub with one two-traveller United order (824.60 in all, 412.30 each) and a fresh client. */
async function setUp(order: { changeAllowed?: boolean; fareBrand?: string | null } = {}) {
  const stub = await startDuffelStub();
  stub.addOrder({
    bookingReference: 'DFL123',
    owner: { iata_code: 'UA', name: 'United Airlines' },
    passengers: [
      { given_name: 'Ana', family_name: 'Núñez', seat: '14C' },
      { given_name: 'Bo', family_name: 'Smith', seat: '14D' },
    ],
    slices: [OUT, BACK],
    fareBrand: order.fareBrand === undefined ? 'Flexible Economy' : order.fareBrand,
    totalAmount: '824.60',
    changeAllowed: order.changeAllowed ?? true,
  });
  const source = createDuffelFareSource({ accessToken: stub.token, apiUrl: stub.url, now: () => NOW });
  return { stub, source };
}

async function withStub(
  body: (ctx: { stub: DuffelStub; source: FareSource }) => Promise<void>,
  order?: Parameters<typeof setUp>[0],
) {
  const ctx = await setUp(order);
  try {
    await body(ctx);
  } finally {
    await ctx.stub.close();
  }
}

function itineraryOf(b: RetrievedBooking): Itinerary {
  return {
    airline: b.airline,
    flightNumber: b.flightNumber,
    departureAirport: b.departureAirport,
    arrivalAirport: b.arrivalAirport,
    departureDate: b.departureDate,
    returnFlightNumber: b.returnFlightNumber,
    returnDate: b.returnDate,
    cabinClass: b.cabinClass,
    fareType: b.fareType,
    currency: b.currency,
    bookingCode: b.bookingCode,
    sourceReference: b.sourceReference,
  };
}

function rebookRequest(b: RetrievedBooking, maxPrice: number): RebookRequest {
  return {
    booking: {
      ...itineraryOf(b),
      bookingCode: b.bookingCode,
      passengerLastName: b.passengerLastName,
      seatNumber: b.seatNumber,
    },
    pricePaid: b.pricePaid,
    maxPrice,
  };
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

const retrieve = (source: FareSource, lastName = 'Smith', airline = 'United Airlines') =>
  source.retrieveBooking({ airline, bookingCode: 'dfl123', passengerLastName: lastName });

describe('Duffel money', () => {
  it('turns money strings into integer cents exactly', () => {
    expect(moneyToCents('123.45')).toBe(12345);
    expect(moneyToCents('0.1')).toBe(10);
    expect(moneyToCents('99')).toBe(9900);
    expect(moneyToCents('-30.2')).toBe(-3020);
    expect(moneyToCents('0.29')).toBe(29); // 0.29 * 100 is 28.999999999999996 in floating point
    expect(moneyToCents('1.005')).toBe(101);
    expect(() => moneyToCents('12,50')).toThrow(/not a number/);
    for (let cents = -2000; cents <= 200_000; cents += 7) expect(moneyToCents(centsToMoney(cents))).toBe(cents);
  });

  it('reads the wait from Retry-After or ratelimit-reset against the Date header', () => {
    const now = Date.parse('2026-11-22T12:00:00Z');
    expect(retryAfterMs(new Headers({ 'retry-after': '3' }), now)).toBe(3000);
    expect(
      retryAfterMs(
        new Headers({ date: 'Sun, 22 Nov 2026 12:00:00 GMT', 'ratelimit-reset': 'Sun, 22 Nov 2026 12:00:05 GMT' }),
        now + 60_000, // our clock is off; the server's own Date is the reference
      ),
    ).toBe(5000);
    expect(retryAfterMs(new Headers({}), now)).toBeNull();
    // Outside a 429 the window's reset is no reason to wait.
    expect(retryAfterMs(new Headers({ 'ratelimit-reset': 'Sun, 22 Nov 2026 12:00:05 GMT' }), now, false)).toBeNull();
  });
});

describe('Duffel client: retrieve', () => {
  it('finds the order by reference and family name and maps it', async () => {
    await withStub(async ({ stub, source }) => {
      const booking = await retrieve(source);
      expect(booking).toEqual({
        airline: 'United Airlines',
        airlineCode: 'UA',
        bookingCode: 'DFL123',
        passengerLastName: 'Smith',
        flightNumber: 'UA338',
        departureAirport: 'EWR',
        arrivalAirport: 'BOS',
        departureDate: '2027-02-24',
        departureTime: '17:35',
        arrivalTime: '18:48',
        isRoundTrip: true,
        returnFlightNumber: 'UA339',
        returnDate: '2027-03-02',
        cabinClass: 'Economy',
        seatNumber: '14D',
        fareType: 'Flexible Economy',
        fareChangeable: true,
        pricePaid: 41230,
        currency: 'USD',
        rebookingMethod: 'source',
        sourceReference: expect.stringMatching(/^ord_/),
      });
      const sent = stub.requests[0]!;
      expect(sent.method).toBe('GET');
      expect(sent.path).toBe('/air/orders');
      expect(sent.query).toEqual({ booking_reference: 'DFL123' });
      expect(sent.headers.authorization).toBe(`Bearer ${stub.token}`);
      expect(sent.headers['duffel-version']).toBe('v2');
      expect(sent.headers.accept).toBe('application/json');
    });
  });

  it('matches the family name without case or accents, and the airline by code', async () => {
    await withStub(async ({ source }) => {
      expect((await retrieve(source, 'NUNEZ', 'UA')).seatNumber).toBe('14C');
    });
  });

  it('reports a wrong name, airline or reference as not found', async () => {
    await withStub(async ({ source }) => {
      await expect(retrieve(source, 'Jones')).rejects.toBeInstanceOf(BookingNotFoundError);
      await expect(retrieve(source, 'Smith', 'Delta Air Lines')).rejects.toBeInstanceOf(BookingNotFoundError);
      await expect(
        source.retrieveBooking({ airline: 'UA', bookingCode: 'NOPE99', passengerLastName: 'Smith' }),
      ).rejects.toBeInstanceOf(BookingNotFoundError);
    });
  });

  it('reads a fare without changes from the order conditions', async () => {
    await withStub(
      async ({ source }) => {
        expect(await retrieve(source)).toMatchObject({ fareChangeable: false, fareType: 'Economy' });
      },
      { changeAllowed: false, fareBrand: null },
    );
  });
});

describe('Duffel client: quote', () => {
  it('searches the same slices and takes the cheapest offer on the same flights and brand', async () => {
    await withStub(async ({ stub, source }) => {
      const booking = await retrieve(source);
      stub.addFare({ slices: [OUT, BACK], fareBrand: 'Flexible Economy', amount: '389.99' });
      stub.addFare({ slices: [OUT, BACK], fareBrand: 'Flexible Economy', amount: '402.10' });
      stub.addFare({ slices: [OUT, BACK], fareBrand: 'Basic Economy', amount: '199.00' });
      stub.addFare({
        slices: [{ ...OUT, flightNumber: 'UA1200' }, BACK],
        fareBrand: 'Flexible Economy',
        amount: '150.00',
      });
      const quote = await source.quote(itineraryOf(booking));
      expect(quote).toEqual({
        price: 38999,
        currency: 'USD',
        quotedAt: NOW.toISOString(),
        offerId: expect.stringMatching(/^off_/),
      });
      const sent = stub.requests.at(-1)!;
      expect(sent.method).toBe('POST');
      expect(sent.path).toBe('/air/offer_requests');
      expect(sent.query).toEqual({ return_offers: 'true' });
      expect(sent.headers['content-type']).toBe('application/json');
      expect(sent.body).toEqual({
        data: {
          slices: [
            { origin: 'EWR', destination: 'BOS', departure_date: '2027-02-24' },
            { origin: 'BOS', destination: 'EWR', departure_date: '2027-03-02' },
          ],
          passengers: [{ type: 'adult' }],
          cabin_class: 'economy',
        },
      });
    });
  });

  it('says the fare is gone when no offer is on the same flights', async () => {
    await withStub(async ({ stub, source }) => {
      const booking = await retrieve(source);
      stub.addFare({
        slices: [{ ...OUT, flightNumber: 'UA1200' }, BACK],
        fareBrand: 'Flexible Economy',
        amount: '150.00',
      });
      await expect(source.quote(itineraryOf(booking))).rejects.toBeInstanceOf(FareNoLongerAvailableError);
    });
  });
});

describe('Duffel client: rebook', () => {
  it('changes the order to the lower fare and reports the refund as credit', async () => {
    await withStub(async ({ stub, source }) => {
      const booking = await retrieve(source);
      stub.addFare({ slices: [OUT, BACK], fareBrand: 'Flexible Economy', amount: '350.00' });
      stub.addFare({
        slices: [{ ...OUT, flightNumber: 'UA1200' }, BACK],
        fareBrand: 'Flexible Economy',
        amount: '120.00',
      });
      const result = await source.rebook(rebookRequest(booking, 35000));
      expect(result).toEqual({
        newPrice: 35000,
        currency: 'USD',
        airlineCredit: 6230,
        creditReference: expect.stringMatching(/^oce_/),
        creditExpiryDate: creditExpiryDate(NOW),
        seatNumber: '14D',
        rebookedAt: expect.any(String),
      });
      const paths = stub.requests.slice(1).map((r) => `${r.method} ${r.path}`);
      expect(paths).toEqual([
        `GET /air/orders/${booking.sourceReference}`,
        'POST /air/order_change_requests',
        'GET /air/order_change_offers',
        'POST /air/order_changes',
        `POST /air/order_changes/${result.creditReference}/actions/confirm`,
      ]);
      const changeRequest = stub.requests[2]!.body as {
        data: { order_id: string; slices: { add: unknown[]; remove: unknown[] } };
      };
      expect(changeRequest.data.order_id).toBe(booking.sourceReference);
      expect(changeRequest.data.slices.remove).toHaveLength(2);
      expect(changeRequest.data.slices.add).toEqual([
        { origin: 'EWR', destination: 'BOS', departure_date: '2027-02-24', cabin_class: 'economy' },
        { origin: 'BOS', destination: 'EWR', departure_date: '2027-03-02', cabin_class: 'economy' },
      ]);
      expect(stub.requests.at(-1)!.body).toEqual({ data: {} }); // a refund needs no payment
      expect(stub.confirmedChanges).toHaveLength(1);
    });
  });

  it('takes the airline penalty off the credit', async () => {
    await withStub(async ({ stub, source }) => {
      stub.setChangePenalty('25.00');
      const booking = await retrieve(source);
      stub.addFare({ slices: [OUT, BACK], fareBrand: 'Flexible Economy', amount: '350.00' });
      expect((await source.rebook(rebookRequest(booking, 35000))).airlineCredit).toBe(41230 - 35000 - 1250);
    });
  });

  it('pays from the balance when the change costs money', async () => {
    await withStub(async ({ stub, source }) => {
      const booking = await retrieve(source);
      stub.addFare({ slices: [OUT, BACK], fareBrand: 'Flexible Economy', amount: '450.00' });
      const result = await source.rebook(rebookRequest(booking, 50000));
      expect(result).toMatchObject({ newPrice: 45000, airlineCredit: 0 });
      expect(stub.requests.at(-1)!.body).toEqual({
        data: { payment: { type: 'balance', amount: '75.40', currency: 'USD' } },
      });
    });
  });

  it('refuses above maxPrice without changing anything', async () => {
    await withStub(async ({ stub, source }) => {
      const booking = await retrieve(source);
      stub.addFare({ slices: [OUT, BACK], fareBrand: 'Flexible Economy', amount: '350.00' });
      await expect(source.rebook(rebookRequest(booking, 34999))).rejects.toBeInstanceOf(FareNoLongerAvailableError);
      expect(stub.requests.some((r) => r.path === '/air/order_changes')).toBe(false);
      expect(stub.confirmedChanges).toHaveLength(0);
    });
  });

  it('refuses an order whose conditions forbid changes', async () => {
    await withStub(
      async ({ source }) => {
        const booking = await retrieve(source);
        await expect(source.rebook(rebookRequest(booking, 99999))).rejects.toBeInstanceOf(BookingNotChangeableError);
      },
      { changeAllowed: false },
    );
  });
});

describe('Duffel client: error shapes', () => {
  it('401: a bad token is an outage, with Duffel error kept as the cause', async () => {
    await withStub(async ({ stub }) => {
      const source = createDuffelFareSource({ accessToken: 'wrong', apiUrl: stub.url });
      const error = await caught(retrieve(source));
      expect(error).toBeInstanceOf(FareSourceUnavailableError);
      const cause = (error as Error).cause as DuffelApiError;
      expect(cause).toBeInstanceOf(DuffelApiError);
      expect(cause.status).toBe(401);
      expect(cause.errors[0]).toMatchObject({ type: 'authentication_error', code: 'unauthorized' });
      expect(cause.requestId).toMatch(/^FZW/);
    });
  });

  it('404 on the order: not found', async () => {
    await withStub(async ({ source }) => {
      const booking = await retrieve(source);
      const gone = { ...rebookRequest(booking, 99999) };
      gone.booking = { ...gone.booking, sourceReference: 'ord_missing' };
      await expect(source.rebook(gone)).rejects.toBeInstanceOf(BookingNotFoundError);
    });
  });

  it('422 validation: a DuffelApiError with the field; offer gone: FareNoLongerAvailableError', async () => {
    await withStub(async ({ stub, source }) => {
      const booking = await retrieve(source);
      stub.fault({ match: 'POST /air/offer_requests', status: 422 });
      const error = (await caught(source.quote(itineraryOf(booking)))) as DuffelApiError;
      expect(error).toBeInstanceOf(DuffelApiError);
      expect(error.status).toBe(422);
      expect(error.errors[0]).toMatchObject({ type: 'validation_error', code: 'validation_required' });
      stub.fault({ match: 'POST /air/offer_requests', status: 422, code: 'offer_no_longer_available' });
      await expect(source.quote(itineraryOf(booking))).rejects.toBeInstanceOf(FareNoLongerAvailableError);
    });
  });

  it('429: retryable, with the wait from ratelimit-reset or Retry-After', async () => {
    await withStub(async ({ stub, source }) => {
      stub.fault({ status: 429, resetSeconds: 2 });
      const limited = (await caught(retrieve(source))) as RetryableFareSourceError;
      expect(limited).toBeInstanceOf(RetryableFareSourceError);
      expect(limited.status).toBe(429);
      expect(limited.retryAfterMs).toBe(2000);
      stub.fault({ status: 429, headers: { 'retry-after': '3' } });
      expect(((await caught(retrieve(source))) as RetryableFareSourceError).retryAfterMs).toBe(3000);
    });
  });

  it('5xx: retryable, HTML gateway pages included', async () => {
    await withStub(async ({ stub, source }) => {
      stub.fault({ status: 503 });
      expect(((await caught(retrieve(source))) as RetryableFareSourceError).status).toBe(503);
      stub.fault({ status: 502, body: '<html><body>502 Bad Gateway</body></html>' });
      const gateway = (await caught(retrieve(source))) as RetryableFareSourceError;
      expect(gateway).toBeInstanceOf(RetryableFareSourceError);
      expect(gateway.status).toBe(502);
    });
  });

  it('a failed confirm is reported, never retried', async () => {
    await withStub(async ({ stub, source }) => {
      const booking = await retrieve(source);
      stub.addFare({ slices: [OUT, BACK], fareBrand: 'Flexible Economy', amount: '350.00' });
      stub.fault({ match: 'POST /air/order_changes/', status: 500 });
      const error = await caught(source.rebook(rebookRequest(booking, 35000)));
      expect(error).toBeInstanceOf(FareSourceUnavailableError);
      expect(error).not.toBeInstanceOf(RetryableFareSourceError);
    });
  });
});

describe('Duffel client behind the resilience wrapper', () => {
  const resilient = (stub: DuffelStub, timeoutMs = 5000) =>
    withResilience(createDuffelFareSource({ accessToken: stub.token, apiUrl: stub.url }), {
      timeoutMs,
      maxRetries: 2,
      baseDelayMs: 1,
      maxDelayMs: 2,
    });

  it('retries a 503 and succeeds; never retries a 404', async () => {
    await withStub(async ({ stub }) => {
      const source = resilient(stub);
      stub.fault({ match: 'GET /air/orders', status: 503 });
      expect((await retrieve(source)).bookingCode).toBe('DFL123');
      expect(stub.requests).toHaveLength(2);
      stub.fault({ match: 'GET /air/orders', status: 404 });
      await expect(retrieve(source)).rejects.toBeInstanceOf(DuffelApiError);
      expect(stub.requests).toHaveLength(3);
    });
  });

  it('gives up after the retries with the source unavailable', async () => {
    await withStub(async ({ stub }) => {
      stub.fault({ status: 500, times: 10 });
      await expect(retrieve(resilient(stub))).rejects.toBeInstanceOf(FareSourceUnavailableError);
      expect(stub.requests).toHaveLength(3);
    });
  });

  it('times out a slow answer and tries again', async () => {
    await withStub(async ({ stub }) => {
      stub.fault({ delayMs: 2000, times: 1 });
      expect((await retrieve(resilient(stub, 200))).bookingCode).toBe('DFL123');
      expect(stub.requests).toHaveLength(2);
    });
  });
});
