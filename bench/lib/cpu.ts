import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat times (100 on Linux unless configured otherwise). */
const TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** user+system CPU seconds a process has used so far (Linux /proc); 0 when it is gone. */
export function processCpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (state); utime and stime are fields 14 and 15.
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return 0;
  }
}

/** user and system CPU seconds a process has used so far (Linux /proc, 10 ms ticks); zeros when it is gone. */
export function processCpuTimes(pid: number): { user: number; system: number } {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { user: Number(fields[11]) / TICKS, system: Number(fields[12]) / TICKS };
  } catch {
    return { user: 0, system: 0 };
  }
}

/** CPU seconds of every process whose command name is `comm` (e.g. all PostgreSQL backends). */
export function commandCpuSeconds(comm: string): { seconds: number; pids: number[] } {
  let seconds = 0;
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== comm) continue;
    } catch {
      continue;
    }
    pids.push(Number(entry));
    seconds += processCpuSeconds(Number(entry));
  }
  return { seconds, pids };
}

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
 * CPU seconds so far of each side of a distributed run on this machine: the API and engine processes, every
 * PostgreSQL backend, the NATS server and the runner itself. Two snapshots (cpuDelta) split a window's CPU.
 */
export function cpuNow(pids: { api: number; engine: number }) {
  const self = process.cpuUsage();
  return {
    api: processCpuSeconds(pids.api),
    engine: processCpuSeconds(pids.engine),
    nats: commandCpuSeconds('nats-server').seconds,
    postgres: commandCpuSeconds('postgres').seconds,
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
