import { Migration } from '@mikro-orm/migrations';

/**
 * Outcomes and decision scores: each completed debate's domain, an outcome record per completed debate
 * (pending until its owner says what happened), each user's score as last computed, and the stamp by which
 * the score worker takes each outcome event of the outbox once.
 */
export class Migration0009Outcomes extends Migration {
  override name = '0009-outcomes';

  override up(): void {
    this.addSql(`alter table "debates" add column "domain" varchar(20) null;`);
    this.addSql(`create table "outcomes" (
      "debate_id" uuid not null,
      "owner_id" uuid not null,
      "status" varchar(20) not null default 'pending',
      "confidence" double precision not null,
      "recommendation" varchar(30) not null,
      "domain" varchar(20) not null,
      "notes" text null,
      "satisfaction_score" int null,
      "reminder_at" timestamptz null,
      "created_at" timestamptz not null default now(),
      "recorded_at" timestamptz null,
      constraint "outcomes_pkey" primary key ("debate_id"),
      constraint "outcomes_debate_id_foreign" foreign key ("debate_id")
        references "debates" ("id") on delete cascade,
      constraint "outcomes_owner_id_foreign" foreign key ("owner_id")
        references "users" ("id") on delete cascade,
      constraint "outcomes_status_check"
        check ("status" in ('pending', 'correct', 'partially_correct', 'wrong', 'too_early', 'skipped')),
      constraint "outcomes_satisfaction_score_check" check ("satisfaction_score" >= 1 and "satisfaction_score" <= 5)
    );`);
    this.addSql(`create index "outcomes_owner_status_index" on "outcomes" ("owner_id", "status");`);
    this.addSql(`create table "user_scores" (
      "user_id" uuid not null,
      "score" jsonb not null,
      "calibration" jsonb not null,
      "domains" jsonb not null,
      "daily" jsonb not null,
      "updated_at" timestamptz not null default now(),
      constraint "user_scores_pkey" primary key ("user_id"),
      constraint "user_scores_user_id_foreign" foreign key ("user_id")
        references "users" ("id") on delete cascade
    );`);
    this.addSql(`alter table "webhook_outbox" add column "scored_at" timestamptz null;`);
    this.addSql(`create index "webhook_outbox_unscored_index" on "webhook_outbox" ("created_at")
      where "scored_at" is null and "event" in ('debate.completed', 'outcome.recorded', 'outcome.updated');`);
  }
}
