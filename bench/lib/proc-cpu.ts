import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat times (100 on Linux unless configured otherwise). */
export const TICKS = (() => {
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

/**
 * user+system CPU seconds of a process and of its children it has waited for (cutime, cstime): a
 * PostgreSQL backend that exits takes its CPU out of the live processes' sum, and into its postmaster's.
 */
export function processCpuSecondsWithReaped(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / TICKS;
  } catch {
    return 0;
  }
}
