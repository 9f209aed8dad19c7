import {
  AppError,
  type Config,
  Counter,
  createMetricsRegistry,
  Gauge,
  LIMIT_KINDS,
  onLimitRefusal,
  type Registry,
  type Services,
  scraperHoldsToken,
} from '@verdict/core';
import type { FastifyInstance } from 'fastify';
import { sendAppError } from './envelope.ts';
import { requestDurations } from './request-durations.ts';

/** SSE responses open in this process now: counted where they open, whatever route opened them. */
let openStreams = 0;

/** Counts `res` as an open stream until it closes (once: a response closes once). */
export function countOpenStream(res: { on: (event: 'close', listener: () => void) => unknown }) {
  openStreams += 1;
  // One function for every stream, and a plain listener: `once` and a closure each were kept per stream.
  res.on('close', streamClosed);
}

function streamClosed() {
  openStreams -= 1;
}

/**
 * The API process's metrics: Node's own, every answered request by route template, method and status with
 * its duration (5xx are the failures), the requests refused for a limit by the limit, the SSE streams open,
 * the read-heavy reads by where they went (replica or primary, and why), and, read at scrape time, the
 * debates by status. `stop` ends the listening to refusals.
 */
export function apiMetrics(core: Pick<Services, 'debatesByStatus'> & Partial<Pick<Services, 'reads'>>) {
  const registry = createMetricsRegistry('api');
  const refused = new Counter({
    name: 'verdict_rate_limited_total',
    help: 'Requests refused with 429 for a limit, by the limit: a rate budget (requests, streamOpens, signIns, signUps, publicReads, anonymousReads) or a debate limit (monthlyDebates, concurrentDebates, credits)',
    labelNames: ['limit'] as const,
    registers: [registry],
  });
  // Every limit a series from the start, so a rate over it is 0 rather than absent.
  for (const limit of LIMIT_KINDS) refused.inc({ limit }, 0);
  const stop = onLimitRefusal((limit) => refused.inc({ limit }));
  new Gauge({
    name: 'verdict_debates',
    help: 'Debates stored, by status (read from the database at scrape time, at most every 5 s)',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      // Unknown rather than stale when the database does not answer: the scrape itself still succeeds.
      const counts = await core.debatesByStatus().catch(() => null);
      this.reset();
      if (counts) for (const [status, n] of Object.entries(counts)) this.set({ status }, n);
    },
  });
  new Counter({
    name: 'verdict_replica_reads_total',
    help: "Read-heavy reads (search, similar, analytics, usage, debate lists) by where they went and why: replica, or the primary for no_replica, caller_write (the caller's last write not replayed yet), lagging, down, replica_failed",
    labelNames: ['reason'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [reason, n] of core.reads?.tallies() ?? []) this.inc({ reason }, n);
    },
  });
  const observeRequest = requestDurations(registry);
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
    stop,
    observeRequest,
  };
}

/**
 * Measures every request: added before the plugins that register routes, whose contexts inherit only the
 * hooks added before them. Returns the registry `serveMetrics` serves, and how a request answered outside
 * Fastify's routes is measured (null when not measured). Without METRICS_TOKEN nothing can read the figures,
 * so requests are not measured at all (`enabled` false).
 */
export function measureRequests(
  app: FastifyInstance,
  core: Pick<Services, 'debatesByStatus'> & Partial<Pick<Services, 'reads'>>,
  enabled: boolean,
) {
  const { registry, observeRequest, stop } = apiMetrics(core);
  app.addHook('onClose', async () => stop());
  if (!enabled) return { registry, observeRequest: null };
  app.addHook('onResponse', (request, reply, done) => {
    // A path no route took is counted under one label, so a scan of random paths cannot grow the series.
    const route = request.routeOptions.url ?? 'unmatched';
    observeRequest(route, request.method, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  return { registry, observeRequest };
}

/**
 * GET /metrics, to a scraper holding METRICS_TOKEN. Without the token configured there is no /metrics:
 * metrics name routes and volumes, which are nobody's business by default.
 */
export function serveMetrics(app: FastifyInstance, config: Config, registry: Registry) {
  const token = config.metricsToken;
  const registries = [registry];
  servedRegistries.set(app, registries);
  if (!token) return;
  app.get('/metrics', async (request, reply) => {
    if (!scraperHoldsToken(request.headers.authorization, token)) {
      return sendAppError(reply, new AppError('UNAUTHORIZED', 'A bearer token for the metrics is required'));
    }
    // One exposition of every registry served: their families are distinct (an in-process engine node
    // leaves Node's own metrics to the API's registry).
    const texts = await Promise.all(registries.map((r) => r.metrics()));
    return reply.header('Content-Type', registry.contentType).send(texts.join(''));
  });
}

const servedRegistries = new WeakMap<FastifyInstance, Registry[]>();

/**
 * Serves `registry` on the server's /metrics too: the engine node an embedded API process runs in-process,
 * whose metrics would otherwise have no scraper.
 */
export function alsoServeMetrics(app: FastifyInstance, registry: Registry) {
  servedRegistries.get(app)?.push(registry);
}
