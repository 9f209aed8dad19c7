import type { Registry } from '@verdict/core';

const NAME = 'verdict_http_request_duration_seconds';
const HELP = 'Requests answered, by route template (not the path: ids stay out of labels), method and status';
const BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

type Labels = { route: string; method: string; status: string };
type Series = { labels: Labels; perBucket: number[]; sum: number; count: number };
type Sample = {
  metricName: string;
  labels: Record<string, string | number>;
  /** Written after `labels` and the registry's default labels, in the order prom-client writes a histogram's. */
  sharedLabels?: Labels;
  value: number;
};

/**
 * The request histogram, kept by hand and served as prom-client serves a histogram. prom-client's own
 * builds and hashes a key from a label object on every observation, which was most of what measuring a
 * request cost (BENCHMARKS.md, "The metrics suite"); here a request costs one string key, a map lookup and a
 * search of twelve bounds, and the cumulative buckets are worked out when a scraper asks.
 */
export function requestDurations(registry: Registry) {
  const series = new Map<string, Series>();
  const samples = (): Sample[] =>
    [...series.values()].flatMap(({ labels, perBucket, sum, count }): Sample[] => {
      let cumulative = 0;
      const buckets = BUCKETS.map((le, i): Sample => {
        cumulative += perBucket[i] ?? 0;
        return { metricName: `${NAME}_bucket`, labels: { le }, sharedLabels: labels, value: cumulative };
      });
      return [
        ...buckets,
        { metricName: `${NAME}_bucket`, labels: { le: '+Inf' }, sharedLabels: labels, value: count },
        { metricName: `${NAME}_sum`, labels: {}, sharedLabels: labels, value: sum },
        { metricName: `${NAME}_count`, labels: {}, sharedLabels: labels, value: count },
      ];
    });
  const metric = {
    name: NAME,
    help: HELP,
    type: 'histogram',
    aggregator: 'sum',
    get: async () => ({ name: NAME, help: HELP, type: 'histogram', aggregator: 'sum', values: samples() }),
    reset: () => series.clear(),
  };
  registry.registerMetric(metric as unknown as Parameters<Registry['registerMetric']>[0]);
  return (route: string, method: string, status: number, seconds: number) => {
    const key = `${status} ${method} ${route}`;
    let entry = series.get(key);
    if (!entry) {
      entry = {
        labels: { route, method, status: String(status) },
        perBucket: BUCKETS.map(() => 0),
        sum: 0,
        count: 0,
      };
      series.set(key, entry);
    }
    let bucket = 0;
    while (bucket < BUCKETS.length && seconds > (BUCKETS[bucket] as number)) bucket++;
    if (bucket < BUCKETS.length) entry.perBucket[bucket] = (entry.perBucket[bucket] ?? 0) + 1;
    entry.sum += seconds;
    entry.count += 1;
  };
}
