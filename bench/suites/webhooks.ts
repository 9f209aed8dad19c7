import { randomBytes } from 'node:crypto';
import { createCore, loadConfig } from '@verdict/core';
import { startWebhookReceiver } from '@verdict/core/testing';
import { createEngineNode } from '@verdict/engine';
import { type BenchResult, round } from '../lib/results.ts';
import type { Suite, SuiteContext } from '../lib/suite.ts';

/** Deliveries queued at once for the throughput figure. */
const BURST = 5000;
/** Events written one by one, at a steady pace, for the latency figure. */
const PACED = 200;
const PACE_MS = 25;
const SENDERS = 16;
const INTERVAL_MS = 500;
/** How long the idle node is watched for the idle-cost figure. */
const IDLE_MS = 10_000;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

/**
 * An engine node (in this process, with the defaults: ENGINE_WEBHOOK_INTERVAL_MS 500, WEBHOOK_SENDERS 16)
 * delivering to a local receiver that answers 200 at once, on PostgreSQL: deliveries per second for a burst
 * of outbox rows, for single events the time from the outbox row's commit to its arrival, and what its
 * senders cost the database while there is nothing to send (scans of webhook_deliveries per second, from
 * PostgreSQL's statistics of the suite's schema, so other sessions on the machine do not count).
 */
async function run({ settings, log }: SuiteContext): Promise<BenchResult[]> {
  const schema = `bench_webhooks_${randomBytes(5).toString('hex')}`;
  const core = await createCore(
    loadConfig({
      DATABASE_URL: settings.databaseUrl,
      DATABASE_SCHEMA: schema,
      LOG_LEVEL: 'silent',
      WEBHOOK_ALLOW_HTTP: 'true',
    }),
  );
  const receiver = await startWebhookReceiver();
  const arrivals = new Map<string, number>();
  receiver.reply((request) => {
    arrivals.set(JSON.parse(request.body).data.n, performance.now());
    return { status: 200, body: 'ok' };
  });
  const node = createEngineNode({
    db: core.db,
    bus: core.bus,
    clock: core.clock,
    slots: 1,
    providerKeys: {},
    webhooks: {
      policy: {
        allowHttp: true,
        allowPrivate: false,
        allowedRanges: ['127.0.0.2/32'],
        resolve: async () => ['127.0.0.2'],
      },
      intervalMs: INTERVAL_MS,
      senders: SENDERS,
    },
  });
  const results: BenchResult[] = [];
  try {
    const user = await core.accounts.createUser({
      email: `bench-${randomBytes(4).toString('hex')}@example.com`,
      password: 'benchmarking webhooks today',
      name: 'bench',
    });
    await core.webhooks.create(user.id, {
      url: `http://hooks.bench.test:${receiver.port}/hook`,
      events: ['chain.created'],
      active: true,
    });
    const insert = (from: number, count: number) =>
      core.db.execute(
        `insert into webhook_outbox (user_id, event, dedupe_key, payload)
         select ?, 'chain.created', ? || i, jsonb_build_object('n', i::text) from generate_series(?::int, ?::int) i`,
        [user.id, `${schema}:`, from, from + count - 1],
      );
    node.start();

    // First, while the node has nothing to send. Only webhook_deliveries is counted: the senders' claims and
    // the scout read it, nothing else does (the fan-out reads webhook_outbox). A backend
    // reports its statistics within a second while busy but up to 10 s after it goes idle: measured after
    // the burst, the burst's late reports would land in the window.
    log(`idle: ${IDLE_MS / 1000} s with nothing to send`);
    const scans = async () => {
      await core.db.execute('select pg_stat_clear_snapshot()');
      const [row] = await core.db.execute<{ n: number }>(
        `select (seq_scan + coalesce(idx_scan, 0))::int as n from pg_stat_user_tables
         where schemaname = ? and relname = 'webhook_deliveries'`,
        [schema],
      );
      return row!.n;
    };
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const idleFrom = await scans();
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    results.push({
      name: 'webhooks.idle.delivery_scans_per_s',
      value: round(((await scans()) - idleFrom) / (IDLE_MS / 1000), 1),
      unit: 'scans/s',
      better: 'lower',
      detail: `scans (sequential or index) of webhook_deliveries per second over ${IDLE_MS / 1000} s with nothing to send, from PostgreSQL's statistics of the suite's schema; ${SENDERS} senders, ENGINE_WEBHOOK_INTERVAL_MS ${INTERVAL_MS}`,
    });

    log(`burst: ${BURST} outbox rows at once, ${SENDERS} senders`);
    const started = performance.now();
    await insert(1, BURST);
    while (arrivals.size < BURST) await new Promise((resolve) => setTimeout(resolve, 20));
    const seconds = (performance.now() - started) / 1000;
    const burstDetail = `${BURST} deliveries of one event each to a local receiver answering 200; first fan-out up to ${INTERVAL_MS} ms after the insert`;
    results.push({
      name: 'webhooks.burst.deliveries_per_s',
      value: round(BURST / seconds, 0),
      unit: 'deliveries/s',
      better: 'higher',
      detail: burstDetail,
    });

    log(`latency: ${PACED} events, one every ${PACE_MS} ms`);
    const committed = new Map<string, number>();
    for (let i = 0; i < PACED; i++) {
      const n = BURST + 1 + i;
      await insert(n, 1);
      committed.set(String(n), performance.now());
      await new Promise((resolve) => setTimeout(resolve, PACE_MS));
    }
    while ([...committed.keys()].some((n) => !arrivals.has(n))) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const latencies = [...committed].map(([n, at]) => (arrivals.get(n) ?? at) - at).sort((a, b) => a - b);
    const detail = `${PACED} outbox rows, one every ${PACE_MS} ms, from commit to arrival at the receiver (ENGINE_WEBHOOK_INTERVAL_MS ${INTERVAL_MS}, jittered ±25 %)`;
    for (const p of [50, 99]) {
      results.push({
        name: `webhooks.outbox_to_delivery.p${p}_ms`,
        value: round(percentile(latencies, p)),
        unit: 'ms',
        better: 'lower',
        detail,
      });
    }
  } finally {
    await node.stop();
    await receiver.close();
    await core.db.execute(`drop schema if exists "${schema}" cascade`);
    await core.close();
  }
  return results;
}

export const suite: Suite = {
  description: 'webhooks: deliveries/s to a local receiver, outbox-to-delivery latency',
  run,
};
