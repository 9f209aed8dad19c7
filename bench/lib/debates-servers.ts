import { type ChildProcess, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { natsBus } from '@verdict/core';
import { spawnServer } from './spawn-server.ts';
import { nodeCommandFor, type Transport } from './transports.ts';

/**
 * The processes of bench/suites/debates.ts: the API (bench/servers/debates-api-server.ts) and an engine
 * node (bench/servers/debates-engine.ts), in distributed mode on one fresh PostgreSQL schema and one fresh
 * NATS prefix, both removed on stop.
 */

const SERVERS = join(import.meta.dirname, '..', 'servers');

/** The API's answer to {type:'stats'}. */
export type ApiStats = {
  type: 'stats';
  /** process.memoryUsage() right after gc() (when `gc` is true). */
  memory: NodeJS.MemoryUsage;
  /** V8's heap spaces at the same moment: committed (`physical`) and used bytes of each. */
  spaces: { name: string; physical: number; used: number }[];
  gc: boolean;
  cpuSeconds: number;
  /** monitorEventLoopDelay since the previous stats request (values include its 10 ms resolution). */
  lag: { p50Ms: number; p99Ms: number; maxMs: number };
};

/** One event as the engine published it; times in epoch ms (performance.timeOrigin + now). */
export type PublishedEvent = {
  seq: number;
  type: string;
  /** The event's own `at` (when the engine created it, before it was stored), ms resolution. */
  at: number;
  /** Just before the JetStream publish, and once JetStream acknowledged it. */
  publishAt: number;
  ackedAt: number;
};

export type EngineEnded = {
  type: 'ended';
  debateId: string;
  status: 'completed' | 'failed';
  published: PublishedEvent[];
};

/** The engine's answer to {type:'stats'} (bench/servers/debates-engine.ts). */
export type EngineStats = {
  type: 'stats';
  /** Debates the node holds now, and the least and most it held (sampled every 100 ms) since the last stats. */
  active: number;
  minActive: number;
  maxActive: number;
  cpuSeconds: number;
  /** monitorEventLoopDelay since the previous stats request (values include its 10 ms resolution). */
  lag: { p50Ms: number; p99Ms: number; maxMs: number };
};

export type Deployment = {
  databaseUrl: string;
  natsUrl: string;
  schema: string;
  prefix: string;
};

export function newDeployment(databaseUrl: string, natsUrl: string): Deployment {
  const tag = randomBytes(5).toString('hex');
  return { databaseUrl, natsUrl, schema: `bench_debates_${tag}`, prefix: `bench_debates_${tag}.` };
}

const envOf = (d: Deployment): Record<string, string> => ({
  DATABASE_URL: d.databaseUrl,
  DATABASE_SCHEMA: d.schema,
  NATS_URL: d.natsUrl,
  NATS_PREFIX: d.prefix,
});
const UNSET = ['DATABASE_URL', 'DATABASE_SCHEMA', 'DATA_DIR', 'NATS_URL', 'NATS_PREFIX', 'PORT', 'HOST'];

export type DebatesApi = {
  baseUrl: string;
  keys: string[];
  userIds: string[];
  pid: number;
  /** gc() (unless `gc: false`) in the API process, then its memory, CPU seconds and event-loop delay since the last call. */
  stats: (options?: { gc?: boolean }) => Promise<ApiStats>;
  /** Writes a heap snapshot of the API process (after a collection) to `path`. */
  heapSnapshot: (path: string) => Promise<void>;
  stop: () => Promise<void>;
};

export async function startDebatesApi(
  d: Deployment,
  options: {
    users?: number;
    /** More of the API's configuration (e.g. WEBHOOK_ALLOW_HTTP for a local webhook receiver). */
    env?: Record<string, string>;
    /**
     * The HTTP server (STREAMS; unset, the API's default): `uws` starts node so that it loads
     * uWebSockets.js (nodeCommandForUws).
     */
    streams?: Transport;
  } = {},
): Promise<DebatesApi> {
  const server = await spawnServer<{ port: number; keys: string[]; userIds: string[] }>(
    join(SERVERS, 'debates-api-server.ts'),
    {
      env: {
        ...envOf(d),
        // Every bench debate stays pending or runs at once; the default of 3 would refuse the rest.
        CONCURRENT_DEBATES: '100000',
        // The fan-out opens 1,000 streams of one account at once; the default of 60 opens a minute would
        // refuse all but the first 60.
        STREAM_OPENS_PER_MINUTE: '100000',
        BENCH_USERS: String(options.users ?? 1),
        ...(options.streams ? { STREAMS: options.streams } : {}),
        ...options.env,
      },
      unset: UNSET,
      execArgv: ['--expose-gc'],
      node: nodeCommandFor(options.streams ?? 'node'),
    },
  );
  const child = server.child;
  return {
    baseUrl: `http://127.0.0.1:${server.info.port}`,
    keys: server.info.keys,
    userIds: server.info.userIds,
    pid: child.pid ?? 0,
    stats: (options = {}) =>
      request<ApiStats>(child, { type: 'stats', gc: options.gc ?? true }, 'stats', 30_000),
    heapSnapshot: async (path) => {
      await request(child, { type: 'heap-snapshot', path }, 'heap-snapshot', 120_000);
    },
    stop: async () => {
      try {
        await server.stop();
      } catch (err) {
        process.stderr.write(`bench: debates api server did not stop cleanly: ${String(err)}\n`);
        await dropDeployment(d);
      }
    },
  };
}

export type DebatesEngine = {
  pid: number;
  /** Starts the node pulling jobs (once; later calls do nothing). */
  start: () => void;
  /** The report of debate `debateId` once it ended (also if it ended before the call); rejects after `timeoutMs`. */
  ended: (debateId: string, timeoutMs: number) => Promise<EngineEnded>;
  /** Debates held and event-loop delay since the previous call (which this call resets). */
  stats: () => Promise<EngineStats>;
  stop: () => Promise<void>;
};

export async function startDebatesEngine(
  d: Deployment,
  simulated: { firstTokenMs: number; tokensPerSecond: number },
  options: {
    slots?: number;
    /** Called with every debate's report as it ends (reports are kept for `ended` too unless `forget`). */
    onEnded?: (report: EngineEnded) => void;
    /** Do not keep reports for `ended` (a long run with many debates nobody asks about). */
    forget?: (debateId: string) => boolean;
  } = {},
): Promise<DebatesEngine> {
  const server = await spawnServer<{ pid: number }>(join(SERVERS, 'debates-engine.ts'), {
    env: {
      ...envOf(d),
      BENCH_FIRST_TOKEN_MS: String(simulated.firstTokenMs),
      BENCH_TOKENS_PER_SECOND: String(simulated.tokensPerSecond),
      BENCH_SLOTS: String(options.slots ?? 1),
    },
    unset: UNSET,
  });
  const child = server.child;
  const reports = new Map<string, EngineEnded>();
  const waiting = new Map<string, (report: EngineEnded) => void>();
  child.on('message', (m: { type?: string }) => {
    if (m?.type !== 'ended') return;
    const report = m as EngineEnded;
    if (!options.forget?.(report.debateId)) reports.set(report.debateId, report);
    waiting.get(report.debateId)?.(report);
    options.onEnded?.(report);
  });
  return {
    pid: child.pid ?? 0,
    start: () => child.send({ type: 'start' }),
    ended: (debateId, timeoutMs) => {
      const known = reports.get(debateId);
      if (known) return Promise.resolve(known);
      return new Promise<EngineEnded>((resolve, reject) => {
        const onExit = () => {
          clearTimeout(timer);
          reject(new Error('the engine node exited before the debate ended'));
        };
        const timer = setTimeout(() => {
          waiting.delete(debateId);
          child.off('exit', onExit);
          reject(new Error(`debate ${debateId} did not end within ${timeoutMs} ms`));
        }, timeoutMs);
        child.once('exit', onExit);
        waiting.set(debateId, (report) => {
          clearTimeout(timer);
          waiting.delete(debateId);
          child.off('exit', onExit);
          resolve(report);
        });
      });
    },
    stats: () => request<EngineStats>(child, { type: 'stats' }, 'stats', 30_000),
    stop: async () => {
      try {
        await server.stop();
      } catch (err) {
        process.stderr.write(`bench: debates engine did not stop cleanly: ${String(err)}\n`);
      }
    },
  };
}

/** Sends `message` and waits for the child's first message of type `answer`. */
export function request<T>(
  child: ChildProcess,
  message: object,
  answer: string,
  timeoutMs: number,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onMessage = (m: { type?: string }) => {
      if (m?.type !== answer) return;
      done();
      resolve(m as T);
    };
    const onExit = () => {
      done();
      reject(new Error(`child exited before answering '${answer}'`));
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`no '${answer}' within ${timeoutMs} ms`));
    }, timeoutMs);
    const done = () => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
    child.send(message);
  });
}

/**
 * Stops a bench's API server, which drops its own schema and streams on the way out; when there is none, or
 * it cannot stop cleanly, they are dropped from here.
 */
export async function stopOrDrop(
  server: { stop: () => Promise<void> } | null | undefined,
  d: Deployment,
  label: string,
): Promise<void> {
  if (!server) return dropDeployment(d);
  try {
    await server.stop();
  } catch (err) {
    process.stderr.write(`bench: the ${label} did not stop cleanly: ${String(err)}\n`);
    await dropDeployment(d);
  }
}

/**
 * Best-effort removal when a server could not clean up after itself: the schema (psql) and the prefix's
 * JetStream streams (natsBus creates them if missing, then deletes both).
 */
export async function dropDeployment(d: Deployment): Promise<void> {
  try {
    execFileSync('psql', [d.databaseUrl, '-qc', `drop schema if exists "${d.schema}" cascade`], {
      stdio: 'ignore',
    });
  } catch {
    // psql may be missing
  }
  await dropStreams(d);
}

export async function dropStreams(d: Deployment): Promise<void> {
  try {
    const bus = await natsBus({ servers: [d.natsUrl], prefix: d.prefix, name: 'bench-debates-cleanup' });
    await bus.deleteStreams().catch(() => {});
    await bus.close().catch(() => {});
  } catch {
    // NATS unreachable: nothing to clean there
  }
}

/**
 * A pending debate of `agents` agents and `rounds` rounds through POST /api/debates with the API's first
 * key (a fresh question each time: skipCache), and the path of its stream on the API's own port.
 */
export async function createFanoutDebate(
  api: DebatesApi,
  shape: { agents: number; rounds: number },
): Promise<{ id: string; path: string }> {
  const res = await fetch(`${api.baseUrl}/api/debates`, {
    method: 'POST',
    headers: { authorization: `Bearer ${api.keys[0]}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      question: 'Should we move the billing service to the new region this quarter?',
      mode: 'fast',
      agentCount: shape.agents,
      maxRounds: shape.rounds,
      skipCache: true,
    }),
  });
  const body = (await res.json()) as { debateId: string; streamUrl: string };
  if (res.status !== 201)
    throw new Error(`POST /api/debates answered ${res.status}: ${JSON.stringify(body)}`);
  // streamUrl is absolute on PUBLIC_BASE_URL; the same path on the port the API listens on.
  return { id: body.debateId, path: new URL(body.streamUrl, api.baseUrl).pathname };
}
