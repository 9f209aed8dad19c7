import type pg from 'pg';

/**
 * The history suite's data, written with set-based SQL (insert … select … from generate_series), never
 * through the service: 1,000,000 debates and 20,000,000 events in minutes. Who owns what:
 *
 * - `heavy`: 100,000 debates over two years, half of them in its workspace; embeddings for its completed ones;
 * - `typical`: 300 debates over a year, embeddings likewise;
 * - SMALL_ACCOUNTS others share the rest, skewed (owner = ⌊n·r²⌋ of a pseudo-random r: a few dozen
 *   accounts hold thousands, most hold a few dozen or fewer).
 *
 * Each debate: 94 % completed with a verdict and a cost, 4 % failed, 2 % unfinished; 2 % soft-deleted;
 * EVENTS_PER_DEBATE events, TURNS_PER_DEBATE turns; a third of the completed ones with an outcome (resolved
 * or pending); each account's key with two years of per-endpoint usage counts.
 *
 * Pseudo-random but fixed: every figure derives from the debate's number g, so two fills are alike.
 * BENCH_HISTORY_SCALE (default 1) scales the counts, for a quick look at the suite itself.
 */
/** Raised whenever the fill's SQL changes what it writes: a kept cluster of another version is filled anew. */
export const FILL_VERSION = 1;

const SCALE = Number(process.env.BENCH_HISTORY_SCALE ?? 1);

export const HISTORY = {
  debates: Math.round(1_000_000 * SCALE),
  heavy: Math.round(100_000 * SCALE),
  typical: Math.round(300 * SCALE),
  smallAccounts: Math.max(10, Math.round(20_000 * SCALE)),
  eventsPerDebate: 20,
  turnsPerDebate: 4,
  embeddingDimensions: 1536,
  embeddingModel: 'bench:random-1536',
} as const;

/** Debates a statement writes: each chunk is one transaction, a few tens of seconds, progress between. */
const CHUNK = 100_000;

/** The tables the fill writes in bulk: their secondary indexes are dropped before and built after. */
const BULK_TABLES = ['debates', 'debate_events', 'debate_turns', 'outcomes', 'debate_embeddings'];

/** A fraction in [0, 1) from an integer expression: a multiplicative hash, fixed for a given g. */
const unit = (expr: string) => `((((${expr})::bigint * 2654435761) % 4294967296) / 4294967296.0)`;

export type FilledAccounts = { heavy: string; typical: string; workspace: string };

/** The users: heavy, typical and the small accounts, and the heavy account's workspace. */
async function fillAccounts(client: pg.Client): Promise<FilledAccounts> {
  await client.query(
    `insert into users (email, name, plan, rate_limit_per_minute)
     select 'history-' || g || '@bench.invalid', 'History ' || g, case when g <= 2 then 'team' else 'free' end,
            case when g <= 2 then 1000000 end
       from generate_series(1, $1::int) as g`,
    [HISTORY.smallAccounts + 2],
  );
  const ids = await client.query<{ email: string; id: string }>(
    `select email, id from users where email in ('history-1@bench.invalid', 'history-2@bench.invalid')`,
  );
  const byEmail = new Map(ids.rows.map((r) => [r.email, r.id]));
  const heavy = byEmail.get('history-1@bench.invalid') as string;
  const typical = byEmail.get('history-2@bench.invalid') as string;
  const ws = await client.query<{ id: string }>(
    `insert into workspaces (owner_id, name, slug) values ($1, 'History heavy', 'history-heavy') returning id`,
    [heavy],
  );
  const workspace = ws.rows[0]?.id as string;
  await client.query(
    `insert into workspace_members (workspace_id, user_id, role) values ($1, $2, 'owner'), ($1, $3, 'member')`,
    [workspace, heavy, typical],
  );
  return { heavy, typical, workspace };
}

/**
 * The owner of debate g: heavy, typical, or a small account picked with skew. The accounts' debates are
 * interleaved in the table, as debates created over the same years are: heavy's every tenth row (half of
 * them in its workspace), typical's every 3,331st.
 */
const IS_HEAVY = 'g % 10 = 0';
const TYPICAL_EVERY = 3331;
const OWNER = `case when ${IS_HEAVY} then 1
  when g % ${TYPICAL_EVERY} = 1 then 2
  else 3 + floor(${HISTORY.smallAccounts} * power(${unit('g')}, 2))::int end`;

/** Seconds before now that debate g was created: heavy's over two years, the others' over one. */
const AGE_S = `case when ${IS_HEAVY} then (${unit('g + 17')} * 63072000)::int
  else (${unit('g + 17')} * 31536000)::int end`;

/** Debate g's place in [0, 100) for its status: 94 completed, 4 failed, 1 running, 1 pending. */
const PERCENTILE = `floor(${unit('g + 5')} * 100)::int`;

/** Debate g's id (an md5 shaped as a version-4 UUID) and creation time, so that its events and turns can be written from g alone. */
const DEBATE_ID = `overlay(overlay(md5('history-debate-' || g) placing '4' from 13) placing '8' from 17)::uuid`;
const CREATED_AT = `($4::timestamptz - make_interval(secs => ${AGE_S}))`;
type Range = [from: number, to: number];

const VERDICT = `jsonb_build_object(
  'recommendation', (array['PROCEED','RECONSIDER','REJECT','DEFER','MORE_INFO_NEEDED','SPLIT_DECISION'])[1 + g % 6],
  'oneLiner', 'Go ahead with the plan for quarter ' || (1 + g % 4) || ', with a review after the pilot',
  'confidence', round((0.4 + (g % 60) / 100.0)::numeric, 2),
  'narrative', repeat('The panel weighed cost, risk and timing; the evidence favours a staged rollout. ', 8),
  'arguments', '[]'::jsonb, 'keyEvidence', '[]'::jsonb, 'decisionMatrix', '[]'::jsonb,
  'nextSteps', jsonb_build_array('Run the pilot', 'Review in six weeks'),
  'revisitTriggers', jsonb_build_array('Costs above plan'), 'missingAgents', '[]'::jsonb)`;

/** Debates g in [from, to]: one statement. Statuses, deletions and times all follow from g. */
async function fillDebates(client: pg.Client, a: FilledAccounts, [from, to]: Range, anchor: Date) {
  await client.query(
    `with numbered as (select id, (regexp_replace(email, '\\D', '', 'g'))::int as n from users where email like 'history-%')
     insert into debates (id, owner_id, workspace_id, question, context, mode, status, funding_source,
       requested_agents, requested_rounds, agent_count, round_count, verdict, cost, domain, view_count,
       created_at, started_at, completed_at, deleted_at)
     select ${DEBATE_ID}, o.id, case when ${IS_HEAVY} and g % 20 = 0 then $1::uuid end,
       'Should we ' || (array['hire for','expand','launch','migrate','rebrand','outsource'])[1 + g % 6]
         || ' the ' || (array['Lisbon','Berlin','Austin','Osaka','Nairobi','Lima','Oslo'])[1 + g % 7]
         || ' team in quarter ' || (1 + g % 4) || chr(63),
       case when g % 2 = 0 then 'Budget notes, ref ' || g || '.' end,
       (array['fast','balanced','thorough'])[1 + g % 3],
       case when ${PERCENTILE} < 94 then 'completed' when ${PERCENTILE} < 98 then 'failed'
            when ${PERCENTILE} = 98 then 'running' else 'pending' end,
       'user_credits', 3, 2, 3, case when ${PERCENTILE} < 94 then 2 end,
       case when ${PERCENTILE} < 94 then ${VERDICT} end,
       case when ${PERCENTILE} < 98 then jsonb_build_object('inputTokens', 4000 + g % 3000, 'outputTokens', 1500 + g % 900,
         'estimatedUsd', 0.05, 'credits', 1, 'llmCalls', 8) end,
       (array['business','technology','health','legal','personal','finance','education','other'])[1 + g % 8],
       (g::bigint * 7919) % 1000, t.created_at,
       case when ${PERCENTILE} < 99 then t.created_at + interval '2 seconds' end,
       case when ${PERCENTILE} < 98 then t.created_at + make_interval(secs => 60 + g % 600) end,
       case when ${unit('g + 9')} < 0.02 then t.created_at + interval '1 day' end
     from generate_series($2::int, $3::int) as g
     cross join lateral (select ${CREATED_AT} as created_at) t
     join numbered o on o.n = ${OWNER}`,
    [a.workspace, from, to, anchor],
  );
}

/** The events and turns of debates g in [from, to], from g alone (their ids and times are derived). */
async function fillEventsAndTurns(client: pg.Client, [from, to]: Range, anchor: Date) {
  const debates = `select ${DEBATE_ID} as id, ${CREATED_AT} as created_at from generate_series($1::int, $2::int) as g`;
  await client.query(
    `insert into debate_events (debate_id, attempt, seq, type, data, created_at)
     select d.id, 1, s,
       (array['debate.started','round.started','agent.thinking','agent.turn','agent.turn','agent.turn',
              'round.ended','convergence.measured','judge.started','verdict.ready'])[1 + (s - 1) % 10],
       jsonb_build_object('round', 1 + s / 10, 'agent', 'agent-' || (s % 3),
         'text', 'A short line of the debate as streamed to its readers, number ' || s || '.'),
       d.created_at + make_interval(secs => s)
     from (${debates.replace('$4', '$3')}) d cross join generate_series(1, ${HISTORY.eventsPerDebate}) as s`,
    [from, to, anchor],
  );
  await client.query(
    `insert into debate_turns (debate_id, attempt, round, agent, content, model, input_tokens, output_tokens, created_at)
     select d.id, 1, 1 + (t - 1) / 2, 'agent-' || ((t - 1) % 2),
       'The position of this agent in this round, in a paragraph of a realistic length for a turn.',
       'gpt-4o-mini', 900 + t * 10, 300 + t * 5, d.created_at + make_interval(secs => 10 * t)
     from (${debates.replace('$4', '$3')}) d cross join generate_series(1, ${HISTORY.turnsPerDebate}) as t`,
    [from, to, anchor],
  );
}

/** A third of the completed debates with an outcome: mostly resolved, some pending or skipped. */
async function fillOutcomes(client: pg.Client) {
  await client.query(
    `insert into outcomes (debate_id, owner_id, status, confidence, recommendation, domain, created_at, recorded_at)
     select d.id, d.owner_id,
       (array['correct','partially_correct','wrong','too_early','skipped','pending','correct'])[1 + (d.view_count % 7)],
       (d.verdict->>'confidence')::float8, d.verdict->>'recommendation', d.domain, d.completed_at,
       case when d.view_count % 7 not in (4, 5) then d.completed_at + interval '20 days' end
     from debates d where d.status = 'completed' and d.view_count % 3 = 0`,
  );
}

/**
 * Embeddings of the completed debates of the two measured accounts (the others are never looked up): each
 * one of 1,000 pseudo-random vectors made once, since a lookup's cost does not depend on their values.
 */
async function fillEmbeddings(client: pg.Client, a: FilledAccounts) {
  await client.query(
    `create temp table vectors as
     select v, array_agg(((${unit('i * 1000 + v')}) - 0.5)::real order by i) as embedding
       from generate_series(0, 999) as v cross join generate_series(1, ${HISTORY.embeddingDimensions}) as i
      group by v`,
  );
  await client.query(
    `insert into debate_embeddings (debate_id, owner_id, model, embedding, created_at)
     select d.id, d.owner_id, $3, v.embedding, d.completed_at
     from debates d join vectors v on v.v = (d.view_count * 7 + extract(second from d.created_at)::int) % 1000
     where d.owner_id in ($1, $2) and d.status = 'completed'`,
    [a.heavy, a.typical, HISTORY.embeddingModel],
  );
  await client.query('drop table vectors');
}

/** Each account's keys' usage: 24 months × 30 endpoints for the two measured keys. */
async function fillKeyUsage(client: pg.Client, keyIds: string[]) {
  await client.query(
    `insert into key_usage (key_id, period, endpoint, count)
     select k, (date_trunc('month', now()) - make_interval(months => m))::date, '/api/endpoint-' || e, 100 + m * e
     from unnest($1::uuid[]) as k cross join generate_series(0, 23) as m cross join generate_series(1, 30) as e`,
    [keyIds],
  );
}

type IndexDef = { table: string; name: string; def: string; constraint: boolean };

/** Secondary indexes and primary keys of the bulk tables that nothing references: rebuilt after the fill. */
async function droppableIndexes(client: pg.Client): Promise<IndexDef[]> {
  const rows = await client.query<{ table: string; name: string; def: string; constraint: boolean }>(
    `select c.relname as table, i.relname as name,
            coalesce(pg_get_constraintdef(con.oid), pg_get_indexdef(i.oid)) as def,
            con.oid is not null as constraint
       from pg_index x
       join pg_class i on i.oid = x.indexrelid
       join pg_class c on c.oid = x.indrelid
       left join pg_constraint con on con.conindid = i.oid and con.contype in ('p', 'u')
      where c.relname = any($1) and c.relnamespace = current_schema()::regnamespace
        and not exists (select 1 from pg_constraint f where f.contype = 'f' and f.confrelid = c.oid
                                                      and con.oid is not null)`,
    [BULK_TABLES],
  );
  return rows.rows;
}

async function dropIndexes(client: pg.Client, defs: IndexDef[]) {
  for (const d of defs) {
    await client.query(
      d.constraint ? `alter table "${d.table}" drop constraint "${d.name}"` : `drop index "${d.name}"`,
    );
  }
}

async function buildIndexes(client: pg.Client, defs: IndexDef[], log: (line: string) => void) {
  for (const d of defs) {
    const started = Date.now();
    await client.query(d.constraint ? `alter table "${d.table}" add constraint "${d.name}" ${d.def}` : d.def);
    log(`  index ${d.name}: ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
}

/** The whole fill, on one connection without a statement timeout, foreign-key triggers off. */
export async function fillHistory(
  client: pg.Client,
  keyIdsOf: (a: FilledAccounts) => Promise<string[]>,
  log: (line: string) => void,
): Promise<FilledAccounts> {
  await client.query('set statement_timeout = 0');
  await client.query('set session_replication_role = replica');
  const accounts = await fillAccounts(client);
  const defs = await droppableIndexes(client);
  await dropIndexes(client, defs);
  const anchor = new Date();
  for (let from = 1; from <= HISTORY.debates; from += CHUNK) {
    const range: Range = [from, Math.min(HISTORY.debates, from + CHUNK - 1)];
    const started = Date.now();
    await fillDebates(client, accounts, range, anchor);
    await fillEventsAndTurns(client, range, anchor);
    log(`debates ${range.join('–')} with their events and turns: ${seconds(started)} s`);
  }
  await timed(log, 'outcomes', () => fillOutcomes(client));
  await timed(log, 'embeddings', () => fillEmbeddings(client, accounts));
  await timed(log, 'key usage', async () => fillKeyUsage(client, await keyIdsOf(accounts)));
  await timed(log, 'indexes', () => buildIndexes(client, defs, log));
  await client.query('reset session_replication_role');
  await timed(log, 'vacuum analyze', () => client.query('vacuum (analyze)'));
  return accounts;
}

const seconds = (since: number) => ((Date.now() - since) / 1000).toFixed(0);

async function timed(log: (line: string) => void, what: string, step: () => Promise<unknown>) {
  const started = Date.now();
  await step();
  log(`${what}: ${seconds(started)} s`);
}
