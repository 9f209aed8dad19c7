import { Migration } from '@mikro-orm/migrations';

/**
 * Durable execution across engine nodes: a lease on each debate (who runs it, until when, and a fencing
 * epoch that every write of the holder checks), the actor's snapshot at its last persisted step, and the
 * outbox of webhook events written in the same transaction as a debate's final state.
 */
export class Migration0006DurableEngine extends Migration {
  override name = '0006-durable-engine';

  override up(): void {
    this.addSql(`alter table "debates"
      add column "lease_owner" varchar(200) null,
      add column "lease_epoch" int not null default 0,
      add column "lease_expires_at" timestamptz null,
      add column "requeued_at" timestamptz null;`);
    // The reconciler scans unfinished debates only; keep that scan off the finished majority.
    this.addSql(`create index "debates_unfinished_index" on "debates" ("lease_expires_at")
      where "status" in ('pending', 'running', 'paused');`);
    this.addSql(`create table "debate_snapshots" (
      "debate_id" uuid not null,
      "attempt" int not null,
      "state" jsonb not null,
      "last_seq" int not null,
      "updated_at" timestamptz not null default now(),
      constraint "debate_snapshots_pkey" primary key ("debate_id"),
      constraint "debate_snapshots_debate_id_foreign" foreign key ("debate_id")
        references "debates" ("id") on delete cascade
    );`);
    this.addSql(`create table "webhook_outbox" (
      "id" uuid not null default gen_random_uuid(),
      "user_id" uuid not null,
      "event" varchar(50) not null,
      "debate_id" uuid null,
      "dedupe_key" varchar(200) not null,
      "payload" jsonb not null,
      "created_at" timestamptz not null default now(),
      "dispatched_at" timestamptz null,
      constraint "webhook_outbox_pkey" primary key ("id"),
      constraint "webhook_outbox_dedupe_key_unique" unique ("dedupe_key"),
      constraint "webhook_outbox_user_id_foreign" foreign key ("user_id")
        references "users" ("id") on delete cascade
    );`);
    this.addSql(`create index "webhook_outbox_pending_index" on "webhook_outbox" ("created_at")
      where "dispatched_at" is null;`);
  }
}
