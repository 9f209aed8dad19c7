import { Migration } from '@mikro-orm/migrations';

/**
 * Similar-debate storage.
 *
 * Soft-deleted debates get a small partial index: a lookup leaves them out with an anti-join that reads
 * this index instead of scanning every debate for the few deleted ones.
 *
 * Embeddings as pgvector's `vector` where the database can have it (PGlite loads it; managed PostgreSQL
 * services generally offer it; Debian 12's PostgreSQL 15 has no package for it). Elsewhere the column
 * stays `real[]` and similar/vector-storage.ts computes cosine in plain SQL: one interface, two storages.
 *
 * The column has no dimension: each embedding model has its own, and rows are only ever compared with
 * vectors of the same model. No approximate index: a lookup is confined to one user's history by the
 * owner index, and an exact distance over those rows is what the caller is promised; an index over every
 * user's vectors would filter by owner only after its nearest-neighbour walk and miss results.
 *
 * The extension goes into `public` (or stays wherever an administrator put it) for the reason 0014 gives.
 */
export class Migration0017SimilarStorage extends Migration {
  override name = '0017-similar-storage';

  override up(): void {
    this.addSql(`create index "debates_deleted_index" on "debates" ("id") where "deleted_at" is not null;`);
    this.addSql(`do $$
      declare
        vector_schema text := (select n.nspname from pg_extension e
          join pg_namespace n on n.oid = e.extnamespace where e.extname = 'vector');
      begin
        if vector_schema is null and exists (select 1 from pg_available_extensions where name = 'vector') then
          begin
            create extension if not exists vector schema public;
          exception when others then
            -- No privilege, no public schema, or another migration installed it at the same moment.
            null;
          end;
          vector_schema := (select n.nspname from pg_extension e
            join pg_namespace n on n.oid = e.extnamespace where e.extname = 'vector');
        end if;
        if vector_schema is not null then
          execute format('alter table "debate_embeddings" alter column "embedding" type %1$I.vector using "embedding"::%1$I.vector', vector_schema);
        end if;
      end $$;`);
  }
}
