import type { FastifyInstance } from 'fastify';

const POINTERS = { service: 'verdict', docs: '/docs', openapi: '/openapi.json', health: '/health' };

/**
 * `GET /` names where to go next, as JSON so that curl and scripts can follow it as well as people. It is
 * not an API route, so not part of the OpenAPI document.
 */
export function registerEntryPoints(app: FastifyInstance) {
  app.get('/', (_req, reply) => reply.send(POINTERS));
}
