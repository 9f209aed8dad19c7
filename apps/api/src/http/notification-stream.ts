import { errorStatus } from '@verdict/contracts';
import { AppError, type NotificationMark, type Services, unexpectedFailure } from '@verdict/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { authenticate } from '../auth/authenticate.ts';
import { zodIssuesToDetails } from '../trpc/app-errors.ts';
import { sendAppError, writeAppError } from './envelope.ts';
import { reconnectHintMs } from './lifecycle.ts';
import { nodeSseWriter } from './sse-writer.ts';
import { routeEndpoint } from './usage-counting.ts';

export type NotificationStreamOptions = {
  /** Interval of the `ping` event (the spec's 30 s). */
  pingMs?: number;
};

/** Notifications read per query when catching up (a reconnect after a long time reads several batches). */
const CATCH_UP_BATCH = 100;

/** A stream that could not subscribe: nothing was sent, so the client may retry at once. */
const tryAgainShortly = new AppError('SERVICE_UNAVAILABLE', 'Try again shortly', {
  headers: { 'Retry-After': '1' },
});

const LastEventId = z.uuid('Must be the id of a notification this stream sent');

/**
 * GET /api/notifications/stream: `connected` once, then each new notification of the caller — created on
 * this process, another API process or an engine node — and `ping` every 30 s. Each notification's event
 * id is its id; a reconnect that sends it back as Last-Event-ID (EventSource does) first gets the ones
 * stored after it, oldest first, then the new ones: none missed, none twice. Without one (or with an id
 * that is not one of the caller's), nothing from before is sent, as the spec's stream has no history.
 *
 * What is sent is always read from the stored inbox, in stored order, after the last one sent; a publish
 * on the bus (after its commit) only says there is more to read. A user's notifications commit in
 * createdAt order (notifications/record.ts), so reading on from the last one sent cannot skip one that
 * commits later. An open stream costs one bus subscription and one read per notification of its user.
 */
export function registerNotificationStream(
  app: FastifyInstance,
  core: Services,
  options: NotificationStreamOptions = {},
) {
  const pingMs = options.pingMs ?? 30_000;
  const open = new Set<(reconnectInMs?: number) => void>();
  let closing = false;
  // A shutdown ends each stream with a `retry:` hint: the client resumes on a process that stays.
  app.addHook('preClose', async () => {
    closing = true;
    for (const end of [...open]) end(reconnectHintMs());
  });

  app.get('/api/notifications/stream', async (req: FastifyRequest, reply: FastifyReply) => {
    const headers: Record<string, string> = {};
    let userId: string;
    let lastSeenId: string | null;
    try {
      if (closing) throw new AppError('SERVICE_UNAVAILABLE', 'The server is shutting down');
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
    const writer = nodeSseWriter(res);
    let stopFollowing: (() => void) | null = null;
    let ended = false;
    const ping = setInterval(() => writer.send(null, 'ping', ''), pingMs);
    const end = (reconnectInMs?: number) => {
      if (ended) return;
      ended = true;
      open.delete(end);
      clearInterval(ping);
      stopFollowing?.();
      if (reconnectInMs === undefined) writer.close();
      else writer.closeForReconnect(reconnectInMs);
    };
    open.add(end);
    res.once('close', () => end());

    /** The last notification sent (or where the stream starts); what is read next comes after it. */
    let mark: NotificationMark | null = null;
    let started = false;
    let reading = false;
    let more = false;
    /** Sends what is stored after `mark`, one read at a time; a cue during a read makes another read. */
    const catchUp = () => {
      if (!started || ended) return;
      if (reading) {
        more = true;
        return;
      }
      reading = true;
      more = false;
      sendStoredAfterMark()
        .catch((err: unknown) => {
          // The client reconnects with its Last-Event-ID and gets what it missed then.
          req.log.error({ err }, 'notification stream: reading the inbox failed');
          end();
        })
        .finally(() => {
          reading = false;
          if (more) catchUp();
        });
    };
    const sendStoredAfterMark = async () => {
      for (;;) {
        const batch = await core.notifications.after(userId, mark, CATCH_UP_BATCH);
        if (ended) return;
        for (const notification of batch) writer.send(notification.id, 'notification', notification);
        const last = batch.at(-1);
        if (last) mark = { id: last.id, createdAt: last.createdAt };
        if (batch.length < CATCH_UP_BATCH) return;
      }
    };

    try {
      // Subscribed before the start is read: whatever commits after it is cued.
      const stop = await core.notifications.follow(userId, catchUp);
      if (ended) return stop();
      stopFollowing = stop;
      mark = await core.notifications.streamStart(userId, lastSeenId);
    } catch (err) {
      req.log.error({ err }, 'notification stream: subscribing failed');
      // Nothing was sent yet: the client hears a clean 503 and may retry.
      clearInterval(ping);
      open.delete(end);
      stopFollowing?.();
      ended = true;
      if (!res.headersSent) writeAppError(res, tryAgainShortly);
      return;
    }
    if (ended) return;
    writer.open(headers);
    writer.send(null, 'connected', { userId });
    started = true;
    catchUp();
  });
}

/** Last-Event-ID, sent by EventSource on a reconnect: a notification id, or none (absent or empty). */
function lastEventId(req: FastifyRequest): string | null {
  const header = req.headers['last-event-id'];
  if (typeof header !== 'string' || header.trim() === '') return null;
  const parsed = LastEventId.safeParse(header.trim());
  if (parsed.success) return parsed.data.toLowerCase();
  throw new AppError('VALIDATION_ERROR', 'Request validation failed', {
    details: zodIssuesToDetails(parsed.error.issues).map((issue) => ({ ...issue, path: 'Last-Event-ID' })),
  });
}
