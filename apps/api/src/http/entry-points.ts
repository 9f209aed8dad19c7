import type { FastifyInstance } from 'fastify';

export const POINTERS = { service: 'verdict', docs: '/docs', openapi: '/openapi.json', health: '/health' };

/**
 * `GET /` names where to go next, as JSON so that curl and scripts can follow it as well as people. It is
 * not an API route, so not part of the OpenAPI document. Where the console is served, a browser asking for
 * HTML gets the console there instead (console/routes.ts).
 */
export function registerEntryPoints(app: FastifyInstance) {
  app.get('/', (_req, reply) => reply.send(POINTERS));
}
