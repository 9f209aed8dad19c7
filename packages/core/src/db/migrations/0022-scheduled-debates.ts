import { Migration } from '@mikro-orm/migrations';

/**
 * Scheduled debates: a user's recurring questions, and the debates each due run created (one per run, by
 * the unique key). Deleting a schedule removes its links, never its debates.
 */
export class Migration0022ScheduledDebates extends Migration {
  override name = '0022-scheduled-debates';

  override up(): void {
    this.addSql(`create table "scheduled_debates" (
      "id" uuid not null default gen_random_uuid(),
      "user_id" uuid not null,
      "question" varchar(500) not null,
      "mode" varchar(20) null,
      "context" varchar(2000) null,
      "frequency" varchar(10) not null,
      "day_of_week" int null,
      "day_of_month" int null,
      "time_of_day" varchar(5) not null,
      "timezone" varchar(64) not null,
      "active" boolean not null default true,
      "max_runs" int null,
      "run_count" int not null default 0,
      "next_run_at" timestamptz not null,
      "last_run_at" timestamptz null,
      "last_failure_code" varchar(50) null,
      "last_failure_message" text null,
      "last_failure_at" timestamptz null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      constraint "scheduled_debates_pkey" primary key ("id"),
      constraint "scheduled_debates_user_id_foreign" foreign key ("user_id")
        references "users" ("id") on delete cascade,
      constraint "scheduled_debates_frequency_check" check ("frequency" in ('daily', 'weekly', 'monthly')),
      constraint "scheduled_debates_day_of_week_check" check ("day_of_week" >= 0 and "day_of_week" <= 6),
      constraint "scheduled_debates_day_of_month_check" check ("day_of_month" >= 1 and "day_of_month" <= 31),
      constraint "scheduled_debates_max_runs_check" check ("max_runs" >= 1 and "max_runs" <= 1000),
      constraint "scheduled_debates_run_count_check" check ("run_count" >= 0)
    );`);
    this.addSql(`create index "scheduled_debates_user_created_index"
      on "scheduled_debates" ("user_id", "created_at");`);
    this.addSql(`create index "scheduled_debates_due_index"
      on "scheduled_debates" ("next_run_at") where "active" = true;`);
    this.addSql(`create table "scheduled_runs" (
      "debate_id" uuid not null,
      "schedule_id" uuid not null,
      "run_at" timestamptz not null,
      "created_at" timestamptz not null default now(),
      constraint "scheduled_runs_pkey" primary key ("debate_id"),
      constraint "scheduled_runs_debate_id_foreign" foreign key ("debate_id")
        references "debates" ("id") on delete cascade,
      constraint "scheduled_runs_schedule_id_foreign" foreign key ("schedule_id")
        references "scheduled_debates" ("id") on delete cascade,
      constraint "scheduled_runs_schedule_id_run_at_unique" unique ("schedule_id", "run_at")
    );`);
  }
}
