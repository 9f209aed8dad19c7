import type { Services } from '@verdict/core';
import type { FastifyInstance } from 'fastify';
import { fastifyTRPCOpenApiPlugin, type OpenApiRouter } from 'trpc-to-openapi';
import { buildOpenApiDocument } from '../openapi/document.ts';
import { contextFactory } from '../trpc/context.ts';
import { responseMeta } from '../trpc/response-meta.ts';
import { keepBodyTypesStrict } from './body-coercion.ts';
import { rewriteRestErrorBody, sendAppError } from './envelope.ts';
import { installJsonBodyParser, keepEmptyQueryValues, refuseNonObjectBody } from './input-guards.ts';
import { queryNumberGuard } from './query-numbers.ts';
import { type RouteTable, unroutable } from './route-table.ts';

export type RestAdapterOptions = {
  router: OpenApiRouter;
  services: Services;
  routes: RouteTable;
  publicBaseUrl: string;
  bodyLimitBytes: number;
  onError: (failure: { error: { code: string; cause?: unknown }; req: unknown }) => void;
};

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * REST (/api, /v1) over the tRPC procedures through trpc-to-openapi, and the OpenAPI document at
 * /openapi.json. Every way this service departs from the adapter's defaults is here, each with what breaks
 * without it; the fuzz test (openapi/fuzz.integration.test.ts) finds any of them missing.
 */
export async function registerRestAdapter(app: FastifyInstance, options: RestAdapterOptions) {
  const { router } = options;

  // Empty-body parser (app-wide, so install it before tRPC registers): a bodyless POST with a JSON content
  // type is legitimate here (cancel, resume), and Fastify's parser would answer it 400; bodies nested
  // deeper than any of ours are refused before parsing, or a recursive walk could exhaust the stack.
  installJsonBodyParser(app);

  // Coercion lock: the adapter switches zod coercion on for every number and boolean of every input (meant
  // for query strings); without the lock a JSON body's "rateLimit": "10" is accepted, and tRPC, sharing the
  // schemas, accepts it too.
  keepBodyTypesStrict(router);

  const refuseQueryNumber = queryNumberGuard(router);

  // Its own scope, so the envelope rewrite touches only REST responses.
  await app.register(async (rest) => {
    rest.addHook('onRequest', async (request, reply) => {
      // Method and path check: the adapter answers an unknown path, and a known path with a method it does
      // not take, with its own 404 body; here they get the envelope, and 405 carries Allow.
      const refusal = unroutable(options.routes, request);
      if (refusal) return sendAppError(reply, refusal);
      // Content-type hook: the adapter refuses a bodyless DELETE or POST without a JSON content type (415),
      // though the document gives those routes no body at all.
      const length = request.headers['content-length'];
      const hasBody =
        (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
      if (BODY_METHODS.has(request.method) && !hasBody && !request.headers['content-type']) {
        request.headers['content-type'] = 'application/json';
      }
    });

    rest.addHook('preHandler', async (request, reply) => {
      // Object bodies only: the adapter spreads the body into the input, so `null`, `[]` or `42` read as
      // `{}` and a PATCH answers 2xx having changed nothing. Another content type is the adapter's to refuse.
      const json = /^application\/json/i.test(request.headers['content-type'] ?? '');
      // Query numbers: the adapter reads them with Number(), so `0x1f`, `1e3` or ` 7 ` pass as integers.
      const refusal =
        (BODY_METHODS.has(request.method) && json ? refuseNonObjectBody(request.body) : null) ??
        refuseQueryNumber(request);
      if (refusal) return sendAppError(reply, refusal);
      // Empty query values: the adapter drops them, so `?limit=` reads as no limit instead of a bad one.
      keepEmptyQueryValues(request.query);
    });

    // Envelope rewrite: the adapter writes tRPC's error shape; the spec's envelope is { error: { code, … } }.
    rest.addHook('onSend', async (_request, reply, payload) =>
      reply.statusCode >= 400 && typeof payload === 'string' ? rewriteRestErrorBody(payload) : payload,
    );

    await rest.register(fastifyTRPCOpenApiPlugin, {
      router,
      createContext: contextFactory(options.services, 'rest'),
      responseMeta,
      onError: options.onError,
      maxBodySize: options.bodyLimitBytes,
    } as never);
  });

  // Document completion: the generator knows neither each route's errors, its real success status, the
  // security alternatives, the rate-limit and request-id headers, nor the plain routes (health, streams);
  // a client generated from the bare document would not compile against the real answers.
  const document = buildOpenApiDocument(router, options.publicBaseUrl);
  app.get('/openapi.json', (_request, reply) => reply.send(document));
}
