import type { FastifyInstance } from 'fastify';

/** How often a closing server closes the connections that have just become idle. */
const IDLE_SWEEP_MS = 100;

/**
 * What closing the server does to its connections. Streams are told to reconnect (debate-stream.ts,
 * notification-stream.ts); an idle keep-alive connection is closed at once, and one whose request finishes
 * is closed right after its answer; a request still in flight after `graceMs` has its connection cut, so
 * a shutdown is bounded whatever a client does.
 */
export function closeWithinGrace(app: FastifyInstance, graceMs: number) {
  let sweep: NodeJS.Timeout | undefined;
  let deadline: NodeJS.Timeout | undefined;
  app.addHook('preClose', async () => {
    sweep = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS);
    deadline = setTimeout(() => {
      app.log.warn(
        { graceMs },
        'requests still in flight after the shutdown grace; their connections are cut',
      );
      app.server.closeAllConnections();
    }, graceMs);
  });
  app.addHook('onClose', async () => {
    clearInterval(sweep);
    clearTimeout(deadline);
  });
}
