import { Migration } from '@mikro-orm/migrations';

/**
 * The embedding and score workers keep their own progress instead of stamps on the webhook outbox, so webhook
 * retention knows only webhooks. The work still pending moves: each completed debate not yet embedded (its
 * claim and tries with it) to `embedding_queue`, each outcome event not yet scored to `score_queue`; then the
 * outbox's columns and partial indexes for them go.
 */
export class Migration0027ConsumerQueues extends Migration {
  override name = '0027-consumer-queues';

  override up(): void {
    this.addSql(`create table "embedding_queue" (
      "debate_id" uuid not null,
      "created_at" timestamptz not null default now(),
      "due_at" timestamptz null,
      "attempts" smallint not null default 0,
      constraint "embedding_queue_pkey" primary key ("debate_id"),
      constraint "embedding_queue_debate_id_foreign" foreign key ("debate_id")
        references "debates" ("id") on delete cascade
    );`);
    this.addSql(`create index "embedding_queue_created_index" on "embedding_queue" ("created_at");`);
    this.addSql(`create table "score_queue" (
      "id" uuid not null default gen_random_uuid(),
      "user_id" uuid not null,
      "created_at" timestamptz not null default now(),
      constraint "score_queue_pkey" primary key ("id"),
      constraint "score_queue_user_id_foreign" foreign key ("user_id")
        references "users" ("id") on delete cascade
    );`);
    this.addSql(`create index "score_queue_created_index" on "score_queue" ("created_at");`);
    // A debate completed more than once (one outbox row per attempt) is embedded once: its earliest row's
    // age, and the most any of its rows was tried and claimed.
    this.addSql(`insert into "embedding_queue" ("debate_id", "created_at", "due_at", "attempts")
      select o."debate_id", min(o."created_at"), max(o."embed_due_at"), max(o."embed_attempts")
      from "webhook_outbox" o join "debates" d on d."id" = o."debate_id"
      where o."event" = 'debate.completed' and o."embedded_at" is null
      group by o."debate_id";`);
    this.addSql(`insert into "score_queue" ("user_id", "created_at")
      select "user_id", "created_at" from "webhook_outbox"
      where "scored_at" is null and "event" in ('debate.completed', 'outcome.recorded', 'outcome.updated');`);
    this.addSql(`drop index if exists "webhook_outbox_unscored_index";`);
    this.addSql(`drop index if exists "webhook_outbox_unembedded_index";`);
    this.addSql(`alter table "webhook_outbox" drop column "scored_at", drop column "embedded_at",
      drop column "embed_due_at", drop column "embed_attempts";`);
  }
}
