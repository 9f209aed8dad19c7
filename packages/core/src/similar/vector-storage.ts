import { type RawBuilder, sql } from 'kysely';
import type { Database } from '../db/orm.ts';

/**
 * How `debate_embeddings.embedding` is stored in this database (migration 0017 decides once): pgvector's
 * `vector` where the extension exists, else `real[]`. Everything else about similar debates is the same
 * for both; only the similarity expression differs.
 */
export type VectorStorage = { kind: 'pgvector'; schema: string } | { kind: 'real-array' };

export async function detectVectorStorage(db: Database): Promise<VectorStorage> {
  const rows = await db.execute<{ type_name: string; type_schema: string }>(
    `select t.typname as type_name, n.nspname as type_schema
       from pg_attribute a
       join pg_type t on t.oid = a.atttypid
       join pg_namespace n on n.oid = t.typnamespace
      where a.attrelid = 'debate_embeddings'::regclass and a.attname = 'embedding'`,
  );
  const column = rows[0];
  return column?.type_name === 'vector'
    ? { kind: 'pgvector', schema: column.type_schema }
    : { kind: 'real-array' };
}

/**
 * Cosine similarity of the stored `e.embedding` to `unit` (both unit length, so it is their dot product).
 * pgvector: its negative-inner-product operator, computed in C; the operator and type are named with
 * their schema, which need not be on the search path. real[]: a sum over both arrays unnested in step.
 */
export function similarityTo(storage: VectorStorage, unit: readonly number[]): RawBuilder<number> {
  const literal = `{${unit.join(',')}}`;
  if (storage.kind === 'real-array') {
    return sql<number>`(select sum(a * b) from unnest(e.embedding, ${literal}::real[]) as t(a, b))`;
  }
  const schema = sql.id(storage.schema);
  return sql<number>`-(e.embedding operator(${schema}.<#>) ${literal}::real[]::${schema}.vector)`;
}
