/**
 * Child process of bench/suites/engine.ts: one engine node (createEngineNode) on PostgreSQL + NATS, in its
 * own Node process started with --expose-gc, so its event-loop lag and heap are the node's alone (the
 * runner, which inserts debates and publishes jobs, is another process). Driven over IPC:
 *
 *   parent → {type:'start', …}  stop the previous node, open a bus on `prefix`, start a node with `slots`
 *   child  → {type:'started'}
 *   parent → {type:'go'}        (once the node's pull requests wait at the server)
 *   child  → {type:'measuring'} after gc(); lag histogram and CPU from here on
 *   child  → {type:'done'}      once `expect` debates ended (the node's own "debate …: completed" log line,
 *                               written after the final row is stored and the job acked)
 *   parent → {type:'stop'}      stop the node and close its bus (before the step's streams are deleted)
 *
 * Env: BENCH_ENGINE_DATABASE_URL, BENCH_ENGINE_SCHEMA, BENCH_ENGINE_NATS_URL.
 */

import { monitorEventLoopDelay } from 'node:perf_hooks';
import { writeHeapSnapshot } from 'node:v8';
import { type Bus, type NatsBus, natsBus, openDatabase, systemClock } from '@verdict/core';
import { type CallPolicy, createEngineNode, type EngineNode, type SimulatedOptions } from '@verdict/engine';

export type StartMessage = {
  type: 'start';
  /** NATS subject/stream prefix of this step (fresh each step: no stale pull requests or jobs). */
  prefix: string;
  slots: number;
  /** Debates the step waits for. */
  expect: number;
  simulated: SimulatedOptions;
  policy?: CallPolicy;
  /** Every this many ms while `expect` debates are active at once: gc() and read heapUsed. */
  heapSampleMs?: number;
};
export type ParentMessage = StartMessage | { type: 'go' } | { type: 'stop' } | { type: 'exit' };

export type StepReport = {
  completed: number;
  /** Debates that ended failed, and jobs the node handed back to the queue (storage or bus trouble). */
  failed: number;
  interrupted: number;
  /** Most debates held by the node at once (node.active, read at every start and end). */
  peakActive: number;
  /** monitorEventLoopDelay values in ms, as recorded: each includes the 10 ms resolution interval. */
  lagRawMs: { p50: number; p99: number; max: number; mean: number; count: number };
  /** Epoch ms (performance.timeOrigin + now) of the window's start and of the last debate's end. */
  startAt: number;
  lastEndAt: number;
  /** CPU seconds of this process over the window. */
  cpuSeconds: number;
  /** Per debate: its debate.started event's time → the node's end of it (row stored, job acked), ms. */
  debateMs: { p50: number; max: number };
  heapIdleBytes: number;
  heapInFlightBytes: number[];
};
export type ChildMessage =
  | { type: 'started' }
  | { type: 'measuring'; heapIdleBytes: number }
  | { type: 'done'; report: StepReport }
  | { type: 'stopped' }
  | { type: 'error'; message: string };

const LAG_RESOLUTION_MS = 10;
const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};
const now = () => performance.timeOrigin + performance.now();
const send = (message: ChildMessage) => process.send?.(message);

const db = await openDatabase({
  kind: 'postgres',
  url: env('BENCH_ENGINE_DATABASE_URL'),
  schema: env('BENCH_ENGINE_SCHEMA'),
});
const natsUrl = env('BENCH_ENGINE_NATS_URL');

type Step = {
  start: StartMessage;
  node: EngineNode;
  bus: NatsBus;
  measuring: boolean;
  startAt: number;
  cpu: NodeJS.CpuUsage;
  heapIdleBytes: number;
  heapInFlightBytes: number[];
  heapTimer: NodeJS.Timeout | null;
  startedAt: Map<string, number>;
  durations: number[];
  completed: number;
  failed: number;
  interrupted: number;
  peakActive: number;
  lastEndAt: number;
};
let step: Step | null = null;
const lag = monitorEventLoopDelay({ resolution: LAG_RESOLUTION_MS });

/** The node's bus, with a look at published events: the debate.started time of each debate. */
function watched(bus: NatsBus, onPublish: (type: string, debateId: string, at: string) => void): Bus {
  return {
    ...bus,
    events: {
      ...bus.events,
      publish: async (event) => {
        await bus.events.publish(event);
        onPublish(event.type, event.debateId, event.at);
      },
    },
  };
}

async function startStep(start: StartMessage) {
  await endStep();
  const bus = await natsBus({ servers: [natsUrl], prefix: start.prefix, name: 'bench-engine-node' });
  const node = createEngineNode({
    db,
    bus: watched(bus, (type, debateId, at) => {
      if (type !== 'debate.started' || !step) return;
      step.startedAt.set(debateId, Date.parse(at));
      step.peakActive = Math.max(step.peakActive, step.node.active.size);
    }),
    clock: systemClock,
    slots: start.slots,
    providerKeys: {},
    simulated: start.simulated,
    ...(start.policy ? { policy: start.policy } : {}),
    log: (level, message) => {
      const current = step;
      if (!current) return;
      const ended = /^debate (\S+): (completed|failed)$/.exec(message);
      if (level === 'info' && ended) {
        current.peakActive = Math.max(current.peakActive, current.node.active.size);
        if (ended[2] === 'completed') current.completed++;
        else current.failed++;
        const started = current.startedAt.get(ended[1] ?? '');
        if (started !== undefined) current.durations.push(Date.now() - started);
      } else if (level === 'error') {
        current.interrupted++;
      } else {
        return;
      }
      current.lastEndAt = now();
      if (current.completed + current.failed + current.interrupted >= current.start.expect) finish(current);
    },
  });
  step = {
    start,
    node,
    bus,
    measuring: false,
    startAt: 0,
    cpu: process.cpuUsage(),
    heapIdleBytes: 0,
    heapInFlightBytes: [],
    heapTimer: null,
    startedAt: new Map(),
    durations: [],
    completed: 0,
    failed: 0,
    interrupted: 0,
    peakActive: 0,
    lastEndAt: 0,
  };
  node.start();
  send({ type: 'started' });
}

function beginMeasuring(current: Step) {
  globalThis.gc?.();
  current.heapIdleBytes = process.memoryUsage().heapUsed;
  const every = current.start.heapSampleMs;
  // BENCH_ENGINE_HEAP_SNAPSHOT=<dir>: the heap step writes snapshots there, idle and mid-flight, to compare.
  const snapshots = every ? process.env.BENCH_ENGINE_HEAP_SNAPSHOT : undefined;
  if (snapshots) writeHeapSnapshot(`${snapshots}/idle.heapsnapshot`);
  if (every) {
    current.heapTimer = setInterval(() => {
      if (current.node.active.size < current.start.expect) return;
      globalThis.gc?.();
      current.heapInFlightBytes.push(process.memoryUsage().heapUsed);
      if (snapshots && current.heapInFlightBytes.length === 4)
        writeHeapSnapshot(`${snapshots}/in-flight.heapsnapshot`);
    }, every);
  }
  lag.reset();
  lag.enable();
  current.cpu = process.cpuUsage();
  current.startAt = now();
  current.measuring = true;
  send({ type: 'measuring', heapIdleBytes: current.heapIdleBytes });
}

function finish(current: Step) {
  if (!current.measuring) return;
  current.measuring = false;
  lag.disable();
  if (current.heapTimer) clearInterval(current.heapTimer);
  const cpu = process.cpuUsage(current.cpu);
  const ms = (ns: number) => ns / 1e6;
  const sorted = [...current.durations].sort((a, b) => a - b);
  send({
    type: 'done',
    report: {
      completed: current.completed,
      failed: current.failed,
      interrupted: current.interrupted,
      peakActive: current.peakActive,
      lagRawMs: {
        p50: ms(lag.percentile(50)),
        p99: ms(lag.percentile(99)),
        max: ms(lag.max),
        mean: ms(lag.mean),
        count: lag.count,
      },
      startAt: current.startAt,
      lastEndAt: current.lastEndAt,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      debateMs: {
        p50: sorted[Math.floor((sorted.length - 1) / 2)] ?? 0,
        max: sorted.at(-1) ?? 0,
      },
      heapIdleBytes: current.heapIdleBytes,
      heapInFlightBytes: current.heapInFlightBytes,
    },
  });
}

async function endStep() {
  const current = step;
  step = null;
  if (!current) return;
  if (current.heapTimer) clearInterval(current.heapTimer);
  await current.node.stop();
  await current.bus.close();
}

process.on('message', (message: ParentMessage) => {
  const handle = async () => {
    if (message.type === 'start') await startStep(message);
    else if (message.type === 'go' && step) beginMeasuring(step);
    else if (message.type === 'stop') {
      await endStep();
      send({ type: 'stopped' });
    } else if (message.type === 'exit') {
      await endStep();
      await db.close();
      process.disconnect?.();
    }
  };
  handle().catch((err: unknown) => {
    send({ type: 'error', message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  });
});
// The parent is gone (crashed or killed): nothing left to report to.
process.on('disconnect', () => process.exit(0));
