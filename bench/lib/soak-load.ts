import { processCpuSeconds } from './cpu.ts';
import { ascending, now, percentile, sleep } from './scale-debates.ts';

/**
 * The two load shapes of the soak (bench/suites/soak.ts), for any operation that resolves true when it
 * succeeded: a closed loop stepped up to find the capacity (operations completed per second at saturation),
 * and open-loop arrivals at a fixed rate, which keep coming whatever the service's latency (a closed loop
 * would slow down with the service and hide a degradation).
 */

export type Step = { workers: number; opsPerS: number; failed: number; p50Ms: number };

/**
 * `levels` workers in turn, each running the operation back to back; a level's throughput is counted over
 * `measureMs` after `settleMs`, or twice the previous level's median operation if longer (the new workers'
 * first operations reach their end, and the queues they fill reach their level). It stops at the first
 * level whose throughput is less than 10 % above the best so far, or that had a failure; the capacity is the
 * best throughput of a level without failures. Waits for the operations in flight before it returns.
 */
export async function closedLoopCapacity(
  operation: (n: number) => Promise<boolean>,
  options: { levels: number[]; settleMs: number; measureMs: number; log: (message: string) => void },
): Promise<{ capacity: number; steps: Step[] }> {
  const ends: { at: number; ok: boolean; ms: number }[] = [];
  let next = 0;
  let stop = false;
  const workers: Promise<void>[] = [];
  const worker = async () => {
    while (!stop) {
      const start = now();
      const ok = await operation(next++);
      ends.push({ at: now(), ok, ms: now() - start });
    }
  };
  const steps: Step[] = [];
  let best = 0;
  try {
    for (const level of options.levels) {
      while (workers.length < level) workers.push(worker());
      await sleep(Math.max(options.settleMs, 2 * (steps.at(-1)?.p50Ms ?? 0)));
      const from = now();
      await sleep(options.measureMs);
      const to = now();
      const window = ends.filter((e) => e.at >= from && e.at < to);
      const step = {
        workers: level,
        opsPerS: window.filter((e) => e.ok).length / ((to - from) / 1000),
        failed: window.filter((e) => !e.ok).length,
        p50Ms: percentile(ascending(window.map((e) => e.ms)), 50),
      };
      steps.push(step);
      options.log(
        `closed loop, ${level} workers: ${step.opsPerS.toFixed(1)} operations/s, median ` +
          `${step.p50Ms.toFixed(0)} ms, ${step.failed} failed`,
      );
      if (step.failed > 0 || step.opsPerS < best * 1.1) break;
      best = step.opsPerS;
    }
  } finally {
    stop = true;
    await Promise.all(workers);
  }
  const capacity = Math.max(0, ...steps.filter((s) => s.failed === 0).map((s) => s.opsPerS));
  return { capacity, steps };
}

/**
 * Starts operation n at t0 + n / ratePerS for `durationMs` (late timers catch up, so the rate holds on a
 * busy machine), then waits for every operation started. Returns t0 (epoch ms) and how many it started.
 */
export async function openLoop(
  operation: (n: number) => Promise<unknown>,
  ratePerS: number,
  durationMs: number,
): Promise<{ t0: number; started: number }> {
  const inFlight = new Set<Promise<unknown>>();
  const intervalMs = 1000 / ratePerS;
  const t0 = now();
  let started = 0;
  for (let elapsed = 0; elapsed < durationMs; elapsed = now() - t0) {
    const due = Math.min(Math.floor(elapsed / intervalMs) + 1, Math.ceil(durationMs / intervalMs));
    while (started < due) {
      const op = operation(started++);
      inFlight.add(op);
      void op.finally(() => inFlight.delete(op));
    }
    await sleep(Math.max(1, t0 + started * intervalMs - now()));
  }
  await Promise.all(inFlight);
  return { t0, started };
}

/**
 * Waits until the processes `pids` together use less than `cores` of CPU over a second, or `timeoutMs`:
 * work a phase left queued (webhook deliveries, score refreshes) is done before the next phase starts.
 * Returns the ms waited.
 */
export async function untilQuiet(pids: number[], cores: number, timeoutMs: number): Promise<number> {
  const start = now();
  const used = () => pids.reduce((sum, pid) => sum + processCpuSeconds(pid), 0);
  for (let before = used(); now() - start < timeoutMs; ) {
    await sleep(1000);
    const after = used();
    if (after - before < cores) break;
    before = after;
  }
  return now() - start;
}
