import { AppError, type Services } from '@verdict/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authenticate } from '../auth/authenticate.ts';
import { sendAppError } from './envelope.ts';
import { nodeSseWriter } from './sse-writer.ts';
import { routeEndpoint } from './usage-counting.ts';

export type NotificationStreamOptions = {
  /** Interval of the `ping` event (the spec's 30 s). */
  pingMs?: number;
};

/**
 * GET /api/notifications/stream: `connected` once, then each new notification of the caller as it is
 * created — on this process, another API process or an engine node (the bus carries it) — and `ping` every
 * 30 s. Nothing is replayed. An open stream costs one bus subscription and no database reads.
 */
export function registerNotificationStream(
  app: FastifyInstance,
  core: Services,
  options: NotificationStreamOptions = {},
) {
  const pingMs = options.pingMs ?? 30_000;
  const open = new Set<() => void>();
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    for (const end of [...open]) end();
  });

  app.get('/api/notifications/stream', async (req: FastifyRequest, reply: FastifyReply) => {
    const headers: Record<string, string> = {};
    let userId: string;
    try {
      if (closing) throw new AppError('SERVICE_UNAVAILABLE', 'The server is shutting down');
      // Opening counts against the stream budget, like debate streams: reconnecting must not eat requests.
      const options = { endpoint: routeEndpoint(req), budget: 'streams' } as const;
      userId = (await authenticate(core, req, 'user', headers, options)).userId;
    } catch (err) {
      const appError =
        err instanceof AppError
          ? err
          : new AppError('INTERNAL_ERROR', 'Internal server error', { cause: err });
      if (appError.code === 'INTERNAL_ERROR') req.log.error({ err }, 'notification stream failed to start');
      return sendAppError(reply.headers(headers), appError);
    }
    reply.hijack();
    const res = reply.raw;
    if (res.destroyed || !res.socket || res.socket.destroyed) return;
    const writer = nodeSseWriter(res);
    let stopFollowing: (() => void) | null = null;
    let ended = false;
    const ping = setInterval(() => writer.send(null, 'ping', ''), pingMs);
    const end = () => {
      if (ended) return;
      ended = true;
      open.delete(end);
      clearInterval(ping);
      stopFollowing?.();
      writer.close();
    };
    open.add(end);
    res.once('close', end);
    try {
      // Subscribed before `connected` is sent: whatever is created after the client sees it arrives.
      const stop = await core.notifications.follow(userId, (notification) =>
        writer.send(notification.id, 'notification', notification),
      );
      if (ended) return stop();
      stopFollowing = stop;
    } catch (err) {
      req.log.error({ err }, 'notification stream: subscribing failed');
      // Nothing was sent yet: the client hears a clean 503 and may retry.
      clearInterval(ping);
      open.delete(end);
      ended = true;
      if (!res.headersSent) {
        res.writeHead(503, { 'Content-Type': 'application/json', 'Retry-After': '1' });
        res.end(JSON.stringify({ error: { code: 'SERVICE_UNAVAILABLE', message: 'Try again shortly' } }));
      }
      return;
    }
    writer.open(headers);
    writer.send(null, 'connected', { userId });
  });
}
