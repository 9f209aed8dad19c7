import { timingSafeEqual } from 'node:crypto';
import { collectDefaultMetrics, Registry } from 'prom-client';

export { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/**
 * The metrics of one process, in Prometheus's text format: Node's own (event-loop lag, heap, GC, CPU, open
 * handles) plus what each app adds to the registry. Every series carries the process's `role` (api or
 * engine), so one dashboard reads a fleet of both.
 */
export function createMetricsRegistry(
  role: 'api' | 'engine',
  options: { processMetrics?: boolean } = {},
): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ role });
  if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry });
  return registry;
}

/** Whether a scraper's Authorization header is `Bearer <token>`, compared in constant time. */
export function scraperHoldsToken(authorization: string | undefined, token: string): boolean {
  const given = Buffer.from(authorization ?? '');
  const expected = Buffer.from(`Bearer ${token}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
