import { setTimeout as sleep } from 'node:timers/promises';
import { startBareSse } from './bare-sse.ts';
import type { BareEvent } from './bare-sse-message.ts';
import { processCpuTimes } from './cpu.ts';
import {
  createFanoutDebate,
  type DebatesApi,
  dropDeployment,
  newDeployment,
  startDebatesApi,
  startDebatesEngine,
} from './debates-servers.ts';
import type { ClientOutcome } from './debates-sse.ts';
import { type FanoutFigures, fanoutFigures } from './fanout-figures.ts';
import { BENCH_NATS_URL } from './services.ts';
import type { Opened, SseClients } from './sse-clients.ts';
import type { Transport } from './transports.ts';

/**
 * One debate's events to many SSE clients (bench/suites/edge.ts), through the API or through a bare
 * server fed an API run's schedule. Every run uses the same client process (lib/sse-clients.ts), opens its
 * streams before anything is published, and measures the server process's CPU (process.cpuUsage, over IPC)
 * from the moment publishing starts to the last client's end of stream.
 */

export const AGENTS = 3;
export const ROUNDS = 5;
/** Per simulated call; nothing streams (the engine passes no onDelta), so a round is one such wait. */
export const FIRST_TOKEN_MS = 500;

export type FanoutRun = {
  opened: Opened;
  /** Each event's seq and publish time (epoch ms), in order. */
  published: { seq: number; publishAt: number }[];
  /** What was published, as a bare server's schedule (each message's size as the clients received it). */
  schedule: BareEvent[];
  figures: FanoutFigures;
  /** The server process's CPU seconds in the window, and the window. */
  cpuSeconds: number;
  /** Of those, in the kernel (/proc, 10 ms ticks): the socket writes' system calls. */
  systemSeconds: number;
  windowMs: number;
};

/** A server under test, kept up across runs: one run is one debate's events (or their schedule) to `count` clients. */
export type FanoutServer = {
  run: (clients: SseClients, count: number, schedule: BareEvent[] | null) => Promise<FanoutRun>;
  stop: () => Promise<void>;
};

const now = () => performance.timeOrigin + performance.now();

function scheduleOf(
  published: { seq: number; type: string; publishAt: number }[],
  outcomes: ClientOutcome[],
): BareEvent[] {
  const complete = outcomes.find((c) => c.events.length === published.length);
  const bytes = new Map((complete?.events ?? []).map((e) => [e.id, e.bytes]));
  const first = published[0]?.publishAt ?? 0;
  return published.map((e) => ({
    seq: e.seq,
    type: e.type,
    offsetMs: e.publishAt - first,
    bytes: bytes.get(e.seq) ?? 0,
  }));
}

const expectConnected = (opened: Opened, what: string) => {
  if (opened.connected === 0) throw new Error(`no SSE client of ${what} connected: ${opened.failures[0]}`);
};

/**
 * The API on `transport` in distributed mode (fresh schema and NATS prefix). Each run creates a debate of
 * AGENTS × ROUNDS, opens the streams, then starts an engine node (one slot, the simulated provider) in its
 * own process to run it, and stops that node once the debate ended.
 */
export async function apiServer(transport: Transport, databaseUrl: string): Promise<FanoutServer> {
  const d = newDeployment(databaseUrl, BENCH_NATS_URL);
  let api: DebatesApi;
  try {
    api = await startDebatesApi(d, { streams: transport });
  } catch (err) {
    await dropDeployment(d);
    throw err;
  }
  return {
    run: async (clients, count) => {
      const debate = await createFanoutDebate(api, { agents: AGENTS, rounds: ROUNDS });
      const engine = await startDebatesEngine(d, { firstTokenMs: FIRST_TOKEN_MS, tokensPerSecond: 0 });
      try {
        const auth = { authorization: `Bearer ${api.keys[0]}` };
        const opened = await clients.open(`${api.baseUrl}${debate.path}`, auth, count);
        expectConnected(opened, `the API on ${transport}`);
        // Headers go out before a stream joins its debate's feed; a late one would be replayed from
        // memory, but should not be.
        await sleep(1000);
        const cpu0 = (await api.stats({ gc: false })).cpuSeconds;
        const system0 = processCpuTimes(api.pid).system;
        const t0 = now();
        engine.start();
        const ended = await engine.ended(debate.id, 120_000);
        const outcomes = await clients.finished(30_000);
        const windowMs = now() - t0;
        const cpuSeconds = (await api.stats({ gc: false })).cpuSeconds - cpu0;
        const systemSeconds = processCpuTimes(api.pid).system - system0;
        if (ended.status !== 'completed') throw new Error(`the debate ended ${ended.status}`);
        const published = ended.published.map(({ seq, publishAt }) => ({ seq, publishAt }));
        return {
          opened,
          published,
          schedule: scheduleOf(ended.published, outcomes),
          figures: fanoutFigures(outcomes, published),
          cpuSeconds,
          systemSeconds,
          windowMs,
        };
      } finally {
        await engine.stop();
      }
    },
    stop: () => api.stop(),
  };
}

/** A bare SSE server on `kind` (bench/servers/bare-sse.ts); each run publishes `schedule` to its clients. */
export async function bareServer(kind: Transport): Promise<FanoutServer> {
  const bare = await startBareSse(kind);
  return {
    run: async (clients, count, schedule) => {
      if (!schedule) throw new Error('a bare server needs an API run’s schedule');
      const opened = await clients.open(`${bare.baseUrl}/stream`, {}, count);
      expectConnected(opened, `the bare ${kind} server`);
      await sleep(1000); // as for the API
      const cpu0 = await bare.cpuSeconds();
      const system0 = processCpuTimes(bare.pid).system;
      const t0 = now();
      const { published } = await bare.publish(schedule, (schedule.at(-1)?.offsetMs ?? 0) + 60_000);
      const outcomes = await clients.finished(30_000);
      const windowMs = now() - t0;
      const cpuSeconds = (await bare.cpuSeconds()) - cpu0;
      const systemSeconds = processCpuTimes(bare.pid).system - system0;
      const figures = fanoutFigures(outcomes, published);
      return { opened, published, schedule, figures, cpuSeconds, systemSeconds, windowMs };
    },
    stop: () => bare.stop(),
  };
}
