import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import type Stripe from 'stripe';

type Json = Record<string, unknown>;

/** One request the SDK sent: method, path and the form body decoded into nested objects. */
export type FakeStripeRequest = {
  method: string;
  path: string;
  params: Json;
  idempotencyKey: string | undefined;
  authorization: string | undefined;
};

/**
 * The SDK, loaded by the first helper that needs it (synchronously: they are synchronous): every test file
 * imports the testing index, and few sign or build events.
 */
let sdk: typeof Stripe | undefined;
const stripeSdk = (): typeof Stripe => {
  sdk ??= createRequire(import.meta.url)('stripe') as typeof Stripe;
  return sdk;
};

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

/**
 * Stripe's form encoding (`metadata[userId]=…&line_items[0][price]=…`) back into nested objects, as the
 * real API reads it; numeric segments become array indexes.
 */
export function decodeStripeForm(body: string): Json {
  const root: Json = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const segments = key.replace(/\]/g, '').split('[');
    let node: Record<string, unknown> | unknown[] = root;
    segments.forEach((segment, i) => {
      const last = i === segments.length - 1;
      const slot = /^\d+$/.test(segment) ? Number(segment) : segment;
      const container = node as Record<string | number, unknown>;
      if (last) container[slot] = value;
      else {
        container[slot] ??= /^\d+$/.test(segments[i + 1] ?? '') ? [] : {};
        node = container[slot] as Record<string, unknown>;
      }
    });
  }
  return root;
}

export type FakeStripeOptions = {
  /** Amount in cents of each price id, used for completed sessions and invoices (default 0). */
  amounts?: Record<string, number>;
};

/**
 * A local Stripe for tests: a node:http server speaking the form-encoded API the official SDK uses for the
 * calls this service makes (customers, checkout sessions, billing portal sessions, subscription reads),
 * with Stripe's idempotency-key replay and error shape. It records every request, and lets a test play the
 * processor's side: complete a checkout (as a paid customer would), change or cancel a subscription, make
 * an invoice. Events about those are built with `stripeEvent` and signed with `signStripePayload`.
 */
export async function startFakeStripe(options: FakeStripeOptions = {}) {
  const requests: FakeStripeRequest[] = [];
  const replies = new Map<string, Json>();
  const customers = new Map<string, Json>();
  const sessions = new Map<string, Json>();
  const subscriptions = new Map<string, Json>();
  const amountOf = (price: string) => options.amounts?.[price] ?? 0;
  const now = () => Math.floor(Date.now() / 1000);
  /** While set, subscription reads wait for it: a processor slow to answer. */
  let readsHeld: Promise<void> | null = null;
  let readsWaiting = 0;

  const routes: { method: string; pattern: RegExp; handle: (params: Json, id?: string) => [number, Json] }[] =
    [
      {
        method: 'POST',
        pattern: /^\/v1\/customers$/,
        handle: (params) => {
          const customer = {
            id: newId('cus'),
            object: 'customer',
            email: params.email ?? null,
            metadata: params.metadata ?? {},
          };
          customers.set(customer.id, customer);
          return [200, customer];
        },
      },
      {
        method: 'POST',
        pattern: /^\/v1\/checkout\/sessions$/,
        handle: (params) => {
          const id = newId('cs_test');
          const session = {
            id,
            object: 'checkout.session',
            url: `https://checkout.stripe.test/c/pay/${id}`,
            mode: params.mode,
            customer: params.customer ?? null,
            client_reference_id: params.client_reference_id ?? null,
            metadata: params.metadata ?? {},
            line_items: params.line_items,
            subscription_data: params.subscription_data ?? null,
            success_url: params.success_url,
            cancel_url: params.cancel_url,
            status: 'open',
            payment_status: 'unpaid',
            amount_total: null,
            currency: 'usd',
            payment_intent: null,
            subscription: null,
          };
          sessions.set(id, session);
          return [200, session];
        },
      },
      {
        method: 'POST',
        pattern: /^\/v1\/billing_portal\/sessions$/,
        handle: (params) => {
          const id = newId('bps');
          return [
            200,
            {
              id,
              object: 'billing_portal.session',
              customer: params.customer,
              return_url: params.return_url,
              url: `https://billing.stripe.test/p/session/${id}`,
            },
          ];
        },
      },
      {
        method: 'GET',
        pattern: /^\/v1\/subscriptions\/([^/]+)$/,
        handle: (_params, id) => {
          const subscription = subscriptions.get(id ?? '');
          if (!subscription) return [404, missing('subscription', id)];
          return [200, subscription];
        },
      },
    ];

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const [path = '', search = ''] = (req.url ?? '').split('?');
    const params = decodeStripeForm(req.method === 'GET' ? search : Buffer.concat(chunks).toString('utf8'));
    const idempotencyKey = header(req, 'idempotency-key');
    requests.push({
      method: req.method ?? '',
      path,
      params,
      idempotencyKey,
      authorization: header(req, 'authorization'),
    });
    const send = (status: number, body: Json) => {
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': newId('req') });
      res.end(JSON.stringify(body));
    };
    if (readsHeld !== null && req.method === 'GET' && path.startsWith('/v1/subscriptions/')) {
      readsWaiting += 1;
      await readsHeld;
      readsWaiting -= 1;
    }
    const replay = idempotencyKey ? replies.get(`${req.method} ${path} ${idempotencyKey}`) : undefined;
    if (replay) return send(200, replay);
    for (const route of routes) {
      const match = route.method === req.method ? route.pattern.exec(path) : null;
      if (!match) continue;
      const [status, body] = route.handle(params, match[1]);
      if (idempotencyKey && status === 200) replies.set(`${req.method} ${path} ${idempotencyKey}`, body);
      return send(status, body);
    }
    send(404, {
      error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${path})` },
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const sessionOf = (id: string) => {
    const session = sessions.get(id);
    if (!session) throw new Error(`no checkout session ${id}`);
    return session;
  };
  const priceOf = (session: Json) => ((session.line_items as Json[] | undefined)?.[0]?.price as string) ?? '';

  const fake = {
    url: `http://127.0.0.1:${port}`,
    requests,
    customers,
    /** Requests to one path, in order. */
    requestsTo: (method: string, path: string) =>
      requests.filter((r) => r.method === method && r.path === path),
    /** The id of a session from its hosted url (what the API answered). */
    sessionIdOf: (url: string) => url.split('/').pop() ?? '',

    /**
     * The customer pays: the session completes (paid), and for a subscription checkout the subscription
     * now exists, active for a month. Returns the completed session, as `checkout.session.completed` carries it.
     */
    completeCheckout: (sessionId: string): Json => {
      const session = sessionOf(sessionId);
      const price = priceOf(session);
      Object.assign(session, {
        status: 'complete',
        payment_status: 'paid',
        amount_total: amountOf(price),
        payment_intent: session.mode === 'payment' ? newId('pi') : null,
      });
      if (session.mode === 'subscription') {
        const metadata = ((session.subscription_data as Json | null)?.metadata as Json | undefined) ?? {};
        const subscription = fake.putSubscription({ customer: session.customer as string, price, metadata });
        session.subscription = subscription.id;
      }
      return structuredClone(session);
    },

    /** Creates or replaces a subscription as the processor holds it now; returns it. */
    putSubscription: (fields: {
      id?: string;
      customer: string;
      price: string;
      status?: string;
      cancelAtPeriodEnd?: boolean;
      currentPeriodEnd?: number;
      metadata?: Json;
    }): Json => {
      const id = fields.id ?? newId('sub');
      const start = now();
      const subscription = {
        id,
        object: 'subscription',
        customer: fields.customer,
        status: fields.status ?? 'active',
        cancel_at_period_end: fields.cancelAtPeriodEnd ?? false,
        metadata: fields.metadata ?? {},
        items: {
          object: 'list',
          data: [
            {
              id: newId('si'),
              object: 'subscription_item',
              price: { id: fields.price, object: 'price', unit_amount: amountOf(fields.price) },
              current_period_start: start,
              current_period_end: fields.currentPeriodEnd ?? start + 30 * 86_400,
            },
          ],
        },
      };
      subscriptions.set(id, subscription);
      return structuredClone(subscription);
    },

    /** The subscription as the processor holds it now. */
    subscription: (id: string): Json => {
      const subscription = subscriptions.get(id);
      if (!subscription) throw new Error(`no subscription ${id}`);
      return structuredClone(subscription);
    },

    /** Changes a subscription in place (a cancellation, a plan change), as the portal would. */
    updateSubscription: (
      id: string,
      change: { status?: string; cancelAtPeriodEnd?: boolean; price?: string; currentPeriodEnd?: number },
    ) => {
      const current = fake.subscription(id);
      const item = (current.items as { data: Json[] }).data[0] as Json;
      return fake.putSubscription({
        id,
        customer: current.customer as string,
        price: change.price ?? ((item.price as Json).id as string),
        status: change.status ?? (current.status as string),
        cancelAtPeriodEnd: change.cancelAtPeriodEnd ?? (current.cancel_at_period_end as boolean),
        currentPeriodEnd: change.currentPeriodEnd ?? (item.current_period_end as number),
        metadata: current.metadata as Json,
      });
    },

    /** An invoice of a subscription, as `invoice.paid` / `invoice.payment_failed` carry it. */
    invoiceFor: (subscriptionId: string, status: 'paid' | 'open', id = newId('in')): Json => {
      const subscription = fake.subscription(subscriptionId);
      const item = (subscription.items as { data: Json[] }).data[0] as Json;
      const amount = ((item.price as Json).unit_amount as number) ?? 0;
      return {
        id,
        object: 'invoice',
        customer: subscription.customer,
        status,
        amount_due: amount,
        amount_paid: status === 'paid' ? amount : 0,
        currency: 'usd',
        created: now(),
        description: null,
        hosted_invoice_url: `https://invoice.stripe.test/i/${id}`,
        parent: {
          type: 'subscription_details',
          subscription_details: { subscription: subscriptionId, metadata: subscription.metadata },
        },
      };
    },

    /**
     * Subscription reads wait until the returned function is called (a processor slow to answer);
     * `waiting()` says how many are waiting now.
     */
    holdSubscriptionReads: () => {
      let release: () => void = () => {};
      readsHeld = new Promise<void>((resolve) => {
        release = resolve;
      });
      return {
        waiting: () => readsWaiting,
        release: () => {
          readsHeld = null;
          release();
        },
      };
    },

    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}

export type FakeStripe = Awaited<ReturnType<typeof startFakeStripe>>;

/** An event as the processor sends it, around an object; a fresh id unless one is given (for replays). */
export function stripeEvent(type: string, object: Json, id = newId('evt')) {
  return {
    id,
    object: 'event',
    api_version: stripeSdk().API_VERSION,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  };
}

/** The Stripe-Signature header for a payload, made by the SDK's own test helper (at `timestamp`, default now). */
export function signStripePayload(payload: string, secret: string, timestamp?: number): string {
  const StripeSdk = stripeSdk();
  return new StripeSdk('sk_test_signing_only').webhooks.generateTestHeaderString({
    payload,
    secret,
    ...(timestamp === undefined ? {} : { timestamp }),
  });
}

function header(req: IncomingMessage, name: string) {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function missing(what: string, id: string | undefined): Json {
  return {
    error: {
      type: 'invalid_request_error',
      code: 'resource_missing',
      message: `No such ${what}: '${id}'`,
      param: 'id',
    },
  };
}
