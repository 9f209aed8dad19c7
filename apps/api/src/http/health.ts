import { AppError, type Services } from '@verdict/core';
import type { FastifyInstance } from 'fastify';
import { sendAppError } from './envelope.ts';

/** Readiness: 200 when the process and its database answer, 503 in the envelope when the database does not. */
export function registerHealth(app: FastifyInstance, core: Services) {
  app.get('/health', { exposeHeadRoute: true }, async (request, reply) => {
    try {
      await core.checkDatabase();
      return reply.send({ status: 'ok', checks: { database: 'ok' } });
    } catch (err) {
      request.log.warn({ err }, 'health check: database unavailable');
      return sendAppError(reply, new AppError('SERVICE_UNAVAILABLE', 'Database unavailable'));
    }
  });
}
