import { Migration } from '@mikro-orm/migrations';

/**
 * Search (search/): the history of each user's searches, and the indexes that keep keyword and full-text
 * search of debates fast.
 *
 * - Full text: a GIN index on the very expression search.ts ranks with, so `@@` uses it.
 * - Keyword (ILIKE '%…%'): trigram GIN indexes on question and context, when the database has pg_trgm (a
 *   contrib extension: PostgreSQL's packages ship it, PGlite loads it only on request). Without it they
 *   are left out and the same queries run, without that help: the owner's index still narrows them to one
 *   user's debates.
 *
 * The extension goes into `public` (or stays wherever an administrator put it) and its operator class is
 * named with that schema: a service schema dropped with `cascade` (tests) never takes the extension, and
 * the indexes of other schemas with it.
 */
export class Migration0014Search extends Migration {
  override name = '0014-search';

  override up(): void {
    this.addSql(`create table "search_history" (
      "id" uuid not null default gen_random_uuid(),
      "user_id" uuid not null,
      "query" varchar(200) not null,
      "created_at" timestamptz not null default now(),
      constraint "search_history_pkey" primary key ("id"),
      constraint "search_history_user_id_foreign" foreign key ("user_id")
        references "users" ("id") on delete cascade
    );`);
    this.addSql(
      `create index "search_history_user_created_index" on "search_history" ("user_id", "created_at");`,
    );
    this.addSql(`create unique index "search_history_user_query_unique"
      on "search_history" ("user_id", lower("query"));`);
    this.addSql(`create index "debates_search_fts_index" on "debates"
      using gin (to_tsvector('english', "question" || ' ' || coalesce("context", '')));`);
    this.addSql(`do $$
      declare
        trgm_schema text := (select n.nspname from pg_extension e
          join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm');
      begin
        if trgm_schema is null then
          begin
            create extension if not exists pg_trgm schema public;
          exception when others then
            -- Not installable here (no contrib files, no privilege, no public schema), or another
            -- migration installed it at the same moment: the lookup below tells which.
            null;
          end;
          trgm_schema := (select n.nspname from pg_extension e
            join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm');
        end if;
        if trgm_schema is not null then
          execute format('create index "debates_question_trgm_index" on "debates" using gin ("question" %I.gin_trgm_ops)', trgm_schema);
          execute format('create index "debates_context_trgm_index" on "debates" using gin ("context" %I.gin_trgm_ops)', trgm_schema);
        end if;
      end $$;`);
  }
}
