import { expectOk, type RunningApi } from './api-servers.ts';
import { describeLoad, type LoadOptions, type LoadResult } from './load.ts';
import { type CpuSplit, measureWithCpu, perRequestUs } from './measure-cpu.ts';
import { type BenchResult, round } from './results.ts';
import type { BenchSettings } from './suite.ts';

/** One variant's figures, averaged over its passes. */
export type VariantFigures = {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** The API process's CPU per request, µs. */
  cpuUs: number;
  /** Each pass's req/s, for the detail line. */
  passRps: number[];
  /** Requests answered over the measured passes (warm-ups not counted). */
  requests: number;
  /** The first pass's load, described. */
  firstPass: string;
};

const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;

/**
 * API servers of one build that differ in one thing, loaded on the same route in alternation (A B C, C B A,
 * A B C …) in one run, so a busy moment of the shared machine hits them alike. `during` runs beside each
 * measured pass (a scraper, say) and is stopped when the pass ends.
 */
export async function measureAlternating<K extends string>(
  servers: Record<K, RunningApi>,
  order: readonly K[],
  options: {
    settings: BenchSettings;
    /** The route loaded, the same for every server or each server's own (an id made on that server). */
    path: string | ((variant: K) => string);
    passes: number;
    log: (message: string) => void;
    during?: (variant: K, api: RunningApi) => () => Promise<void>;
  },
): Promise<Record<K, VariantFigures>> {
  const passes = new Map<K, { load: LoadResult; cpu: CpuSplit }[]>(order.map((k) => [k, []]));
  const loads = new Map<K, LoadOptions>();
  for (let pass = 1; pass <= options.passes; pass++) {
    for (const variant of pass % 2 === 1 ? order : [...order].reverse()) {
      const api = servers[variant];
      const path = typeof options.path === 'string' ? options.path : options.path(variant);
      const load: LoadOptions = {
        url: `${api.baseUrl}${path}`,
        headers: api.authHeaders,
        connections: options.settings.connections,
        durationS: options.settings.durationS,
        warmupS: options.settings.warmupS,
      };
      loads.set(variant, load);
      await expectOk(load.url, load.headers);
      options.log(`pass ${pass}: GET ${path}, ${variant}`);
      const stop = options.during?.(variant, api);
      try {
        passes.get(variant)?.push(await measureWithCpu(load, api.pid));
      } finally {
        await stop?.();
      }
    }
  }
  const figures = {} as Record<K, VariantFigures>;
  for (const variant of order) {
    const measured = passes.get(variant) ?? [];
    const first = measured[0];
    const load = loads.get(variant);
    figures[variant] = {
      rps: mean(measured.map((p) => p.load.rps)),
      p50Ms: mean(measured.map((p) => p.load.p50Ms)),
      p99Ms: mean(measured.map((p) => p.load.p99Ms)),
      cpuUs: mean(measured.map((p) => perRequestUs(p.cpu.server, p.load))),
      passRps: measured.map((p) => Math.round(p.load.rps)),
      requests: measured.reduce((sum, p) => sum + p.load.requests, 0),
      firstPass: first && load ? describeLoad(load, first.load) : '',
    };
  }
  return figures;
}

/** A variant's req/s, p99 and API CPU per request as result rows named `<prefix>.{rps,p99_ms,api_cpu_us_per_req}`. */
export function variantRows(prefix: string, figures: VariantFigures, detail: string): BenchResult[] {
  return [
    { name: `${prefix}.rps`, value: round(figures.rps, 0), unit: 'req/s', better: 'higher', detail },
    { name: `${prefix}.p99_ms`, value: round(figures.p99Ms), unit: 'ms', better: 'lower', detail },
    {
      name: `${prefix}.api_cpu_us_per_req`,
      value: round(figures.cpuUs, 0),
      unit: 'µs',
      better: 'lower',
      detail,
    },
  ];
}
