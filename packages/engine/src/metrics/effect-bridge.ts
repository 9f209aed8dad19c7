import type { Registry } from '@verdict/core';
import { Context, Metric } from 'effect';

/** A metric family as prom-client's registry renders it (what its own metrics' `get()` answer). */
type Family = {
  name: string;
  help: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary';
  aggregator: 'sum';
  values: { value: number; labels: Record<string, string | number>; metricName?: string }[];
};

/** The one metric of `registerMetric`'s argument a family needs: its name, and its reading at scrape time. */
type Collectable = Parameters<Registry['registerMetric']>[0];

/**
 * An Effect `MetricRegistry` whose every metric also shows on a prom-client registry, read at scrape time:
 * a counter, gauge, histogram, summary or frequency an Effect program updates is served as a Prometheus
 * family of the same name, its attributes as labels. Effect registers a metric's series in its registry the
 * first time it is updated (or read); the bridge learns of the metric's id then and adds one family for it,
 * which takes the series of that id from Effect's snapshot each time it is scraped. Ids follow Prometheus'
 * naming (`verdict_…_total` for a counter): the bridge serves them as they are.
 *
 * @example
 * const registry = createMetricsRegistry('engine');
 * const layer = Layer.succeed(Metric.MetricRegistry, bridgedMetricRegistry(registry));
 * // Metric.update(Metric.counter('verdict_jobs_total'), 1) in a program given `layer` → verdict_jobs_total 1
 */
export function bridgedMetricRegistry(registry: Registry): Metric.MetricRegistry {
  return new BridgedMetricRegistry(registry);
}

/** Effect's registry of series (a Map by series key), telling prom-client of each metric id it first holds. */
class BridgedMetricRegistry extends Map<string, Metric.Metric.Metadata<unknown, unknown>> {
  readonly #registry: Registry;
  readonly #bridged = new Set<string>();
  readonly #context: Context.Context<never>;

  constructor(registry: Registry) {
    super();
    this.#registry = registry;
    this.#context = Context.make(Metric.MetricRegistry, this);
  }

  override set(key: string, metadata: Metric.Metric.Metadata<unknown, unknown>): this {
    super.set(key, metadata);
    if (!this.#bridged.has(metadata.id)) {
      this.#bridged.add(metadata.id);
      const family = { name: metadata.id, help: metadata.description ?? metadata.id };
      this.#registry.registerMetric({
        ...family,
        get: async () => familyOf(family, Metric.snapshotUnsafe(this.#context)),
        reset: () => {},
      } as unknown as Collectable);
    }
    return this;
  }
}

/** The series of one metric id in a snapshot, as a Prometheus family. */
export function familyOf(
  family: { name: string; help: string },
  snapshot: ReadonlyArray<Metric.Metric.Snapshot>,
): Family {
  const series = snapshot.filter((s) => s.id === family.name);
  const values: Family['values'] = [];
  let type: Family['type'] = 'gauge';
  for (const s of series) {
    const labels = { ...(s.attributes ?? {}) };
    switch (s.type) {
      case 'Counter':
        type = 'counter';
        values.push({ value: Number(s.state.count), labels });
        break;
      case 'Gauge':
        values.push({ value: Number(s.state.value), labels });
        break;
      case 'Frequency':
        // Each value seen is a series of its own, counted: a frequency is a counter by one more label.
        type = 'counter';
        for (const [key, count] of s.state.occurrences)
          values.push({ value: count, labels: { ...labels, key } });
        break;
      case 'Histogram': {
        type = 'histogram';
        // Effect's buckets are cumulative already, as Prometheus' are.
        for (const [le, count] of s.state.buckets) {
          values.push({
            metricName: `${family.name}_bucket`,
            value: count,
            labels: { ...labels, le: bound(le) },
          });
        }
        if (!s.state.buckets.some(([le]) => le === Number.POSITIVE_INFINITY)) {
          values.push({
            metricName: `${family.name}_bucket`,
            value: s.state.count,
            labels: { ...labels, le: '+Inf' },
          });
        }
        values.push({ metricName: `${family.name}_sum`, value: s.state.sum, labels });
        values.push({ metricName: `${family.name}_count`, value: s.state.count, labels });
        break;
      }
      case 'Summary':
        type = 'summary';
        for (const [quantile, value] of s.state.quantiles) {
          if (value !== undefined) values.push({ value, labels: { ...labels, quantile } });
        }
        values.push({ metricName: `${family.name}_sum`, value: s.state.sum, labels });
        values.push({ metricName: `${family.name}_count`, value: s.state.count, labels });
        break;
    }
  }
  return { ...family, type, aggregator: 'sum', values };
}

const bound = (le: number) => (le === Number.POSITIVE_INFINITY ? '+Inf' : String(le));
