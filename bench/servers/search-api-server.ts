/**
 * The API (PostgreSQL in a fresh schema, no engine: search reads only) for the search suite. Before
 * listening it seeds, with one generate_series statement, BENCH_SEARCH_TOTAL debates (default 200,000),
 * BENCH_SEARCH_OWN (default 10,000) of them the `searcher` account's and the rest spread over 19 others;
 * then it analyzes the table and EXPLAIN ANALYZEs the statements each search of BENCH_SEARCHES runs (search-queries.ts,
 * the very builders the service uses), with the trigram indexes and, in a rolled-back transaction, without
 * them (a database without pg_trgm). Prints {"port","key","trigram","plans":{label:{indexed,fallback}}}.
 * Drops its schema on stop.
 */
import { buildServer } from '@verdict/api';
import { SearchQuery } from '@verdict/contracts';
import { createCore, loadConfig } from '@verdict/core';
import { CompiledQuery } from 'kysely';
import { query } from '../../packages/core/src/db/kysely.ts';
import type { DebateTables } from '../../packages/core/src/debates/tables.ts';
import { keywordStatements } from '../../packages/core/src/search/search-queries.ts';
import { dropBenchSchema } from '../lib/drop-schema.ts';
import { listenAndReport } from '../lib/spawn-server.ts';

/** The searches to explain, by label (the suite's list, as JSON). */
const SEARCHES: Record<string, Record<string, string>> = JSON.parse(process.env.BENCH_SEARCHES ?? '{}');

const config = loadConfig({ ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' });
const core = await createCore(config);

async function release() {
  if (config.database.kind === 'postgres') {
    await dropBenchSchema(core.db, config.database.schema);
  }
  await core.close();
}

const SEARCH_INDEXES = [
  'debates_search_fts_index',
  'debates_question_trgm_index',
  'debates_context_trgm_index',
];
const CHUNK = 50_000;

/**
 * Questions from a few subjects and places (each place in one debate of seven), a context on every other
 * debate with a reference number that occurs once, views spread over 0–999. The search indexes are dropped
 * for the load and rebuilt from their own definitions after it (a build is far cheaper than 200,000
 * insertions into GIN indexes), in chunks that each stay inside the driver's 30 s query timeout.
 */
async function seed(searcher: string, others: string[], total: number, own: number) {
  const definitions = await core.db.execute<{ indexname: string; indexdef: string }>(
    `select indexname, indexdef from pg_indexes where schemaname = current_schema() and indexname in (?, ?, ?)`,
    SEARCH_INDEXES,
  );
  for (const { indexname } of definitions) await core.db.execute(`drop index "${indexname}"`);
  for (let from = 1; from <= total; from += CHUNK) {
    // chr(63) is the question mark: one written in the SQL would read as a placeholder.
    await core.db.execute(
      `insert into debates (owner_id, question, context, mode, status, funding_source, requested_agents,
         requested_rounds, verdict, view_count, created_at, completed_at)
       select case when g <= ? then ?::uuid else (?::uuid[])[1 + g % ?] end,
              'Should we ' || (array['hire for','expand','launch','migrate','rebrand','outsource'])[1 + g % 6]
                || ' the ' || (array['Lisbon','Berlin','Austin','Osaka','Nairobi','Lima','Oslo'])[1 + g % 7]
                || ' team in quarter ' || (1 + g % 4) || chr(63),
              case when g % 2 = 0 then 'Budget notes, ref ' || g || '.' end,
              (array['fast','balanced','thorough'])[1 + g % 3], 'completed', 'user_credits', 3, 1,
              jsonb_build_object('recommendation', 'PROCEED', 'oneLiner', 'Go', 'confidence', (g % 100) / 100.0),
              (g * 7919) % 1000, now() - make_interval(mins => g), now() - make_interval(mins => g)
         from generate_series(?::int, ?::int) as g`,
      [own, searcher, `{${others.join(',')}}`, others.length, from, Math.min(total, from + CHUNK - 1)],
    );
  }
  for (const { indexdef } of definitions) await core.db.execute(indexdef);
  await core.db.execute('analyze debates');
}

/** Carries the plans out of a transaction that must not commit (it may have dropped indexes). */
class RolledBack extends Error {
  readonly plans: Record<string, string>;
  constructor(plans: Record<string, string>) {
    super('rolled back');
    this.plans = plans;
  }
}

/** EXPLAIN ANALYZE of a search's two statements (count, page), as text; nothing is kept. */
async function plansOf(searcher: string, params: Record<string, string>, dropTrigrams: boolean) {
  try {
    await core.db.em().transactional(async (em) => {
      const k = query<DebateTables>(em);
      if (dropTrigrams) {
        await k.executeQuery(CompiledQuery.raw('drop index debates_question_trgm_index'));
        await k.executeQuery(CompiledQuery.raw('drop index debates_context_trgm_index'));
      }
      const statements = keywordStatements(k, searcher, SearchQuery.parse(params));
      const plans: Record<string, string> = {};
      for (const [name, statement] of Object.entries(statements)) {
        const compiled = statement.compile();
        const explained = await k.executeQuery<{ 'QUERY PLAN': string }>(
          CompiledQuery.raw(`explain (analyze, buffers) ${compiled.sql}`, [...compiled.parameters]),
        );
        plans[name] = explained.rows.map((row) => row['QUERY PLAN']).join('\n');
      }
      throw new RolledBack(plans);
    });
  } catch (err) {
    if (err instanceof RolledBack) return err.plans;
    throw err;
  }
  throw new Error('unreachable: the transaction always rolls back');
}

let ready: Record<string, unknown>;
const app = await (async () => {
  try {
    const total = Number(process.env.BENCH_SEARCH_TOTAL ?? 200_000);
    const own = Number(process.env.BENCH_SEARCH_OWN ?? 10_000);
    const user = await core.accounts.createUser({
      email: `bench-search-${process.pid}@example.com`,
      name: 's',
    });
    await core.accounts.setRateLimit(user.id, 1_000_000);
    const key = (await core.apiKeys.create(user.id, 'searcher', null)).key;
    const others: string[] = [];
    for (let i = 0; i < 19; i++) {
      const other = await core.accounts.createUser({
        email: `bench-search-${process.pid}-${i}@example.com`,
        name: `o${i}`,
      });
      others.push(other.id);
    }
    await seed(user.id, others, total, own);
    const indexes = await core.db.execute<{ indexname: string }>(
      `select indexname from pg_indexes where schemaname = current_schema() and tablename = 'debates'`,
    );
    const trigram = indexes.some((row) => row.indexname === 'debates_question_trgm_index');
    const plans: Record<string, unknown> = {};
    for (const [label, params] of Object.entries(SEARCHES)) {
      plans[label] = {
        indexed: await plansOf(user.id, params, false),
        ...(trigram ? { fallback: await plansOf(user.id, params, true) } : {}),
      };
    }
    ready = { key, trigram, plans };
    return await buildServer({ core });
  } catch (err) {
    await release();
    throw err;
  }
})();
await listenAndReport(app, release, (port) => ({ port, ...ready }));
