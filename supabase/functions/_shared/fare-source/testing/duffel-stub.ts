// A local stand-in for the Duffel API, for the Duffel client's tests (node:http, so it runs under
// Node and Deno alike). It answers the endpoints the client uses with Duffel's documented shapes:
// bodies wrapped in `{ data }`, errors as `{ errors: [{ type, title, message, code,
// documentation_url }], meta: { request_id, status } }`, and ratelimit-limit / ratelimit-remaining
// / ratelimit-reset headers on every answer. It checks the Authorization and Duffel-Version
// headers as Duffel does.
//
// Tests seed orders (addOrder) and the flights on sale with their prices (addFare), and script
// failures with fault(): any status with Duffel's error body for it (401, 404, 422, 429 with
// Retry-After and rate-limit headers, 500, 503...), a gateway's HTML page, or a slow answer;
// `applyFirst` does the request and then answers with the failure (a change made, its answer
// lost). Like Duffel, the stub takes any change it is asked to confirm: a confirm of a change
// that costs money succeeds when the payment from the balance matches, and is recorded in
// `balancePayments`; order changes only offer fares in the cabin asked for, unless
// setOfferEveryCabin(true) (an airline that answers with every cabin).
import { Buffer } from 'node:buffer';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface StubFlight {
  /** Marketing flight, carrier code and number: 'UA338'. */
  flightNumber: string;
  origin: string;
  destination: string;
  /** Local ISO date-times without offset, as Duffel sends them: '2027-02-24T17:35:00'. */
  departingAt: string;
  arrivingAt: string;
}

export interface StubOrderInput {
  bookingReference: string;
  owner: { iata_code: string; name: string };
  passengers: { given_name: string; family_name: string; seat?: string | null }[];
  /** One flight per slice: outbound, then the return if any. */
  slices: StubFlight[];
  cabinClass?: 'economy' | 'premium_economy' | 'business' | 'first';
  cabinMarketingName?: string;
  fareBrand?: string | null;
  totalAmount: string;
  currency?: string;
  changeAllowed?: boolean;
}

export interface StubFare {
  /** The slices of this offer, in order. */
  slices: StubFlight[];
  carrierName?: string;
  fareBrand?: string | null;
  cabinClass?: 'economy' | 'premium_economy' | 'business' | 'first';
  /** Per adult, e.g. '289.40'. */
  amount: string;
  currency?: string;
  /** Seats left at this fare: an offer request for more adults does not get it (default: plenty). */
  seatsLeft?: number;
}

export interface StubFault {
  /** 'METHOD /path-prefix' or '/path-prefix'; every request when absent. */
  match?: string;
  /** Answer with this status (Duffel's error body for it unless `body`); absent: answer normally after `delayMs`. */
  status?: number;
  /** How many matching requests it applies to (default 1). */
  times?: number;
  delayMs?: number;
  headers?: Record<string, string>;
  /** A raw body (a string is sent as text/html, as gateways do), instead of Duffel's error body. */
  body?: unknown;
  /** Seconds until the rate-limit window resets, for 429 (default 1). */
  resetSeconds?: number;
  /** Error code and message for the body, instead of the status's usual one. */
  code?: string;
  message?: string;
  /** Carry the request out first, then answer with `status` (the effect happened; the answer is lost). */
  applyFirst?: boolean;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body, if any. */
  body: unknown;
}

// Duffel's payloads, built and read loosely as a server reads what it is sent.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const ERROR_KINDS: Record<number, { type: string; title: string; code: string; message: string }> = {
  400: { type: 'invalid_request_error', title: 'Bad request', code: 'bad_request', message: 'The request was invalid' },
  401: {
    type: 'authentication_error',
    title: 'Unauthorized',
    code: 'unauthorized',
    message: 'The access token used is not valid',
  },
  403: {
    type: 'authorization_error',
    title: 'Forbidden',
    code: 'insufficient_permissions',
    message: 'The provided token does not have sufficient permissions',
  },
  404: {
    type: 'invalid_request_error',
    title: 'Not found',
    code: 'not_found',
    message: 'The resource you are trying to access does not exist',
  },
  422: {
    type: 'validation_error',
    title: 'Validation error',
    code: 'validation_required',
    message: 'Field is required',
  },
  429: {
    type: 'rate_limit_error',
    title: 'Rate limit exceeded',
    code: 'rate_limit_exceeded',
    message: 'You have exceeded the rate limit, please wait before making more requests',
  },
  500: {
    type: 'api_error',
    title: 'Internal server error',
    code: 'internal_server_error',
    message: 'An internal server error occurred. Please try again later.',
  },
  503: {
    type: 'api_error',
    title: 'Service unavailable',
    code: 'service_unavailable',
    message: 'The service is temporarily unavailable',
  },
};

const RATE_LIMIT = 120;

const CABIN_NAMES: Record<string, string> = {
  economy: 'Economy',
  premium_economy: 'Premium Economy',
  business: 'Business',
  first: 'First',
};

export interface DuffelStub {
  url: string;
  token: string;
  requests: RecordedRequest[];
  /** Order changes confirmed so far. */
  confirmedChanges: Json[];
  /** Payments taken from the Duffel balance by confirms: `{ order_id, amount, currency }`. */
  balancePayments: Json[];
  addOrder(input: StubOrderInput): Json;
  /** The order as the stub holds it now (a copy), or null. */
  order(id: string): Json | null;
  addFare(fare: StubFare): void;
  /** Penalty the airline charges per order change, e.g. '25.00' (default '0.00'). */
  setChangePenalty(amount: string): void;
  /** Order change offers in every cabin on sale, whatever cabin the request asked for. */
  setOfferEveryCabin(on: boolean): void;
  fault(fault: StubFault): void;
  /** Resolves when a request matching 'METHOD /path-prefix' (or '/path-prefix') has arrived. */
  waitForRequest(match: string): Promise<RecordedRequest>;
  close(): Promise<void>;
}

export interface DuffelStubOptions {
  token?: string;
  /** Orders list their confirmed changes (`changes: [{ id, confirmed_at }]`). Default false. */
  ordersListChanges?: boolean;
}

export async function startDuffelStub(options: DuffelStubOptions = {}): Promise<DuffelStub> {
  const token = options.token ?? 'duffel_test_stub_token';
  const requests: RecordedRequest[] = [];
  const orders = new Map<string, Json>();
  const fares: StubFare[] = [];
  const changeRequests = new Map<string, { order: Json; offers: Json[] }>();
  const changes = new Map<string, Json>();
  const confirmedChanges: Json[] = [];
  const balancePayments: Json[] = [];
  const waiters: { match: string; resolve: (request: RecordedRequest) => void }[] = [];
  const faults: (StubFault & { left: number })[] = [];
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const sockets = new Set<Socket>();
  let changePenalty = '0.00';
  let offerEveryCabin = false;
  let counter = 0;

  const id = (prefix: string) => `${prefix}_0000A${(++counter).toString(36).toUpperCase().padStart(6, '0')}Stub`;
  const requestId = () => `FZW0H3Hd${(++counter).toString(36).toUpperCase()}`;

  function place(code: string): Json {
    return { type: 'airport', iata_code: code, id: `arp_${code.toLowerCase()}`, name: `${code} Airport` };
  }

  function carrier(code: string, name?: string): Json {
    return { iata_code: code, name: name ?? code, id: `arl_${code.toLowerCase()}` };
  }

  function segment(
    flight: StubFlight,
    passengers: Json[],
    cabin: string,
    marketingName: string,
    carrierName?: string,
  ): Json {
    const match = /^([A-Z0-9]{2})(\d+)$/.exec(flight.flightNumber);
    const code = match?.[1] ?? 'XX';
    const number = match?.[2] ?? '0';
    return {
      id: id('seg'),
      origin: place(flight.origin),
      destination: place(flight.destination),
      departing_at: flight.departingAt,
      arriving_at: flight.arrivingAt,
      marketing_carrier: carrier(code, carrierName),
      marketing_carrier_flight_number: number,
      operating_carrier: carrier(code, carrierName),
      operating_carrier_flight_number: number,
      aircraft: { iata_code: '320', name: 'Airbus A320' },
      passengers: passengers.map((p) => ({
        passenger_id: p.id,
        cabin_class: cabin,
        cabin_class_marketing_name: marketingName,
        seat: p.seat ? { designator: p.seat, name: 'Seat', disclosures: [] } : null,
        baggages: [{ type: 'checked', quantity: 1 }],
      })),
    };
  }

  function slice(
    flight: StubFlight,
    passengers: Json[],
    cabin: string,
    marketing: string,
    brand: string | null,
    carrierName?: string,
  ): Json {
    return {
      id: id('sli'),
      origin: place(flight.origin),
      origin_type: 'airport',
      destination: place(flight.destination),
      destination_type: 'airport',
      fare_brand_name: brand,
      changeable: true,
      segments: [segment(flight, passengers, cabin, marketing, carrierName)],
    };
  }

  function addOrder(input: StubOrderInput): Json {
    const passengers = input.passengers.map((p) => ({
      id: id('pas'),
      given_name: p.given_name,
      family_name: p.family_name,
      type: 'adult',
      seat: p.seat ?? null,
    }));
    const cabin = input.cabinClass ?? 'economy';
    const marketing = input.cabinMarketingName ?? 'Economy';
    const order = {
      id: id('ord'),
      booking_reference: input.bookingReference,
      live_mode: false,
      created_at: '2026-11-01T10:00:00Z',
      owner: carrier(input.owner.iata_code, input.owner.name),
      total_amount: input.totalAmount,
      total_currency: input.currency ?? 'USD',
      base_amount: input.totalAmount,
      base_currency: input.currency ?? 'USD',
      tax_amount: '0.00',
      tax_currency: input.currency ?? 'USD',
      passengers: passengers.map(({ seat: _seat, ...p }) => p),
      slices: input.slices.map((flight) =>
        slice(flight, passengers, cabin, marketing, input.fareBrand ?? null, input.owner.name),
      ),
      services: [],
      payment_status: { awaiting_payment: false },
      conditions: {
        change_before_departure: input.changeAllowed
          ? { allowed: true, penalty_amount: changePenalty, penalty_currency: input.currency ?? 'USD' }
          : { allowed: false, penalty_amount: null, penalty_currency: null },
        refund_before_departure: null,
      },
      metadata: {},
      ...(options.ordersListChanges ? { changes: [] as Json[] } : {}),
    };
    orders.set(order.id, order);
    return order;
  }

  /** Fares on sale for these requested slices (origin, destination, date). */
  function faresFor(
    wanted: { origin: string; destination: string; departure_date: string }[],
    cabin?: string,
  ): StubFare[] {
    return fares.filter(
      (fare) =>
        fare.slices.length === wanted.length &&
        fare.slices.every(
          (flight, i) =>
            flight.origin === wanted[i]?.origin &&
            flight.destination === wanted[i]?.destination &&
            flight.departingAt.slice(0, 10) === wanted[i]?.departure_date,
        ) &&
        (!cabin || (fare.cabinClass ?? 'economy') === cabin),
    );
  }

  function toCents(amount: string): number {
    const [whole = '0', fraction = ''] = amount.replace('-', '').split('.');
    const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2));
    return amount.startsWith('-') ? -cents : cents;
  }

  function toAmount(cents: number): string {
    const abs = Math.abs(cents);
    return `${cents < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
  }

  function errorBody(status: number, code?: string, message?: string, field?: string): Json {
    const kind = ERROR_KINDS[status] ?? ERROR_KINDS[status >= 500 ? 500 : 400]!;
    return {
      errors: [
        {
          type: kind.type,
          title: kind.title,
          message: message ?? kind.message,
          code: code ?? kind.code,
          documentation_url: `https://duffel.com/docs/api/overview/errors#${code ?? kind.code}`,
          ...(field ? { source: { field, pointer: `/${field}` } } : {}),
        },
      ],
      meta: { request_id: requestId(), status },
    };
  }

  function rateHeaders(now: number, remaining: number, resetSeconds: number): Record<string, string> {
    const date = new Date(Math.floor(now / 1000) * 1000);
    return {
      date: date.toUTCString(),
      'ratelimit-limit': String(RATE_LIMIT),
      'ratelimit-remaining': String(remaining),
      'ratelimit-reset': new Date(date.getTime() + resetSeconds * 1000).toUTCString(),
    };
  }

  function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    res.writeHead(status, {
      'content-type': typeof body === 'string' ? 'text/html' : 'application/json',
      ...rateHeaders(Date.now(), RATE_LIMIT - 1, 60),
      ...headers,
    });
    res.end(text);
  }

  function route(method: string, path: string, query: Record<string, string>, body: Json): [number, unknown] {
    const data = body?.data;
    if (method === 'GET' && path === '/air/orders') {
      const reference = (query.booking_reference ?? '').toUpperCase();
      return [
        200,
        {
          data: [...orders.values()].filter((o) => o.booking_reference === reference),
          meta: { limit: 50, after: null, before: null },
        },
      ];
    }
    const orderMatch = /^\/air\/orders\/([^/]+)$/.exec(path);
    if (method === 'GET' && orderMatch) {
      const order = orders.get(decodeURIComponent(orderMatch[1]!));
      return order ? [200, { data: order }] : [404, errorBody(404)];
    }
    if (method === 'POST' && path === '/air/offer_requests') {
      if (!Array.isArray(data?.slices) || data.slices.length === 0)
        return [422, errorBody(422, 'validation_required', 'Field is required', 'slices')];
      if (!Array.isArray(data.passengers) || data.passengers.length === 0) {
        return [422, errorBody(422, 'validation_required', 'Field is required', 'passengers')];
      }
      const adults = data.passengers.length;
      const offers = faresFor(data.slices, data.cabin_class)
        .filter((fare) => fare.seatsLeft === undefined || fare.seatsLeft >= adults)
        .map((fare) => {
          const passengers = data.passengers.map(() => ({ id: id('pas') }));
          return {
            id: id('off'),
            total_amount: toAmount(toCents(fare.amount) * adults),
            total_currency: fare.currency ?? 'USD',
            expires_at: '2099-01-01T00:00:00Z',
            slices: fare.slices.map((flight) =>
              slice(
                flight,
                passengers,
                fare.cabinClass ?? 'economy',
                CABIN_NAMES[fare.cabinClass ?? 'economy'] ?? 'Economy',
                fare.fareBrand ?? null,
                fare.carrierName,
              ),
            ),
            passengers,
          };
        });
      return [
        201,
        {
          data: {
            id: id('orq'),
            live_mode: false,
            slices: data.slices,
            passengers: data.passengers,
            cabin_class: data.cabin_class ?? null,
            offers,
          },
        },
      ];
    }
    if (method === 'POST' && path === '/air/order_change_requests') {
      const order = orders.get(data?.order_id);
      if (!order) return [404, errorBody(404)];
      if (!order.conditions.change_before_departure?.allowed) {
        return [422, errorBody(422, 'order_not_changeable', 'This order cannot be changed')];
      }
      const add = data.slices?.add ?? [];
      const passengers = order.passengers;
      const offers = faresFor(add, offerEveryCabin ? undefined : add[0]?.cabin_class).map((fare) => {
        const newTotal = toCents(fare.amount) * passengers.length;
        const penalty = toCents(changePenalty);
        return {
          id: id('oco'),
          order_change_id: null,
          new_total_amount: toAmount(newTotal),
          new_total_currency: fare.currency ?? 'USD',
          change_total_amount: toAmount(newTotal - toCents(order.total_amount) + penalty),
          change_total_currency: fare.currency ?? 'USD',
          penalty_total_amount: changePenalty,
          penalty_total_currency: fare.currency ?? 'USD',
          refund_to: 'voucher',
          expires_at: '2099-01-01T00:00:00Z',
          slices: {
            add: fare.slices.map((flight) =>
              slice(
                flight,
                passengers,
                fare.cabinClass ?? 'economy',
                CABIN_NAMES[fare.cabinClass ?? 'economy'] ?? 'Economy',
                fare.fareBrand ?? null,
                fare.carrierName,
              ),
            ),
            remove: order.slices,
          },
        };
      });
      const requestIdValue = id('ocr');
      changeRequests.set(requestIdValue, { order, offers });
      return [
        201,
        {
          data: {
            id: requestIdValue,
            order_id: order.id,
            live_mode: false,
            slices: data.slices,
            order_change_offers: [],
          },
        },
      ];
    }
    if (method === 'GET' && path === '/air/order_change_offers') {
      const request = changeRequests.get(query.order_change_request_id ?? '');
      if (!request) return [404, errorBody(404)];
      return [200, { data: request.offers, meta: { limit: 50, after: null, before: null } }];
    }
    if (method === 'POST' && path === '/air/order_changes') {
      for (const request of changeRequests.values()) {
        const offer = request.offers.find((o) => o.id === data?.selected_order_change_offer);
        if (!offer) continue;
        const change = { ...offer, id: id('oce'), order_id: request.order.id, confirmed_at: null, live_mode: false };
        offer.order_change_id = change.id;
        changes.set(change.id, change);
        return [201, { data: change }];
      }
      return [
        422,
        errorBody(
          422,
          'order_change_offer_not_found',
          'The order change offer does not exist',
          'selected_order_change_offer',
        ),
      ];
    }
    const confirmMatch = /^\/air\/order_changes\/([^/]+)\/actions\/confirm$/.exec(path);
    if (method === 'POST' && confirmMatch) {
      const change = changes.get(decodeURIComponent(confirmMatch[1]!));
      if (!change) return [404, errorBody(404)];
      if (change.confirmed_at)
        return [422, errorBody(422, 'already_confirmed', 'The order change has already been confirmed')];
      const due = toCents(change.change_total_amount);
      if (due > 0) {
        const payment = data?.payment;
        if (
          !payment ||
          payment.type !== 'balance' ||
          toCents(String(payment.amount)) !== due ||
          payment.currency !== change.change_total_currency
        ) {
          return [422, errorBody(422, 'invalid_payment', 'The payment must match the change total', 'payment')];
        }
      }
      if (due > 0) {
        balancePayments.push({
          order_id: change.order_id,
          amount: data.payment.amount,
          currency: data.payment.currency,
        });
      }
      change.confirmed_at = new Date().toISOString();
      const order = orders.get(change.order_id);
      order.total_amount = change.new_total_amount;
      order.slices = change.slices.add;
      if (options.ordersListChanges)
        order.changes = [...order.changes, { id: change.id, confirmed_at: change.confirmed_at }];
      confirmedChanges.push(change);
      return [200, { data: change }];
    }
    return [404, errorBody(404)];
  }

  function matches(match: string | undefined, method: string, path: string): boolean {
    if (!match) return true;
    const [first, second] = match.split(' ');
    return second ? first === method && path.startsWith(second) : path.startsWith(first ?? '');
  }

  function takeFault(method: string, path: string): StubFault | null {
    const index = faults.findIndex((f) => matches(f.match, method, path));
    if (index < 0) return null;
    const fault = faults[index]!;
    fault.left -= 1;
    if (fault.left <= 0) faults.splice(index, 1);
    return fault;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://stub');
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: Json;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      send(res, 400, errorBody(400, 'invalid_json', 'The request body is not valid JSON'));
      return;
    }
    const method = req.method ?? 'GET';
    const recorded: RecordedRequest = {
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
      body,
    };
    requests.push(recorded);
    for (const waiter of [...waiters]) {
      if (!matches(waiter.match, method, url.pathname)) continue;
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(recorded);
    }

    if (req.headers.authorization !== `Bearer ${token}`) {
      send(res, 401, errorBody(401));
      return;
    }
    if (req.headers['duffel-version'] !== 'v2') {
      send(res, 400, errorBody(400, 'unsupported_version', 'The Duffel-Version header is missing or not supported'));
      return;
    }
    if (method === 'POST' && (body === null || typeof body !== 'object' || !('data' in body))) {
      send(res, 422, errorBody(422, 'validation_required', 'Field is required', 'data'));
      return;
    }

    const fault = takeFault(method, url.pathname);
    if (fault?.delayMs) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          resolve();
        }, fault.delayMs);
        timers.add(timer);
      });
      if (res.destroyed) return;
    }
    if (fault?.status) {
      if (fault.applyFirst) route(method, url.pathname, Object.fromEntries(url.searchParams), body);
      const status = fault.status;
      const headers: Record<string, string> = { ...(fault.headers ?? {}) };
      if (status === 429)
        Object.assign(headers, rateHeaders(Date.now(), 0, fault.resetSeconds ?? 1), fault.headers ?? {});
      send(res, status, fault.body ?? errorBody(status, fault.code, fault.message), headers);
      return;
    }
    const [status, answer] = route(method, url.pathname, Object.fromEntries(url.searchParams), body);
    send(res, status, answer);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      if (!res.headersSent) send(res, 500, errorBody(500, 'internal_server_error', String(error)));
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    token,
    requests,
    confirmedChanges,
    balancePayments,
    addOrder,
    order: (id) => {
      const order = orders.get(id);
      return order ? structuredClone(order) : null;
    },
    addFare: (fare) => void fares.push(fare),
    setChangePenalty: (amount) => {
      changePenalty = amount;
    },
    setOfferEveryCabin: (on) => {
      offerEveryCabin = on;
    },
    fault: (fault) => void faults.push({ ...fault, left: fault.times ?? 1 }),
    waitForRequest: (match) => {
      const seen = requests.find((r) => matches(match, r.method, r.path));
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve) => waiters.push({ match, resolve }));
    },
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
