import { errorStatus, LastNotificationId } from '@verdict/contracts';
import { AppError, type Services, unexpectedFailure } from '@verdict/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authenticate } from '../auth/authenticate.ts';
import { everyBeat } from '../streams/heartbeats.ts';
import { type NotificationFeed, openNotificationFeed } from '../streams/notification-feed.ts';
import { openStreamsOf } from '../streams/open-streams.ts';
import { parseStreamParameter } from '../streams/stream-parameters.ts';
import { sendAppError, writeAppError } from './envelope.ts';
import { sseWriterFor } from './sse-writer.ts';
import { routeEndpoint } from './usage-counting.ts';

export type NotificationStreamOptions = {
  /** Interval of the `ping` event (the spec's 30 s). */
  pingMs?: number;
};

/** A stream that could not subscribe: nothing was sent, so the client may retry at once. */
const tryAgainShortly = new AppError('SERVICE_UNAVAILABLE', 'Try again shortly', {
  headers: { 'Retry-After': '1' },
});

/**
 * GET /api/notifications/stream: `connected` once, then each new notification of the caller — created on
 * this process, another API process or an engine node — and `ping` every 30 s. Each notification's event
 * id is its id; a reconnect that sends it back as Last-Event-ID (EventSource does) first gets the ones
 * stored after it, oldest first, then the new ones: none missed, none twice. Without one (or with an id
 * that is not one of the caller's), nothing from before is sent, as the spec's stream has no history.
 *
 * What is sent is read from the stored inbox after the last one sent, a publish on the bus only saying there
 * is more to read (streams/notification-feed.ts, which the tRPC subscription notifications.stream reads too).
 * An open stream costs one bus subscription and one read per notification of its user.
 */
export function registerNotificationStream(
  app: FastifyInstance,
  core: Services,
  options: NotificationStreamOptions = {},
) {
  const pingMs = options.pingMs ?? 30_000;
  // A shutdown ends each stream with a `retry:` hint: the client resumes on a process that stays.
  const open = openStreamsOf(app);

  app.get('/api/notifications/stream', async (req: FastifyRequest, reply: FastifyReply) => {
    const headers: Record<string, string> = {};
    let userId: string;
    let lastSeenId: string | null;
    try {
      if (open.closing) throw new AppError('SERVICE_UNAVAILABLE', 'The server is shutting down');
      // Opening counts against the stream budget, like debate streams: reconnecting must not eat requests.
      const options = { endpoint: routeEndpoint(req), budget: 'streams' } as const;
      userId = (await authenticate(core, req, 'user', headers, options)).userId;
      lastSeenId = lastEventId(req);
    } catch (err) {
      const appError = err instanceof AppError ? err : unexpectedFailure(err);
      if (errorStatus(appError.code) >= 500) req.log.error({ err }, 'notification stream failed to start');
      return sendAppError(reply.headers(headers), appError);
    }
    reply.hijack();
    const res = reply.raw;
    if (res.destroyed || !res.socket || res.socket.destroyed) return;
    const writer = sseWriterFor(res);
    // The open stream keeps its logger, not the request.
    const log = req.log;
    let stopFollowing: (() => void) | null = null;
    let ended = false;
    const stopPing = everyBeat(pingMs, () => writer.send(null, 'ping', ''));
    const end = (reconnectInMs?: number) => {
      if (ended) return;
      ended = true;
      open.delete(end);
      stopPing();
      stopFollowing?.();
      if (reconnectInMs === undefined) writer.close();
      else writer.closeForReconnect(reconnectInMs);
    };
    open.add(end);
    res.once('close', () => end());

    let feed: NotificationFeed;
    try {
      // Subscribed before the start is read: whatever commits after it is sent.
      feed = await openNotificationFeed(core, userId, lastSeenId);
    } catch (err) {
      req.log.error({ err }, 'notification stream: subscribing failed');
      // Nothing was sent yet: the client hears a clean 503 and may retry.
      stopPing();
      open.delete(end);
      ended = true;
      if (!res.headersSent) writeAppError(res, tryAgainShortly);
      return;
    }
    if (ended) return feed.close();
    stopFollowing = feed.close;
    writer.open(headers);
    writer.send(null, 'connected', { userId });
    (async () => {
      for await (const notification of feed.notifications) {
        writer.send(notification.id, 'notification', notification);
      }
    })().catch((err: unknown) => {
      // The client reconnects with its Last-Event-ID and gets what it missed then.
      log.error({ err }, 'notification stream: reading the inbox failed');
      end();
    });
  });
}

/** Last-Event-ID, sent by EventSource on a reconnect: a notification id, or none (absent or empty). */
function lastEventId(req: FastifyRequest): string | null {
  const header = req.headers['last-event-id'];
  if (typeof header !== 'string' || header.trim() === '') return null;
  return parseStreamParameter(LastNotificationId, header.trim(), 'Last-Event-ID');
}
