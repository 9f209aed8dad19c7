/**
 * The API in distributed mode (PostgreSQL + NATS) for bench/suites/collaboration.ts, built like production
 * (loadConfig + createCore + buildServer; no engine node: with NATS_URL set the production API runs none).
 * The environment carries DATABASE_URL, DATABASE_SCHEMA, NATS_URL, NATS_PREFIX and the API's own settings
 * (PUBLIC_READS_PER_MINUTE, STREAM_OPENS_PER_MINUTE …); bench-only knobs:
 *   BENCH_SEED_STREAM_USERS=<n>  this process owns the deployment: it seeds it (below) before listening,
 *                                and on stop drops the schema and deletes the prefix's JetStream streams.
 *                                Without it the process joins a deployment another one seeded (the schema
 *                                is migrated already) and drops nothing.
 * The seed, with SQL where the services would be slow or have no bulk form:
 *   - `owner`: an account (100,000 requests a minute, an operator setting) with a key, owning one completed
 *     debate with the event log the engine writes for a 5-agent, 2-round debate (5 arguments and 5
 *     rebuttals of ~600 characters with their claimIds, the thinking and round events, a verdict that
 *     satisfies the Verdict schema, debate.completed);
 *   - `commenter`: an account (100,000 requests a minute) with a key;
 *   - <n> stream readers: accounts inserted in one statement, each with a session (its token stored as
 *     sha256 hex, as sign-in stores it) and one public completed debate of its own.
 * Ready line: {"port","ownerKey","sharedDebateId","commenterKey","readers":[{userId,token,debateId}]} (no
 * readers without the knob). Over IPC it answers
 *   {type:'dbstats'} with {type:'dbstats', commits, schemaReads, schemaWrites, statements}:
 *     pg_stat_database.xact_commit of the current database, the scans (seq + index) and tuple writes of the
 *     schema's tables (pg_stat_user_tables) — the probe itself is one commit and reads only the catalog —
 *     and the statements this process has sent to PostgreSQL so far (not counting the probe);
 *   {type:'published'} with {type:'published', at: {debateId: epoch ms}}: when each notification created here
 *     since the previous request went to NATS (performance.timeOrigin + now, comparable across processes);
 *   {type:'stats', gc?} with {type:'stats', memory, gc, lag}: process.memoryUsage() after gc() (start it with
 *     --expose-gc) and the event-loop delay since the previous stats request.
 */
import { createRequire } from 'node:module';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { buildServer } from '@verdict/api';
import { claimIdOf } from '@verdict/contracts';
import { createCore, loadConfig, type NatsBus } from '@verdict/core';
import type { FastifyInstance } from 'fastify';
import { dropBenchSchema } from '../lib/drop-schema.ts';
import { listenAndReport } from '../lib/spawn-server.ts';

/**
 * Every statement this process sends to PostgreSQL (node-postgres, under MikroORM and Kysely), transaction
 * control included: the exact count of what open streams cost, which pg_stat_* (shared by the whole
 * database, and flushed by each backend up to 10 s late) can only approximate.
 */
let statements = 0;
const pg = createRequire(import.meta.url)('pg') as {
  Client: { prototype: { query: (this: unknown, ...args: unknown[]) => unknown } };
};
const pgQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: unknown, ...args: unknown[]) {
  statements++;
  return pgQuery.apply(this, args);
};

const config = loadConfig({ ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' });
if (config.database.kind !== 'postgres' || config.nats.kind !== 'nats') {
  throw new Error('collaboration-api-server needs DATABASE_URL and NATS_URL');
}
const schema = config.database.schema;
const readersKnob = process.env.BENCH_SEED_STREAM_USERS;
const owns = readersKnob !== undefined && readersKnob !== '';
const readerCount = owns ? Number(readersKnob) : 0;
if (!Number.isInteger(readerCount) || readerCount < 0) {
  throw new Error('BENCH_SEED_STREAM_USERS must be a non-negative integer');
}
const core = await createCore(config);

/**
 * When each notification went to NATS (epoch ms, performance.timeOrigin + now, which every process on the
 * machine shares), by debate id: the notification service publishes through this same channel object.
 */
const published = new Map<string, number>();
const channel = core.bus.notifications;
const publishNotification = channel.publish.bind(channel);
channel.publish = async (userId, notification) => {
  published.set(notification.debateId ?? '', performance.timeOrigin + performance.now());
  return publishNotification(userId, notification);
};

/** The owner drops the schema (retried: a request cut off by the close may hold a lock) and the streams. */
async function release() {
  if (owns) {
    await dropBenchSchema(core.db, schema);
    await (core.bus as NatsBus).deleteStreams().catch(() => {});
  }
  await core.close();
}

const PANEL = [
  { name: 'Advocate', role: 'Argues for the proposal', model: 'anthropic/claude-sonnet-4' },
  { name: 'Skeptic', role: 'Argues against the proposal', model: 'openai/gpt-5' },
  { name: 'Risk Analyst', role: 'Weighs what could go wrong', model: 'anthropic/claude-sonnet-4' },
  { name: 'Economist', role: 'Prices the options', model: 'openai/gpt-5' },
  { name: 'Operator', role: 'Judges what it takes to execute', model: 'anthropic/claude-sonnet-4' },
];

/** ~600 characters of plausible debate prose, different per agent and round. */
function speech(agent: string, round: number): string {
  const base =
    `${agent}, round ${round}: moving the billing service to the new region this quarter trades a known ` +
    'latency problem for a migration risk we can bound. Our European customers see p95 checkout times ' +
    'above 900 ms today, and churn in that segment rose four points after the last incident. The migration ' +
    'plan keeps the old region warm for thirty days, replicates ledgers continuously and cuts over one ' +
    'tenant cohort at a time, so a failed cohort rolls back in minutes rather than hours. The open ' +
    'questions are the data-residency review, which legal expects to close in six weeks, and whether the ' +
    'on-call rotation can absorb two stacks during the overlap without burning out the team.';
  return base.slice(0, 600);
}

/** The event log of a completed 5-agent, 2-round debate, as the engine stores it (attempt 1). */
function eventLog(debateId: string) {
  const events: { type: string; data: Record<string, unknown> }[] = [
    { type: 'debate.started', data: { debateId, mode: 'balanced', panel: PANEL, rounds: 2 } },
  ];
  for (const round of [1, 2]) {
    events.push({ type: 'round.started', data: { round, injected: [] } });
    for (const [i, seat] of PANEL.entries()) {
      events.push({ type: 'agent.thinking', data: { agent: seat.name, round } });
      const message = {
        agent: seat.name,
        round,
        claimId: claimIdOf({ attempt: 1, round, agent: seat.name }),
        content: speech(seat.name, round),
        model: seat.model,
      };
      if (round === 1) events.push({ type: 'argument', data: message });
      else {
        const target = PANEL[(i + 1) % PANEL.length]?.name ?? 'Advocate';
        events.push({ type: 'rebuttal', data: { ...message, targetAgent: target } });
      }
    }
  }
  events.push({ type: 'synthesis.started', data: { skipped: false } });
  events.push({
    type: 'verdict',
    data: {
      recommendation: 'PROCEED',
      oneLiner: 'Migrate cohort by cohort this quarter, with the old region warm for 30 days.',
      confidence: 0.72,
      reasoning: VERDICT.narrative,
    },
  });
  events.push({ type: 'debate.completed', data: { debateId, status: 'completed' } });
  return events;
}

/** Satisfies contracts' Verdict (the public read validates its output against it). */
const VERDICT = {
  recommendation: 'PROCEED',
  oneLiner: 'Migrate cohort by cohort this quarter, with the old region warm for 30 days.',
  confidence: 0.72,
  narrative:
    'The panel agrees the latency cost is real and growing; the migration risk is bounded by the cohort ' +
    'plan and the warm fallback. The data-residency review is the one gate that could move the date.',
  arguments: PANEL.map((seat, i) => ({
    agent: seat.name,
    stance: i === 1 ? 'against' : 'for',
    keyPoints: ['European p95 checkout above 900 ms', 'Cohort cut-over bounds the blast radius'],
  })),
  keyEvidence: [
    {
      claim: 'Churn rose four points after the last incident',
      source: 'Advocate, round 1',
      supports: 'for',
      weight: 'high',
    },
    {
      claim: 'Two stacks during the overlap strain on-call',
      source: 'Operator, round 2',
      supports: 'against',
      weight: 'medium',
    },
  ],
  decisionMatrix: [
    { option: 'Migrate this quarter', criterion: 'Customer latency', score: 8, rationale: 'p95 halves' },
    { option: 'Wait a quarter', criterion: 'Customer latency', score: 3, rationale: 'Churn keeps rising' },
  ],
  nextSteps: ['Start the data-residency review', 'Pick the first tenant cohort'],
  revisitTriggers: ['Legal review slips past six weeks'],
  missingAgents: [],
};
const COST = { inputTokens: 48_210, outputTokens: 9_870, estimatedUsd: 0.31, credits: 3, llmCalls: 11 };

async function seedOwner() {
  const owner = await core.accounts.createUser({
    email: `bench-owner-${process.pid}@example.com`,
    name: 'Owner',
  });
  await core.accounts.setRateLimit(owner.id, 100_000);
  const ownerKey = (await core.apiKeys.create(owner.id, 'bench', null)).key;
  const [debate] = await core.db.execute<{ id: string }>(
    `insert into debates (owner_id, question, context, mode, status, funding_source, requested_agents,
       requested_rounds, agent_count, round_count, verdict, cost, started_at, completed_at, created_at)
     values (?, ?, ?, 'balanced', 'completed', 'user_credits', 5, 2, 5, 2, ?::jsonb, ?::jsonb,
       now() - interval '3 minutes', now() - interval '1 minute', now() - interval '3 minutes')
     returning id`,
    [
      owner.id,
      'Should we move the billing service to the new region this quarter?',
      'European checkout latency is above target; the new region opened last month.',
      JSON.stringify(VERDICT),
      JSON.stringify(COST),
    ],
  );
  if (!debate) throw new Error('no debate inserted');
  await core.db.execute(
    `insert into debate_events (debate_id, attempt, seq, type, data)
     select ?::uuid, 1, x.n, x.e->>'type', x.e->'data'
       from jsonb_array_elements(?::jsonb) with ordinality as x(e, n)`,
    [debate.id, JSON.stringify(eventLog(debate.id))],
  );
  return { ownerKey, sharedDebateId: debate.id };
}

async function seedCommenter() {
  const user = await core.accounts.createUser({
    email: `bench-commenter-${process.pid}@example.com`,
    name: 'Commenter',
  });
  await core.accounts.setRateLimit(user.id, 100_000);
  return (await core.apiKeys.create(user.id, 'bench', null)).key;
}

/** `count` readers in one statement: accounts, one session each, one public completed debate each. */
async function seedReaders(count: number) {
  if (count === 0) return [];
  return core.db.execute<{ userId: string; token: string; debateId: string }>(
    `with u as (
       insert into users (email, name)
       select 'bench-reader-' || g || '-' || ? || '@example.com', 'Reader ' || g from generate_series(1, ?) as g
       returning id
     ), t as materialized (
       select id, md5(random()::text || clock_timestamp()::text) || md5(random()::text || id::text) as token
         from u
     ), s as (
       insert into sessions (user_id, token_hash, expires_at)
       select id, encode(sha256(convert_to(token, 'UTF8')), 'hex'), now() + interval '1 day' from t
     ), d as (
       insert into debates (owner_id, question, mode, status, funding_source, requested_agents,
         requested_rounds, is_public, completed_at)
       select id, 'Should we open a second office in Lisbon next year?', 'fast', 'completed', 'user_credits',
         3, 1, true, now()
         from t
       returning id, owner_id
     )
     select t.id as "userId", t.token, d.id as "debateId" from t join d on d.owner_id = t.id`,
    [process.pid, count],
  );
}

const lag = monitorEventLoopDelay({ resolution: 10 });
lag.enable();
process.on('message', (message: { type?: string; gc?: boolean }) => {
  if (message?.type === 'stats') {
    const collect = message.gc !== false && typeof globalThis.gc === 'function';
    if (collect) globalThis.gc?.();
    const ms = (ns: number) => ns / 1e6;
    process.send?.({
      type: 'stats',
      memory: process.memoryUsage(),
      gc: collect,
      lag: { p50Ms: ms(lag.percentile(50)), p99Ms: ms(lag.percentile(99)), maxMs: ms(lag.max) },
    });
    lag.reset();
  } else if (message?.type === 'published') {
    process.send?.({ type: 'published', at: Object.fromEntries(published) });
    published.clear();
  } else if (message?.type === 'dbstats') {
    const sent = statements; // before the probe's own
    core.db
      .execute<{ commits: string; reads: string | null; writes: string | null }>(
        `select (select sum(xact_commit) from pg_stat_database where datname = current_database()) as commits,
                sum(coalesce(seq_scan, 0) + coalesce(idx_scan, 0)) as reads,
                sum(n_tup_ins + n_tup_upd + n_tup_del) as writes
           from pg_stat_user_tables where schemaname = ?`,
        [schema],
      )
      .then(([row]) =>
        process.send?.({
          type: 'dbstats',
          commits: Number(row?.commits ?? 0),
          schemaReads: Number(row?.reads ?? 0),
          schemaWrites: Number(row?.writes ?? 0),
          statements: sent,
        }),
      )
      .catch((err: unknown) => process.send?.({ type: 'dbstats', error: String(err) }));
  }
});

let app: FastifyInstance;
let ready: Record<string, unknown>;
try {
  if (owns) {
    const { ownerKey, sharedDebateId } = await seedOwner();
    const commenterKey = await seedCommenter();
    const readers = await seedReaders(readerCount);
    ready = { ownerKey, sharedDebateId, commenterKey, readers };
  } else {
    ready = { readers: [] };
  }
  app = await buildServer({ core });
} catch (err) {
  await release();
  throw err;
}
await listenAndReport(app, release, (port) => ({ port, ...ready }));
