import { randomBytes } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { stopOrDrop } from '../lib/debates-servers.ts';
import { describeLoad, type LoadOptions, type LoadResult } from '../lib/load.ts';
import { type CpuSplit, measureWithCpu } from '../lib/measure-cpu.ts';
import { measurePgvectorSimilar } from '../lib/pgvector-similar.ts';
import { type BenchResult, round } from '../lib/results.ts';
import { BENCH_NATS_URL } from '../lib/services.ts';
import { type SpawnedServer, spawnServer } from '../lib/spawn-server.ts';
import type { Suite, SuiteContext } from '../lib/suite.ts';

/**
 * Similar-debate lookup and recommendations, through HTTP against the API in distributed mode
 * (bench/servers/knowledge-api-server.ts: PostgreSQL + NATS, fresh schema and prefix, removed afterwards;
 * the production embedder pointed at a local 1536-dimension OpenAI embeddings stand-in). One seed:
 * 200,000 debates, 50,000 embeddings (10,000 of the measured user), 20,000 public debates in the trending
 * window with views, votes, polls and forks. Measured under autocannon at KNOWLEDGE_CONNECTIONS (both
 * routes are CPU-heavy per request):
 *  1. GET /api/similar?q=… (limit 5) for the user with 10,000 embedded debates;
 *  2. GET /api/recommendations (limit 10) for a user with 20 debates (interest path: full-text match, topped
 *     up with trending) and for a user with none (trending path);
 *  3. when the schema has the search migration's debates_search_fts_index: the interest path again without
 *     it (dropped in the bench schema only);
 *  4. the pgvector storage of the same lookup on the embedded database (bench/lib/pgvector-similar.ts).
 * Then EXPLAIN (ANALYZE, BUFFERS) of the very statements the API sent (captured in the server) for each.
 */

const CONNECTIONS = Number(process.env.BENCH_KNOWLEDGE_CONNECTIONS ?? 10);
/**
 * The similar lookup costs PostgreSQL about a CPU-second per request here: at 10 connections the API's pool
 * (10 connections, 5 s connectionTimeoutMillis) answers 500 to everything waiting longer; 2 by default.
 */
const SIMILAR_CONNECTIONS = Number(process.env.BENCH_KNOWLEDGE_SIMILAR_CONNECTIONS ?? 2);
const SERVER = join(import.meta.dirname, '..', 'servers', 'knowledge-api-server.ts');
const UNSET = ['DATABASE_URL', 'DATABASE_SCHEMA', 'DATA_DIR', 'NATS_URL', 'NATS_PREFIX', 'PORT', 'HOST'];
const QUERY = 'Should we move our billing to the new Postgres cluster before the pricing change?';

type Ready = {
  port: number;
  keys: { similar: string; interest: string; fresh: string };
  counts: Record<string, string>;
  indexes: string[];
  model: string;
};
type Plans = Record<string, string>;

function ask<T>(server: SpawnedServer<Ready>, message: object, answer: string, timeoutMs = 60_000) {
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
      reject(new Error(`no '${answer}' within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    const done = () => {
      clearTimeout(timer);
      child.off('message', onMessage);
    };
    child.on('message', onMessage);
    child.send(message);
  });
}

/** One GET until it answers 200 (up to 90 s: statements of a previous load may still be draining). */
async function getJson(url: string, headers: Record<string, string>) {
  const deadline = performance.now() + 90_000;
  for (;;) {
    const res = await fetch(url, { headers });
    const text = await res.text();
    if (res.status === 200) return JSON.parse(text) as Record<string, unknown>;
    if (performance.now() > deadline)
      throw new Error(`GET ${url} answered ${res.status}: ${text.slice(0, 300)}`);
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}

/** The plan's execution time and what it scanned, in one line. */
function planSummary(plan: string | undefined): string {
  if (!plan) return 'no plan captured';
  const execution = /Execution Time: ([\d.]+) ms/.exec(plan)?.[1];
  const scans = [
    ...new Set(
      [
        ...plan.matchAll(
          /(Seq Scan|Index Only Scan|Index Scan|Bitmap Index Scan|Bitmap Heap Scan)(?: using (\S+))? on (\S+)/g,
        ),
      ].map((m) => `${m[1]}${m[2] ? ` using ${m[2]}` : ''} on ${m[3]}`),
    ),
  ];
  return `execution ${execution ?? '?'} ms; ${scans.join(', ')}`;
}

async function run({ settings, log }: SuiteContext): Promise<BenchResult[]> {
  const tag = randomBytes(5).toString('hex');
  const d = {
    databaseUrl: settings.databaseUrl,
    natsUrl: BENCH_NATS_URL,
    schema: `bench_knowledge_${tag}`,
    prefix: `bench_knowledge_${tag}.`,
  };
  log(`seeding schema ${d.schema}: 200,000 debates, 50,000 embeddings of 1536 reals (takes a while)`);
  const started = performance.now();
  let server: SpawnedServer<Ready> | undefined;
  const results: BenchResult[] = [];
  try {
    server = await spawnServer<Ready>(SERVER, {
      env: {
        DATABASE_URL: d.databaseUrl,
        DATABASE_SCHEMA: d.schema,
        NATS_URL: d.natsUrl,
        NATS_PREFIX: d.prefix,
        BENCH_LOG_LEVEL: 'error',
      },
      unset: UNSET,
      readyTimeoutMs: 240_000,
      stopTimeoutMs: 60_000,
    });
    const { info } = server;
    // The API logs errors only: kept in a file, for a 500's cause.
    const serverLog = join(tmpdir(), `bench-knowledge-${tag}.log`);
    server.child.stderr?.on('data', (chunk: Buffer) => appendFileSync(serverLog, chunk));
    server.child.stdout?.on('data', (chunk: Buffer) => appendFileSync(serverLog, chunk));
    log(`API log: ${serverLog}`);
    const base = `http://127.0.0.1:${info.port}`;
    const counts = info.counts;
    log(
      `seeded in ${((performance.now() - started) / 1000).toFixed(1)} s (SQL ${counts.seedSeconds} s): ${JSON.stringify(counts)}`,
    );
    log(`debates indexes: ${info.indexes.join(', ')}`);
    const hasFts = info.indexes.includes('debates_search_fts_index');
    const seedNote =
      `Seed: ${counts.debates} debates (${counts.debates_size}), ${counts.public} public, ${counts.recent_public} ` +
      `of them in the last 30 days; ${counts.embeddings} embeddings of ${counts.dimensions} reals ` +
      `(${counts.embeddings_size}), ${counts.similar_user_embeddings} of the measured user; ` +
      `${counts.argument_votes} argument votes, ${counts.polls} polls with ${counts.poll_votes} votes, ` +
      `${counts.forks} forks; ANALYZEd after seeding. full-text GIN index debates_search_fts_index ` +
      `${hasFts ? 'present (search migration in the tree)' : 'ABSENT'}.`;

    const target = async (
      name: string,
      url: string,
      key: string,
      what: string,
      check: (body: Record<string, unknown>) => string,
      connections = CONNECTIONS,
    ) => {
      const headers = { authorization: `Bearer ${key}` };
      const shape = check(await getJson(url, headers));
      const t0 = performance.now();
      await getJson(url, headers);
      const singleMs = performance.now() - t0;
      log(
        `${name}: ${shape}; one request alone ${singleMs.toFixed(0)} ms; autocannon ${connections} connections`,
      );
      const options: LoadOptions = {
        url,
        headers,
        connections,
        durationS: settings.durationS,
        warmupS: settings.warmupS,
      };
      const { load, cpu } = await measureWithCpu(options, server?.child.pid ?? 0);
      log(
        `${name}: ${Math.round(load.rps)} req/s, p50 ${load.p50Ms} ms, p99 ${load.p99Ms} ms` +
          `${load.non2xx || load.errors || load.timeouts ? ` FAILURES ${JSON.stringify(load.statusCodes)} ${load.errors} errors ${load.timeouts} timeouts` : ''}`,
      );
      return {
        name,
        what: `${what}; ${shape}; one request alone before the load ${singleMs.toFixed(0)} ms`,
        options,
        load,
        cpu,
      };
    };
    type Measured = Awaited<ReturnType<typeof target>>;
    const cpuNote = (cpu: CpuSplit, load: LoadResult) => {
      const per = (s: number) => `${((s / Math.max(1, load.requests)) * 1000).toFixed(2)} ms`;
      return (
        `CPU over the measured ${cpu.wallS.toFixed(1)} s: API process ${cpu.server.toFixed(1)} s (${per(cpu.server)} ` +
        `per request, the embeddings stand-in included), PostgreSQL ${cpu.postgres.toFixed(1)} s ` +
        `(${per(cpu.postgres)} per request), autocannon ${cpu.loadGenerator.toFixed(1)} s, on ${cpus().length} CPUs`
      );
    };
    const rows = (m: Measured, plan: string) => {
      const detail = `${m.what}; ${describeLoad(m.options, m.load)}; ${cpuNote(m.cpu, m.load)}; plan: ${plan}. ${seedNote}`;
      return [
        {
          name: `knowledge.${m.name}.rps`,
          value: round(m.load.rps, 0),
          unit: 'req/s',
          better: 'higher',
          detail,
        },
        {
          name: `knowledge.${m.name}.p50_ms`,
          value: round(m.load.p50Ms),
          unit: 'ms',
          better: 'lower',
          detail,
        },
        {
          name: `knowledge.${m.name}.p99_ms`,
          value: round(m.load.p99Ms),
          unit: 'ms',
          better: 'lower',
          detail,
        },
      ] satisfies BenchResult[];
    };

    const similar = await target(
      'similar_10k',
      `${base}/api/similar?q=${encodeURIComponent(QUERY)}&limit=5`,
      info.keys.similar,
      `GET /api/similar?q=<${QUERY.length} characters>&limit=5 for a user with 10,000 embedded debates ` +
        `(${info.model}; the query embedded per request through the OpenAI SDK by a loopback stand-in answering ` +
        '1536 dimensions at once, no network latency)',
      (body) => {
        const list = body.results as { similarity: number }[];
        if (list.length !== 5) throw new Error(`similar returned ${list.length} results`);
        return `5 results, similarity ${list[0]?.similarity.toFixed(3)}…${list[4]?.similarity.toFixed(3)}`;
      },
      SIMILAR_CONNECTIONS,
    );
    const recCheck = (reason: string) => (body: Record<string, unknown>) => {
      const list = body.recommendations as { recommendationReason: string }[];
      const byReason = list.filter((r) => r.recommendationReason === reason).length;
      if (list.length !== 10 || byReason === 0)
        throw new Error(`recommendations: ${list.length} results, ${byReason} "${reason}"`);
      return `10 results, ${byReason} "${reason}"`;
    };
    const interest = await target(
      'recommendations_interest',
      `${base}/api/recommendations`,
      info.keys.interest,
      'GET /api/recommendations (limit 10) for a user with 20 debates of their own (interest path: their ' +
        'recurring words, 8 keywords OR-ed in to_tsquery, ts_rank over all matching public debates)',
      recCheck('Based on your interests'),
    );
    const fresh = await target(
      'recommendations_trending',
      `${base}/api/recommendations`,
      info.keys.fresh,
      'GET /api/recommendations (limit 10) for a user with no debates (trending path: the 20,000 public ' +
        'debates of the last 30 days scored by views + 2 × votes + 3 × forks)',
      recCheck('Trending on Verdict'),
    );
    // The last statements of each kind the API sent are those of the runs above (each target ran last of its kind).
    const plans = (await ask<{ plans: Plans }>(server, { type: 'explain' }, 'explain')).plans;

    let withoutFts: { m: Measured; plans: Plans } | null = null;
    if (hasFts) {
      log('dropping debates_search_fts_index in the bench schema, interest path again');
      await ask(server, { type: 'drop-fts' }, 'drop-fts');
      const m = await target(
        'recommendations_interest_no_fts_index',
        `${base}/api/recommendations`,
        info.keys.interest,
        'The interest path as knowledge.recommendations_interest, with debates_search_fts_index dropped in ' +
          'the bench schema (as before the search migration)',
        recCheck('Based on your interests'),
      );
      withoutFts = { m, plans: (await ask<{ plans: Plans }>(server, { type: 'explain' }, 'explain')).plans };
    }

    const similarPlan = plans.similar ?? '';
    const usesOwnerIndex = /debate_embeddings_owner_model_index/.test(similarPlan);
    const seqOnEmbeddings = /Seq Scan on debate_embeddings/.test(similarPlan);
    const seqOnDebates = (plan: string | undefined) => /Seq Scan on debates/.test(plan ?? '');
    for (const [kind, plan] of Object.entries(plans)) log(`EXPLAIN ${kind}:\n${plan}`);
    if (withoutFts) log(`EXPLAIN interest without the GIN index:\n${withoutFts.plans.interest}`);

    results.push(
      ...rows(similar, planSummary(plans.similar)),
      {
        name: 'knowledge.similar_10k.plan_uses_owner_index',
        value: usesOwnerIndex && !seqOnEmbeddings ? 1 : 0,
        unit: 'bool',
        better: 'higher',
        detail:
          `1 when EXPLAIN (ANALYZE, BUFFERS) of the captured similar statement reads debate_embeddings through ` +
          `debate_embeddings_owner_model_index and has no Seq Scan on it. ${planSummary(plans.similar)}.\n${similarPlan}`,
      },
      {
        name: 'knowledge.similar_10k.plan_seq_scan_debates',
        value: seqOnDebates(plans.similar) ? 1 : 0,
        unit: 'bool',
        better: 'lower',
        detail:
          '1 when the similar statement joins debates through a Seq Scan of the whole debates table (the ' +
          'embeddings themselves come through the owner index; see knowledge.similar_10k.plan_uses_owner_index).',
      },
      ...rows(interest, planSummary(plans.interest)),
      {
        name: 'knowledge.recommendations_interest.plan_seq_scan',
        value: seqOnDebates(plans.interest) ? 1 : 0,
        unit: 'bool',
        better: 'lower',
        detail: `1 when the interest statement's plan has a Seq Scan on debates.\n${plans.interest ?? ''}\n--- own questions:\n${plans.ownQuestions ?? ''}`,
      },
      ...rows(fresh, planSummary(plans.trending)),
      {
        name: 'knowledge.recommendations_trending.plan_seq_scan',
        value: seqOnDebates(plans.trending) ? 1 : 0,
        unit: 'bool',
        better: 'lower',
        detail: `1 when the trending statement's plan has a Seq Scan on debates.\n${plans.trending ?? ''}`,
      },
    );
    if (withoutFts) {
      results.push(...rows(withoutFts.m, planSummary(withoutFts.plans.interest)), {
        name: 'knowledge.recommendations_interest_no_fts_index.plan_seq_scan',
        value: seqOnDebates(withoutFts.plans.interest) ? 1 : 0,
        unit: 'bool',
        better: 'lower',
        detail: `Interest statement without debates_search_fts_index.\n${withoutFts.plans.interest ?? ''}`,
      });
    }
    const failed = [similar, interest, fresh, ...(withoutFts ? [withoutFts.m] : [])].filter(
      (m) => m.load.non2xx || m.load.errors || m.load.timeouts,
    );
    if (failed.length) throw new Error(`knowledge: failures in ${failed.map((m) => m.name).join(', ')}`);
    results.push(...(await measurePgvectorSimilar(log)));
    return results;
  } finally {
    await stopOrDrop(server, d, 'knowledge API');
  }
}

export const suite: Suite = {
  description:
    'GET /api/similar over 10,000 embedded debates (1536 dims); GET /api/recommendations, interest and trending paths, 200,000 debates',
  optIn: true,
  run,
};
