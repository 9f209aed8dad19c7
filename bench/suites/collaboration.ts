import { randomBytes } from 'node:crypto';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { expectOk, startBareServer } from '../lib/api-servers.ts';
import { processCpuSeconds } from '../lib/cpu.ts';
import { stopOrDrop } from '../lib/debates-servers.ts';
import { describeLoad, type LoadOptions, type LoadResult, measure } from '../lib/load.ts';
import { measureWithCpu } from '../lib/measure-cpu.ts';
import {
  type NotificationFleet,
  type NotificationReceipt,
  openNotificationFleet,
} from '../lib/notification-streams.ts';
import { type BenchResult, round } from '../lib/results.ts';
import { BENCH_NATS_URL } from '../lib/services.ts';
import { type SpawnedServer, spawnServer } from '../lib/spawn-server.ts';
import type { BenchSettings, Suite, SuiteContext } from '../lib/suite.ts';

/**
 * Collaboration features in distributed mode (PostgreSQL + NATS, fresh schema and NATS prefix, removed
 * afterwards), on API processes without an engine (bench/servers/collaboration-api-server.ts):
 *  1. GET /api/public/debates/:token (a share link's read of a completed 5-agent debate, 26 events) under
 *     autocannon, next to the bare Fastify route of the same run; any non-200 fails the suite.
 *  2. Notification delivery with READERS open GET /api/notifications/stream connections (one per user) on
 *     one API process A: after WARMUP_NOTIFICATIONS unmeasured ones, NOTIFICATIONS comments, NOTIFY_RATE a
 *     second, POSTed to a second API process B (same database and NATS prefix) on the public debates of
 *     distinct stream users; latency = the POST's send → the `notification` event on that user's stream.
 *     Every one must arrive. Before that, IDLE_S seconds of idle without the streams and IDLE_S with them
 *     open, to show the streams cost PostgreSQL nothing.
 */

const READERS = 1000;
const NOTIFICATIONS = 500;
const NOTIFY_RATE = 50;
const WARMUP_NOTIFICATIONS = 50;
const IDLE_S = 10;
/**
 * PostgreSQL 15+ backends publish their counters to pg_stat_* at most once a second, and one that goes
 * idle within a second of its last publish holds the rest up to 10 s: an idle window starts this long
 * after the last activity, or it counts the tail of what came before.
 */
const SETTLE_MS = 11_000;
const SERVER = join(import.meta.dirname, '..', 'servers', 'collaboration-api-server.ts');
const UNSET = ['DATABASE_URL', 'DATABASE_SCHEMA', 'DATA_DIR', 'NATS_URL', 'NATS_PREFIX', 'PORT', 'HOST'];

type Reader = { userId: string; token: string; debateId: string };
/** One comment POST: its place in the run, when it was sent and when its 201 came (runner clock). */
type Sent = { n: number; sentAt: number; answeredAt: number };
type Ready = {
  port: number;
  ownerKey?: string;
  sharedDebateId?: string;
  commenterKey?: string;
  readers: Reader[];
};
type DbStats = {
  type: 'dbstats';
  commits: number;
  schemaReads: number;
  schemaWrites: number;
  /** Statements the process has sent to PostgreSQL so far. */
  statements: number;
  error?: string;
};
type ApiStats = {
  type: 'stats';
  memory: NodeJS.MemoryUsage;
  gc: boolean;
  lag: { p50Ms: number; p99Ms: number; maxMs: number };
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mib = (bytes: number) => (bytes / 1048576).toFixed(1);

function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] ?? Number.NaN;
}

/** Sends `message` to the child and waits for its first answer of type `answer`. */
function ask<T>(server: SpawnedServer<Ready>, message: object, answer: string): Promise<T> {
  const child = server.child;
  return new Promise<T>((resolve, reject) => {
    const onMessage = (m: { type?: string; error?: string }) => {
      if (m?.type !== answer) return;
      done();
      if (m.error) reject(new Error(`${answer}: ${m.error}`));
      else resolve(m as T);
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`no '${answer}' within 30 s`));
    }, 30_000);
    const done = () => {
      clearTimeout(timer);
      child.off('message', onMessage);
    };
    child.on('message', onMessage);
    child.send(message);
  });
}

/** rps, p50 and p99 rows of one measured target, named `collaboration.<target>.*`. */
function rows(target: string, what: string, options: LoadOptions, r: LoadResult): BenchResult[] {
  const detail = `${what}; ${describeLoad(options, r)}`;
  return [
    { name: `collaboration.${target}.rps`, value: round(r.rps, 0), unit: 'req/s', better: 'higher', detail },
    { name: `collaboration.${target}.p50_ms`, value: round(r.p50Ms), unit: 'ms', better: 'lower', detail },
    { name: `collaboration.${target}.p99_ms`, value: round(r.p99Ms), unit: 'ms', better: 'lower', detail },
  ];
}

async function bareBaseline(settings: BenchSettings, log: SuiteContext['log']) {
  log('bare Fastify: GET /bare');
  const bareServer = await startBareServer();
  try {
    const opts: LoadOptions = {
      url: `${bareServer.baseUrl}/bare`,
      connections: settings.connections,
      durationS: settings.durationS,
      warmupS: settings.warmupS,
    };
    await expectOk(opts.url);
    return { opts, result: await measure(opts) };
  } finally {
    await bareServer.stop();
  }
}

async function publicReads(
  settings: BenchSettings,
  log: SuiteContext['log'],
  api: { baseUrl: string; info: Ready; server: SpawnedServer<Ready> },
  bare: { opts: LoadOptions; result: LoadResult },
): Promise<{ results: BenchResult[]; failure: string | null }> {
  const { ownerKey, sharedDebateId } = api.info;
  if (!ownerKey || !sharedDebateId) throw new Error('the seeding server reported no shared debate');
  const share = await fetch(`${api.baseUrl}/api/share/${sharedDebateId}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ownerKey}` },
  });
  const shareBody = (await share.json()) as { token?: string };
  if (share.status !== 200 || !shareBody.token) {
    throw new Error(`POST /api/share answered ${share.status}: ${JSON.stringify(shareBody).slice(0, 300)}`);
  }
  const opts: LoadOptions = {
    url: `${api.baseUrl}/api/public/debates/${shareBody.token}`,
    connections: settings.connections,
    durationS: settings.durationS,
    warmupS: settings.warmupS,
  };
  const probe = await fetch(opts.url);
  const probeText = await probe.text();
  if (probe.status !== 200)
    throw new Error(`GET ${opts.url} answered ${probe.status}: ${probeText.slice(0, 300)}`);
  const limit = probe.headers.get('x-ratelimit-limit');
  if (limit !== '100000000') throw new Error(`the public read ran without the raised IP limit (${limit})`);
  const body = JSON.parse(probeText) as { events: unknown[]; transcript: unknown[]; verdict: unknown };
  if (body.transcript.length !== 10 || body.verdict === null) {
    throw new Error(`the shared debate reads back wrong: ${probeText.slice(0, 300)}`);
  }
  const shape =
    `${body.events.length} events, ${body.transcript.length} transcript entries, verdict, ` +
    `${(Buffer.byteLength(probeText) / 1024).toFixed(1)} KiB of JSON per answer`;
  log(`public read: ${shape}; autocannon ${settings.connections} connections`);
  // Warm-up first, so the statement count and the CPU split cover the measured run only.
  if (settings.warmupS > 0) await measure({ ...opts, durationS: settings.warmupS, warmupS: 0 });
  const db0 = await ask<DbStats>(api.server, { type: 'dbstats' }, 'dbstats');
  const { load: r, cpu } = await measureWithCpu({ ...opts, warmupS: 0 }, api.server.child.pid ?? 0);
  const db1 = await ask<DbStats>(api.server, { type: 'dbstats' }, 'dbstats');
  const perRead = (seconds: number) =>
    `${((seconds / Math.max(1, r.requests)) * 1000).toFixed(2)} ms per read`;
  const statementsPerRead = (db1.statements - db0.statements - 1) / Math.max(1, r.requests);
  const cost =
    `${statementsPerRead.toFixed(2)} PostgreSQL statements per read (counted in the API process; reads cut ` +
    `off when autocannon stopped count too); CPU s over the measured ${cpu.wallS.toFixed(1)} s: API ` +
    `${cpu.server.toFixed(1)} (${perRead(cpu.server)}), PostgreSQL ${cpu.postgres.toFixed(1)} ` +
    `(${perRead(cpu.postgres)}; every postgres process on the machine), runner (autocannon) ` +
    `${cpu.loadGenerator.toFixed(1)}, on ${cpus().length} CPUs`;
  log(cost);
  const failure =
    r.non2xx || r.errors || r.timeouts
      ? `public reads: ${r.non2xx} non-2xx ${JSON.stringify(r.statusCodes)}, ${r.errors} errors, ${r.timeouts} timeouts`
      : null;
  log(
    `public read ${Math.round(r.rps)} req/s, p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms; bare ` +
      `${Math.round(bare.result.rps)} req/s${failure ? `; FAILED: ${failure}` : ''}`,
  );
  const what =
    'GET /api/public/debates/:token of a completed debate (5-agent panel, 5 arguments + 5 rebuttals of ' +
    `600 characters, verdict, cost hidden; ${shape}), no credentials, through the full API in distributed ` +
    'mode (PostgreSQL with database rate-limit counters, NATS), PUBLIC_READS_PER_MINUTE=100000000 (the ' +
    "default 30 per client IP and sliding minute would refuse all but the first 30 reads: autocannon's " +
    'connections all come from 127.0.0.1); each read = per-IP sliding-window counter upsert + link/debate ' +
    `join + event read + output validation, view counted in memory; ${cost}`;
  const bareWhat = 'plain Fastify 5, trivial JSON route (GET /bare, 15 bytes), no plugins, same run';
  return {
    failure,
    results: [
      ...rows('bare_fastify', bareWhat, bare.opts, bare.result),
      ...rows('public_read', what, opts, r),
      {
        name: 'collaboration.public_read.ratio_to_bare',
        value: round(r.rps / bare.result.rps, 3),
        unit: 'x',
        better: 'higher',
        detail: `${Math.round(r.rps)} / ${Math.round(bare.result.rps)} req/s of the bare Fastify route, same run`,
      },
      {
        name: 'collaboration.public_read.non2xx',
        value: r.non2xx + r.errors + r.timeouts,
        unit: 'responses',
        better: 'lower',
        detail: failure ?? `every one of ${r.requests} measured reads answered 200 (warm-up not counted)`,
      },
    ],
  };
}

/**
 * PostgreSQL activity over `seconds` of idle (after SETTLE_MS without activity): commits of the whole
 * database, scans and writes of the bench schema's tables, statements each API process sent, and their CPU.
 */
async function idleWindow(servers: SpawnedServer<Ready>[], seconds: number) {
  const cpu = () => servers.reduce((sum, s) => sum + processCpuSeconds(s.child.pid ?? 0), 0);
  await sleep(SETTLE_MS);
  const probe = () => Promise.all(servers.map((s) => ask<DbStats>(s, { type: 'dbstats' }, 'dbstats')));
  const a = await probe();
  const cpu0 = cpu();
  await sleep(seconds * 1000);
  const b = await probe();
  const cpuS = cpu() - cpu0;
  const first = (x: DbStats[]) => x[0] ?? { commits: 0, schemaReads: 0, schemaWrites: 0 };
  return {
    commitsPerS: (first(b).commits - first(a).commits) / seconds,
    schemaReads: first(b).schemaReads - first(a).schemaReads,
    schemaWrites: first(b).schemaWrites - first(a).schemaWrites,
    /** Per process, less the first probe each process itself sent. */
    statements: b.map((x, i) => x.statements - (a[i]?.statements ?? 0) - 1),
    apiCpuS: cpuS,
  };
}

async function notifications(
  log: SuiteContext['log'],
  streams: SpawnedServer<Ready>,
  d: { schema: string; prefix: string; env: Record<string, string> },
): Promise<{ results: BenchResult[]; failure: string | null }> {
  const { readers, commenterKey } = streams.info;
  if (!commenterKey || readers.length !== READERS) throw new Error('the seeding server reported no readers');
  log('second API process (posts the comments)');
  const poster = await spawnServer<Ready>(SERVER, { env: d.env, unset: UNSET });
  const fleets: NotificationFleet[] = [];
  try {
    const streamsUrl = `http://127.0.0.1:${streams.info.port}`;
    const posterUrl = `http://127.0.0.1:${poster.info.port}`;
    const describeIdle = (w: Awaited<ReturnType<typeof idleWindow>>) =>
      `${w.commitsPerS.toFixed(1)} commits/s in the database, ${w.schemaReads} scans / ${w.schemaWrites} ` +
      `writes of the schema's tables, statements sent by A / B: ${w.statements.join(' / ')}, CPU of A + B ` +
      `${w.apiCpuS.toFixed(2)} s`;
    log(`${IDLE_S} s idle, no streams (after ${SETTLE_MS / 1000} s without activity)`);
    const baseline = await idleWindow([streams, poster], IDLE_S);
    log(`idle, no streams: ${describeIdle(baseline)}`);
    const before = await ask<ApiStats>(streams, { type: 'stats' }, 'stats');

    const pending = new Map<string, Sent>();
    const received = new Map<string, NotificationReceipt>();
    const misrouted: string[] = [];
    const onNotification = (receipt: NotificationReceipt) => {
      const debateId = String(receipt.data.debateId);
      const expected = readers[receipt.stream]?.debateId;
      if (debateId !== expected) misrouted.push(`stream ${receipt.stream} got ${debateId}`);
      else if (received.has(debateId)) misrouted.push(`stream ${receipt.stream} got ${debateId} twice`);
      else received.set(debateId, receipt);
    };
    log(`opening ${READERS} notification streams (one user each, session cookie)`);
    const fleet = await openNotificationFleet(
      `${streamsUrl}/api/notifications/stream`,
      readers.map((r) => ({ cookie: `verdict_session=${r.token}` })),
      onNotification,
      { openConcurrency: 50 },
    );
    fleets.push(fleet);
    log(
      `${fleet.connected}/${READERS} streams connected in ${fleet.connectMs.toFixed(0)} ms` +
        (fleet.failures.length ? `; failures: ${fleet.failures.slice(0, 3).join(' | ')}` : ''),
    );
    if (fleet.connected !== READERS) {
      throw new Error(`${READERS - fleet.connected} streams did not connect: ${fleet.failures[0]}`);
    }
    const open = await ask<ApiStats>(streams, { type: 'stats' }, 'stats');
    log(`${IDLE_S} s idle with the streams open (after ${SETTLE_MS / 1000} s without activity)`);
    const idle = await idleWindow([streams, poster], IDLE_S);
    log(`idle, ${READERS} streams open: ${describeIdle(idle)}`);

    // Distinct readers, in random order: each stream expects at most one notification. The first
    // WARMUP_NOTIFICATIONS go to other readers than the measured ones and are not counted (they warm up
    // both processes' code paths and B's connections), but must arrive too.
    const order = readers
      .map((reader) => ({ reader, key: Math.random() }))
      .sort((a, b) => a.key - b.key)
      .map(({ reader }) => reader);
    const warmup = order.slice(NOTIFICATIONS, NOTIFICATIONS + WARMUP_NOTIFICATIONS);
    const measured = order.slice(0, NOTIFICATIONS);
    const postFailures: string[] = [];
    /** Comments on the debates of `list`, NOTIFY_RATE a second (open loop); resolves once all are answered. */
    const send = async (list: Reader[], into: Map<string, Sent>) => {
      const started = performance.now();
      const posts: Promise<void>[] = [];
      for (const [n, reader] of list.entries()) {
        const wait = started + (n * 1000) / NOTIFY_RATE - performance.now();
        if (wait > 1) await sleep(wait);
        const entry: Sent = { n, sentAt: performance.now(), answeredAt: 0 };
        into.set(reader.debateId, entry);
        posts.push(
          fetch(`${posterUrl}/api/debates/${reader.debateId}/comments`, {
            method: 'POST',
            headers: { authorization: `Bearer ${commenterKey}`, 'content-type': 'application/json' },
            body: JSON.stringify({ content: `Have you priced the lease in Lisbon? (${n})` }),
          }).then(
            async (res) => {
              entry.answeredAt = performance.now();
              const text = await res.text();
              if (res.status !== 201) postFailures.push(`HTTP ${res.status}: ${text.slice(0, 200)}`);
            },
            (err: unknown) => {
              postFailures.push(String(err));
            },
          ),
        );
      }
      await Promise.all(posts);
      const deadline = performance.now() + 5000;
      while ([...into.keys()].some((id) => !received.has(id)) && performance.now() < deadline)
        await sleep(50);
      return (performance.now() - started) / 1000;
    };
    log(`${WARMUP_NOTIFICATIONS} warm-up comments, then ${NOTIFICATIONS} at ${NOTIFY_RATE}/s through B`);
    const warmed = new Map<string, Sent>();
    await send(warmup, warmed);
    const warmupMissing = [...warmed.keys()].filter((id) => !received.has(id)).length;
    await ask<ApiStats>(streams, { type: 'stats', gc: false }, 'stats'); // resets the lag histogram
    await ask<{ at: Record<string, number> }>(poster, { type: 'published' }, 'published'); // the warm-up's
    const sendingS = await send(measured, pending);
    const during = await ask<ApiStats>(streams, { type: 'stats', gc: false }, 'stats');
    const publishedAt = (
      await ask<{ at: Record<string, number> }>(poster, { type: 'published' }, 'published')
    ).at;

    const arrived = [...pending].flatMap(([debateId, sent]) => {
      const r = received.get(debateId);
      if (!r) return [];
      const published = publishedAt[debateId];
      const fromPublish =
        published === undefined ? Number.NaN : performance.timeOrigin + r.receivedAt - published;
      return [
        { sent, latency: r.receivedAt - sent.sentAt, fromPublish, early: r.receivedAt < sent.answeredAt },
      ];
    });
    const fromPublish = Float64Array.from(arrived.map((a) => a.fromPublish).filter(Number.isFinite)).sort();
    const latencies = Float64Array.from(arrived.map((a) => a.latency)).sort();
    const answers = Float64Array.from([...pending.values()].map((p) => p.answeredAt - p.sentAt)).sort();
    const beforeAnswer = arrived.filter((a) => a.early);
    const slowest = [...arrived]
      .sort((a, b) => b.latency - a.latency)
      .slice(0, 5)
      .map(
        (a) =>
          `#${a.sent.n} ${a.latency.toFixed(0)} ms (201 after ${(a.sent.answeredAt - a.sent.sentAt).toFixed(0)})`,
      )
      .join(', ');
    const missing = pending.size - arrived.length;
    const dropped = fleet.dropped();
    const problems = [
      ...(warmupMissing
        ? [`${warmupMissing} of ${WARMUP_NOTIFICATIONS} warm-up notifications never arrived`]
        : []),
      ...(missing
        ? [`${missing} of ${pending.size} notifications never arrived (waited 5 s after the last POST)`]
        : []),
      ...(postFailures.length
        ? [`${postFailures.length} POSTs failed: ${postFailures.slice(0, 3).join(' | ')}`]
        : []),
      ...(misrouted.length ? [`${misrouted.length} misrouted: ${misrouted.slice(0, 3).join(' | ')}`] : []),
      ...(dropped ? [`${dropped} streams ended or failed during the run`] : []),
    ];
    const failure = problems.length ? problems.join('; ') : null;
    const ms = (v: number) => v.toFixed(1);
    log(
      `notification latency p50 ${ms(percentile(latencies, 50))} / p99 ${ms(percentile(latencies, 99))} / max ` +
        `${ms(percentile(latencies, 100))} ms, ${arrived.length}/${pending.size} arrived; POST 201 p50 ` +
        `${ms(percentile(answers, 50))} / p99 ${ms(percentile(answers, 99))} ms; NATS publish → stream p50 ` +
        `${ms(percentile(fromPublish, 50))} / p99 ${ms(percentile(fromPublish, 99))} ms; slowest: ${slowest}` +
        `${failure ? `; FAILED: ${failure}` : ''}`,
    );

    const heapDelta = open.memory.heapUsed - before.memory.heapUsed;
    const rssDelta = open.memory.rss - before.memory.rss;
    const lag = (s: ApiStats) =>
      `p50 ${Math.max(0, s.lag.p50Ms - 10).toFixed(1)} / p99 ${Math.max(0, s.lag.p99Ms - 10).toFixed(1)} / max ` +
      `${Math.max(0, s.lag.maxMs - 10).toFixed(1)} ms`;
    const method =
      `${READERS} users (inserted with SQL, one session each) each hold one GET /api/notifications/stream ` +
      `(session cookie) on API process A, raw node:http clients in the runner process (${fleet.connected} ` +
      `sent \`connected\` within ${fleet.connectMs.toFixed(0)} ms, ≤50 handshakes at once). ${NOTIFICATIONS} ` +
      `distinct stream users (in random order) each get one comment: POST /api/debates/:id/comments on their ` +
      `public debate, by another user's API key, sent to API process B (same schema, same NATS prefix) at ` +
      `${NOTIFY_RATE}/s (open loop: ${sendingS.toFixed(1)} s to send). B stores the comment and the ` +
      `notification in one transaction, then publishes it on NATS (core, not JetStream); A's subscription for ` +
      `that user writes it to the stream. Latency = POST sent (runner) → \`event: notification\` with that ` +
      `debate id received on that user's stream (runner), one clock.`;
    const detail =
      `${method} ${arrived.length}/${pending.size} arrived: p50 ${ms(percentile(latencies, 50))}, p90 ` +
      `${ms(percentile(latencies, 90))}, p99 ${ms(percentile(latencies, 99))}, max ${ms(percentile(latencies, 100))} ms ` +
      `(${beforeAnswer.length} arrived before the POST's own 201). POST → 201: p50 ${ms(percentile(answers, 50))}, ` +
      `p99 ${ms(percentile(answers, 99))} ms. Slowest (place in the run, latency, its 201): ${slowest}. ` +
      `${WARMUP_NOTIFICATIONS} warm-up comments to other readers came first, same rate, not counted. Event-loop delay of A while they came: ${lag(during)} (less the ` +
      `10 ms resolution). ${failure ? `FAILED: ${failure}` : 'Every notification arrived once, on its own stream.'}`;
    const fromPublishDetail =
      `The delivery part of collaboration.notify.latency_*: from B handing the notification to NATS (after ` +
      `its transaction committed; B notes the time, epoch ms over IPC) to its \`event: notification\` ` +
      `arriving on the stream in the runner (performance.timeOrigin + now, one machine clock), over ` +
      `${fromPublish.length} notifications: p50 ${ms(percentile(fromPublish, 50))}, p99 ` +
      `${ms(percentile(fromPublish, 99))}, max ${ms(percentile(fromPublish, 100))} ms. Covers NATS, A's ` +
      `subscription callback and SSE write, and the runner's socket read (the runner also holds the 1,000 ` +
      `client sockets).`;
    const idleDetail =
      `Over ${IDLE_S} s of idle, each after ${SETTLE_MS / 1000} s without activity (PostgreSQL 15+ backends ` +
      `publish their counters up to 10 s late), with both API processes up (no engine: the API in ` +
      `distributed mode runs none). With the ${READERS} streams open on A: ${describeIdle(idle)}. The same ` +
      `window before the streams were opened: ${describeIdle(baseline)}. Commits are ` +
      `pg_stat_database.xact_commit of the whole database (anything else using it on this machine counts, ` +
      `and a window may hold the commits of its own probes, one per process); scans and writes are pg_stat_user_tables of the ` +
      `bench schema only; statements are counted in each API process at node-postgres (exact). The one ` +
      `periodic query of an API process is the rate-limit counter sweep, once a minute.`;
    const results: BenchResult[] = [
      {
        name: 'collaboration.notify.latency_p50_ms',
        value: round(percentile(latencies, 50)),
        unit: 'ms',
        better: 'lower',
        detail,
      },
      {
        name: 'collaboration.notify.latency_p99_ms',
        value: round(percentile(latencies, 99)),
        unit: 'ms',
        better: 'lower',
        detail: 'See collaboration.notify.latency_p50_ms.',
      },
      {
        name: 'collaboration.notify.latency_max_ms',
        value: round(percentile(latencies, 100)),
        unit: 'ms',
        better: 'lower',
        detail: 'See collaboration.notify.latency_p50_ms.',
      },
      {
        name: 'collaboration.notify.publish_to_stream_p50_ms',
        value: round(percentile(fromPublish, 50)),
        unit: 'ms',
        better: 'lower',
        detail: fromPublishDetail,
      },
      {
        name: 'collaboration.notify.publish_to_stream_p99_ms',
        value: round(percentile(fromPublish, 99)),
        unit: 'ms',
        better: 'lower',
        detail: fromPublishDetail,
      },
      {
        name: 'collaboration.notify.delivered',
        value: arrived.length,
        unit: 'notifications',
        better: 'higher',
        detail: `${arrived.length} of ${pending.size} sent. ${failure ? `FAILED: ${failure}` : 'All arrived.'}`,
      },
      {
        name: 'collaboration.notify.streams',
        value: fleet.connected,
        unit: 'streams',
        better: 'higher',
        detail:
          `${fleet.connected} of ${READERS} notification streams open on API process A during the ` +
          `measurement. Memory of A (--expose-gc, heapUsed after gc()): ${mib(before.memory.heapUsed)} MiB ` +
          `before, ${mib(open.memory.heapUsed)} MiB with the streams: ${(heapDelta / 1024 / fleet.connected).toFixed(1)} ` +
          `KiB heap and ${(rssDelta / 1024 / fleet.connected).toFixed(1)} KiB RSS per stream.`,
      },
      {
        name: 'collaboration.streams_idle.db_commits_per_s',
        value: round(idle.commitsPerS, 1),
        unit: 'commits/s',
        better: 'lower',
        detail: idleDetail,
      },
      {
        name: 'collaboration.streams_idle.statements_per_s',
        value: round(idle.statements.reduce((a, b) => a + b, 0) / IDLE_S, 1),
        unit: 'statements/s',
        better: 'lower',
        detail: idleDetail,
      },
    ];
    return { results, failure };
  } finally {
    for (const fleet of fleets) fleet.close();
    try {
      await poster.stop();
    } catch (err) {
      process.stderr.write(`bench: the second collaboration API did not stop cleanly: ${String(err)}\n`);
    }
  }
}

async function run({ settings, log }: SuiteContext): Promise<BenchResult[]> {
  const bare = await bareBaseline(settings, log);

  const tag = randomBytes(5).toString('hex');
  const d = {
    databaseUrl: settings.databaseUrl,
    natsUrl: BENCH_NATS_URL,
    schema: `bench_collab_${tag}`,
    prefix: `bench_collab_${tag}.`,
  };
  const env = {
    DATABASE_URL: d.databaseUrl,
    DATABASE_SCHEMA: d.schema,
    NATS_URL: d.natsUrl,
    NATS_PREFIX: d.prefix,
    // autocannon's connections all come from 127.0.0.1: the spec's 30 reads a minute per IP would refuse.
    PUBLIC_READS_PER_MINUTE: '100000000',
    STREAM_OPENS_PER_MINUTE: '100000',
  };
  log(`API process A (schema ${d.schema}): seeding ${READERS} stream users, a shared debate, a commenter`);
  let streams: SpawnedServer<Ready> | undefined;
  try {
    streams = await spawnServer<Ready>(SERVER, {
      env: { ...env, BENCH_SEED_STREAM_USERS: String(READERS) },
      unset: UNSET,
      execArgv: ['--expose-gc'],
    });
    const api = { baseUrl: `http://127.0.0.1:${streams.info.port}`, info: streams.info, server: streams };
    const reads = await publicReads(settings, log, api, bare);
    const notify = await notifications(log, streams, { ...d, env });
    const failures = [reads.failure, notify.failure].filter((f): f is string => f !== null);
    if (failures.length) throw new Error(`collaboration: ${failures.join('; ')}`);
    return [...reads.results, ...notify.results];
  } finally {
    await stopOrDrop(streams, d, 'collaboration API');
  }
}

export const suite: Suite = {
  description:
    'share-link reads/s next to bare Fastify; notification delivery latency with 1,000 open streams',
  run,
};
