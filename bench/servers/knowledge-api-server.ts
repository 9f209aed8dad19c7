/**
 * The API in distributed mode (PostgreSQL + NATS) for bench/suites/knowledge.ts, built like production
 * (loadConfig + createCore + buildServer; no engine node) with the production embedder: the engine's
 * createEmbedder (EMBEDDINGS=openai) through the official OpenAI SDK, pointed at a stand-in OpenAI embeddings endpoint
 * served by this process on another loopback port. The stand-in answers POST /v1/embeddings with a
 * deterministic 1536-dimension vector (text-embedding-3-small's size; the engine's fake LLM server answers
 * 64 dimensions, which would pair only 64 of the stored 1536 elements in similar.ts's unnest), base64 float32
 * as the real API does when the SDK asks for it (it does by default), floats otherwise.
 *
 * Environment: DATABASE_URL, DATABASE_SCHEMA, NATS_URL, NATS_PREFIX. This process owns the deployment: it
 * seeds it with SQL before listening (below) and on stop drops the schema and the prefix's JetStream streams.
 *   - 1,000 authors; `similar`: 10,000 completed private debates, each embedded; four more users with 10,000
 *     embedded debates each (debate_embeddings: 50,000 rows; vectors from a pool of 1,000 random unit
 *     vectors of 1536 reals, so rows are ~6 KiB like real ones, stored out of line);
 *   - `interest`: 20 debates of its own (questions on a few recurring topics);
 *   - `fresh`: no debates (the trending path);
 *   - authors' debates to 200,000 debates in all: 20,000 public within the last 30 days with random view
 *     counts, 20 % of the older ones public; argument votes on 5,000 and polls with votes on 2,000 of the
 *     recent public debates; 6,000 forks (forked_from_id) of 3,000 of them.
 * Then ANALYZE (as autovacuum would have by then). Ready line: {"port","keys":{similar,interest,fresh},
 * "counts":{…},"indexes":[debates' index names]}.
 * Over IPC:
 *   {type:'explain'} → {type:'explain', plans:{similar, ownQuestions, interest, trending}}: EXPLAIN (ANALYZE,
 *     BUFFERS) of the last statement of each kind this process sent to PostgreSQL (captured at node-postgres
 *     with its parameters, so it is exactly the SQL similar.ts and recommendations.ts built), run on a separate
 *     connection with the same search_path;
 *   {type:'drop-fts'} → {type:'drop-fts', dropped}: drops debates_search_fts_index (when present) and analyzes,
 *     to measure the interest path without it.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { buildServer } from '@verdict/api';
import { createCore, loadConfig, type NatsBus } from '@verdict/core';
import { createEmbedder } from '@verdict/engine';
import type { FastifyInstance } from 'fastify';
import { dropBenchSchema } from '../lib/drop-schema.ts';
import { listenAndReport } from '../lib/spawn-server.ts';

const DIMENSIONS = 1536;
const AUTHORS = 1000;
const EMBEDDED_PER_USER = 10_000;
const OTHER_EMBEDDERS = 4;
const TOTAL_DEBATES = 200_000;
const RECENT_PUBLIC = 20_000;

type Captured = { text: string; values: unknown[] };
const captured: Record<string, Captured> = {};
const kindOf = (text: string): string | null => {
  if (text.includes('debate_embeddings') && text.includes('unnest')) return 'similar';
  if (text.includes('ts_rank')) return 'interest';
  if (text.includes('argument_votes') && text.includes('forked_from_id')) return 'trending';
  if (/select "question" from "debates"/.test(text)) return 'ownQuestions';
  return null;
};
type PgClient = {
  query: (this: unknown, ...args: unknown[]) => unknown;
  connect: () => Promise<void>;
  end: () => Promise<void>;
};
const pg = createRequire(import.meta.url)('pg') as {
  Client: { new (options: object): PgClient; prototype: PgClient };
};
const pgQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: unknown, ...args: unknown[]) {
  const [first, second] = args;
  const text = typeof first === 'string' ? first : (first as { text?: string } | null)?.text;
  if (typeof text === 'string' && !text.startsWith('explain')) {
    const kind = kindOf(text);
    const values = Array.isArray(second) ? second : ((first as { values?: unknown[] }).values ?? []);
    if (kind) captured[kind] = { text, values };
  }
  return pgQuery.apply(this, args);
};

/** A deterministic unit-free vector of DIMENSIONS floats for `text` (sha256 counter stream). */
function benchEmbedding(text: string): Float32Array {
  const out = new Float32Array(DIMENSIONS);
  let block = 0;
  for (let i = 0; i < DIMENSIONS; i += 8) {
    const digest = createHash('sha256').update(`${block++}:${text}`).digest();
    for (let j = 0; j < 8 && i + j < DIMENSIONS; j++) out[i + j] = digest.readInt32LE(j * 4) / 2 ** 31;
  }
  return out;
}

/** The stand-in for OpenAI's POST /v1/embeddings (what the SDK reads of it). */
async function startEmbeddingsEndpoint() {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/embeddings') {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString() || '{}') as {
        input?: string | string[];
        model?: string;
        encoding_format?: string;
      };
      const inputs = Array.isArray(body.input) ? body.input : [String(body.input ?? '')];
      const data = inputs.map((input, index) => {
        const v = benchEmbedding(input);
        return {
          object: 'embedding',
          index,
          embedding:
            body.encoding_format === 'base64'
              ? Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64')
              : Array.from(v),
        };
      });
      const tokens = Math.ceil(inputs.join(' ').length / 4);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          object: 'list',
          data,
          model: body.model ?? '',
          usage: { prompt_tokens: tokens, total_tokens: tokens },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const config = loadConfig({
  ...process.env,
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent',
});
if (config.database.kind !== 'postgres' || config.nats.kind !== 'nats') {
  throw new Error('knowledge-api-server needs DATABASE_URL and NATS_URL');
}
const schema = config.database.schema;
const databaseUrl = config.database.url;
const endpoint = await startEmbeddingsEndpoint();
const embedder = createEmbedder({
  embeddings: 'openai',
  keys: { openai: 'sk-bench' },
  baseUrls: { openai: `${endpoint.url}/v1` },
});
if (!embedder) throw new Error('createEmbedder returned no embedder');
const core = await createCore(config, { embedder });

async function release() {
  await dropBenchSchema(core.db, schema);
  await (core.bus as NatsBus).deleteStreams().catch(() => {});
  await core.close();
  await endpoint.close();
}

const TOPICS = [
  'billing',
  'postgres',
  'kubernetes',
  'pricing',
  'hiring',
  'onboarding',
  'marketing',
  'analytics',
  'security',
  'compliance',
  'mobile',
  'checkout',
  'warehouse',
  'logistics',
  'partnership',
  'funding',
  'office',
  'remote',
  'roadmap',
  'support',
  'churn',
  'retention',
  'payroll',
  'insurance',
  'vendor',
  'migration',
  'caching',
  'frontend',
  'backend',
  'database',
  'europe',
  'lisbon',
  'subscription',
  'discount',
  'franchise',
  'recycling',
  'solar',
  'fleet',
  'bakery',
  'tuition',
];
const VERBS = [
  'adopt',
  'replace',
  'expand',
  'outsource',
  'rebuild',
  'launch',
  'cancel',
  'split',
  'merge',
  'delay',
];
const sqlArray = (words: string[]) => `array[${words.map((w) => `'${w}'`).join(',')}]`;
/** A question from two topics and a verb chosen by `g` (an SQL integer expression). */
const question = (g: string) =>
  `'Should we ' || (${sqlArray(VERBS)})[1 + (${g} * 7) % ${VERBS.length}] || ' our ' || ` +
  `(${sqlArray(TOPICS)})[1 + (${g} * 13) % ${TOPICS.length}] || ' and ' || ` +
  `(${sqlArray(TOPICS)})[1 + (${g} * 29 + 3) % ${TOPICS.length}] || ' plans this quarter' || chr(63)`;
const context = (g: string) =>
  `case when ${g} % 3 = 0 then 'Context: the ' || (${sqlArray(TOPICS)})[1 + (${g} * 17 + 5) % ${TOPICS.length}] || ' team asked for a decision before the board meeting.' end`;
const INTEREST_QUESTIONS = [
  'Should we move billing to Postgres?',
  'Is our pricing page hurting checkout?',
  'Should billing run on the new Postgres cluster?',
  'Can pricing experiments cut churn?',
  'Should we rebuild checkout before the pricing change?',
  'Is churn driven by billing errors?',
  'Should we raise subscription pricing in Europe?',
  'Would a Postgres upgrade fix billing latency?',
  'Should support own churn follow-ups?',
  'Is a discount better than a pricing cut for churn?',
  'Should checkout support more payment methods?',
  'Do we need a billing on-call rotation?',
  'Should Postgres backups move to another region?',
  'Is subscription retention worth a team?',
  'Should we cut pricing tiers from five to three?',
  'Can checkout errors explain churn in Europe?',
  'Should billing emails be rewritten?',
  'Should we shard Postgres this year?',
  'Is annual pricing better for retention?',
  'Should we rebuild billing reports?',
];
const VERDICT = `'{"recommendation":"PROCEED","oneLiner":"Go ahead, in stages.","confidence":0.7}'::jsonb`;

async function account(label: string) {
  const user = await core.accounts.createUser({
    email: `bench-${label}-${process.pid}@example.com`,
    name: label,
  });
  await core.accounts.setRateLimit(user.id, 1_000_000);
  return { id: user.id, key: (await core.apiKeys.create(user.id, label, null)).key };
}

async function seed() {
  const t0 = performance.now();
  const similar = await account('similar');
  const interest = await account('interest');
  const fresh = await account('fresh');
  const embedders = [similar.id];
  for (let i = 0; i < OTHER_EMBEDDERS; i++) embedders.push((await account(`embedder-${i}`)).id);
  await core.db.execute(
    `insert into users (email, name) select 'bench-author-' || g || '-' || ? || '@example.com', 'Author ' || g
       from generate_series(1, ?) as g`,
    [process.pid, AUTHORS],
  );
  // The embedded users' debates: private, completed over the last two years.
  await core.db.execute(
    `insert into debates (owner_id, question, context, mode, status, funding_source, requested_agents,
       requested_rounds, verdict, created_at, completed_at)
     select u.id, ${question('g')}, ${context('g')}, 'fast', 'completed', 'user_credits', 3, 1, ${VERDICT},
            now() - make_interval(mins => g * 100), now() - make_interval(mins => g * 100)
       from unnest(?::uuid[]) as u(id), generate_series(1, ?) as g`,
    [`{${embedders.join(',')}}`, EMBEDDED_PER_USER],
  );
  // The interest user's 20 questions on recurring topics (billing, postgres, pricing, churn …).
  await core.db.execute(
    `insert into debates (owner_id, question, mode, status, funding_source, requested_agents, requested_rounds,
       created_at, completed_at)
     select ?, q, 'fast', 'completed', 'user_credits', 3, 1, now() - make_interval(days => n::int), now() - make_interval(days => n::int)
       from jsonb_array_elements_text(?::jsonb) with ordinality as x(q, n)`,
    [interest.id, JSON.stringify(INTEREST_QUESTIONS)],
  );
  const fixed = EMBEDDED_PER_USER * (OTHER_EMBEDDERS + 1) + 20;
  const authorsBulk = TOTAL_DEBATES - fixed - RECENT_PUBLIC;
  const authorOf = `(select id from authors where authors.n = 1 + g % ${AUTHORS})`;
  const authors = `with authors as materialized (
      select id, row_number() over (order by id) as n from users where email like 'bench-author-%') `;
  // Recent public debates (the trending window) …
  await core.db.execute(
    `${authors}${insertDebatesSql(authorOf, '?', 'true', 'now() - make_interval(secs => random() * 30 * 86400 - 60)')}`,
    [RECENT_PUBLIC],
  );
  // … and older ones, 20 % public.
  await core.db.execute(
    `${authors}${insertDebatesSql(authorOf, '?', '(g % 5 = 0)', "now() - interval '31 days' - make_interval(days => g % 700)")}`,
    [authorsBulk],
  );
  // Votes, polls and forks on the recent public debates.
  await core.db.execute(
    `${authors}, recent as materialized (
       select id, row_number() over (order by random()) as n from debates
        where is_public and created_at >= now() - interval '30 days')
     insert into argument_votes (debate_id, claim_id, user_id, vote)
     select r.id, 'a1-r1-' || (v % 3), a.id, case when v % 4 = 0 then 'disagree' else 'agree' end
       from recent r cross join lateral generate_series(1, 1 + (r.n * 7) % 12) as v
       join authors a on a.n = 1 + (r.n + v * 37) % ${AUTHORS}
      where r.n <= 5000`,
  );
  await core.db.execute(
    `with polled as (
       select id from debates where is_public and created_at >= now() - interval '30 days'
        order by random() limit 2000)
     insert into polls (debate_id, question, options)
     select id, 'Which option would you pick', '[{"id":"a","label":"A"},{"id":"b","label":"B"}]'::jsonb from polled`,
  );
  await core.db.execute(
    `${authors}, p as (select id, row_number() over (order by id) as n from polls)
     insert into poll_votes (poll_id, user_id, option_id)
     select p.id, a.id, gen_random_uuid()
       from p cross join lateral generate_series(1, 1 + (p.n * 11) % 20) as v
       join authors a on a.n = 1 + (p.n + v * 41) % ${AUTHORS}`,
  );
  await core.db.execute(
    `with src as (select id, row_number() over (order by random()) as n from debates
                   where is_public and created_at >= now() - interval '30 days' limit 3000),
          tgt as (select d.id, row_number() over (order by d.id) as n from debates d
                   join users u on u.id = d.owner_id
                  where u.email like 'bench-author-%' and not d.is_public limit 6000)
     update debates set forked_from_id = src.id from tgt join src on src.n = 1 + tgt.n % 3000
      where debates.id = tgt.id`,
  );
  // Embeddings: each embedded user's debates get one of 1,000 random unit vectors of 1536 reals.
  await core.db.execute(
    `with raw as (select i, j, random() - 0.5 as x from generate_series(0, 999) as i, generate_series(1, ?) as j),
          norms as (select i, sqrt(sum(x * x)) as n from raw group by i),
          pool as (select raw.i, array_agg((raw.x / norms.n)::real order by raw.j) as v
                     from raw join norms using (i) group by raw.i),
          d as (select id, owner_id, completed_at, row_number() over (order by id) as rn
                  from debates where owner_id = any(?::uuid[]))
     insert into debate_embeddings (debate_id, owner_id, model, embedding, created_at)
     select d.id, d.owner_id, ?, pool.v, d.completed_at from d join pool on pool.i = d.rn % 1000`,
    [DIMENSIONS, `{${embedders.join(',')}}`, embedder!.model],
  );
  await core.db.execute('analyze');
  const [counts] = await core.db.execute<Record<string, string>>(
    `select (select count(*) from debates) as debates,
            (select count(*) from debates where is_public and created_at >= now() - interval '30 days') as recent_public,
            (select count(*) from debates where is_public) as public,
            (select count(*) from debate_embeddings) as embeddings,
            (select count(*) from debate_embeddings where owner_id = ?) as similar_user_embeddings,
            (select array_length(embedding, 1) from debate_embeddings limit 1) as dimensions,
            (select count(*) from argument_votes) as argument_votes,
            (select count(*) from polls) as polls,
            (select count(*) from poll_votes) as poll_votes,
            (select count(*) from debates where forked_from_id is not null) as forks,
            pg_size_pretty(pg_total_relation_size('debate_embeddings')) as embeddings_size,
            pg_size_pretty(pg_total_relation_size('debates')) as debates_size`,
    [similar.id],
  );
  return {
    keys: { similar: similar.key, interest: interest.key, fresh: fresh.key },
    counts: { ...counts, seedSeconds: ((performance.now() - t0) / 1000).toFixed(1) },
  };
}

function insertDebatesSql(owner: string, count: string, isPublic: string, created: string) {
  return `insert into debates (owner_id, question, context, mode, status, funding_source, requested_agents,
       requested_rounds, verdict, is_public, view_count, created_at, completed_at)
     select ${owner}, ${question('g')}, ${context('g')}, 'fast', 'completed', 'user_credits', 3, 1, ${VERDICT},
            ${isPublic}, case when ${isPublic} then floor(random() * 1000)::int else 0 end, ${created}, ${created}
       from generate_series(1, ${count}) as g`;
}

async function indexes() {
  const rows = await core.db.execute<{ indexname: string }>(
    `select indexname from pg_indexes where schemaname = ? and tablename = 'debates' order by indexname`,
    [schema],
  );
  return rows.map((r) => r.indexname);
}

async function explainAll() {
  const client = new pg.Client({ connectionString: databaseUrl, options: `-c search_path=${schema}` });
  await client.connect();
  try {
    const plans: Record<string, string> = {};
    for (const [kind, statement] of Object.entries(captured)) {
      const result = (await client.query(
        `explain (analyze, buffers) ${statement.text}`,
        statement.values,
      )) as { rows: { 'QUERY PLAN': string }[] };
      plans[kind] = result.rows.map((r) => r['QUERY PLAN']).join('\n');
    }
    return plans;
  } finally {
    await client.end();
  }
}

process.on('message', (message: { type?: string }) => {
  if (message?.type === 'explain') {
    explainAll().then(
      (plans) => process.send?.({ type: 'explain', plans }),
      (err: unknown) => process.send?.({ type: 'explain', error: String(err) }),
    );
  } else if (message?.type === 'drop-fts') {
    (async () => {
      const before = await indexes();
      const dropped = before.includes('debates_search_fts_index');
      if (dropped) await core.db.execute('drop index "debates_search_fts_index"');
      await core.db.execute('analyze debates');
      return { dropped, indexes: await indexes() };
    })().then(
      (r) => process.send?.({ type: 'drop-fts', ...r }),
      (err: unknown) => process.send?.({ type: 'drop-fts', error: String(err) }),
    );
  }
});

let app: FastifyInstance;
let ready: Record<string, unknown>;
try {
  const seeded = await seed();
  ready = { ...seeded, indexes: await indexes(), model: embedder.model };
  app = await buildServer({ core });
} catch (err) {
  await release();
  throw err;
}
await listenAndReport(app, release, (port) => ({ port, ...ready }));
