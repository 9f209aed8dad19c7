import { Migration } from '@mikro-orm/migrations';

/**
 * Embeddings of completed debates (similar-debate lookup), and the stamp by which the embedding worker
 * takes each debate.completed row of the outbox once.
 */
export class Migration0016Embeddings extends Migration {
  override name = '0016-embeddings';

  override up(): void {
    this.addSql(`create table "debate_embeddings" (
      "debate_id" uuid not null,
      "owner_id" uuid not null,
      "model" varchar(200) not null,
      "embedding" real[] not null,
      "created_at" timestamptz not null default now(),
      constraint "debate_embeddings_pkey" primary key ("debate_id"),
      constraint "debate_embeddings_debate_id_foreign" foreign key ("debate_id")
        references "debates" ("id") on delete cascade,
      constraint "debate_embeddings_owner_id_foreign" foreign key ("owner_id")
        references "users" ("id") on delete cascade
    );`);
    this.addSql(
      `create index "debate_embeddings_owner_model_index" on "debate_embeddings" ("owner_id", "model");`,
    );
    this.addSql(`alter table "webhook_outbox" add column "embedded_at" timestamptz null;`);
    this.addSql(`create index "webhook_outbox_unembedded_index" on "webhook_outbox" ("created_at")
      where "embedded_at" is null and "event" = 'debate.completed';`);
  }
}
