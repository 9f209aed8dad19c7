import { AppError } from '@verdict/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { countOpenStream } from '../http/metrics.ts';
import { openStreamsServing, type StreamEnder } from '../streams/open-streams.ts';

/** What a subscription streams: items until it ends, and a way to end it early (with an error to send). */
export type SubscriptionSource<T> = {
  items: AsyncGenerator<T, void>;
  end: (error?: Error) => void;
};

/** Refused or ended because this process is going away: a tRPC client retries it (a retryable code). */
export const shuttingDown = () => new AppError('SERVICE_UNAVAILABLE', 'The server is shutting down');

/**
 * A source as a tRPC subscription streams it (over SSE): each item through `toEvent` (`tracked(id, data)`),
 * counted as an open stream while it lasts; ended when the client goes (`signal`), or when the server closes,
 * with a retryable 503 after what the source holds, so httpSubscriptionLink reconnects to a process that
 * stays and resumes from its last id (tRPC's SSE carries no `retry:` hint). Registered at once, not when
 * first read, so a client that never reads is let go too.
 */
export function subscription<T, E>(
  { req, reply }: { req: FastifyRequest; reply: FastifyReply },
  signal: AbortSignal | undefined,
  source: SubscriptionSource<T>,
  toEvent: (item: T) => E,
): AsyncGenerator<E, void> {
  const open = openStreamsServing(req);
  const end: StreamEnder = (reconnectInMs) =>
    source.end(reconnectInMs === undefined ? undefined : shuttingDown());
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    open?.delete(end);
    signal?.removeEventListener('abort', release);
    source.end();
  };
  open?.add(end);
  signal?.addEventListener('abort', release, { once: true });
  if (signal?.aborted) release();
  countOpenStream(reply.raw);

  return (async function* () {
    try {
      for await (const item of source.items) yield toEvent(item);
    } finally {
      release();
    }
  })();
}
