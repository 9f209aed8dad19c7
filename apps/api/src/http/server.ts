import fastifyCookie from '@fastify/cookie';
import { fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import { AppError, type Core } from '@verdict/core';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { fastifyTRPCOpenApiPlugin, type OpenApiRouter } from 'trpc-to-openapi';
import { type AppRouter, appRouter } from '../router.ts';
import { contextFactory } from '../trpc/context.ts';
import { responseMeta } from '../trpc/response-meta.ts';
import { keepBodyTypesStrict } from './body-coercion.ts';
import { registerDebateStreams } from './debate-stream.ts';
import { registerDocs } from './docs.ts';
import { registerEntryPoints } from './entry-points.ts';
import { fromFastifyError, rewriteRestErrorBody, sendAppError } from './envelope.ts';
import { registerHealth } from './health.ts';
import { buildOpenApiDocument } from './openapi.ts';

export type ServerOptions = {
  core: Core;
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
  const app = Fastify({
    ...(logger ? { loggerInstance: logger } : { logger: false }),
    bodyLimit: core.config.bodyLimitBytes,
    forceCloseConnections: true,
    // The REST catch-all would answer HEAD of any path with 204; HEAD is opted into per route instead.
    exposeHeadRoutes: false,
    // Request ids for log correlation; trust no proxy headers by default.
    requestIdHeader: 'x-request-id',
  });

  await app.register(fastifyCookie);
  acceptEmptyJsonBodies(app);

  app.setErrorHandler((error, request, reply) => {
    const appError = fromFastifyError(error as FastifyError);
    if (appError.code === 'INTERNAL_ERROR') request.log.error({ err: error }, 'unhandled error');
    return sendAppError(reply, appError);
  });
  app.setNotFoundHandler((request, reply) =>
    sendAppError(
      reply,
      new AppError('NOT_FOUND', `No route for ${request.method} ${request.url.split('?')[0]}`),
    ),
  );

  const onError = ({
    error,
    path,
  }: {
    error: { code: string; cause?: unknown };
    path?: string | undefined;
  }) => {
    if (error.code === 'INTERNAL_SERVER_ERROR' && !(error.cause instanceof AppError)) {
      app.log.error({ err: error.cause ?? error, path }, 'procedure failed');
    }
  };

  await app.register(fastifyTRPCPlugin, {
    prefix: '/trpc',
    trpcOptions: { router, createContext: contextFactory(core, 'trpc'), responseMeta, onError },
  });

  keepBodyTypesStrict(router as OpenApiRouter);

  // REST lives in its own scope so the envelope rewrite touches only its responses.
  await app.register(async (rest) => {
    rest.addHook('onRequest', async (request) => {
      // trpc-to-openapi insists on a JSON content type even when there is no body (DELETE, bare POST).
      const length = request.headers['content-length'];
      const hasBody =
        (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
      if (BODY_METHODS.has(request.method) && !hasBody && !request.headers['content-type']) {
        request.headers['content-type'] = 'application/json';
      }
    });
    rest.addHook('onSend', async (_request, reply, payload) =>
      reply.statusCode >= 400 && typeof payload === 'string' ? rewriteRestErrorBody(payload) : payload,
    );
    await rest.register(fastifyTRPCOpenApiPlugin, {
      router: router as OpenApiRouter,
      createContext: contextFactory(core, 'rest'),
      responseMeta,
      onError,
      maxBodySize: core.config.bodyLimitBytes,
    } as never);
  });

  const openApiDocument = buildOpenApiDocument(router as OpenApiRouter, core.config.publicBaseUrl);
  app.get('/openapi.json', (_req, reply) => reply.send(openApiDocument));
  registerEntryPoints(app);
  registerDocs(app);
  registerHealth(app, core);
  registerDebateStreams(app, core);
  return app;
}

/** Fastify rejects `Content-Type: application/json` with an empty body; a bodyless POST is legitimate here. */
function acceptEmptyJsonBodies(app: FastifyInstance) {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    return parseJson(request, text, done);
  });
}
