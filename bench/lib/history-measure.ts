import { open, stat } from 'node:fs/promises';
import type pg from 'pg';

export type Latencies = { p50: number; p95: number; p99: number; requests: number; failures: string[] };

const percentile = (sorted: number[], p: number) =>
  sorted.length
    ? (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number)
    : NaN;

/** One request, timed; a non-2xx answer is a failure (with its status and the start of its body). */
async function timedGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ ms: number; failure?: string }> {
  const started = performance.now();
  try {
    const res = await fetch(url, { headers, signal: AbortSignal.timeout(120_000) });
    const body = await res.text();
    const ms = performance.now() - started;
    return res.ok ? { ms } : { ms, failure: `${res.status} ${body.slice(0, 200)}` };
  } catch (err) {
    return { ms: performance.now() - started, failure: String(err) };
  }
}

/**
 * `connections` clients requesting `url` back to back for `durationS` (after a discarded `warmupS`), each
 * latency kept, so p95 is exact (autocannon reports p97.5, not p95). At least `minRequests` are made even
 * when one takes longer than the duration.
 */
export async function measureLatency(
  url: string,
  headers: Record<string, string>,
  {
    connections,
    durationS,
    warmupS,
    minRequests = 5,
  }: {
    connections: number;
    durationS: number;
    warmupS: number;
    minRequests?: number;
  },
): Promise<Latencies> {
  const run = async (seconds: number, keep: boolean) => {
    const until = performance.now() + seconds * 1000;
    const ms: number[] = [];
    const failures: string[] = [];
    const client = async () => {
      while (performance.now() < until || (keep && ms.length + failures.length < minRequests)) {
        const r = await timedGet(url, headers);
        if (r.failure) failures.push(r.failure);
        else ms.push(r.ms);
      }
    };
    await Promise.all(Array.from({ length: connections }, client));
    return { ms, failures };
  };
  if (warmupS > 0) await run(warmupS, false);
  const { ms, failures } = await run(durationS, true);
  ms.sort((a, b) => a - b);
  return {
    p50: percentile(ms, 50),
    p95: percentile(ms, 95),
    p99: percentile(ms, 99),
    requests: ms.length,
    failures,
  };
}

/**
 * The plans of every statement the cluster runs while `action` does (auto_explain, loaded by
 * private-postgres.ts, turned on for the moment): EXPLAIN (ANALYZE, BUFFERS) of what the route really sent,
 * whatever builds it. Statements of the service's background work at the same moment come along.
 */
export async function capturePlans(admin: pg.Client, logFile: string, action: () => Promise<unknown>) {
  const setExplain = async (ms: number) => {
    await admin.query(`alter system set auto_explain.log_min_duration = ${ms}`);
    await admin.query('select pg_reload_conf()');
    // Backends take the new setting when they next read the configuration, before their next statement.
    await new Promise((resolve) => setTimeout(resolve, 300));
  };
  await setExplain(0);
  const from = (await stat(logFile)).size;
  try {
    await action();
  } finally {
    await new Promise((resolve) => setTimeout(resolve, 300));
    await setExplain(-1);
  }
  const to = (await stat(logFile)).size;
  const file = await open(logFile, 'r');
  try {
    const buffer = Buffer.alloc(to - from);
    await file.read(buffer, 0, buffer.length, from);
    return plansOf(buffer.toString('utf8'));
  } finally {
    await file.close();
  }
}

/** auto_explain's entries of a log stretch: each "duration: … plan:" line and the indented lines after it. */
function plansOf(log: string): string[] {
  const plans: string[] = [];
  let current: string[] | null = null;
  for (const line of log.split('\n')) {
    if (/LOG: {2}duration: [\d.]+ ms {2}plan:/.test(line)) {
      if (current) plans.push(current.join('\n'));
      current = [line.replace(/^.*LOG: {2}/, '')];
    } else if (current && line.startsWith('\t')) {
      current.push(line.slice(1));
    } else if (current) {
      plans.push(current.join('\n'));
      current = null;
    }
  }
  if (current) plans.push(current.join('\n'));
  return plans.filter((p) => !/Query Text: (alter system|select pg_reload_conf)/.test(p));
}
