import autocannon from 'autocannon';

export type LoadOptions = {
  url: string;
  headers?: Record<string, string>;
  connections: number;
  durationS: number;
  warmupS: number;
};

export type LoadResult = {
  /** Mean of the per-second request counts (autocannon's "Req/Sec avg"). */
  rps: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
};

function fire(opts: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(opts, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

/** A discarded warm-up (JIT, connection pools, caches), then the measured run, on loopback HTTP/1.1. */
export async function measure(options: LoadOptions): Promise<LoadResult> {
  const base = {
    url: options.url,
    headers: options.headers ?? {},
    connections: options.connections,
    pipelining: 1,
    timeout: 10,
  };
  if (options.warmupS > 0) await fire({ ...base, duration: options.warmupS });
  return toLoadResult(await fire({ ...base, duration: options.durationS }));
}

/** An autocannon result as the figures the suites report. */
export function toLoadResult(r: autocannon.Result): LoadResult {
  const statusCodes: Record<string, number> = {};
  for (const [code, stat] of Object.entries(
    (r as unknown as { statusCodeStats?: Record<string, { count: number }> }).statusCodeStats ?? {},
  )) {
    statusCodes[code] = stat.count;
  }
  return {
    rps: r.requests.average,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    meanMs: r.latency.average,
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    statusCodes,
  };
}

/** The one-line account of a load run that goes into a result's `detail`. */
export function describeLoad(options: LoadOptions, r: LoadResult): string {
  const failures =
    r.non2xx || r.errors || r.timeouts
      ? `; FAILURES: ${r.non2xx} non-2xx ${JSON.stringify(r.statusCodes)}, ${r.errors} errors, ${r.timeouts} timeouts`
      : '; all 2xx';
  return (
    `${options.connections} connections, ${options.durationS} s after ${options.warmupS} s warm-up, ` +
    `${r.requests} requests, mean latency ${r.meanMs.toFixed(2)} ms${failures}`
  );
}
