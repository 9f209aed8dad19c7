import { now, sleep } from './scale-debates.ts';

/**
 * The two load shapes of the soak (bench/suites/soak.ts), for any operation that resolves true when it
 * succeeded: a closed loop stepped up to find the capacity (operations completed per second at saturation),
 * and open-loop arrivals at a fixed rate, which keep coming whatever the service's latency (a closed loop
 * would slow down with the service and hide a degradation).
 */

export type Step = { workers: number; opsPerS: number; failed: number };

/**
 * `levels` workers in turn, each running the operation back to back; a level's throughput is counted over
 * `measureMs` after `settleMs` (the new workers' first operations reach their end). It stops at the first
 * level whose throughput is less than 10 % above the best so far, or that had a failure; the capacity is the
 * best throughput of a level without failures. Waits for the operations in flight before it returns.
 */
export async function closedLoopCapacity(
  operation: (n: number) => Promise<boolean>,
  options: { levels: number[]; settleMs: number; measureMs: number; log: (message: string) => void },
): Promise<{ capacity: number; steps: Step[] }> {
  const ends: { at: number; ok: boolean }[] = [];
  let next = 0;
  let stop = false;
  const workers: Promise<void>[] = [];
  const worker = async () => {
    while (!stop) {
      const ok = await operation(next++);
      ends.push({ at: now(), ok });
    }
  };
  const steps: Step[] = [];
  let best = 0;
  try {
    for (const level of options.levels) {
      while (workers.length < level) workers.push(worker());
      await sleep(options.settleMs);
      const from = now();
      await sleep(options.measureMs);
      const to = now();
      const window = ends.filter((e) => e.at >= from && e.at < to);
      const step = {
        workers: level,
        opsPerS: window.filter((e) => e.ok).length / ((to - from) / 1000),
        failed: window.filter((e) => !e.ok).length,
      };
      steps.push(step);
      options.log(
        `closed loop, ${level} workers: ${step.opsPerS.toFixed(1)} operations/s, ${step.failed} failed`,
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
