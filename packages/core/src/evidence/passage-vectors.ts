import type { Database } from '../db/orm.ts';
import type { VectorStorage } from '../similar/vector-storage.ts';

/**
 * How `evidence_passages.embedding` is stored in this database (migration 0034 decides once, as 0017 does
 * for debates): pgvector's `vector`, or `real[]`. Asked once per database: nothing changes it while the
 * process runs.
 */
const storages = new WeakMap<Database, Promise<VectorStorage>>();

export function passageVectorStorage(db: Database): Promise<VectorStorage> {
  let storage = storages.get(db);
  if (!storage) {
    storage = detect(db).catch((error: unknown) => {
      storages.delete(db);
      throw error;
    });
    storages.set(db, storage);
  }
  return storage;
}

async function detect(db: Database): Promise<VectorStorage> {
  const rows = await db.execute<{ type_name: string; type_schema: string }>(
    `select t.typname as type_name, n.nspname as type_schema
       from pg_attribute a
       join pg_type t on t.oid = a.atttypid
       join pg_namespace n on n.oid = t.typnamespace
      where a.attrelid = 'evidence_passages'::regclass and a.attname = 'embedding'`,
  );
  const column = rows[0];
  return column?.type_name === 'vector'
    ? { kind: 'pgvector', schema: column.type_schema }
    : { kind: 'real-array' };
}

/** A vector as a PostgreSQL array literal, for `?::real[]` (pgvector's assignment cast takes it too). */
export const arrayLiteral = (vector: readonly number[]) => `{${vector.join(',')}}`;
