import type { Cluster } from './cluster.ts';

type Engine = Cluster['engines'][number];

/**
 * The writes the epoch fence refused, counted from the engine nodes' own metrics: each job a node ended
 * because its lease was gone when it wrote (a renewal or a batch of events under an epoch another node had
 * moved on) is `verdict_engine_job_endings_total{ending="LeaseLost"}`. A node's counters start again at 0
 * when it restarts, so each node's last reading is banked before it is killed (`beforeKill`).
 */
export function fencedWritesCounter(engines: Engine[]) {
  const banked = new Map<string, number>();
  const last = new Map<string, number>();
  const read = async (engine: Engine) => {
    const value = await leaseLostEndings(engine.metricsUrl).catch(() => null);
    if (value !== null) last.set(engine.name, value);
  };
  return {
    /** Reads every node now (a node that does not answer keeps its last reading). */
    refresh: () => Promise.all(engines.map(read)),
    beforeKill: async (engine: Engine) => {
      await read(engine);
      banked.set(engine.name, (banked.get(engine.name) ?? 0) + (last.get(engine.name) ?? 0));
      last.set(engine.name, 0);
    },
    total: () => engines.reduce((sum, e) => sum + (banked.get(e.name) ?? 0) + (last.get(e.name) ?? 0), 0),
  };
}

/** The sum of `verdict_engine_job_endings_total` series with `ending="LeaseLost"` on one node's /metrics. */
export async function leaseLostEndings(metricsUrl: string): Promise<number> {
  const res = await fetch(metricsUrl, { signal: AbortSignal.timeout(2000) });
  if (!res.ok) throw new Error(`${metricsUrl} answered ${res.status}`);
  let sum = 0;
  for (const line of (await res.text()).split('\n')) {
    const match = /^verdict_engine_job_endings_total\{([^}]*)\} (\S+)$/.exec(line);
    if (match?.[1]?.includes('ending="LeaseLost"')) sum += Number(match[2]);
  }
  return sum;
}
