import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

/** Enough about a process to tell later whether it still runs, and to name it to a person. */
export type ProcessIdentity = {
  pid: number;
  host: string;
  /** ISO time the process started, for people. */
  startedAt: string;
  /**
   * Linux only: the boot and the kernel's start tick of the process. A pid is recycled after the process
   * dies (quickly in a container, where every run starts from the same few pids); these two are not.
   */
  bootId?: string;
  startTicks?: string;
};

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** Fields 3 and 22 of /proc/<pid>/stat; the command name before them may hold spaces: count from its ')'. */
function procStat(pid: number): { state: string; startTicks: string } | undefined {
  const stat = readText(`/proc/${pid}/stat`);
  const fields = stat?.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields?.[0] && fields[19] ? { state: fields[0], startTicks: fields[19] } : undefined;
}

export function currentProcess(): ProcessIdentity {
  const bootId = readText('/proc/sys/kernel/random/boot_id');
  const startTicks = procStat(process.pid)?.startTicks;
  return {
    pid: process.pid,
    host: hostname(),
    startedAt: new Date(Date.now() - process.uptime() * 1000).toISOString(),
    ...(bootId && startTicks ? { bootId, startTicks } : {}),
  };
}

/**
 * `false` only when the process is certainly gone. A process on another host (a DATA_DIR on a shared
 * file system) cannot be checked from here: `'unknown'`, which callers must treat as alive.
 */
export function isAlive(p: ProcessIdentity): boolean | 'unknown' {
  if (p.host !== hostname()) return 'unknown';
  if (p.pid === process.pid) return false; // an earlier process that had our pid; we hold nothing yet
  const bootId = readText('/proc/sys/kernel/random/boot_id');
  if (p.bootId && bootId && p.bootId !== bootId) return false;
  try {
    process.kill(p.pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // EPERM: alive, another user's
  }
  const stat = procStat(p.pid);
  if (stat?.state === 'Z') return false; // killed, not yet reaped by its parent
  return !(p.startTicks && stat && stat.startTicks !== p.startTicks);
}

export function describeProcess(p: ProcessIdentity): string {
  const where = p.host === hostname() ? '' : ` on host ${p.host}`;
  return `pid ${p.pid}${where}, started ${p.startedAt}`;
}
