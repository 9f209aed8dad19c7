import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { createTestCore, type ReceivedDelivery, type TestCore } from '@verdict/core/testing';
import type { FakeLlmServer } from '@verdict/engine/testing';
import { type Cluster, type ClusterProcess, type NodeProcess, SLOW_LINK, startCluster } from './cluster.ts';
import { fencedWritesCounter } from './fenced-writes.ts';
import { completedOnceViolations, type Sql, serverFailureViolations, unfinishedAfter } from './invariants.ts';
import { beginNatsFault, NATS_FAULT_KINDS, type NatsFaultKind } from './nats-faults.ts';
import { isolation } from './nats-servers.ts';
import { providerCallViolations, startClusterProvider } from './provider-calls.ts';
import { createDebate, RECOVERY_MS, recoveryAfter } from './recovery.ts';
import { scheduleViolations, startScheduleClock } from './schedule-clock.ts';
import { writeViolationReport } from './violation-report.ts';
import { startWebhookWatch, webhookViolations } from './webhook-watch.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * A chaos run on the test cluster (cluster.ts): debates created on both API processes and followed as
 * streams, a webhook receiving their creation and completion, schedules made due, while faults drawn from a
 * seed hit the cluster one after another; then the invariants are checked from the database, the engines'
 * metrics and the clients' own records (the streams', the webhook receiver's, the fake provider's). The
 * engines call the fake provider through the real Anthropic SDK (provider-calls.ts).
 * `npm run chaos -- --minutes 30` runs it long; tests/cluster-chaos.test.ts runs a short one.
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
  | 'api-slow-link'
  | NatsFaultKind;

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

/**
 * The faults of a run on the three-server NATS cluster: the same, but NATS's restart is replaced by its
 * cluster's faults (nats-faults.ts), and a cut from NATS cuts a node from all three servers.
 */
export const NATS_CLUSTER_FAULT_KINDS: FaultKind[] = [
  ...FAULT_KINDS.filter((kind) => kind !== 'nats-restart'),
  ...NATS_FAULT_KINDS,
];

const isNatsFault = (kind: FaultKind): kind is NatsFaultKind =>
  (NATS_FAULT_KINDS as FaultKind[]).includes(kind);

export type ChaosReport = {
  seed: number;
  seconds: number;
  /**
   * Each fault: its kind, what it hit, when it began, and ms from its end until a debate created then
   * completed; for a NATS cluster fault also `progressMs`, from its start until a debate created then
   * completed while it held (the other two servers carrying on).
   */
  faults: {
    kind: FaultKind;
    target: string;
    at: string;
    recoveryMs: number | null;
    progressMs?: number | null;
  }[];
  accepted: number;
  /** Creates answered otherwise (503 while a dependency is away, a connection cut by a kill). */
  notAccepted: number;
  /** Creates whose connection was cut before an answer that had made a debate all the same. */
  madeUnanswered: number;
  streams: number;
  webhookDeliveries: number;
  scheduledRuns: number;
  providerRequests: number;
  /** Writes the epoch fence refused (engine metrics): a zombie's, or a node's cut off past its lease. */
  fencedWrites: number;
  violations: string[];
};

export type ChaosOptions = {
  seconds: number;
  seed: number;
  pgBin: string;
  natsServerBin: string;
  /** NATS servers: 1 (default), or the three-server cluster, with its faults among those drawn. */
  natsServers?: 1 | 3;
  log?: (line: string) => void;
  /** Aborted, the run stops injecting faults, skips the checks and tears the cluster down (Ctrl-C). */
  signal?: AbortSignal;
};

const SETTINGS = {
  CONCURRENT_DEBATES: '1000',
  ENGINE_LEASE_MS: '3000',
  ENGINE_STORAGE_TOLERANCE_MS: '4000',
  ENGINE_RECONCILE_INTERVAL_MS: '1000',
  ENGINE_STALE_AFTER_MS: '4000',
  STREAM_OPENS_PER_MINUTE: '100000',
  // The webhook receiver is on the bridge, over http.
  WEBHOOK_ALLOW_HTTP: 'true',
  WEBHOOK_ALLOW_PRIVATE: 'true',
  ENGINE_SCHEDULER_INTERVAL_MS: '1000',
};

/** How long after the workload stops what it started may take to end before it counts as a violation. */
const SETTLE_MS = 120_000;

/**
 * The longest a run of `seconds` can take past its start, for a caller's own timeout: no fault begins in
 * the last 15 s, the last one holds up to 7 s plus what it takes to restart what it killed (10 s allowed
 * past `seconds` in all), its recovery wait is at most RECOVERY_MS, then the settle and the teardown.
 */
export const chaosRunBoundMs = (seconds: number) =>
  seconds * 1000 + 10_000 + RECOVERY_MS + SETTLE_MS + 30_000;

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
  // The faults draw from a generator of their own, one draw after another in the fault loop, so a seed
  // replays the same faults; the workload, the receiver and the clock draw from theirs whenever they run.
  const random = seeded(options.seed);
  const workloadRandom = seeded(options.seed + 1);
  const receiverRandom = seeded(options.seed + 2);
  const clockRandom = seeded(options.seed + 3);
  let provider: Awaited<ReturnType<typeof startClusterProvider>> | undefined;
  const cluster = await startCluster({
    apis: 2,
    engines: 3,
    env: async (network) => {
      provider = await startClusterProvider(network);
      return { ...SETTINGS, ...provider.env };
    },
    pgBin: options.pgBin,
    natsServerBin: options.natsServerBin,
    natsServers: options.natsServers ?? 1,
  });
  const kinds = (options.natsServers ?? 1) === 3 ? NATS_CLUSTER_FAULT_KINDS : FAULT_KINDS;
  const fake = (provider as NonNullable<typeof provider>).fake;
  let db: TestCore | undefined;
  let webhooks: Awaited<ReturnType<typeof startWebhookWatch>> | undefined;
  try {
    const account = await signUp(cluster);
    db = await createTestCore({ DATABASE_URL: cluster.databaseUrl, DATABASE_SCHEMA: 'public' });
    webhooks = await startWebhookWatch(cluster, account.cookie, {
      refuseOneIn: 20,
      random: receiverRandom.next,
    });
    const schedules = await startScheduleClock(cluster, account.cookie, db.core.db, {
      schedules: 3,
      everyMs: () => clockRandom.between(4000, 10_000),
    });
    const fenced = fencedWritesCounter(cluster.engines);
    const workload = startWorkload(cluster, account.cookie, workloadRandom);
    const faults: ChaosReport['faults'] = [];
    const faultsUntil = Date.now() + Math.max(0, options.seconds - 15) * 1000;
    while (Date.now() < faultsUntil && !options.signal?.aborted) {
      const kind = random.pick(kinds);
      const holdMs = random.between(3000, 7000);
      log(`fault: ${kind} for ${holdMs} ms`);
      const at = new Date().toISOString();
      const { target, progressMs } = isNatsFault(kind)
        ? await natsFault(cluster, kind, holdMs, random, account.cookie)
        : { target: await inject(cluster, kind, holdMs, random, fenced.beforeKill), progressMs: undefined };
      if (progressMs !== undefined) log(`  ${target}: progress while it held in ${progressMs ?? 'never'} ms`);
      const recoveryMs = await recoveryAfter(cluster, account.cookie);
      log(`  ${target}: recovered in ${recoveryMs ?? 'never'} ms`);
      faults.push({ kind, target, at, recoveryMs, ...(progressMs === undefined ? {} : { progressMs }) });
      await fenced.refresh();
      await sleep(random.between(1000, 3000));
    }
    // One deadline for everything still under way to end (streams, debates, schedules, deliveries), so a
    // stalled debate is reported as a violation within a known time rather than outlasting the run.
    const settleBy = Date.now() + SETTLE_MS;
    const workloadRecord = await workload.stop(settleBy);
    const dueTimes = await schedules.stop();
    if (options.signal?.aborted) throw new Error('chaos run interrupted: no checks made');
    log(`workload: ${workloadRecord.accepted.length} accepted, waiting for them to finish`);
    const checked = await checkInvariants(cluster, db.core.db, workloadRecord, {
      dueTimes,
      received: webhooks.receiver.received,
      fake,
      settleBy,
    });
    await fenced.refresh();
    if (checked.violations.length > 0) {
      const path = await writeViolationReport(
        cluster,
        db.core.db,
        fake,
        faults,
        checked.violations,
        options.seed,
      );
      log(`violations: what the cluster knew of them is in ${path}`);
    }
    return {
      seed: options.seed,
      seconds: options.seconds,
      faults,
      accepted: workloadRecord.accepted.length,
      notAccepted: workloadRecord.refused.length + workloadRecord.unanswered.length,
      madeUnanswered: checked.madeUnanswered,
      streams: workloadRecord.streams.length,
      webhookDeliveries: webhooks.receiver.received.length,
      scheduledRuns: checked.scheduledRuns,
      providerRequests: fake.requests.length,
      fencedWrites: fenced.total(),
      violations: checked.violations,
    };
  } finally {
    await db?.core.close().catch(() => {});
    await cluster.stop();
    await webhooks?.receiver.close();
    await fake.close();
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

type WorkloadRecord = {
  accepted: string[];
  /** Questions of creates answered with a refusal (503 while a dependency is away): nothing may be written. */
  refused: string[];
  /** Questions of creates cut off before any answer (a killed API process): a debate may exist or not. */
  unanswered: string[];
  streams: StreamRecord[];
};

/**
 * Creates a debate every 300 ms on a random API process, and follows half of the accepted ones as
 * streams on a random API process, reconnecting with Last-Event-ID whenever a stream is cut, as a client
 * does. What each create answered and each stream saw is recorded: the clients' own record.
 */
function startWorkload(cluster: Cluster, cookie: string, random: Random) {
  const record: WorkloadRecord = { accepted: [], refused: [], unanswered: [], streams: [] };
  const following: Promise<void>[] = [];
  // Aborted at the settle deadline: a stream still open then is given up (and reported unfinished).
  const settled = new AbortController();
  let running = true;
  const loop = (async () => {
    let n = 0;
    while (running) {
      const api = random.pick(cluster.apis);
      n += 1;
      const question = `Should the chaos run's debate ${n} go ahead?`;
      const id = await createDebate(api.baseUrl, cookie, question).then(
        (answer) => {
          if (answer.id) record.accepted.push(answer.id);
          else record.refused.push(question);
          return answer.id;
        },
        () => {
          record.unanswered.push(question);
          return null;
        },
      );
      if (id && random.next() < 0.5) {
        const stream: StreamRecord = { debateId: id, ids: [], lastEvent: null, problems: [] };
        record.streams.push(stream);
        following.push(follow(random.pick(cluster.apis).baseUrl, cookie, stream, settled.signal));
      }
      await sleep(300);
    }
  })();
  return {
    /** Stops creating; resolves once every stream followed has ended, or at `settleBy` (epoch ms). */
    stop: async (settleBy: number) => {
      running = false;
      const giveUp = setTimeout(() => settled.abort(), Math.max(0, settleBy - Date.now()));
      await loop;
      await Promise.all(following);
      clearTimeout(giveUp);
      return record;
    },
  };
}

/**
 * Follows a debate's stream to its end across cuts: each reconnection sends the last id seen. Records every
 * event id, and as problems an id out of order or seen twice. Gives up when `settled` aborts.
 */
async function follow(baseUrl: string, cookie: string, stream: StreamRecord, settled: AbortSignal) {
  while (
    !settled.aborted &&
    stream.lastEvent !== 'debate.completed' &&
    stream.lastEvent !== 'debate.failed'
  ) {
    const last = stream.ids.at(-1);
    try {
      const res = await fetch(`${baseUrl}/api/debates/${stream.debateId}/stream`, {
        headers: { cookie, ...(last ? { 'last-event-id': String(last) } : {}) },
        signal: settled,
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
async function inject(
  cluster: Cluster,
  kind: FaultKind,
  holdMs: number,
  random: Random,
  beforeKill: (engine: Cluster['engines'][number]) => Promise<void>,
): Promise<string> {
  const engine = random.pick(cluster.engines);
  const api = random.pick(cluster.apis);
  const cut = async (a: ClusterProcess, b: ClusterProcess) => {
    await cluster.network.partition(a.host, b.host);
    await sleep(holdMs);
    await cluster.network.heal(a.host, b.host);
  };
  /** Cut from NATS: from every server of it (one, or the cluster's three). */
  const fromNats = (node: ClusterProcess) =>
    isolation(
      cluster.network,
      node.host,
      cluster.natsServers.map((server) => server.host),
    );
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
      await fromNats(engine).cut();
      await sleep(holdMs);
      await fromNats(engine).heal();
      return engine.name;
    case 'engine-cut-from-postgres':
      await cut(engine, cluster.postgres);
      return engine.name;
    case 'engine-cut-from-both':
      await fromNats(engine).cut();
      await cluster.network.partition(engine.host, cluster.postgres.host);
      await sleep(holdMs);
      await fromNats(engine).heal();
      await cluster.network.heal(engine.host, cluster.postgres.host);
      return engine.name;
    case 'api-cut-from-nats':
      await fromNats(api).cut();
      await sleep(holdMs);
      await fromNats(api).heal();
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
      await beforeKill(engine);
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
    default:
      throw new Error(`${kind} is a NATS cluster fault: natsFault injects it`);
  }
}

/**
 * A NATS cluster fault (nats-faults.ts) on a server drawn, held at least `holdMs` and until a debate created
 * as it began completed (or RECOVERY_MS passed), then mended: the time to that debate is its progress.
 */
async function natsFault(
  cluster: Cluster,
  kind: NatsFaultKind,
  holdMs: number,
  random: Random,
  cookie: string,
): Promise<{ target: string; progressMs: number | null }> {
  const startedAt = Date.now();
  const fault = await beginNatsFault(cluster, kind, (servers) => random.pick(servers));
  try {
    const [progressMs] = await Promise.all([recoveryAfter(cluster, cookie, startedAt), sleep(holdMs)]);
    return { target: fault.target, progressMs };
  } finally {
    await fault.end();
  }
}

/**
 * The run's invariants, from the database, the processes' logs and the clients' records: every violation
 * found, as text; with what was counted on the way.
 */
async function checkInvariants(
  cluster: Cluster,
  sql: Sql,
  record: WorkloadRecord,
  seen: {
    dueTimes: Map<string, string[]>;
    received: ReceivedDelivery[];
    fake: FakeLlmServer;
    /** Epoch ms by which what is still under way must have ended: the waits below share it. */
    settleBy: number;
  },
) {
  const left = () => Math.max(0, seen.settleBy - Date.now());
  const violations: string[] = [];
  // A refused create wrote nothing; a create cut off before its answer may have made a debate, which must
  // then run as any other.
  const made = await debatesAsked(sql, [...record.refused, ...record.unanswered]);
  for (const debate of made) {
    if (record.refused.includes(debate.question)) {
      violations.push(`debate ${debate.id} was written, but its create was answered with a refusal`);
    }
  }
  const madeUnanswered = made.filter((debate) => record.unanswered.includes(debate.question));
  const scheduled = await scheduleViolations(sql, seen.dueTimes, left());
  violations.push(...scheduled.violations);
  const asked = [...record.accepted, ...madeUnanswered.map((debate) => debate.id)];
  const all = [...asked, ...scheduled.debates];
  violations.push(...(await unfinishedAfter(sql, all, left())));
  for (const id of all) violations.push(...(await completedOnceViolations(sql, id)));
  for (const stream of record.streams) {
    for (const problem of stream.problems) violations.push(`stream of ${stream.debateId}: ${problem}`);
    if (stream.lastEvent !== 'debate.completed') {
      violations.push(`stream of ${stream.debateId} ended at ${stream.lastEvent ?? 'nothing'}`);
    }
  }
  // Each scheduled debate asks the same question: the provider's record tells the unique ones apart only.
  violations.push(...(await providerCallViolations(sql, seen.fake, asked)));
  violations.push(...(await webhookViolations(seen.received, all, left())));
  violations.push(...serverFailureViolations(cluster));
  return { violations, madeUnanswered: madeUnanswered.length, scheduledRuns: scheduled.debates.length };
}

const debatesAsked = (sql: Sql, questions: string[]) =>
  questions.length === 0
    ? Promise.resolve([])
    : sql.execute<{ id: string; question: string }>(
        'select id, question from debates where question in (?)',
        [questions],
      );
