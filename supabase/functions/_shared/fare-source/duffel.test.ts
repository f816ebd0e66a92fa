import { describe, expect, it } from '../extraction/testing/harness.ts';
import { creditExpiryDate } from '../flights/rules.ts';
import { centsToMoney, createDuffelFareSource, DuffelApiError, moneyToCents, retryAfterMs } from './duffel.ts';
import { type Clock, withResilience } from './resilient.ts';
import {
  type DuffelStub,
  type DuffelStubOptions,
  startDuffelStub,
  type StubFlight,
  type StubOrderInput,
} from './testing/duffel-stub.ts';
import {
  BookingMismatchError,
  BookingNotChangeableError,
  BookingNotFoundError,
  FareNoLongerAvailableError,
  type FareSource,
  FareSourceUnavailableError,
  itineraryOfBooking,
  RebookOutcomeUnknownError,
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

interface SetUp {
  changeAllowed?: boolean;
  fareBrand?: string | null;
  /** The airline's change penalty, set before the order is made (so its conditions state it). */
  penalty?: string;
  stub?: DuffelStubOptions;
}

/** A stub with one two-traveller United order (824.60 in all, 412.30 each) and a fresh client. */
async function setUp(order: SetUp = {}) {
  const stub = await startDuffelStub(order.stub);
  if (order.penalty) stub.setChangePenalty(order.penalty);
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

const itineraryOf = itineraryOfBooking;

/** A rebooking as the api builds it: from the retrieval, order id included. */
function rebookRequest(b: RetrievedBooking, maxPrice: number): RebookRequest {
  return {
    booking: {
      ...itineraryOf(b),
      bookingCode: b.bookingCode,
      passengerLastName: b.passengerLastName,
      seatNumber: b.seatNumber,
      sourceReference: b.sourceReference,
    },
    pricePaid: b.pricePaid,
    maxPrice,
  };
}

/** The same request with some booking fields replaced (what an attacker controls in a forged row). */
function altered(
  request: RebookRequest,
  booking: Partial<RebookRequest['booking']>,
  rest: Partial<RebookRequest> = {},
) {
  return { ...request, ...rest, booking: { ...request.booking, ...booking } };
}

/** Another customer's order: same flights, another booking reference and name. */
function addOtherCustomer(stub: DuffelStub, input: Partial<StubOrderInput> = {}) {
  return stub.addOrder({
    bookingReference: 'VIC456',
    owner: { iata_code: 'UA', name: 'United Airlines' },
    passengers: [{ given_name: 'Vi', family_name: 'Jones', seat: '3A' }],
    slices: [OUT, BACK],
    fareBrand: 'Flexible Economy',
    totalAmount: '600.00',
    changeAllowed: true,
    ...input,
  });
}

/** Requests that start, look at or make an order change. */
const changeCalls = (stub: DuffelStub) => stub.requests.filter((r) => r.path.startsWith('/air/order_change'));

/**
 * A clock for the resilience wrapper on which time passes only when the test says: the first
 * attempt's timeout fires when `fire` resolves (e.g. when the stub has received a request), later
 * attempts never time out, and backoff waits pass at once. Nothing depends on the machine's speed.
 */
function timeoutWhen(fire: Promise<unknown>): Clock {
  let fired = false;
  return {
    now: () => 0,
    sleep: (_ms, signal) => {
      if (!signal) return Promise.resolve(); // a backoff
      const first = !fired;
      fired = true;
      return new Promise<void>((resolve) => {
        if (signal.aborted) return resolve();
        signal.addEventListener('abort', () => resolve(), { once: true });
        if (first) void fire.then(() => resolve());
      });
    },
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
        pricePaid: 82460,
        passengerCount: 2,
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
        price: 77998,
        currency: 'USD',
        quotedAt: NOW.toISOString(),
        offerId: expect.stringMatching(/^off_/),
        changePenalty: null,
        refundForm: null,
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
          passengers: [{ type: 'adult' }, { type: 'adult' }],
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
      const result = await source.rebook(rebookRequest(booking, 70_000));
      expect(result).toEqual({
        newPrice: 70000,
        currency: 'USD',
        airlineCredit: 12460,
        creditReference: expect.stringMatching(/^oce_/),
        creditExpiryDate: creditExpiryDate(NOW),
        seatNumber: '14D',
        rebookedAt: expect.any(String),
        changePenalty: 0,
        refundForm: 'credit',
      });
      const paths = stub.requests.slice(1).map((r) => `${r.method} ${r.path}`);
      expect(paths).toEqual([
        'GET /air/orders', // the order found again by booking reference and name, as at retrieval
        'POST /air/order_change_requests',
        'GET /air/order_change_offers',
        'POST /air/order_changes',
        `POST /air/order_changes/${result.creditReference}/actions/confirm`,
      ]);
      expect(stub.requests[1]!.query).toEqual({ booking_reference: 'DFL123' });
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
      expect(stub.balancePayments).toEqual([]);
    });
  });

  it('takes the airline penalty off the credit', async () => {
    await withStub(async ({ stub, source }) => {
      stub.setChangePenalty('25.00');
      const booking = await retrieve(source);
      stub.addFare({ slices: [OUT, BACK], fareBrand: 'Flexible Economy', amount: '350.00' });
      expect((await source.rebook(rebookRequest(booking, 70_000))).airlineCredit).toBe(82460 - 70000 - 2500);
    });
  });

  it('keeps the fare brand: a cheaper Basic Economy change is not taken', async () => {
    await withStub(async ({ stub, source }) => {
      const booking = await retrieve(source);
      stub.addFare({ slices: [OUT, BACK], fareBrand: 'Basic Economy', amount: '200.00' });
      stub.addFare({ slices: [OUT, BACK], fareBrand: 'Flexible Economy', amount: '390.00' });
      expect((await source.rebook(rebookRequest(booking, 80_000))).newPrice).toBe(78000);
    });
  });

  it('refuses above maxPrice without changing anything', async () => {
    await withStub(async ({ stub, source }) => {
      const booking = await retrieve(source);
      stub.addFare({ slices: [OUT, BACK], fareBrand: 'Flexible Economy', amount: '350.00' });
      await expect(source.rebook(rebookRequest(booking, 69_998))).rejects.toBeInstanceOf(FareNoLongerAvailableError);
      expect(stub.requests.some((r) => r.path === '/air/order_changes')).toBe(false);
      expect(stub.confirmedChanges).toHaveLength(0);
    });
  });

  it('refuses an order whose conditions forbid changes', async () => {
    await withStub(
      async ({ source }) => {
        const booking = await retrieve(source);
        await expect(source.rebook(rebookRequest(booking, 199_998))).rejects.toBeInstanceOf(BookingNotChangeableError);
      },
      { changeAllowed: false },
    );
  });
});

describe('Duffel client: a rebooking cannot be steered by the request', () => {
  it("refuses another customer's order id, and sends nothing that could change their order", async () => {
    await withStub(async ({ stub, source }) => {
      const theirs = addOtherCustomer(stub);
      stub.addFare({ slices: [OUT, BACK], fareBrand: 'Flexible Economy', amount: '100.00' });
      const mine = await retrieve(source);
      const before = stub.order(theirs.id);
      // The forged row: my booking code and name, their order id.
      const forged = altered(rebookRequest(mine, 99999), { sourceReference: theirs.id });
      await expect(source.rebook(forged)).rejects.toBeInstanceOf(BookingMismatchError);
      // Their booking code with my name (I do not know theirs): no such booking.
      const guessed = altered(rebookRequest(mine, 99999), { bookingCode: 'VIC456', sourceReference: theirs.id });
      await expect(source.rebook(guessed)).rejects.toBeInstanceOf(BookingNotFoundError);
      // Asking what happened does not report a change on their order either.
      await expect(source.rebookingOutcome(forged)).rejects.toBeInstanceOf(BookingMismatchError);

      expect(changeCalls(stub)).toEqual([]); // no order change request, offer, change or confirm
      expect(stub.confirmedChanges).toEqual([]);
      expect(stub.balancePayments).toEqual([]);
      expect(stub.order(theirs.id)).toEqual(before);
    });
  });

  it('refuses a request without the order id, or on other flights than the order, before any change call', async () => {
    await withStub(async ({ stub, source }) => {
      stub.addFare({ slices: [OUT, BACK], fareBrand: 'Flexible Economy', amount: '100.00' });
      const mine = rebookRequest(await retrieve(source), 99999);
      await expect(source.rebook(altered(mine, { sourceReference: null }))).rejects.toBeInstanceOf(
        BookingMismatchError,
      );
      expect(stub.requests).toHaveLength(1); // the retrieval only: nothing was even looked up
      await expect(source.rebook(altered(mine, { flightNumber: 'UA1200' }))).rejects.toBeInstanceOf(
        BookingMismatchError,
      );
      await expect(source.rebook(altered(mine, { returnDate: '2027-03-09' }))).rejects.toBeInstanceOf(
        BookingMismatchError,
      );
      await expect(source.rebook(altered(mine, { bookingCode: 'NOPE99' }))).rejects.toBeInstanceOf(
        BookingNotFoundError,
      );
      expect(changeCalls(stub)).toEqual([]);
      expect(stub.confirmedChanges).toEqual([]);
    });
  });

  /** The attack: a $400 economy order, a forged row asking for business with a huge price paid. */
  async function economyOrder(fares: { cabinClass: 'economy' | 'business'; amount: string }[]) {
    const stub = await startDuffelStub();
    stub.setOfferEveryCabin(true); // an airline that answers a change request with every cabin
    const order = stub.addOrder({
      bookingReference: 'ECO400',
      owner: { iata_code: 'UA', name: 'United Airlines' },
      passengers: [{ given_name: 'Kim', family_name: 'Lee', seat: '22A' }],
      slices: [OUT],
      cabinClass: 'economy',
      fareBrand: 'Standard',
      totalAmount: '400.00',
      changeAllowed: true,
    });
    for (const fare of fares) stub.addFare({ slices: [OUT], fareBrand: 'Standard', ...fare });
    const source = createDuffelFareSource({ accessToken: stub.token, apiUrl: stub.url, now: () => NOW });
    const booking = await source.retrieveBooking({ airline: 'UA', bookingCode: 'ECO400', passengerLastName: 'Lee' });
    const forged = altered(
      rebookRequest(booking, 150_000),
      { cabinClass: 'Business', fareType: 'Business' },
      { pricePaid: 160_000 },
    );
    return { stub, source, order, forged };
  }

  it("uses the order's own cabin whatever the request names: only the cheaper economy change is made", async () => {
    const { stub, source, order, forged } = await economyOrder([
      { cabinClass: 'business', amount: '1500.00' },
      { cabinClass: 'economy', amount: '380.00' },
    ]);
    try {
      const result = await source.rebook(forged);
      // The credit is Duffel's refund (20.00), not the forged price paid minus the new fare.
      expect(result).toMatchObject({ newPrice: 38000, airlineCredit: 2000 });
      const changeRequest = stub.requests.find((r) => r.path === '/air/order_change_requests')!;
      expect((changeRequest.body as { data: { slices: { add: { cabin_class: string }[] } } }).data.slices.add).toEqual([
        { origin: 'EWR', destination: 'BOS', departure_date: '2027-02-24', cabin_class: 'economy' },
      ]);
      const now = stub.order(order.id);
      expect(now.total_amount).toBe('380.00');
      expect(now.slices[0].segments[0].passengers[0].cabin_class).toBe('economy');
      expect(stub.requests.at(-1)!.body).toEqual({ data: {} });
      expect(stub.balancePayments).toEqual([]);
    } finally {
      await stub.close();
    }
  });

  it('never makes a change that costs money: business at $1,500 on a $400 order is refused, nothing paid', async () => {
    const { stub, source, order, forged } = await economyOrder([{ cabinClass: 'business', amount: '1500.00' }]);
    try {
      const before = stub.order(order.id);
      await expect(source.rebook(forged)).rejects.toBeInstanceOf(FareNoLongerAvailableError);
      expect(stub.requests.some((r) => r.path.startsWith('/air/order_changes'))).toBe(false);
      expect(stub.confirmedChanges).toEqual([]);
      expect(stub.balancePayments).toEqual([]);
      expect(stub.order(order.id)).toEqual(before);
    } finally {
      await stub.close();
    }
  });

  it('refuses a same-cabin change above what was paid, whatever price paid and maxPrice the request claims', async () => {
    const { stub, source, order, forged } = await economyOrder([{ cabinClass: 'economy', amount: '450.00' }]);
    try {
      await expect(source.rebook(forged)).rejects.toBeInstanceOf(FareNoLongerAvailableError);
      expect(stub.requests.some((r) => r.path.startsWith('/air/order_changes'))).toBe(false);
      expect(stub.balancePayments).toEqual([]);
      expect(stub.order(order.id).total_amount).toBe('400.00');
    } finally {
      await stub.close();
    }
  });

  it('does not confirm a pending change that turns out to cost money', async () => {
    await withStub(async ({ stub, source }) => {
      const booking = await retrieve(source);
      stub.addFare({ slices: [OUT, BACK], fareBrand: 'Flexible Economy', amount: '350.00' });
      stub.fault({
        match: 'POST /air/order_changes',
        status: 201,
        body: {
          data: {
            id: 'oce_0000REPRICED',
            order_id: booking.sourceReference,
            new_total_amount: '700.00',
            new_total_currency: 'USD',
            change_total_amount: '10.00',
            change_total_currency: 'USD',
            penalty_total_amount: '134.60',
            confirmed_at: null,
            slices: { add: [], remove: [] },
          },
        },
      });
      await expect(source.rebook(rebookRequest(booking, 70_000))).rejects.toBeInstanceOf(FareNoLongerAvailableError);
      expect(stub.requests.some((r) => r.path.endsWith('/actions/confirm'))).toBe(false);
      expect(stub.confirmedChanges).toEqual([]);
    });
  });
});

describe('Duffel client: rebookings whose answer is lost', () => {
  it('a confirm answered with 500 is an unknown outcome, never retried', async () => {
    await withStub(async ({ stub, source }) => {
      const booking = await retrieve(source);
      stub.addFare({ slices: [OUT, BACK], fareBrand: 'Flexible Economy', amount: '350.00' });
      stub.fault({ match: 'POST /air/order_changes/', status: 500 });
      const error = await caught(source.rebook(rebookRequest(booking, 70_000)));
      expect(error).toBeInstanceOf(RebookOutcomeUnknownError);
      expect(error).toBeInstanceOf(FareSourceUnavailableError); // 503 to callers
      expect(error).not.toBeInstanceOf(RetryableFareSourceError);
      expect(stub.requests.filter((r) => r.path.endsWith('/actions/confirm'))).toHaveLength(1);
      // Nothing went through, and asking says so.
      expect(await source.rebookingOutcome(rebookRequest(booking, 70_000))).toBeNull();
    });
  });

  it('a change made but its answer lost: rebookingOutcome finds it, credited as rebook would have', async () => {
    await withStub(async ({ stub, source }) => {
      const booking = await retrieve(source);
      stub.addFare({ slices: [OUT, BACK], fareBrand: 'Flexible Economy', amount: '350.00' });
      stub.fault({ match: 'POST /air/order_changes/', status: 502, applyFirst: true });
      await expect(source.rebook(rebookRequest(booking, 70_000))).rejects.toBeInstanceOf(RebookOutcomeUnknownError);
      expect(stub.confirmedChanges).toHaveLength(1); // it did happen
      expect(await source.rebookingOutcome(rebookRequest(booking, 70_000))).toEqual({
        newPrice: 70000,
        currency: 'USD',
        airlineCredit: 12460,
        creditReference: booking.sourceReference, // the order id: this order does not list its changes
        creditExpiryDate: creditExpiryDate(NOW),
        seatNumber: '14D',
        rebookedAt: NOW.toISOString(),
      });
    });
  });

  it('a confirmed change whose answer cannot be read is an unknown outcome too', async () => {
    await withStub(async ({ stub, source }) => {
      const booking = await retrieve(source);
      stub.addFare({ slices: [OUT, BACK], fareBrand: 'Flexible Economy', amount: '350.00' });
      stub.fault({ match: 'POST /air/order_changes/', status: 200, body: '<html>OK</html>', applyFirst: true });
      await expect(source.rebook(rebookRequest(booking, 70_000))).rejects.toBeInstanceOf(RebookOutcomeUnknownError);
      expect((await source.rebookingOutcome(rebookRequest(booking, 70_000)))?.newPrice).toBe(70000);
    });
  });

  it('takes the reference and time from the order change when the order lists its changes', async () => {
    await withStub(
      async ({ stub, source }) => {
        const booking = await retrieve(source);
        stub.addFare({ slices: [OUT, BACK], fareBrand: 'Flexible Economy', amount: '350.00' });
        stub.fault({ match: 'POST /air/order_changes/', status: 503, applyFirst: true });
        await expect(source.rebook(rebookRequest(booking, 70_000))).rejects.toBeInstanceOf(RebookOutcomeUnknownError);
        const change = stub.confirmedChanges[0];
        expect(await source.rebookingOutcome(rebookRequest(booking, 70_000))).toMatchObject({
          creditReference: change.id,
          rebookedAt: new Date(change.confirmed_at).toISOString(),
        });
      },
      { stub: { ordersListChanges: true } },
    );
  });

  it('after a rebook that answered, rebookingOutcome reports the same price and credit (penalty included)', async () => {
    await withStub(
      async ({ stub, source }) => {
        const booking = await retrieve(source);
        stub.addFare({ slices: [OUT, BACK], fareBrand: 'Flexible Economy', amount: '350.00' });
        const request = rebookRequest(booking, 70_000);
        expect(await source.rebookingOutcome(request)).toBeNull(); // nothing yet
        const result = await source.rebook(request);
        expect(result.airlineCredit).toBe(82460 - 70000 - 2500);
        expect(await source.rebookingOutcome(request)).toMatchObject({
          newPrice: result.newPrice,
          airlineCredit: result.airlineCredit,
          currency: result.currency,
          seatNumber: result.seatNumber,
        });
      },
      { penalty: '25.00' },
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

  it('a rebooking of an order that is gone: not found; one naming a missing order id: mismatch', async () => {
    await withStub(async ({ stub, source }) => {
      const booking = await retrieve(source);
      const request = rebookRequest(booking, 199_998);
      await expect(source.rebook(altered(request, { sourceReference: 'ord_missing' }))).rejects.toBeInstanceOf(
        BookingMismatchError,
      );
      stub.fault({ match: 'GET /air/orders', status: 200, body: { data: [], meta: { limit: 50 } } });
      await expect(source.rebook(request)).rejects.toBeInstanceOf(BookingNotFoundError);
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
});

describe('Duffel client behind the resilience wrapper', () => {
  const resilient = (stub: DuffelStub, clock?: Clock) =>
    withResilience(createDuffelFareSource({ accessToken: stub.token, apiUrl: stub.url, now: () => NOW }), {
      timeoutMs: 5000,
      maxRetries: 2,
      baseDelayMs: 1,
      maxDelayMs: 2,
      clock,
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
      stub.fault({ match: 'GET /air/orders', delayMs: 600_000 }); // answers only when the stub closes
      const source = resilient(stub, timeoutWhen(stub.waitForRequest('GET /air/orders')));
      expect((await retrieve(source)).bookingCode).toBe('DFL123');
      expect(stub.requests).toHaveLength(2);
    });
  });

  it('a rebook whose confirm times out is an unknown outcome, not retried; asking then says nothing happened', async () => {
    await withStub(async ({ stub }) => {
      const plain = createDuffelFareSource({ accessToken: stub.token, apiUrl: stub.url, now: () => NOW });
      const booking = await retrieve(plain);
      stub.addFare({ slices: [OUT, BACK], fareBrand: 'Flexible Economy', amount: '350.00' });
      stub.fault({ match: 'POST /air/order_changes/', delayMs: 600_000 }); // the confirm hangs
      const source = resilient(stub, timeoutWhen(stub.waitForRequest('POST /air/order_changes/')));
      const error = await caught(source.rebook(rebookRequest(booking, 70_000)));
      expect(error).toBeInstanceOf(RebookOutcomeUnknownError);
      expect(stub.requests.filter((r) => r.path.endsWith('/actions/confirm'))).toHaveLength(1);
      expect(stub.confirmedChanges).toEqual([]);
      expect(await resilient(stub).rebookingOutcome(rebookRequest(booking, 70_000))).toBeNull();
    });
  });

  it('retries rebookingOutcome on a 503 (it only reads)', async () => {
    await withStub(async ({ stub }) => {
      const source = resilient(stub);
      const booking = await retrieve(source);
      stub.fault({ match: 'GET /air/orders', status: 503 });
      expect(await source.rebookingOutcome(rebookRequest(booking, 70_000))).toBeNull();
      expect(stub.requests.filter((r) => r.path === '/air/orders')).toHaveLength(3);
    });
  });
});
