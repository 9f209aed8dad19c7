import type { ServerResponse } from 'node:http';
import {
  AppError,
  type Config,
  createMetricsRegistry,
  Gauge,
  Histogram,
  type Registry,
  scraperHoldsToken,
} from '@verdict/core';
import type { FastifyInstance } from 'fastify';
import { sendAppError } from './envelope.ts';

/** SSE responses open in this process now: counted where they open, whatever route opened them. */
let openStreams = 0;

/** Counts `res` as an open stream until it closes. */
export function countOpenStream(res: ServerResponse) {
  openStreams += 1;
  res.once('close', () => {
    openStreams -= 1;
  });
}

/**
 * The API process's metrics: Node's own, every answered request by route template, method and status with
 * its duration (429s are the rate-limited answers, 5xx the failures), and the SSE streams open.
 */
export function apiMetrics() {
  const registry = createMetricsRegistry('api');
  const requests = new Histogram({
    name: 'verdict_http_request_duration_seconds',
    help: 'Requests answered, by route template (not the path: ids stay out of labels), method and status',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  new Gauge({
    name: 'verdict_sse_streams_open',
    help: 'Server-sent event streams open on this process (debate and notification streams)',
    registers: [registry],
    collect() {
      this.set(openStreams);
    },
  });
  return {
    registry,
    observeRequest: (route: string, method: string, status: number, seconds: number) =>
      requests.observe({ route, method, status: String(status) }, seconds),
  };
}

/**
 * Measures every request: added before the plugins that register routes, whose contexts inherit only the
 * hooks added before them. Returns the registry `serveMetrics` serves. Without METRICS_TOKEN nothing can
 * read the figures, so requests are not measured at all (`enabled` false).
 */
export function measureRequests(app: FastifyInstance, enabled: boolean) {
  const { registry, observeRequest } = apiMetrics();
  if (!enabled) return registry;
  app.addHook('onResponse', async (request, reply) => {
    // A path no route took is counted under one label, so a scan of random paths cannot grow the series.
    const route = request.routeOptions.url ?? 'unmatched';
    observeRequest(route, request.method, reply.statusCode, reply.elapsedTime / 1000);
  });
  return registry;
}

/**
 * GET /metrics, to a scraper holding METRICS_TOKEN. Without the token configured there is no /metrics:
 * metrics name routes and volumes, which are nobody's business by default.
 */
export function serveMetrics(app: FastifyInstance, config: Config, registry: Registry) {
  const token = config.metricsToken;
  if (!token) return;
  app.get('/metrics', async (request, reply) => {
    if (!scraperHoldsToken(request.headers.authorization, token)) {
      return sendAppError(reply, new AppError('UNAUTHORIZED', 'A bearer token for the metrics is required'));
    }
    return reply.header('Content-Type', registry.contentType).send(await registry.metrics());
  });
}
