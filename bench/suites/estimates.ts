import { randomBytes } from 'node:crypto';
import type { DebateCost, DebateEstimate, DebateMode, Plan } from '@verdict/contracts';
import { type Core, createCore, type DebateRequest, loadConfig } from '@verdict/core';
import { eventually } from '@verdict/core/testing';
import { createEngineNode, type EngineNode } from '@verdict/engine';
import { type FakeLlmServer, startFakeLlmServer } from '@verdict/engine/testing';
import { type BenchResult, round } from '../lib/results.ts';
import { simulatedReplies } from '../lib/simulated-replies.ts';
import type { Suite, SuiteContext } from '../lib/suite.ts';

/** Debates run first, as an installation's history: the estimates learn their output lengths from them. */
const WARM_UP = 60;
/** Debates measured afterwards, each estimated just before it is created, on shapes the warm-up never had. */
const MEASURED = 200;
/** Debates created at once (the engine node's slots). */
const AT_ONCE = 12;

const SUBJECTS = [
  'move the support desk to a four-day week',
  'rewrite the billing service in Rust',
  'open a second office in Lisbon',
  'switch to usage-based pricing for the API',
  'freeze hiring until the next funding round',
  'sunset the legacy mobile app',
  'adopt a monorepo for every team',
  'offer a free tier to students',
];
const FILLER =
  'The team has grown from twelve to forty people in eighteen months, revenue is up a third, churn is flat, ' +
  'and the board asked for a plan that holds if the market turns. Costs are mostly salaries and cloud spend. ';

/** A small seeded generator (mulberry32): the same shapes on every run. */
function seeded(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return { next, int, pick: <T>(items: readonly T[]) => items[int(0, items.length - 1)] as T };
}

const text = (length: number) =>
  FILLER.repeat(Math.ceil(length / FILLER.length))
    .slice(0, length)
    .trim();

type Shape = {
  question: string;
  context: string | null;
  mode: DebateMode;
  /** The mode's own panel when null. */
  agents: number | null;
  rounds: number | null;
  /** A /v1 comparison's options (its context then lists them, as /v1/verdicts does). */
  options: string[] | null;
  plan: Plan;
};

/** Shapes of every kind: short and long questions and contexts, 2–8 agents, 1–5 rounds, modes, comparisons, plans. */
function shapes(count: number, seed: number): Shape[] {
  const random = seeded(seed);
  return Array.from({ length: count }, (_, i) => {
    const subject = random.pick(SUBJECTS);
    const detail = random.next() < 0.5 ? '' : ` ${text(random.int(20, 500))}`;
    const question = `Should we ${subject} (case ${seed}-${i})?${detail}`;
    const context = random.next() < 0.35 ? null : text(Math.round(100 * 60 ** random.next()));
    const ownPanel = random.next() < 0.8;
    const compare = random.next() < 0.2;
    const options = compare
      ? Array.from({ length: random.int(2, 4) }, (_, o) => `Option ${o + 1}: ${text(random.int(5, 40))}`)
      : null;
    return {
      question,
      context,
      mode: random.pick(['fast', 'balanced', 'thorough'] as const),
      agents: ownPanel ? random.int(2, 8) : null,
      rounds: ownPanel ? random.int(1, 5) : null,
      options,
      // Pro debates run with the evidence engine (passages of the context), Starter ones without.
      plan: random.next() < 0.5 ? 'pro' : 'starter',
    };
  });
}

/** The debate a shape asks for, as the routes build it (a comparison as /v1/verdicts does). */
function requestOf(shape: Shape, ownerId: string): DebateRequest {
  const listed = shape.options && `Options to compare:\n${shape.options.map((o) => `- ${o}`).join('\n')}`;
  const context = [shape.context, listed].filter(Boolean).join('\n\n') || null;
  return {
    ownerId,
    route: shape.options ? 'v1' : 'api',
    question: shape.question,
    context,
    mode: shape.mode,
    agents: shape.agents ?? undefined,
    rounds: shape.rounds ?? undefined,
    preset: null,
    routing: null,
    compare: shape.options !== null,
    compareOptions: shape.options ?? undefined,
    skipCache: true,
    providerKeys: null,
    idempotencyKey: null,
    fingerprint: shape,
  };
}

type Outcome = { shape: Shape; estimate: DebateEstimate; cost: DebateCost | null };

async function runAll(core: Core, owners: Record<string, string>, list: Shape[], estimate: boolean) {
  const outcomes: Outcome[] = [];
  for (let from = 0; from < list.length; from += AT_ONCE) {
    const batch = list.slice(from, from + AT_ONCE);
    const started = await Promise.all(
      batch.map(async (shape) => {
        const request = requestOf(shape, owners[shape.plan] as string);
        const estimated = estimate ? await core.debates.estimate(request) : null;
        const created = await core.debates.create(request);
        return { shape, estimated, id: created.debateId };
      }),
    );
    for (const one of started) {
      const [row] = await eventually(
        () =>
          core.db.execute<{ status: string; cost: DebateCost | null }>(
            'select status, cost from debates where id = ?',
            [one.id],
          ),
        (rows) => rows[0]?.status === 'completed' || rows[0]?.status === 'failed',
        120_000,
      );
      if (one.estimated) {
        outcomes.push({
          shape: one.shape,
          estimate: one.estimated,
          cost: row?.status === 'completed' ? (row.cost ?? null) : null,
        });
      }
    }
  }
  return outcomes;
}

const median = (values: number[]) => quantile(values, 0.5);
function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
}
const pct = (share: number) => round(100 * share, 1);

/** The figures of one quantity (tokens, USD, input, output): error of the expected value and the range's hold. */
function judged(
  outcomes: { estimate: DebateEstimate; cost: DebateCost }[],
  of: (o: { estimate: DebateEstimate; cost: DebateCost }) => {
    low: number;
    expected: number;
    high: number;
    actual: number;
  },
) {
  const rows = outcomes.map(of);
  const errors = rows.map((r) => Math.abs(r.expected - r.actual) / r.actual);
  const inside = rows.filter((r) => r.actual >= r.low && r.actual <= r.high).length;
  const under = rows.filter((r) => r.actual < r.low).length;
  const signed = rows.map((r) => (r.expected - r.actual) / r.actual);
  return {
    median: pct(median(errors)),
    p90: pct(quantile(errors, 0.9)),
    bias: pct(median(signed)),
    inside: pct(inside / rows.length),
    under,
    over: rows.length - inside - under,
    width: round(median(rows.map((r) => r.high / Math.max(r.low, 1e-12))), 2),
  };
}

/**
 * What an estimate takes once the debates are over, in a second core on the same schema (a fresh process):
 * its first estimate reads the learnt lengths from the tables, the next ones find them in the process's
 * cache until it expires. One at a time, nothing else running.
 */
async function estimateLatency(
  databaseUrl: string,
  schema: string,
  fake: FakeLlmServer,
  owners: Record<string, string>,
  log: SuiteContext['log'],
): Promise<BenchResult[]> {
  const fresh = await createCore(
    loadConfig({
      DATABASE_URL: databaseUrl,
      DATABASE_SCHEMA: schema,
      LOG_LEVEL: 'silent',
      ANTHROPIC_API_KEY: 'bench-anthropic',
      ANTHROPIC_BASE_URL: fake.baseUrls.anthropic,
      OPENAI_API_KEY: 'bench-openai',
      OPENAI_BASE_URL: fake.baseUrls.openai,
      GOOGLE_API_KEY: 'bench-google',
      GOOGLE_BASE_URL: fake.baseUrls.google,
    }),
  );
  try {
    const list = shapes(201, 3).map((shape) =>
      requestOf({ ...shape, agents: 8, rounds: 5 }, owners[shape.plan] as string),
    );
    const timed = async (request: DebateRequest) => {
      const started = performance.now();
      await fresh.debates.estimate(request);
      return performance.now() - started;
    };
    // Eight agents on three models: every (model, task) of the panel read at once.
    const cold = await timed(list[0] as DebateRequest);
    const warm: number[] = [];
    for (const request of list.slice(1)) warm.push(await timed(request));
    log(
      `estimate: ${round(cold, 1)} ms reading the learnt lengths, then p50 ${round(median(warm), 2)} ms from the cache`,
    );
    return [
      {
        name: 'estimates.estimate.cold_ms',
        value: round(cold, 1),
        unit: 'ms',
        better: 'lower',
        detail: `a fresh process's first estimate of an 8-agent, 5-round debate on three models: the funding transaction, routing and the learnt lengths of its 10 (model, task) pairs read from debate_turns and debate_calls (the last 400 turns or calls of each, by index) after ${WARM_UP + MEASURED} debates`,
      },
      {
        name: 'estimates.estimate.warm_p50_ms',
        value: round(median(warm), 2),
        unit: 'ms',
        better: 'lower',
        detail: `the next ${warm.length} estimates, one at a time, the learnt lengths from the process's cache (60 s): the funding transaction, routing and the size model; p99 ${round(quantile(warm, 0.99), 2)} ms`,
      },
    ];
  } finally {
    await fresh.close();
  }
}

/**
 * The cost estimate against what debates then use. An engine node in this process runs debates on three
 * providers' real model names (Anthropic, OpenAI, Google: priced, so USD is measured) through the real SDK
 * adapters against a local fake LLM server that answers as the engine's SIMULATED model would, text and
 * token counts alike (bench/lib/simulated-replies.ts). A warm-up of WARM_UP debates is this installation's
 * history; then MEASURED debates of other shapes are each estimated (POST /api/debates/estimate's function,
 * learning from that history as it grows) just before they are created, and compared with the cost they
 * record. PostgreSQL in a fresh schema, dropped afterwards.
 */
export const suite: Suite = {
  description:
    'Cost estimate vs actual usage over 200 simulated debates of varied shapes (±15 %, 80 % in range)',
  run: async ({ settings, log }: SuiteContext) => {
    const schema = `bench_estimates_${randomBytes(4).toString('hex')}`;
    const fake: FakeLlmServer = await startFakeLlmServer(simulatedReplies());
    const core = await createCore(
      loadConfig({
        DATABASE_URL: settings.databaseUrl,
        DATABASE_SCHEMA: schema,
        LOG_LEVEL: 'silent',
        CONCURRENT_DEBATES: '1000',
        ANTHROPIC_API_KEY: 'bench-anthropic',
        ANTHROPIC_BASE_URL: fake.baseUrls.anthropic,
        OPENAI_API_KEY: 'bench-openai',
        OPENAI_BASE_URL: fake.baseUrls.openai,
        GOOGLE_API_KEY: 'bench-google',
        GOOGLE_BASE_URL: fake.baseUrls.google,
      }),
    );
    let node: EngineNode | undefined;
    try {
      node = createEngineNode({
        db: core.db,
        bus: core.bus,
        clock: core.clock,
        slots: AT_ONCE,
        providerKeys: core.config.providers.keys,
        providerOptions: { baseUrls: core.config.providers.baseUrls },
        policy: { timeoutMs: 30_000, retries: 2, backoffMs: 50 },
      });
      node.start();
      const owners: Record<string, string> = {};
      for (const plan of ['pro', 'starter'] as const) {
        const user = await core.accounts.createUser({
          email: `bench-estimates-${plan}-${schema}@example.com`,
          name: plan,
        });
        await core.accounts.setPlan(user.id, plan);
        // Credits enough for every debate: what is measured is tokens, not the balance.
        await core.db.execute('update users set credit_balance = 1000000 where id = ?', [user.id]);
        owners[plan] = user.id;
      }
      const started = performance.now();
      log(`warm-up: ${WARM_UP} debates, the installation's history`);
      await runAll(core, owners, shapes(WARM_UP, 1), false);
      log(`measured: ${MEASURED} debates of fresh shapes, each estimated before it is created`);
      const outcomes = await runAll(core, owners, shapes(MEASURED, 2), true);
      const seconds = (performance.now() - started) / 1000;
      const done = outcomes.flatMap((o) => (o.cost ? [{ ...o, cost: o.cost }] : []));
      const failed = outcomes.length - done.length;
      if (done.length === 0) throw new Error('no measured debate completed');

      const tokens = judged(done, ({ estimate, cost }) => ({
        low: estimate.inputTokens.low + estimate.outputTokens.low,
        expected: estimate.inputTokens.expected + estimate.outputTokens.expected,
        high: estimate.inputTokens.high + estimate.outputTokens.high,
        actual: cost.inputTokens + cost.outputTokens,
      }));
      const usd = judged(done, ({ estimate, cost }) => ({ ...estimate.usd, actual: cost.estimatedUsd }));
      const input = judged(done, ({ estimate, cost }) => ({
        ...estimate.inputTokens,
        actual: cost.inputTokens,
      }));
      const output = judged(done, ({ estimate, cost }) => ({
        ...estimate.outputTokens,
        actual: cost.outputTokens,
      }));
      const learnt =
        done
          .at(-1)
          ?.estimate.note.match(/Learnt: [^(.]*/)?.[0]
          ?.trim() ?? '';
      const of = `${done.length} debates measured (${failed} failed) after a warm-up of ${WARM_UP}; 2–8 agents, 1–5 rounds, the three modes, ${done.filter((o) => o.shape.options).length} comparisons, ${done.filter((o) => o.shape.context === null).length} without context, ${done.filter((o) => o.shape.plan === 'pro').length} with the evidence engine (Pro); models on three providers' names, answered as the simulated model; last estimate: ${learnt}; ${round(seconds, 1)} s in all`;
      const range = (r: ReturnType<typeof judged>) =>
        `${r.under} under low, ${r.over} over high; median high ÷ low ${r.width}`;
      log(
        `tokens: median error ${tokens.median} %, p90 ${tokens.p90} %, bias ${tokens.bias} %, ${tokens.inside} % in range (${range(tokens)})`,
      );
      log(
        `usd:    median error ${usd.median} %, p90 ${usd.p90} %, bias ${usd.bias} %, ${usd.inside} % in range (${range(usd)})`,
      );
      log(
        `input ${input.median} % (bias ${input.bias} %), output ${output.median} % (bias ${output.bias} %)`,
      );
      const results: BenchResult[] = [
        {
          name: 'estimates.tokens.median_error_pct',
          value: tokens.median,
          unit: '%',
          better: 'lower',
          detail: `median |expected − actual| ÷ actual of a debate's tokens (input + output); p90 ${tokens.p90} %, median signed ${tokens.bias} %; input alone ${input.median} %, output alone ${output.median} %. ${of}`,
        },
        {
          name: 'estimates.usd.median_error_pct',
          value: usd.median,
          unit: '%',
          better: 'lower',
          detail: `median |expected − actual| ÷ actual of a debate's list-price USD; p90 ${usd.p90} %, median signed ${usd.bias} %. ${of}`,
        },
        {
          name: 'estimates.tokens.inside_range_pct',
          value: tokens.inside,
          unit: '%',
          better: 'higher',
          detail: `share of debates whose tokens lie within the estimate's low–high (every answer at the 10th / 90th percentile of its learnt lengths): ${range(tokens)}. ${of}`,
        },
        {
          name: 'estimates.usd.inside_range_pct',
          value: usd.inside,
          unit: '%',
          better: 'higher',
          detail: `share of debates whose USD lies within the estimate's low–high: ${range(usd)}. ${of}`,
        },
        ...(await estimateLatency(settings.databaseUrl, schema, fake, owners, log)),
      ];
      return results;
    } finally {
      await node?.stop().catch(() => {});
      await core.db.execute(`drop schema if exists "${schema}" cascade`).catch(() => {});
      await core.close();
      await fake.close();
    }
  },
};
