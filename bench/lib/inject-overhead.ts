import type { FastifyInstance } from 'fastify';

/** CPU of this process per injected request, µs, over `count` requests one after another. */
async function cpuPerRequestUs(app: FastifyInstance, url: string, count: number): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    const res = await app.inject({ method: 'GET', url });
    if (res.statusCode !== 200) throw new Error(`GET ${url} answered ${res.statusCode}`);
    // An injected request never leaves the microtask queue: without a turn of the event loop now and then,
    // timers and sockets (a batch export, say) would never run, and their cost would go unmeasured.
    if (i % 50 === 49) await new Promise((resolve) => setImmediate(resolve));
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / count;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

/**
 * What one piece of per-request work costs, measured in this process rather than across processes: two
 * Fastify apps that differ only in it, the same route injected into each (no sockets, no database), in
 * alternating blocks; the median of the blocks' differences. A load test's CPU per request moves by ±10 %
 * from run to run on a shared machine; this moves by a fraction of a microsecond, so a cost of 1 % of a
 * request can be told from none.
 */
export async function injectedOverheadUs(
  apps: { without: FastifyInstance; with: FastifyInstance },
  url: string,
  options: { blocks: number; perBlock: number },
): Promise<{ withoutUs: number; withUs: number; overheadUs: number }> {
  // Warm both (JIT, caches) before anything is measured.
  await cpuPerRequestUs(apps.without, url, options.perBlock);
  await cpuPerRequestUs(apps.with, url, options.perBlock);
  const without: number[] = [];
  const withIt: number[] = [];
  const deltas: number[] = [];
  for (let block = 0; block < options.blocks; block++) {
    const first = block % 2 === 0 ? 'without' : 'with';
    const a = await cpuPerRequestUs(apps[first], url, options.perBlock);
    const b = await cpuPerRequestUs(apps[first === 'without' ? 'with' : 'without'], url, options.perBlock);
    const [w, o] = first === 'without' ? [b, a] : [a, b];
    withIt.push(w);
    without.push(o);
    deltas.push(w - o);
  }
  return { withoutUs: median(without), withUs: median(withIt), overheadUs: median(deltas) };
}
