import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SsrfPolicy } from '../net/ssrf-guard.ts';

/**
 * The receiver's host name in tests: the injected resolver of `receiverPolicy` answers 127.0.0.2 for it, so
 * webhooks are created as users create them (by name) and the guard checks the address when connecting.
 */
export const RECEIVER_HOST = 'receiver.verdict.test';

/**
 * What tests let outbound requests reach: 127.0.0.2 alone (the receiver's default address), so 127.0.0.1
 * and every other private address stay refused; http allowed, as the receiver has no TLS.
 */
export const receiverPolicy: SsrfPolicy = {
  allowHttp: true,
  allowPrivate: false,
  allowedRanges: ['127.0.0.2/32'],
  resolve: async (name) => (name === RECEIVER_HOST ? ['127.0.0.2'] : []),
};

/** One POST a receiver got, as it arrived: the raw body text and the headers. */
export type ReceivedDelivery = { headers: IncomingHttpHeaders; body: string; path: string };

/** How a receiver answers a request: a status and a body (text, or bytes as they are), or `hang` (never answers). */
export type ReceiverReply = { status: number; body?: string | Uint8Array } | 'hang';

export type WebhookReceiver = {
  /** The base URL, e.g. http://127.0.0.2:41234 */
  url: string;
  port: number;
  received: ReceivedDelivery[];
  /** The distinct webhook-id headers received, and how often each came. */
  countsById: () => Map<string, number>;
  /** What the next requests get (default 200 "ok"). */
  reply: (answer: (request: ReceivedDelivery) => ReceiverReply) => void;
  close: () => Promise<void>;
};

/**
 * A real HTTP server that records webhook deliveries, for tests and benchmarks. It listens on 127.0.0.2 by
 * default: tests allow exactly that address through the SSRF guard, so 127.0.0.1 stays refused.
 */
export async function startWebhookReceiver(host = '127.0.0.2'): Promise<WebhookReceiver> {
  const received: ReceivedDelivery[] = [];
  let answer: (request: ReceivedDelivery) => ReceiverReply = () => ({ status: 200, body: 'ok' });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const delivery = {
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        path: req.url ?? '/',
      };
      received.push(delivery);
      const reply = answer(delivery);
      if (reply === 'hang') return;
      res.writeHead(reply.status, { 'content-type': 'text/plain' }).end(reply.body ?? '');
    });
  });
  const port = await new Promise<number>((resolve) =>
    server.listen(0, host, () => resolve((server.address() as AddressInfo).port)),
  );
  return {
    url: `http://${host}:${port}`,
    port,
    received,
    countsById: () => {
      const counts = new Map<string, number>();
      for (const r of received) {
        const id = String(r.headers['webhook-id']);
        counts.set(id, (counts.get(id) ?? 0) + 1);
      }
      return counts;
    },
    reply: (next) => {
      answer = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
