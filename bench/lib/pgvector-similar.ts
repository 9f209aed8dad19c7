import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCore, type Embedder, loadConfig } from '@verdict/core';
import { type BenchResult, round } from './results.ts';

const EMBEDDINGS = 10_000;
const DIMENSIONS = 1536;
const LOOKUPS = 30;

const randomVector = () => Array.from({ length: DIMENSIONS }, () => Math.random() - 0.5);

/**
 * The pgvector storage of similar debates, measured where it runs here: the embedded database (PGlite
 * loads pgvector; this machine's PostgreSQL 15 has no package for it). 10,000 debates of one user embedded
 * with random 1536-dimension vectors (SQL), then LOOKUPS lookups one after another through the service's
 * similar lookup (core.similar.find). The query's embedding is a fixed random vector: the cost measured is
 * the database's, not a provider's. PGlite has one connection, so lookups are sequential by nature.
 */
export async function measurePgvectorSimilar(log: (line: string) => void): Promise<BenchResult[]> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-pgvector-'));
  const question = randomVector();
  const embedder: Embedder = { model: 'bench:random-1536', relatedAbove: 0, embed: async () => question };
  const core = await createCore(loadConfig({ DATA_DIR: dir, NODE_ENV: 'production' }), { embedder });
  try {
    const storage = await core.similar.storage();
    if (storage !== 'pgvector') throw new Error(`PGlite stores embeddings as ${storage}, not pgvector`);
    const seedStart = performance.now();
    const [user] = await core.db.execute<{ id: string }>(
      `insert into users (id, email, name) values (gen_random_uuid(), 'pgvector@bench.invalid', 'Bench')
       returning id`,
    );
    await core.db.execute(
      `insert into debates (id, owner_id, question, mode, status, funding_source, requested_agents,
         requested_rounds, completed_at)
       select gen_random_uuid(), ?, 'Bench question ' || g, 'fast', 'completed', 'user_credits', 3, 1, now()
         from generate_series(1, ?) as g`,
      [user?.id, EMBEDDINGS],
    );
    await core.db.execute(
      `insert into debate_embeddings (debate_id, owner_id, model, embedding)
       select d.id, d.owner_id, ?, array(select (random() - 0.5 + 0 * length(d.question))::real
                                          from generate_series(1, ?))
         from debates d where d.owner_id = ?`,
      [embedder.model, DIMENSIONS, user?.id],
    );
    await core.db.execute('analyze');
    log(
      `pgvector on PGlite: seeded ${EMBEDDINGS} embeddings in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
    );
    const times: number[] = [];
    for (let i = 0; i < LOOKUPS + 3; i++) {
      const t0 = performance.now();
      const { results } = await core.similar.find(user?.id ?? '', 'q', 5);
      if (results.length !== 5) throw new Error(`pgvector lookup returned ${results.length} results`);
      if (i >= 3) times.push(performance.now() - t0); // the first three warm the cache
    }
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
    const detail =
      `${LOOKUPS} sequential lookups (after 3 warm-up) through core.similar.find on the embedded database ` +
      `(PGlite, pgvector 'vector' column, its <#> operator compiled to WASM), one user with ${EMBEDDINGS} embeddings of ${DIMENSIONS} ` +
      `random reals; min ${round(at(0))} ms, max ${round(at(1))} ms`;
    log(`pgvector on PGlite: p50 ${round(at(0.5))} ms, p99 ${round(at(0.99))} ms`);
    return [
      {
        name: 'knowledge.similar_10k_pgvector_pglite.p50_ms',
        value: round(at(0.5)),
        unit: 'ms',
        better: 'lower',
        detail,
      },
      {
        name: 'knowledge.similar_10k_pgvector_pglite.p99_ms',
        value: round(at(0.99)),
        unit: 'ms',
        better: 'lower',
        detail,
      },
    ];
  } finally {
    await core.close();
    await rm(dir, { recursive: true, force: true });
  }
}
