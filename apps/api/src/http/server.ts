import { createServer } from 'node:http';
import fastifyCookie from '@fastify/cookie';
import { fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import { AppError, type Services } from '@verdict/core';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { fastifyTRPCOpenApiPlugin, type OpenApiRouter } from 'trpc-to-openapi';
import { buildOpenApiDocument } from '../openapi/document.ts';
import { type AppRouter, appRouter } from '../router.ts';
import { contextFactory } from '../trpc/context.ts';
import { responseMeta } from '../trpc/response-meta.ts';
import { keepBodyTypesStrict } from './body-coercion.ts';
import { registerDebateStreams } from './debate-stream.ts';
import { registerDocs } from './docs.ts';
import { registerEntryPoints } from './entry-points.ts';
import { fromFastifyError, rewriteRestErrorBody, sendAppError } from './envelope.ts';
import { registerHealth } from './health.ts';
import {
  clientErrorHandler,
  installJsonBodyParser,
  keepEmptyQueryValues,
  refuseNonObjectBody,
} from './input-guards.ts';
import { queryNumberGuard } from './query-numbers.ts';
import { newRequestId, noteRequestFailure, OneLinePerRequest } from './request-log.ts';
import { createRouteTable, type RouteTable } from './route-table.ts';
import { registerSecurity } from './security.ts';

export type ServerOptions = {
  /** The domain services (a Core will do): the HTTP front never touches the database or the bus itself. */
  core: Services;
  /** A pino logger; none means silent. */
  logger?: FastifyServerOptions['loggerInstance'];
  /** Tests pass a router of their own to exercise the shared mechanisms (deprecation …). */
  router?: AppRouter | OpenApiRouter;
};

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The HTTP front: REST (/api, /v1) and tRPC (/trpc) over the same procedures, plus plain routes. */
export async function buildServer({
  core,
  logger,
  router = appRouter,
}: ServerOptions): Promise<FastifyInstance> {
  const { config } = core;
  const app = Fastify({
    ...(logger ? { loggerInstance: logger } : { logger: false }),
    bodyLimit: config.bodyLimitBytes,
    forceCloseConnections: true,
    // The REST catch-all would answer HEAD of any path with 204; HEAD is opted into per route instead.
    exposeHeadRoutes: false,
    // Ids are generated here: a caller's X-Request-Id is recorded on the log line, never trusted as the id.
    requestIdHeader: false,
    genReqId: newRequestId,
    logController: new OneLinePerRequest(),
    // A request must arrive whole within the timeout (408), checked every second rather than Node's 30 s,
    // so a client that stops sending cannot hold a socket for minutes.
    serverFactory: (handler) =>
      createServer(
        {
          requestTimeout: config.requestTimeoutMs,
          headersTimeout: Math.min(10_000, config.requestTimeoutMs),
          connectionsCheckingInterval: 1000,
        },
        handler,
      ),
    clientErrorHandler,
    // A path Fastify cannot decode (bad percent-encoding) answers the envelope too.
    frameworkErrors: (error, request, reply) => {
      noteRequestFailure(request, error);
      return sendAppError(
        reply,
        new AppError('VALIDATION_ERROR', 'The request path is not valid', {
          details: [{ path: '', message: error.message, code: 'invalid_path' }],
        }),
      );
    },
  });
  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
  });

  const routes = createRouteTable(app, router as OpenApiRouter);
  await registerSecurity(app, config);
  await app.register(fastifyCookie);
  installJsonBodyParser(app);

  app.setErrorHandler((error, request, reply) => {
    const appError = fromFastifyError(error as FastifyError);
    if (appError.code === 'INTERNAL_ERROR') noteRequestFailure(request, error);
    return sendAppError(reply, appError);
  });
  app.setNotFoundHandler((request, reply) =>
    sendAppError(reply, unroutable(routes, request) ?? notFound(request)),
  );

  const onError = ({ error, req }: { error: { code: string; cause?: unknown }; req: unknown }) => {
    if (error.code === 'INTERNAL_SERVER_ERROR' && !(error.cause instanceof AppError)) {
      noteRequestFailure(req, error.cause ?? error);
    }
  };

  await app.register(fastifyTRPCPlugin, {
    prefix: '/trpc',
    trpcOptions: { router, createContext: contextFactory(core, 'trpc'), responseMeta, onError },
  });

  keepBodyTypesStrict(router as OpenApiRouter);

  // REST lives in its own scope so the envelope rewrite touches only its responses.
  await app.register(async (rest) => {
    rest.addHook('onRequest', async (request, reply) => {
      // A path no procedure has, or a method the path does not take, is answered here, before the adapter.
      const refusal = unroutable(routes, request);
      if (refusal) return sendAppError(reply, refusal);
      // trpc-to-openapi insists on a JSON content type even when there is no body (DELETE, bare POST).
      const length = request.headers['content-length'];
      const hasBody =
        (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
      if (BODY_METHODS.has(request.method) && !hasBody && !request.headers['content-type']) {
        request.headers['content-type'] = 'application/json';
      }
    });
    const refuseQueryNumber = queryNumberGuard(router as OpenApiRouter);
    rest.addHook('preHandler', async (request, reply) => {
      // Only a JSON body: another content type is the adapter's to refuse (415).
      const json = /^application\/json/i.test(request.headers['content-type'] ?? '');
      const refusal =
        (BODY_METHODS.has(request.method) && json ? refuseNonObjectBody(request.body) : null) ??
        refuseQueryNumber(request);
      if (refusal) return sendAppError(reply, refusal);
      keepEmptyQueryValues(request.query);
    });
    rest.addHook('onSend', async (_request, reply, payload) =>
      reply.statusCode >= 400 && typeof payload === 'string' ? rewriteRestErrorBody(payload) : payload,
    );
    await rest.register(fastifyTRPCOpenApiPlugin, {
      router: router as OpenApiRouter,
      createContext: contextFactory(core, 'rest'),
      responseMeta,
      onError,
      maxBodySize: config.bodyLimitBytes,
    } as never);
  });

  const openApiDocument = buildOpenApiDocument(router as OpenApiRouter, config.publicBaseUrl);
  app.get('/openapi.json', (_req, reply) => reply.send(openApiDocument));
  registerEntryPoints(app);
  registerDocs(app);
  registerHealth(app, core);
  registerDebateStreams(app, core);
  return app;
}

/**
 * Why no route serves the request: 405 with Allow when the path exists with other methods, 404 when it does
 * not exist; null when a route takes this method on this path.
 */
function unroutable(routes: RouteTable, request: { method: string; url: string }): AppError | null {
  const allowed = routes.allowedMethods(request.url);
  if (allowed?.includes(request.method)) return null;
  const path = request.url.split('?')[0];
  if (allowed === null) return notFound(request);
  return new AppError('METHOD_NOT_ALLOWED', `${request.method} is not supported on ${path}`, {
    headers: { Allow: allowed.join(', ') },
  });
}

const notFound = (request: { method: string; url: string }) =>
  new AppError('NOT_FOUND', `No route for ${request.method} ${request.url.split('?')[0]}`);
