import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { createTestCore, type TestCore } from '@verdict/core/testing';
import { type Cluster, type ClusterProcess, type NodeProcess, SLOW_LINK, startCluster } from './cluster.ts';
import { completedOnceViolations, serverFailureViolations, unfinishedAfter } from './invariants.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * A chaos run on the test cluster (cluster.ts): debates created on both API processes and followed as
 * streams while faults, drawn from a seed, hit the cluster one after another; then the invariants are
 * checked from the database and the clients' own records. The debaters are the simulated model (the only
 * stand-in). `npm run chaos -- --minutes 30` runs it long; tests/cluster-chaos.test.ts runs a short one.
 */
export type FaultKind =
  | 'engine-cut-from-nats'
  | 'engine-cut-from-postgres'
  | 'engine-cut-from-both'
  | 'api-cut-from-nats'
  | 'engine-zombie'
  | 'nats-restart'
  | 'postgres-restart'
  | 'engine-kill'
  | 'api-kill'
  | 'engine-slow-link'
  | 'api-slow-link';

export const FAULT_KINDS: FaultKind[] = [
  'engine-cut-from-nats',
  'engine-cut-from-postgres',
  'engine-cut-from-both',
  'api-cut-from-nats',
  'engine-zombie',
  'nats-restart',
  'postgres-restart',
  'engine-kill',
  'api-kill',
  'engine-slow-link',
  'api-slow-link',
];

export type ChaosReport = {
  seed: number;
  seconds: number;
  /** Each fault: its kind, what it hit, and ms from its end until a debate created then completed. */
  faults: { kind: FaultKind; target: string; recoveryMs: number | null }[];
  accepted: number;
  /** Creates answered otherwise (503 while a dependency is away, a connection cut by a kill). */
  notAccepted: number;
  streams: number;
  violations: string[];
};

export type ChaosOptions = {
  seconds: number;
  seed: number;
  pgBin: string;
  natsServerBin: string;
  log?: (line: string) => void;
};

const SETTINGS = {
  SIMULATED_FIRST_TOKEN_MS: '150',
  CONCURRENT_DEBATES: '1000',
  ENGINE_LEASE_MS: '3000',
  ENGINE_STORAGE_TOLERANCE_MS: '4000',
  ENGINE_RECONCILE_INTERVAL_MS: '1000',
  ENGINE_STALE_AFTER_MS: '4000',
  STREAM_OPENS_PER_MINUTE: '100000',
};

/** A small deterministic generator (mulberry32): the same seed draws the same faults in the same order. */
export function seeded(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
    between: (low: number, high: number) => low + Math.floor(next() * (high - low + 1)),
  };
}

export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const log = options.log ?? (() => {});
  const random = seeded(options.seed);
  const cluster = await startCluster({
    apis: 2,
    engines: 3,
    env: SETTINGS,
    pgBin: options.pgBin,
    natsServerBin: options.natsServerBin,
  });
  let db: TestCore | undefined;
  try {
    const account = await signUp(cluster);
    db = await createTestCore({ DATABASE_URL: cluster.databaseUrl, DATABASE_SCHEMA: 'public' });
    const workload = startWorkload(cluster, account.cookie, random);
    const faults: ChaosReport['faults'] = [];
    const faultsUntil = Date.now() + Math.max(0, options.seconds - 15) * 1000;
    while (Date.now() < faultsUntil) {
      const kind = random.pick(FAULT_KINDS);
      const holdMs = random.between(3000, 7000);
      log(`fault: ${kind} for ${holdMs} ms`);
      const target = await inject(cluster, kind, holdMs, random);
      const recoveryMs = await recoveryAfter(cluster, account.cookie);
      log(`  ${target}: recovered in ${recoveryMs ?? 'never'} ms`);
      faults.push({ kind, target, recoveryMs });
      await sleep(random.between(1000, 3000));
    }
    const workloadRecord = await workload.stop();
    log(`workload: ${workloadRecord.accepted.length} accepted, waiting for them to finish`);
    const violations = await checkInvariants(cluster, db, workloadRecord);
    return {
      seed: options.seed,
      seconds: options.seconds,
      faults,
      accepted: workloadRecord.accepted.length,
      notAccepted: workloadRecord.notAccepted,
      streams: workloadRecord.streams.length,
      violations,
    };
  } finally {
    await db?.core.close().catch(() => {});
    await cluster.stop();
  }
}

type Random = ReturnType<typeof seeded>;

/** Registers an account on the first API and gives it credits and room, as an operator would. */
async function signUp(cluster: Cluster) {
  const api = cluster.apis[0] as Cluster['apis'][number];
  const email = `chaos-${Date.now()}@example.com`;
  const res = await fetch(`${api.baseUrl}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'chaos, carefully measured', name: 'Chaos' }),
  });
  if (res.status !== 201) throw new Error(`sign-up answered ${res.status}: ${await res.text()}`);
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  for (const args of [
    ['set-plan', '--email', email, '--plan', 'pro'],
    ['grant-credits', '--email', email, '--amount', '100000'],
    ['set-rate-limit', '--email', email, '--per-minute', '1000000'],
  ]) {
    await admin(cluster, args);
  }
  return { email, cookie };
}

async function admin(cluster: Cluster, args: string[]) {
  const child = spawn(process.execPath, ['apps/api/src/admin.ts', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', DATABASE_URL: cluster.databaseUrl },
    stdio: 'ignore',
  });
  const [code] = await once(child, 'exit');
  if (code !== 0) throw new Error(`admin ${args.join(' ')} exited with ${code}`);
}

type StreamRecord = { debateId: string; ids: number[]; lastEvent: string | null; problems: string[] };

type WorkloadRecord = { accepted: string[]; notAccepted: number; streams: StreamRecord[] };

/**
 * Creates a debate every 300 ms on a random API process, and follows half of the accepted ones as
 * streams on a random API process, reconnecting with Last-Event-ID whenever a stream is cut, as a client
 * does. What each create answered and each stream saw is recorded: the clients' own record.
 */
function startWorkload(cluster: Cluster, cookie: string, random: Random) {
  const record: WorkloadRecord = { accepted: [], notAccepted: 0, streams: [] };
  const following: Promise<void>[] = [];
  let running = true;
  const loop = (async () => {
    let n = 0;
    while (running) {
      const api = random.pick(cluster.apis);
      n += 1;
      const status = await createDebate(api.baseUrl, cookie, `Should the chaos run's debate ${n} go ahead?`)
        .then((answer) => {
          if (answer.id) record.accepted.push(answer.id);
          else record.notAccepted += 1;
          return answer;
        })
        .catch(() => {
          record.notAccepted += 1;
          return { id: null };
        });
      if (status.id && random.next() < 0.5) {
        const stream: StreamRecord = { debateId: status.id, ids: [], lastEvent: null, problems: [] };
        record.streams.push(stream);
        following.push(follow(random.pick(cluster.apis).baseUrl, cookie, stream));
      }
      await sleep(300);
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      await Promise.all(following);
      return record;
    },
  };
}

async function createDebate(baseUrl: string, cookie: string, question: string) {
  const res = await fetch(`${baseUrl}/api/debates`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ question, agentCount: 2, maxRounds: 2, skipCache: true }),
    signal: AbortSignal.timeout(20_000),
  });
  const text = await res.text();
  if (res.status >= 500 && res.status !== 503) throw new Error(`create answered ${res.status}: ${text}`);
  return { id: res.status === 201 ? (JSON.parse(text) as { debateId: string }).debateId : null };
}

/**
 * Follows a debate's stream to its end across cuts: each reconnection sends the last id seen. Records every
 * event id, and as problems an id out of order or seen twice. Gives up after 180 s.
 */
async function follow(baseUrl: string, cookie: string, stream: StreamRecord) {
  const deadline = Date.now() + 180_000;
  while (
    Date.now() < deadline &&
    stream.lastEvent !== 'debate.completed' &&
    stream.lastEvent !== 'debate.failed'
  ) {
    const last = stream.ids.at(-1);
    try {
      const res = await fetch(`${baseUrl}/api/debates/${stream.debateId}/stream`, {
        headers: { cookie, ...(last ? { 'last-event-id': String(last) } : {}) },
        signal: AbortSignal.timeout(Math.max(1000, deadline - Date.now())),
      });
      if (res.status === 204) return;
      if (res.status !== 200 || !res.body) {
        await sleep(500);
        continue;
      }
      let buffer = '';
      const decoder = new TextDecoder();
      for await (const chunk of res.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const id = /^id: ?(\d+)$/m.exec(block)?.[1];
          const event = /^event: ?(.+)$/m.exec(block)?.[1];
          if (id === undefined || event === undefined) continue;
          const seq = Number(id);
          const previous = stream.ids.at(-1) ?? 0;
          if (seq !== previous + 1) stream.problems.push(`event ${seq} after ${previous}`);
          stream.ids.push(seq);
          stream.lastEvent = event;
        }
      }
    } catch {
      // Cut (a killed API process, a partition): reconnect from the last id, as a client does.
    }
    await sleep(250);
  }
}

/** Injects one fault for `holdMs`, then mends it; returns what it hit. */
async function inject(cluster: Cluster, kind: FaultKind, holdMs: number, random: Random): Promise<string> {
  const engine = random.pick(cluster.engines);
  const api = random.pick(cluster.apis);
  const cut = async (a: ClusterProcess, b: ClusterProcess) => {
    await cluster.network.partition(a.host, b.host);
    await sleep(holdMs);
    await cluster.network.heal(a.host, b.host);
  };
  /** One of `node`'s links, drawn, slowed for the hold; answers e.g. `eng2→nats`. */
  const slow = async (node: NodeProcess) => {
    const link = random.pick(['postgres', 'nats'] as const);
    await node.shape(link, SLOW_LINK);
    try {
      await sleep(holdMs);
    } finally {
      await node.shape(link, null);
    }
    return `${node.name}→${link}`;
  };
  switch (kind) {
    case 'engine-cut-from-nats':
      await cut(engine, cluster.nats);
      return engine.name;
    case 'engine-cut-from-postgres':
      await cut(engine, cluster.postgres);
      return engine.name;
    case 'engine-cut-from-both':
      await cluster.network.partition(engine.host, cluster.nats.host);
      await cluster.network.partition(engine.host, cluster.postgres.host);
      await sleep(holdMs);
      await cluster.network.heal(engine.host, cluster.nats.host);
      await cluster.network.heal(engine.host, cluster.postgres.host);
      return engine.name;
    case 'api-cut-from-nats':
      await cut(api, cluster.nats);
      return api.name;
    case 'engine-zombie':
      engine.pause();
      // Past its lease: another node takes its debates over while it sleeps.
      await sleep(Math.max(holdMs, 5000));
      engine.resume();
      return engine.name;
    case 'nats-restart':
      await cluster.nats.restart();
      return 'nats';
    case 'postgres-restart':
      await cluster.postgres.restart();
      return 'postgres';
    case 'engine-kill':
      await engine.kill();
      await sleep(Math.min(holdMs, 3000));
      await engine.restart();
      return engine.name;
    case 'api-kill':
      await api.kill();
      await sleep(Math.min(holdMs, 3000));
      await api.restart();
      return api.name;
    case 'engine-slow-link':
      return slow(engine);
    case 'api-slow-link':
      return slow(api);
  }
}

/** Ms from now until a debate created now, on whichever API answers, completes; null past 60 s. */
async function recoveryAfter(cluster: Cluster, cookie: string): Promise<number | null> {
  const started = Date.now();
  while (Date.now() - started < 60_000) {
    for (const api of cluster.apis) {
      const created = await createDebate(api.baseUrl, cookie, 'Has the cluster recovered?').catch(() => ({
        id: null,
      }));
      if (!created.id) continue;
      while (Date.now() - started < 60_000) {
        const res = await fetch(`${api.baseUrl}/api/debates/${created.id}`, { headers: { cookie } }).catch(
          () => null,
        );
        const body = res?.ok ? ((await res.json()) as { status: string }) : null;
        if (body?.status === 'completed') return Date.now() - started;
        await sleep(100);
      }
    }
    await sleep(250);
  }
  return null;
}

/** The run's invariants, from the database and the clients' record: every violation found, as text. */
async function checkInvariants(cluster: Cluster, db: TestCore, record: WorkloadRecord): Promise<string[]> {
  const sql = db.core.db;
  const violations = await unfinishedAfter(sql, record.accepted, 120_000);
  for (const id of record.accepted) violations.push(...(await completedOnceViolations(sql, id)));
  for (const stream of record.streams) {
    for (const problem of stream.problems) violations.push(`stream of ${stream.debateId}: ${problem}`);
    if (stream.lastEvent !== 'debate.completed') {
      violations.push(`stream of ${stream.debateId} ended at ${stream.lastEvent ?? 'nothing'}`);
    }
  }
  violations.push(...serverFailureViolations(cluster));
  return violations;
}
