import { Migration } from '@mikro-orm/migrations';

/**
 * The evidence engine's corpus (evidence/): each debate's passages, numbered E1, E2 … in the debate's own
 * numbering, the primary key, so a number is taken once.
 *
 * Deleting an attachment does not delete its passages: its id is set null on them, which retires them.
 * The turns that cited them already did, and those citations, the verdict's key evidence and the evidence
 * read must keep pointing at the words they quoted; a deleted row would also free its numbers for reuse, so
 * that an E7 cited in round 1 could name another passage in round 3. Retrieval stops offering them: the
 * owner took the document out of the debate. Deleting the debate deletes them all.
 *
 * Full text: `search_vector` is the passage's text as its own source's text search configuration
 * (`language`) parses it, and a query is parsed in the same one. There is no GIN index: a turn ranks every
 * passage of one debate that shares a word with its query (evidence/corpus-index.ts reads them by the
 * primary key), and an index over all debates' passages would serve only a search across debates.
 *
 * Embeddings as pgvector's `vector` where the extension is installed (migration 0017 installs it where it
 * can), else `real[]`, the same choice as for debate_embeddings and for the same reasons: no dimension (each
 * model has its own) and no approximate index (a lookup reads one debate's passages only, exactly).
 */
export class Migration0034EvidenceCorpus extends Migration {
  override name = '0034-evidence-corpus';

  override up(): void {
    this.addSql(`create table "evidence_passages" (
      "debate_id" uuid not null,
      "number" int not null,
      "source_kind" varchar(10) not null,
      "attachment_id" uuid null,
      "url" varchar(2000) null,
      "title" text not null,
      "language" varchar(40) not null,
      "text" text not null,
      "text_start" int not null,
      "text_end" int not null,
      "search_vector" tsvector not null,
      "embedding" real[] null,
      "embedding_model" varchar(200) null,
      "created_at" timestamptz not null default now(),
      constraint "evidence_passages_pkey" primary key ("debate_id", "number"),
      constraint "evidence_passages_debate_id_foreign" foreign key ("debate_id")
        references "debates" ("id") on delete cascade,
      constraint "evidence_passages_attachment_id_foreign" foreign key ("attachment_id")
        references "attachments" ("id") on delete set null,
      constraint "evidence_passages_source_kind_check" check ("source_kind" in ('attachment', 'page', 'context'))
    );`);
    this.addSql(
      `create index "evidence_passages_attachment_index" on "evidence_passages" ("attachment_id");`,
    );
    this.addSql(`do $$
      declare
        vector_schema text := (select n.nspname from pg_extension e
          join pg_namespace n on n.oid = e.extnamespace where e.extname = 'vector');
      begin
        if vector_schema is not null then
          execute format('alter table "evidence_passages" alter column "embedding" type %1$I.vector using "embedding"::%1$I.vector', vector_schema);
        end if;
      end $$;`);
  }
}
