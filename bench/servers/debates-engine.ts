/**
 * One engine node (createEngineNode, simulated provider) in its own process for bench/suites/debates.ts,
 * on PostgreSQL + NATS JetStream: DATABASE_URL, DATABASE_SCHEMA, NATS_URL, NATS_PREFIX, plus
 * BENCH_FIRST_TOKEN_MS and BENCH_TOKENS_PER_SECOND for the simulated provider and BENCH_SLOTS (default 1:
 * jobs run one after another, in the order they were enqueued). It opens its database and
 * bus, prints {"pid"} on stdout, and starts pulling jobs only when told:
 *
 *   parent → {type:'start'}
 *   child  → {type:'ended', debateId, status, published} once a debate ended (final row stored, job acked),
 *            `published` listing each event of it with the epoch ms (performance.timeOrigin + now, which
 *            every process on the machine shares) just before and just after its JetStream publish.
 *
 *   parent → {type:'stats'}
 *   child  → {type:'stats', …} EngineStats: debates held now, the least and most held at once and the
 *            event-loop delay since the previous stats request (bench/suites/scale.ts)
 *
 * It stops its node and closes its connections when the IPC channel closes (spawnServer's stop).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { type Bus, type NatsBus, natsBus, openDatabase, systemClock } from '@verdict/core';
import { createEngineNode } from '@verdict/engine';
import type { EngineEnded, EngineStats, PublishedEvent } from '../lib/debates-servers.ts';
import { onStopRequest } from '../lib/spawn-server.ts';

const env = (name: string) => {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`${name} is required`);
  return value;
};
const now = () => performance.timeOrigin + performance.now();
/** Debates still ending while the node stops, after the parent closed the channel, are not reported. */
const send = (message: object) => {
  if (process.connected) process.send?.(message, undefined, {}, () => {});
};

const db = await openDatabase({ kind: 'postgres', url: env('DATABASE_URL'), schema: env('DATABASE_SCHEMA') });
const bus: NatsBus = await natsBus({
  servers: [env('NATS_URL')],
  prefix: process.env.NATS_PREFIX ?? '',
  name: 'bench-debates-engine',
});

const published = new Map<string, PublishedEvent[]>();
/** The node's bus, with a stopwatch around each event publish. */
const watched: Bus = {
  ...bus,
  events: {
    ...bus.events,
    publish: async (event) => {
      const publishAt = now();
      await bus.events.publish(event);
      const ackedAt = now();
      const list = published.get(event.debateId) ?? [];
      published.set(event.debateId, list);
      list.push({ seq: event.seq, type: event.type, at: Date.parse(event.at), publishAt, ackedAt });
    },
  },
};

const node = createEngineNode({
  db,
  bus: watched,
  clock: systemClock,
  slots: Number(process.env.BENCH_SLOTS ?? '1'),
  providerKeys: {},
  simulated: {
    firstTokenMs: Number(env('BENCH_FIRST_TOKEN_MS')),
    tokensPerSecond: Number(process.env.BENCH_TOKENS_PER_SECOND ?? '0'),
  },
  log: (level, message) => {
    const ended = /^debate (\S+): (completed|failed)$/.exec(message);
    if (level === 'info' && ended) {
      const debateId = ended[1] ?? '';
      const report: EngineEnded = {
        type: 'ended',
        debateId,
        status: ended[2] as 'completed' | 'failed',
        published: published.get(debateId) ?? [],
      };
      published.delete(debateId);
      send(report);
    } else if (level === 'error') {
      process.stderr.write(`engine: ${message}\n`);
    }
  },
});

const lag = monitorEventLoopDelay({ resolution: 10 });
lag.enable();
let held = { min: Number.POSITIVE_INFINITY, max: 0 };
const sampleHeld = setInterval(() => {
  held = { min: Math.min(held.min, node.active.size), max: Math.max(held.max, node.active.size) };
}, 100);
sampleHeld.unref();

function stats(): EngineStats {
  const ms = (ns: number) => ns / 1e6;
  const cpu = process.cpuUsage();
  const report: EngineStats = {
    type: 'stats',
    active: node.active.size,
    minActive: Number.isFinite(held.min) ? held.min : node.active.size,
    maxActive: held.max,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    lag: { p50Ms: ms(lag.percentile(50)), p99Ms: ms(lag.percentile(99)), maxMs: ms(lag.max) },
  };
  lag.reset();
  held = { min: Number.POSITIVE_INFINITY, max: 0 };
  return report;
}

let started = false;
process.on('message', (message: { type?: string }) => {
  if (message?.type === 'start' && !started) {
    started = true;
    node.start();
  } else if (message?.type === 'stats') {
    send(stats());
  }
});

onStopRequest(async () => {
  await node.stop();
  await bus.close();
  await db.close();
});
process.stdout.write(`${JSON.stringify({ pid: process.pid })}\n`);
