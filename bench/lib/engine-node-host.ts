import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import type { ChildMessage, ParentMessage, StartMessage, StepReport } from './engine-node-child.ts';

const CHILD = join(import.meta.dirname, 'engine-node-child.ts');

/** The runner's handle on bench/lib/engine-node-child.ts: one engine node in its own process. */
export type EngineNodeHost = {
  pid: number;
  /** Stops the node of the previous step (if any) and starts one as `start` says. */
  start: (start: Omit<StartMessage, 'type'>) => Promise<void>;
  /** gc() in the child, then lag and CPU are measured from here until `expect` debates ended. */
  go: () => Promise<{ heapIdleBytes: number }>;
  /** The step's report once `expect` debates ended; rejects after `timeoutMs`. */
  done: (timeoutMs: number) => Promise<StepReport>;
  /** Stops the step's node and its bus connection (do this before deleting the step's streams). */
  stop: () => Promise<void>;
  /** Asks the child to stop its node and exit; kills it when it does not within `timeoutMs`. */
  close: (timeoutMs?: number) => Promise<void>;
  /** For a step that timed out: the node would wait for its debates, so the process is killed. */
  kill: () => Promise<void>;
};

type Waiter = { type: ChildMessage['type']; resolve: (m: ChildMessage) => void; reject: (e: Error) => void };

export async function startEngineNodeHost(env: {
  databaseUrl: string;
  schema: string;
  natsUrl: string;
}): Promise<EngineNodeHost> {
  const child: ChildProcess = fork(CHILD, [], {
    // BENCH_ENGINE_CPU_PROF=<dir>: the node writes a CPU profile there when it exits (BENCHMARKS.md).
    execArgv: [
      '--expose-gc',
      ...(process.env.BENCH_ENGINE_CPU_PROF
        ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_ENGINE_CPU_PROF}`]
        : []),
    ],
    env: {
      ...process.env,
      BENCH_ENGINE_DATABASE_URL: env.databaseUrl,
      BENCH_ENGINE_SCHEMA: env.schema,
      BENCH_ENGINE_NATS_URL: env.natsUrl,
    },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const exited = once(child, 'exit');
  let gone: Error | null = null;
  const waiters: Waiter[] = [];
  const fail = (error: Error) => {
    for (const w of waiters.splice(0)) w.reject(error);
  };
  child.on('message', (message: ChildMessage) => {
    if (message.type === 'error') {
      fail(new Error(`engine node child: ${message.message}`));
      return;
    }
    const i = waiters.findIndex((w) => w.type === message.type);
    if (i >= 0) waiters.splice(i, 1)[0]?.resolve(message);
  });
  child.on('exit', (code, signal) => {
    gone = new Error(`engine node child exited (${signal ?? code})\n${stderr}`);
    fail(gone);
  });

  const next = <T extends ChildMessage['type']>(type: T, timeoutMs: number) =>
    new Promise<Extract<ChildMessage, { type: T }>>((resolve, reject) => {
      if (gone) return reject(gone);
      const timer = setTimeout(() => {
        const i = waiters.indexOf(waiter);
        if (i >= 0) waiters.splice(i, 1);
        reject(new Error(`engine node child: no '${type}' within ${timeoutMs} ms`));
      }, timeoutMs);
      const waiter: Waiter = {
        type,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m as Extract<ChildMessage, { type: T }>);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      };
      waiters.push(waiter);
    });
  const send = (message: ParentMessage) => child.send(message);

  return {
    pid: child.pid ?? 0,
    start: async (start) => {
      const started = next('started', 60_000);
      send({ type: 'start', ...start });
      await started;
    },
    go: async () => {
      const measuring = next('measuring', 30_000);
      send({ type: 'go' });
      return { heapIdleBytes: (await measuring).heapIdleBytes };
    },
    done: async (timeoutMs) => (await next('done', timeoutMs)).report,
    stop: async () => {
      const stopped = next('stopped', 30_000);
      send({ type: 'stop' });
      await stopped;
    },
    close: async (timeoutMs = 30_000) => {
      if (gone) return;
      send({ type: 'exit' });
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      await exited;
      clearTimeout(timer);
    },
    kill: async () => {
      if (gone) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
}
