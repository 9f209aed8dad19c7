import { readFileSync } from 'node:fs';
import { processCpuSeconds, TICKS } from './proc-cpu.ts';
import { serviceCpuSeconds } from './service-cpu.ts';

export { commandCpuSeconds, processCpuSeconds, processCpuTimes } from './proc-cpu.ts';

/** Share of all CPUs busy over `ms`, from /proc/stat (0–1); null where /proc/stat is missing. */
export async function machineBusyShare(ms = 1000): Promise<number | null> {
  const read = () => {
    try {
      const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
      const v = line.trim().split(/\s+/).slice(1).map(Number);
      const idle = (v[3] ?? 0) + (v[4] ?? 0);
      return { idle, total: v.reduce((a, b) => a + b, 0) };
    } catch {
      return null;
    }
  };
  const a = read();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const b = read();
  if (!a || !b || b.total === a.total) return null;
  return 1 - (b.idle - a.idle) / (b.total - a.total);
}

/**
 * Busy CPU seconds of the whole machine since boot, all cores together (/proc/stat: user, nice, system,
 * irq, softirq, steal; not idle or iowait); 0 where /proc/stat is missing. Two readings give how many
 * cores were busy in between.
 */
export function machineBusySeconds(): number {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
    const v = line.trim().split(/\s+/).slice(1, 9).map(Number);
    const idle = (v[3] ?? 0) + (v[4] ?? 0);
    return (v.reduce((a, b) => a + b, 0) - idle) / TICKS;
  } catch {
    return 0;
  }
}

/**
 * CPU seconds so far of each side of a distributed run on this machine: the API and engine processes, the
 * benches' PostgreSQL (postmaster and backends) and NATS server (service-cpu.ts), and the runner itself. Two snapshots (cpuDelta) split a window's CPU.
 */
export function cpuNow(pids: { api: number; engine: number }) {
  const self = process.cpuUsage();
  return {
    api: processCpuSeconds(pids.api),
    engine: processCpuSeconds(pids.engine),
    ...serviceCpuSeconds(),
    runner: (self.user + self.system) / 1e6,
  };
}
export type Cpu = ReturnType<typeof cpuNow>;
export const cpuDelta = (a: Cpu, b: Cpu): Cpu => ({
  api: b.api - a.api,
  engine: b.engine - a.engine,
  nats: b.nats - a.nats,
  postgres: b.postgres - a.postgres,
  runner: b.runner - a.runner,
});
export const describeCpu = (c: Cpu, runner: string) =>
  `API ${c.api.toFixed(2)}, PostgreSQL ${c.postgres.toFixed(2)}, NATS ${c.nats.toFixed(2)}, ${runner} ` +
  `${c.runner.toFixed(2)}, engine ${c.engine.toFixed(2)}`;
