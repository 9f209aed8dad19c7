import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Ends a stream; with `reconnectInMs`, telling its client to come back then (a shutdown). */
export type StreamEnder = (reconnectInMs?: number) => void;

/**
 * The streams a server holds open, whatever serves them (the SSE routes, tRPC subscriptions): closing the
 * server ends each one with a reconnect hint, so a shutdown does not wait on clients that never hang up and
 * each client resumes (Last-Event-ID) on a process that is not going away. Set-like, so a stream adds and
 * deletes its ender.
 */
export type OpenStreams = {
  /** The server is closing: a stream that would open now is refused (503) instead. */
  readonly closing: boolean;
  add: (end: StreamEnder) => void;
  delete: (end: StreamEnder) => void;
};

/**
 * The `retry:` a stream ended by a shutdown sends, in ms: the client's EventSource reconnects after about
 * this long, through the load balancer, to a process that is not going away. Spread over a second so a
 * process's thousands of streams do not all come back in the same instant.
 */
function reconnectHintMs(random: () => number = Math.random): number {
  return 500 + Math.floor(random() * 1000);
}

/** By the Node server each Fastify instance (and each of its plugin scopes) serves on. */
const byServer = new WeakMap<object, OpenStreams>();

/**
 * The open streams of `app`'s server; the first call registers the hook that ends them when it closes
 * (preClose: before the server stops accepting and cuts connections).
 */
export function openStreamsOf(app: FastifyInstance): OpenStreams {
  const existing = byServer.get(app.server);
  if (existing) return existing;
  const enders = new Set<StreamEnder>();
  let closing = false;
  const streams: OpenStreams = {
    get closing() {
      return closing;
    },
    add: (end) => {
      enders.add(end);
    },
    delete: (end) => {
      enders.delete(end);
    },
  };
  app.addHook('preClose', async () => {
    closing = true;
    for (const end of [...enders]) end(reconnectHintMs());
  });
  byServer.set(app.server, streams);
  return streams;
}

/** The open streams of the server answering `req`, when that server ends its streams on close. */
export const openStreamsServing = (req: FastifyRequest): OpenStreams | undefined =>
  byServer.get(req.server.server);
