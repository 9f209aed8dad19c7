import { AppError, type Services } from '@verdict/core';
import type { FastifyInstance } from 'fastify';
import { sendAppError } from './envelope.ts';
import type { Lifecycle } from './lifecycle.ts';

/**
 * GET /health (the spec's: the process and its database answer) and GET /ready (an extension for load
 * balancers and orchestrators: whether to send this process work). /ready also asks the bus and the schema,
 * and says no while the process drains after SIGTERM; its 503 carries every check, so a probe's log says why.
 */
export function registerHealth(app: FastifyInstance, core: Services, lifecycle: Lifecycle) {
  app.get('/health', { exposeHeadRoute: true }, async (request, reply) => {
    try {
      await core.checkDatabase();
      return reply.send({ status: 'ok', checks: { database: 'ok' } });
    } catch (err) {
      request.log.warn({ err }, 'health check: database unavailable');
      return sendAppError(reply, new AppError('SERVICE_UNAVAILABLE', 'Database unavailable'));
    }
  });

  app.get('/ready', { exposeHeadRoute: true }, async (request, reply) => {
    const { ready, checks, message } = await core.checkReadiness(lifecycle.draining);
    if (ready) return reply.send({ status: 'ready', checks });
    if (!lifecycle.draining) request.log.warn({ checks }, 'readiness check: not ready');
    return sendAppError(reply, new AppError('SERVICE_UNAVAILABLE', message, { extra: { checks } }));
  });
}
