// A local stand-in for the Stripe API, for tests that run the real `stripe` SDK against it (the
// SDK's host/port/protocol settings; node:http, so it runs under Node and Deno alike). It answers
// the endpoints FareBack uses with Stripe's shapes: form-encoded requests with bracketed keys,
// objects with `id` and `object`, errors as `{ error: { type, code, message, ... } }` (a declined
// card: 402 with the payment intent it left), Idempotency-Key replays, and Bearer key checks.
//
// Tests drive what happens at "Stripe" with its helpers (complete a checkout, pay or fail an
// intent, change a subscription, fail a renewal invoice, decline a card) and deliver signed
// webhook events with Stripe's own signature scheme (stripe.webhooks.generateTestHeaderString).
import { Buffer } from 'node:buffer';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import Stripe from 'stripe';

type Obj = Record<string, unknown>;

export interface StripeStub {
  url: string;
  secretKey: string;
  webhookSecret: string;
  customers: Map<string, Obj>;
  paymentIntents: Map<string, Obj>;
  checkoutSessions: Map<string, Obj>;
  subscriptions: Map<string, Obj>;
  invoices: Map<string, Obj>;
  charges: Map<string, Obj>;
  disputes: Map<string, Obj>;
  /** Refunds made through the API (POST /v1/refunds), by id. */
  refunds: Map<string, Obj>;
  /** Every request: method, path and the decoded form body. */
  requests: { method: string; path: string; body: Obj; idempotencyKey: string | null }[];
  /** Off-session charges of this payment method are declined. */
  declineCard(paymentMethodId: string): void;
  /** Billing Portal sessions made (POST /v1/billing_portal/sessions), oldest first. */
  portalSessions: Obj[];
  /** The customer chose a new default card in the Billing Portal (invoice_settings.default_payment_method). */
  changeDefaultCard(customerId: string, paymentMethodId: string): Obj;
  /** Refunds of this payment intent are refused (a 402 card_error, as for a closed card). */
  refuseRefunds(paymentIntentId: string): void;
  /** The customer paid at Checkout: an active yearly subscription, its paid invoice. */
  completeCheckout(sessionId: string, paymentMethodId?: string): { subscriptionId: string; invoiceId: string };
  payIntent(id: string, paymentMethodId?: string): Obj;
  failIntent(id: string, message?: string): Obj;
  updateSubscription(id: string, patch: Obj): Obj;
  /** Refunds a succeeded intent in full: its charge, refunded. */
  refund(paymentIntentId: string): Obj;
  /**
   * The cardholder's bank disputes a payment: a charge of the intent (or, with `customer`, a charge
   * of a subscription invoice, whose intent the api never saw) and a dispute needing a response.
   */
  dispute(paymentIntentId: string, options?: { customer?: string; amount?: number }): Obj;
  /** The bank decided: the dispute's status becomes won or lost. */
  closeDispute(disputeId: string, status: 'won' | 'lost' | 'warning_closed'): Obj;
  /** A renewal that failed: an open invoice, the subscription past_due. */
  failRenewal(subscriptionId: string): string;
  /** A renewal that was paid: the period moves on a year, a paid invoice (its id). */
  renew(subscriptionId: string, amount: number): string;
  /** An event about an object, as Stripe would send it (the object as it is now, or as given). */
  event(type: string, object: Obj): Obj;
  /** POSTs the event to the webhook URL, signed with the webhook secret (or a wrong one). */
  deliver(webhookUrl: string, event: Obj, options?: { wrongSecret?: boolean; tamper?: boolean }): Promise<Response>;
  close(): Promise<void>;
}

function id(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

/** `a[b][0][c]=x` form fields as nested objects (lists stay objects with numeric keys). */
function decodeForm(text: string): Obj {
  const root: Obj = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const parts = key.split(/\[|\]\[|\]/).filter((p) => p !== '');
    let node = root;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) node[part] = value;
      else node = (node[part] ??= {}) as Obj;
    });
  }
  return root;
}

const now = () => Math.floor(Date.now() / 1000);
const YEAR = 365 * 24 * 3600;

export async function startStripeStub(): Promise<StripeStub> {
  const secretKey = `sk_test_${randomBytes(8).toString('hex')}`;
  const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
  const customers = new Map<string, Obj>();
  const paymentIntents = new Map<string, Obj>();
  const checkoutSessions = new Map<string, Obj>();
  const subscriptions = new Map<string, Obj>();
  const invoices = new Map<string, Obj>();
  const charges = new Map<string, Obj>();
  const disputes = new Map<string, Obj>();
  const refunds = new Map<string, Obj>();
  const requests: StripeStub['requests'] = [];
  const declined = new Set<string>();
  const refusedRefunds = new Set<string>();
  const portalSessions: Obj[] = [];
  let baseUrl = '';
  const idempotent = new Map<string, [number, Obj]>();
  const signer = new Stripe(secretKey);

  const error = (status: number, type: string, message: string, extra: Obj = {}): [number, Obj] => [
    status,
    { error: { type, message, ...extra } },
  ];
  const notFound = (what: string, key: string) =>
    error(404, 'invalid_request_error', `No such ${what}: '${key}'`, { code: 'resource_missing' });

  function subscription(customer: string, metadata: Obj, paymentMethod: string): Obj {
    const start = now();
    const sub: Obj = {
      id: id('sub'),
      object: 'subscription',
      customer,
      status: 'active',
      cancel_at_period_end: false,
      default_payment_method: paymentMethod,
      metadata,
      items: {
        object: 'list',
        data: [
          { id: id('si'), object: 'subscription_item', current_period_start: start, current_period_end: start + YEAR },
        ],
      },
    };
    subscriptions.set(sub.id as string, sub);
    return sub;
  }

  function invoice(sub: Obj, status: string, amount: number): Obj {
    const inv: Obj = {
      id: id('in'),
      object: 'invoice',
      customer: sub.customer,
      status,
      amount_due: amount,
      amount_paid: status === 'paid' ? amount : 0,
      parent: { type: 'subscription_details', subscription_details: { subscription: sub.id, metadata: sub.metadata } },
    };
    invoices.set(inv.id as string, inv);
    return inv;
  }

  function route(method: string, path: string, body: Obj): [number, Obj] {
    let m: RegExpMatchArray | null;
    if (method === 'POST' && path === '/v1/customers') {
      const c: Obj = { id: id('cus'), object: 'customer', email: body.email ?? null, metadata: body.metadata ?? {} };
      customers.set(c.id as string, c);
      return [200, c];
    }
    if ((m = path.match(/^\/v1\/customers\/([^/]+)$/)) && method === 'GET') {
      const c = customers.get(m[1] ?? '');
      return c ? [200, c] : notFound('customer', m[1] ?? '');
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      if (!customers.has(String(body.customer))) return notFound('customer', String(body.customer));
      const portal = id('bps');
      const session: Obj = {
        id: portal,
        object: 'billing_portal.session',
        customer: body.customer,
        return_url: body.return_url ?? null,
        url: `${baseUrl}/p/session/${portal}`,
      };
      portalSessions.push(session);
      return [200, session];
    }
    if (method === 'POST' && path === '/v1/payment_intents') {
      if (!customers.has(String(body.customer))) return notFound('customer', String(body.customer));
      const pi: Obj = {
        id: id('pi'),
        object: 'payment_intent',
        amount: Number(body.amount),
        currency: body.currency,
        customer: body.customer,
        description: body.description ?? null,
        metadata: body.metadata ?? {},
        setup_future_usage: body.setup_future_usage ?? null,
        payment_method: body.payment_method ?? null,
        status: 'requires_payment_method',
        last_payment_error: null,
      };
      pi.client_secret = `${pi.id as string}_secret_${randomBytes(6).toString('hex')}`;
      paymentIntents.set(pi.id as string, pi);
      if (body.confirm === 'true') {
        if (declined.has(String(body.payment_method))) {
          pi.last_payment_error = { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' };
          return error(402, 'card_error', 'Your card was declined.', {
            code: 'card_declined',
            decline_code: 'generic_decline',
            payment_intent: pi,
          });
        }
        pi.status = 'succeeded';
      }
      return [200, pi];
    }
    if ((m = path.match(/^\/v1\/payment_intents\/([^/]+)(\/cancel)?$/))) {
      const pi = paymentIntents.get(m[1] ?? '');
      if (!pi) return notFound('payment_intent', m[1] ?? '');
      if (method === 'POST' && m[2]) {
        if (pi.status === 'succeeded') {
          return error(400, 'invalid_request_error', 'This PaymentIntent has already succeeded.');
        }
        pi.status = 'canceled';
      }
      return [200, pi];
    }
    if (method === 'POST' && path === '/v1/refunds') {
      const pi = paymentIntents.get(String(body.payment_intent));
      if (!pi) return notFound('payment_intent', String(body.payment_intent));
      if (refusedRefunds.has(String(pi.id))) {
        return error(402, 'card_error', 'The card this payment came from can no longer receive refunds.', {
          code: 'expired_or_canceled_card',
        });
      }
      if (pi.status !== 'succeeded') {
        return error(400, 'invalid_request_error', 'This PaymentIntent does not have a successful charge to refund.', {
          code: 'charge_not_refundable',
        });
      }
      const already = [...refunds.values()]
        .filter((r) => r.payment_intent === pi.id)
        .reduce((sum, r) => sum + Number(r.amount), 0);
      const amount = body.amount === undefined ? Number(pi.amount) - already : Number(body.amount);
      if (amount <= 0 || already + amount > Number(pi.amount)) {
        return error(
          400,
          'invalid_request_error',
          `Refund amount ($${amount / 100}) is greater than unrefunded amount.`,
          {
            code: 'amount_too_large',
          },
        );
      }
      const r: Obj = {
        id: id('re'),
        object: 'refund',
        amount,
        currency: pi.currency ?? 'usd',
        payment_intent: pi.id,
        metadata: body.metadata ?? {},
        status: 'succeeded',
      };
      refunds.set(r.id as string, r);
      return [200, r];
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const s: Obj = {
        id: id('cs_test'),
        object: 'checkout.session',
        mode: body.mode,
        customer: body.customer,
        client_reference_id: body.client_reference_id ?? null,
        line_items_requested: body.line_items,
        metadata: body.metadata ?? {},
        subscription_data: body.subscription_data ?? {},
        success_url: body.success_url,
        cancel_url: body.cancel_url,
        status: 'open',
        payment_status: 'unpaid',
        subscription: null,
      };
      s.url = `https://checkout.stripe.test/c/pay/${s.id as string}`;
      checkoutSessions.set(s.id as string, s);
      return [200, s];
    }
    if ((m = path.match(/^\/v1\/checkout\/sessions\/([^/]+)$/)) && method === 'GET') {
      const s = checkoutSessions.get(m[1] ?? '');
      return s ? [200, s] : notFound('checkout.session', m[1] ?? '');
    }
    if ((m = path.match(/^\/v1\/subscriptions\/([^/]+)$/))) {
      const sub = subscriptions.get(m[1] ?? '');
      if (!sub) return notFound('subscription', m[1] ?? '');
      if (method === 'POST' && body.cancel_at_period_end !== undefined) {
        sub.cancel_at_period_end = body.cancel_at_period_end === 'true';
      }
      if (method === 'DELETE') {
        // canceled now: it is never billed again (docs.stripe.com/api/subscriptions/cancel)
        Object.assign(sub, { status: 'canceled', canceled_at: now(), ended_at: now() });
      }
      return [200, sub];
    }
    if ((m = path.match(/^\/v1\/charges\/([^/]+)$/)) && method === 'GET') {
      const ch = charges.get(m[1] ?? '');
      return ch ? [200, ch] : notFound('charge', m[1] ?? '');
    }
    if ((m = path.match(/^\/v1\/disputes\/([^/]+)$/)) && method === 'GET') {
      const du = disputes.get(m[1] ?? '');
      return du ? [200, du] : notFound('dispute', m[1] ?? '');
    }
    if ((m = path.match(/^\/v1\/invoices\/([^/]+)$/)) && method === 'GET') {
      const inv = invoices.get(m[1] ?? '');
      return inv ? [200, inv] : notFound('invoice', m[1] ?? '');
    }
    return error(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path})`);
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://stub');
    const method = req.method ?? 'GET';
    const body = method === 'GET' ? Object.fromEntries(url.searchParams) : decodeForm(text);
    const key = (req.headers['idempotency-key'] as string | undefined) ?? null;
    requests.push({ method, path: url.pathname, body, idempotencyKey: key });
    let answer: [number, Obj];
    if (req.headers.authorization !== `Bearer ${secretKey}`) {
      answer = error(401, 'invalid_request_error', 'Invalid API Key provided');
    } else if (method === 'POST' && key && idempotent.has(key)) {
      answer = idempotent.get(key) as [number, Obj];
    } else {
      answer = route(method, url.pathname, body);
      if (method === 'POST' && key) idempotent.set(key, answer);
    }
    const json = JSON.stringify(answer[1]);
    res.writeHead(answer[0], { 'Content-Type': 'application/json', 'Request-Id': id('req') });
    res.end(json);
  }

  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'api_error', message: String(e) } }));
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;

  const must = (map: Map<string, Obj>, key: string) => {
    const found = map.get(key);
    if (!found) throw new Error(`stub: no ${key}`);
    return found;
  };

  return {
    url: `http://127.0.0.1:${port}`,
    secretKey,
    webhookSecret,
    customers,
    paymentIntents,
    checkoutSessions,
    subscriptions,
    invoices,
    charges,
    disputes,
    refunds,
    requests,
    declineCard: (pm) => void declined.add(pm),
    portalSessions,
    changeDefaultCard(customerId, paymentMethodId) {
      const c = must(customers, customerId);
      c.invoice_settings = { default_payment_method: paymentMethodId };
      return c;
    },
    refuseRefunds: (piId) => void refusedRefunds.add(piId),
    completeCheckout(sessionId, paymentMethodId = 'pm_card_visa') {
      const s = must(checkoutSessions, sessionId);
      const data = s.subscription_data as { metadata?: Obj };
      const sub = subscription(String(s.customer), data.metadata ?? {}, paymentMethodId);
      const items = s.line_items_requested as Record<string, { price_data?: { unit_amount?: string } }>;
      const inv = invoice(sub, 'paid', Number(items['0']?.price_data?.unit_amount ?? 0));
      Object.assign(s, { status: 'complete', payment_status: 'paid', subscription: sub.id });
      return { subscriptionId: sub.id as string, invoiceId: inv.id as string };
    },
    payIntent(piId, paymentMethodId = 'pm_card_visa') {
      return Object.assign(must(paymentIntents, piId), {
        status: 'succeeded',
        payment_method: paymentMethodId,
        last_payment_error: null,
      });
    },
    failIntent(piId, message = 'Your card was declined.') {
      return Object.assign(must(paymentIntents, piId), {
        status: 'requires_payment_method',
        last_payment_error: { type: 'card_error', code: 'card_declined', message },
      });
    },
    refund(piId) {
      const pi = must(paymentIntents, piId);
      const ch: Obj = {
        id: id('ch'),
        object: 'charge',
        payment_intent: piId,
        amount: pi.amount,
        amount_refunded: pi.amount,
        refunded: true,
      };
      charges.set(ch.id as string, ch);
      return ch;
    },
    dispute(piId, options = {}) {
      const pi = paymentIntents.get(piId);
      const amount = options.amount ?? Number(pi?.amount ?? 0);
      const ch: Obj = {
        id: id('ch'),
        object: 'charge',
        payment_intent: piId,
        customer: options.customer ?? pi?.customer ?? null,
        amount,
        amount_refunded: 0,
        refunded: false,
        disputed: true,
      };
      charges.set(ch.id as string, ch);
      const du: Obj = {
        id: id('du'),
        object: 'dispute',
        charge: ch.id,
        payment_intent: piId,
        amount,
        currency: 'usd',
        reason: 'fraudulent',
        status: 'needs_response',
        metadata: {},
      };
      disputes.set(du.id as string, du);
      return du;
    },
    closeDispute: (duId, status) => Object.assign(must(disputes, duId), { status }),
    updateSubscription: (subId, patch) => Object.assign(must(subscriptions, subId), patch),
    failRenewal(subId) {
      const sub = must(subscriptions, subId);
      sub.status = 'past_due';
      return invoice(sub, 'open', 2499).id as string;
    },
    renew(subId, amount) {
      const sub = must(subscriptions, subId);
      const items = sub.items as { data: Obj[] };
      for (const item of items.data) {
        item.current_period_start = Number(item.current_period_end);
        item.current_period_end = Number(item.current_period_end) + YEAR;
      }
      return invoice(sub, 'paid', amount).id as string;
    },
    event: (type, object) => ({
      id: id('evt'),
      object: 'event',
      api_version: '2025-03-31.basil',
      created: now(),
      type,
      livemode: false,
      data: { object: structuredClone(object) },
    }),
    async deliver(webhookUrl, event, options = {}) {
      const payload = JSON.stringify(event);
      const header = signer.webhooks.generateTestHeaderString({
        payload,
        secret: options.wrongSecret ? `whsec_${randomBytes(16).toString('hex')}` : webhookSecret,
      });
      const sent = options.tamper ? payload.replace('"livemode":false', '"livemode":true') : payload;
      return await fetch(webhookUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Stripe-Signature': header },
        body: sent,
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
