import { Migration } from '@mikro-orm/migrations';

/** Debates, their event log and their turns. */
export class Migration0002Debates extends Migration {
  override name = '0002-debates';

  override up(): void {
    this.addSql(`create table "debates" (
      "id" uuid not null default gen_random_uuid(),
      "owner_id" uuid not null,
      "question" text not null,
      "context" text null,
      "mode" varchar(255) not null,
      "status" varchar(255) not null default 'pending',
      "funding_source" varchar(255) not null,
      "is_public" boolean not null default false,
      "requested_agents" int not null,
      "requested_rounds" int not null,
      "preset" varchar(50) null,
      "routing" jsonb null,
      "agent_count" int null,
      "round_count" int null,
      "verdict" jsonb null,
      "cost" jsonb null,
      "failure_code" varchar(50) null,
      "failure_message" text null,
      "attempt" int not null default 1,
      "created_at" timestamptz not null default now(),
      "started_at" timestamptz null,
      "completed_at" timestamptz null,
      constraint "debates_pkey" primary key ("id")
    );`);
    this.addSql(`create index "debates_owner_id_index" on "debates" ("owner_id");`);
    this.addSql(`create index "debates_status_index" on "debates" ("status");`);
    this.addSql(`alter table "debates" add constraint "debates_owner_id_foreign"
      foreign key ("owner_id") references "users" ("id") on delete cascade;`);

    this.addSql(`create table "debate_events" (
      "debate_id" uuid not null,
      "attempt" int not null,
      "seq" int not null,
      "type" varchar(50) not null,
      "data" jsonb not null,
      "created_at" timestamptz not null default now(),
      constraint "debate_events_pkey" primary key ("debate_id", "attempt", "seq")
    );`);

    this.addSql(`create table "debate_turns" (
      "debate_id" uuid not null,
      "attempt" int not null,
      "round" int not null,
      "agent" varchar(100) not null,
      "content" text not null,
      "model" varchar(200) not null,
      "target_agent" varchar(100) null,
      "input_tokens" int not null,
      "output_tokens" int not null,
      "created_at" timestamptz not null default now(),
      constraint "debate_turns_pkey" primary key ("debate_id", "attempt", "round", "agent")
    );`);
  }
}
