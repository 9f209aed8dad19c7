import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { commandCpuSeconds, processCpuSeconds, processCpuSecondsWithReaped } from './proc-cpu.ts';
import { BENCH_DATABASE_URL, BENCH_NATS_URL } from './services.ts';

/**
 * CPU of the PostgreSQL and NATS servers the benches talk to, and of no other: on a machine shared with
 * test runs, each with a private PostgreSQL and NATS of its own, counting every `postgres` and
 * `nats-server` process on the machine would charge their work to the bench. A server is the process
 * listening on its URL's port (`ss`), and for PostgreSQL also every process the postmaster forked (its
 * backends and workers). Where `ss` cannot name the listener, it falls back to every process of that name.
 */

const portOf = (url: string, fallback: number) => {
  try {
    return Number(new URL(url).port) || fallback;
  } catch {
    return fallback;
  }
};

/** The pid listening on a TCP port on this machine, or null when `ss` cannot say. */
function listenerPid(port: number): number | null {
  try {
    const out = execFileSync('ss', ['-ltnpH', `sport = :${port}`], { encoding: 'utf8' });
    const pid = /pid=(\d+)/.exec(out)?.[1];
    return pid === undefined ? null : Number(pid);
  } catch {
    return null;
  }
}

const parentOf = (pid: string): number | null => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
};

/** A process and its direct children: a postmaster and the backends it forked (the root first). */
function withChildren(root: number): number[] {
  const pids = [root];
  for (const entry of readdirSync('/proc')) {
    if (/^\d+$/.test(entry) && parentOf(entry) === root) pids.push(Number(entry));
  }
  return pids;
}

const listeners = {
  postgres: listenerPid(portOf(BENCH_DATABASE_URL, 5432)),
  nats: listenerPid(portOf(BENCH_NATS_URL, 4222)),
};

/**
 * CPU seconds so far of the benches' PostgreSQL and NATS server: for PostgreSQL the postmaster's, its live
 * backends', and those of backends that have exited (the postmaster's reaped children's).
 */
export function serviceCpuSeconds(): { postgres: number; nats: number } {
  const sum = (pids: number[]) => pids.reduce((total, pid) => total + processCpuSeconds(pid), 0);
  return {
    postgres:
      listeners.postgres === null
        ? commandCpuSeconds('postgres').seconds
        : processCpuSecondsWithReaped(listeners.postgres) + sum(withChildren(listeners.postgres).slice(1)),
    nats: listeners.nats === null ? commandCpuSeconds('nats-server').seconds : sum([listeners.nats]),
  };
}

/** Says which processes `serviceCpuSeconds` counts, for a figure's detail. */
export const describeServiceCpu = () =>
  `PostgreSQL ${listeners.postgres === null ? 'every postgres process' : `postmaster ${listeners.postgres} and its children`}, ` +
  `NATS ${listeners.nats === null ? 'every nats-server process' : `pid ${listeners.nats}`}`;
