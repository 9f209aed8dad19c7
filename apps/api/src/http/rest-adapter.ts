import type { Config, Services } from '@verdict/core';
import type { FastifyInstance } from 'fastify';
import type { OpenApiRouter } from 'trpc-to-openapi';
import { buildOpenApiDocument, documentOn } from '../openapi/document.ts';
import { requestLinks } from '../trpc/request-links.ts';
import { keepBodyTypesStrict } from './body-coercion.ts';
import { sendAppError } from './envelope.ts';
import { installJsonBodyParser, keepEmptyQueryValues, refuseNonObjectBody } from './input-guards.ts';
import { queryNumberGuard } from './query-numbers.ts';
import { registerRestDispatch } from './rest-dispatch.ts';

export type RestAdapterOptions = {
  router: OpenApiRouter;
  services: Services;
  /** The addresses the document names (config.publicBaseUrl, or the request's: request-links.ts). */
  config: Pick<Config, 'publicBaseUrl' | 'appUrl' | 'linksFollowRequest'>;
  bodyLimitBytes: number;
  onError: (failure: { error: { code: string; cause?: unknown }; req: unknown }) => void;
};

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * REST (/api, /v1): trpc-to-openapi's operations served by Fastify routes that call the tRPC procedures
 * (rest-dispatch.ts), and the OpenAPI document at /openapi.json. Every way this service departs from
 * trpc-to-openapi's own handling is here, each with what breaks without it; the fuzz test
 * (openapi/fuzz.integration.test.ts) finds any of them missing.
 */
export async function registerRestAdapter(app: FastifyInstance, options: RestAdapterOptions) {
  const { router } = options;

  // Empty-body parser (app-wide, so install it before tRPC registers): a bodyless POST with a JSON content
  // type is legitimate here (cancel, resume), and Fastify's parser would answer it 400; bodies nested
  // deeper than any of ours are refused before parsing, or a recursive walk could exhaust the stack.
  installJsonBodyParser(app);

  // Coercion lock: trpc-to-openapi's way, which the dispatcher keeps, switches zod coercion on for every
  // number and boolean of every input (meant for query strings); without the lock a JSON body's
  // "rateLimit": "10" is accepted, and tRPC, sharing the schemas, accepts it too.
  keepBodyTypesStrict(router);

  const refuseQueryNumber = queryNumberGuard(router);

  // Its own scope, so these hooks run for the REST operations only.
  await app.register(async (rest) => {
    rest.addHook('onRequest', (request, _reply, done) => {
      // Content-type hook: a bodyless POST without a JSON content type would be refused (415), though the
      // document gives those routes no body at all.
      const length = request.headers['content-length'];
      const hasBody =
        (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
      if (BODY_METHODS.has(request.method) && !hasBody && !request.headers['content-type']) {
        request.headers['content-type'] = 'application/json';
      }
      done();
    });

    rest.addHook('preHandler', (request, reply, done) => {
      // Object bodies only: the adapter spreads the body into the input, so `null`, `[]` or `42` read as
      // `{}` and a PATCH answers 2xx having changed nothing. Another content type is the adapter's to refuse.
      const json = /^application\/json/i.test(request.headers['content-type'] ?? '');
      // Query numbers: the adapter reads them with Number(), so `0x1f`, `1e3` or ` 7 ` pass as integers.
      const refusal =
        (BODY_METHODS.has(request.method) && json ? refuseNonObjectBody(request.body) : null) ??
        refuseQueryNumber(request);
      if (refusal) return void sendAppError(reply, refusal);
      // Empty query values: the adapter drops them, so `?limit=` reads as no limit instead of a bad one.
      keepEmptyQueryValues(request.query);
      done();
    });

    registerRestDispatch(rest, { router, services: options.services, onError: options.onError });
  });

  // Document completion: the generator knows neither each route's errors, its real success status, the
  // security alternatives, the rate-limit and request-id headers, nor the plain routes (health, streams);
  // a client generated from the bare document would not compile against the real answers.
  const { config } = options;
  const document = buildOpenApiDocument(router, config.publicBaseUrl);
  app.get('/openapi.json', (request, reply) => {
    const { api } = requestLinks(request, config);
    return reply.send(api === config.publicBaseUrl ? document : documentOn(document, api));
  });
}
