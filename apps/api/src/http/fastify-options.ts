import { createServer } from 'node:http';
import { AppError, type Config } from '@verdict/core';
import type { FastifyServerOptions } from 'fastify';
import type { DirectReadsSlot } from './direct-reads.ts';
import { takeOnNode } from './direct-reads-on-node.ts';
import { sendAppError } from './envelope.ts';
import { clientErrorHandler } from './input-guards.ts';
import { newRequestId, noteRequestFailure, OneLinePerRequest } from './request-log.ts';
import type { Uws } from './uws/load-uws.ts';
import { UwsServer } from './uws/uws-server.ts';

/**
 * How Fastify serves this API: its body limit, proxies, request ids, one log line per request, the Node
 * server's timeouts, and an envelope even for what Fastify refuses before any route runs.
 */
export function fastifyOptions(
  config: Config,
  logger: FastifyServerOptions['loggerInstance'] | undefined,
  uws: Uws | null = null,
  direct: DirectReadsSlot = { reads: null },
): FastifyServerOptions {
  const onError = (err: unknown) => logger?.error({ err }, 'serving a request failed');
  const { trustProxy } = config;
  return {
    ...(logger ? { loggerInstance: logger } : { logger: false }),
    bodyLimit: config.bodyLimitBytes,
    // Per-IP limits count by request.ip: behind a proxy, the client's address is in X-Forwarded-For.
    // A hop count as a function: this overload of Fastify's options takes no number.
    trustProxy:
      typeof trustProxy === 'number' ? (_address: string, hop: number) => hop < trustProxy : trustProxy,
    // Closing waits for requests in flight (bounded by SHUTDOWN_GRACE_MS: graceful-close.ts) and serves what
    // arrives on their connections meanwhile, rather than cutting them or answering Fastify's own 503.
    forceCloseConnections: 'idle',
    return503OnClosing: false,
    // A path parameter of any length reaches its operation, whose input schema refuses it by name (400);
    // the router's default of 100 characters would refuse it as a bad path instead. Node's limit on the
    // request head bounds it anyway.
    routerOptions: { maxParamLength: 16_384 },
    // HEAD is opted into per route: no REST operation answers it.
    exposeHeadRoutes: false,
    // Ids are generated here: a caller's X-Request-Id is recorded on the log line, never trusted as the id.
    requestIdHeader: false,
    genReqId: newRequestId,
    logController: new OneLinePerRequest(),
    // On uWebSockets.js (STREAMS), its server takes the requests and hands them to Fastify (http/uws/); it
    // closes a connection that sends nothing for 10 s itself. On Node's http, a request must arrive whole
    // within the timeout (408), checked every second rather than Node's 30 s, so a client that stops
    // sending cannot hold a socket for minutes.
    // Either server answers plain reads itself once the app is built (direct-reads.ts).
    serverFactory: (handler) =>
      uws
        ? (new UwsServer(uws, handler, onError, direct) as never)
        : createServer(
            {
              requestTimeout: config.requestTimeoutMs,
              headersTimeout: Math.min(10_000, config.requestTimeoutMs),
              connectionsCheckingInterval: 1000,
            },
            (req, res) => {
              const reads = direct.reads;
              if (reads === null || !takeOnNode(reads, req, res, onError)) handler(req, res);
            },
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
  };
}
