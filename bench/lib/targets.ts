import type { BenchResult } from './results.ts';

/**
 * The performance targets of the service (issue "Performance: the front door, the streams and the engine
 * near their limits"), each on a figure a suite reports. Rates are ratios to bare Fastify in the same run,
 * so they compare across runs and hosts; latencies and memory are absolute.
 */
export const TARGETS: { name: string; target: number; better: 'higher' | 'lower'; what: string }[] = [
  {
    name: 'api.v1_me.ratio_to_bare',
    target: 0.35,
    better: 'higher',
    what: 'GET /v1/me with a key, distributed',
  },
  { name: 'api.v1_me_embedded.ratio_to_bare', target: 0.35, better: 'higher', what: 'GET /v1/me, embedded' },
  { name: 'api.v1_health.ratio_to_bare', target: 0.5, better: 'higher', what: 'GET /v1/health' },
  {
    name: 'debates.create_many_accounts.ratio_to_bare',
    target: 0.05,
    better: 'higher',
    what: 'POST /api/debates, many accounts, distributed',
  },
  {
    name: 'debates.sse_fanout.latency_p99_ms',
    target: 20,
    better: 'lower',
    what: 'publish → SSE client, 1,000 clients on one debate, p99 (ms)',
  },
  {
    name: 'scale.sse_under_load.from_emit_p99_ms',
    target: 100,
    better: 'lower',
    what: 'engine emit → SSE client, ~300 debates running, p99 (ms)',
  },
  {
    name: 'engine.node.heap_per_debate_kb',
    target: 40,
    better: 'lower',
    what: 'heap per in-flight debate (KiB)',
  },
  {
    name: 'engine.node.debate_critical_path_ratio',
    target: 1.1,
    better: 'lower',
    what: 'debate wall time / critical path, loaded node',
  },
  {
    name: 'scale.recovery.p95_ms',
    target: 2000,
    better: 'lower',
    what: 'SIGKILL of an engine node → its debates resume, p95 (ms)',
  },
];

/** Each target with this run's figure and whether it is met; a figure whose suite did not run says so. */
export function formatTargets(results: BenchResult[]): string {
  const byName = new Map(results.map((r) => [r.name, r.value]));
  const rows = TARGETS.map((t) => {
    const value = byName.get(t.name);
    const sign = t.better === 'higher' ? '≥' : '≤';
    const verdict =
      value === undefined
        ? 'not measured in this run'
        : (t.better === 'higher' ? value >= t.target : value <= t.target)
          ? 'met'
          : 'NOT MET';
    return `  ${t.what.padEnd(58)} ${String(value ?? '–').padStart(9)}  target ${sign} ${t.target}  ${verdict}`;
  });
  return `Targets:\n${rows.join('\n')}`;
}
