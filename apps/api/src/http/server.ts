import fastifyCookie from '@fastify/cookie';
import { fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import { errorStatus } from '@verdict/contracts';
import { AppError, type Services, tracingOn } from '@verdict/core';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import type { OpenApiRouter } from 'trpc-to-openapi';
import { type AppRouter, appRouter } from '../router.ts';
import { contextFactory } from '../trpc/context.ts';
import { requestLinks } from '../trpc/request-links.ts';
import { responseMeta } from '../trpc/response-meta.ts';
import { registerAttachmentRoutes } from './attachment-routes.ts';
import { registerAuditExport } from './audit-export.ts';
import { registerConsole } from './console/routes.ts';
import { registerDebateStreams } from './debate-stream.ts';
import { DirectReads, type DirectReadsSlot } from './direct-reads.ts';
import { registerDocs } from './docs.ts';
import { registerEntryPoints } from './entry-points.ts';
import { fromFastifyError, sendAppError } from './envelope.ts';
import { fastifyOptions } from './fastify-options.ts';
import { closeWithinGrace } from './graceful-close.ts';
import { registerHealth } from './health.ts';
import { refuseNonUtf8JsonBodies } from './input-guards.ts';
import { createLifecycle, type Lifecycle } from './lifecycle.ts';
import { measureRequests, serveMetrics } from './metrics.ts';
import { registerNotificationStream } from './notification-stream.ts';
import { noteRequestFailure } from './request-log.ts';
import { registerRestAdapter } from './rest-adapter.ts';
import { createRouteTable, notFound, unroutable } from './route-table.ts';
import { registerSecurity } from './security.ts';
import { registerSsoRoutes } from './sso-routes.ts';
import { registerStripeWebhook } from './stripe-webhook.ts';
import { traceRequests } from './tracing.ts';
import { registerUnsubscribe } from './unsubscribe.ts';
import { registerUsageCounting } from './usage-counting.ts';
import { chooseServer } from './uws/choose-server.ts';

export type ServerOptions = {
  /** The domain services (a Core will do): the HTTP front never touches the database or the bus itself. */
  core: Services;
  /** A pino logger; none means silent. */
  logger?: FastifyServerOptions['loggerInstance'];
  /** Tests pass a router of their own to exercise the shared mechanisms (deprecation …). */
  router?: AppRouter | OpenApiRouter;
  /** Serving or draining (GET /ready); the composition root drains it on SIGTERM. Default: always serving. */
  lifecycle?: Lifecycle;
  /** The notification stream's ping interval (the spec's 30 s); tests shorten it. */
  notificationPingMs?: number;
  /**
   * For measurement only (bench/suites/usage.ts): false serves without counting keyed requests in their
   * keys' usage, to price the counting. Production always counts.
   */
  countUsage?: boolean;
};

/** The HTTP front: REST (/api, /v1) and tRPC (/trpc) over the same procedures, plus plain routes. */
export async function buildServer({
  core: services,
  logger,
  router = appRouter,
  lifecycle = createLifecycle(),
  notificationPingMs,
  countUsage = true,
}: ServerOptions): Promise<FastifyInstance> {
  const core = countUsage ? services : withoutUsageCounting(services);
  const { config } = core;
  const server = chooseServer(config.streams);
  const direct: DirectReadsSlot = { reads: null };
  const app = Fastify(fastifyOptions(config, logger, server.uws, direct));
  app.log.info(server.note);
  // Hooks here are callback-style: an async hook costs a promise and a turn of the microtask queue per request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    done();
  });
  const metrics = measureRequests(app, core, config.metricsToken !== null);
  closeWithinGrace(app, config.shutdown.graceMs);
  traceRequests(app);

  const routes = createRouteTable(app, router as OpenApiRouter);
  // Every log line and span, whichever plugin's route served the request, redacts by the routes' declarations.
  app.decorate('urlSecrets', routes);
  // Every error answer, whichever plugin's route gave it, puts its links on the request's bases.
  app.decorate('linksOf', (request: FastifyRequest) => requestLinks(request, config));
  const { apiHeaders } = await registerSecurity(app, config);
  await app.register(fastifyCookie);
  answerErrorsInTheEnvelope(app, routes);

  await registerRestAdapter(app, {
    router: router as OpenApiRouter,
    services: core,
    config,
    bodyLimitBytes: config.bodyLimitBytes,
    onError: noteProcedureFailure,
  });
  await registerTrpc(app, router, core);

  const webConsole = registerConsole(app, core);
  if (!webConsole.served) registerEntryPoints(app);
  registerDocs(app);
  registerHealth(app, core, lifecycle);
  serveMetrics(app, config, metrics.registry);
  registerDebateStreams(app, core);
  registerNotificationStream(app, core, notificationPingMs ? { pingMs: notificationPingMs } : {});
  registerUnsubscribe(app, core);
  const usage = countUsage ? registerUsageCounting(app, core, routes, router as OpenApiRouter) : null;
  await registerStripeWebhook(app, core);
  await registerAttachmentRoutes(app, core);
  registerAuditExport(app, core);
  await registerSsoRoutes(app, core);
  // Plain reads skip Fastify; with tracing on, every request goes through its hooks, which make the spans.
  if (config.directReads && !tracingOn()) {
    direct.reads = new DirectReads({
      router: router as OpenApiRouter,
      services: core,
      config,
      apiHeaders,
      log: app.log,
      observeRequest: metrics.observeRequest,
      usage,
      onError: noteProcedureFailure,
    });
    // Closing, Fastify answers each request with `Connection: close`: everything goes through it.
    app.addHook('preClose', (done) => {
      direct.reads?.stop();
      done();
    });
  }
  return app;
}

/** tRPC at /trpc, in a scope of its own: its plugin's JSON parser takes any bytes, so bodies are checked as they arrive. */
async function registerTrpc(app: FastifyInstance, router: AppRouter | OpenApiRouter, core: Services) {
  await app.register(async (trpc) => {
    refuseNonUtf8JsonBodies(trpc);
    await trpc.register(fastifyTRPCPlugin, {
      prefix: '/trpc',
      trpcOptions: {
        router,
        createContext: contextFactory(core, 'trpc'),
        responseMeta,
        onError: noteProcedureFailure,
      },
    });
  });
}

/** Every error, and every request no route takes, answered in the spec's envelope. */
function answerErrorsInTheEnvelope(app: FastifyInstance, routes: ReturnType<typeof createRouteTable>) {
  app.setErrorHandler((error, request, reply) => {
    const appError = fromFastifyError(error as FastifyError);
    if (appError.code === 'INTERNAL_ERROR' || appError.code === 'SERVICE_UNAVAILABLE')
      noteRequestFailure(request, error);
    return sendAppError(reply, appError);
  });
  // A request no route takes is refused as it arrives, before its body is read: its 404 or 405 cannot turn
  // into a 413 or a malformed-JSON 400 about a body nothing would have read.
  const refuseUnroutable = (request: FastifyRequest, reply: FastifyReply) =>
    sendAppError(reply, unroutable(routes, request) ?? notFound(request));
  app.addHook('onRequest', (request, reply, done) => {
    if (request.is404) refuseUnroutable(request, reply);
    else done();
  });
  app.setNotFoundHandler(refuseUnroutable);
}

/**
 * Unexpected failures of a procedure, and the domain's own 5xx codes (STREAKS_ERROR …), go on the request's
 * log line with their cause; a 4xx AppError is an answer, not a failure.
 */
function noteProcedureFailure({ error, req }: { error: { code: string; cause?: unknown }; req: unknown }) {
  if (error.code !== 'INTERNAL_SERVER_ERROR') return;
  const { cause } = error;
  if (!(cause instanceof AppError)) return noteRequestFailure(req, cause ?? error);
  if (errorStatus(cause.code) >= 500) noteRequestFailure(req, cause.cause ?? cause);
}

const withoutUsageCounting = (core: Services): Services => ({
  ...core,
  usage: { ...core.usage, count: () => {} },
});
