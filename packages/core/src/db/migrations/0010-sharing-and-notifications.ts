import { Migration } from '@mikro-orm/migrations';

/**
 * Sharing and the owner's side of collaboration: each debate's view count and share link (hashed token,
 * settings), readers' comments, notifications with their email state, and email preferences. Stored
 * argument and rebuttal events gain the claimId the engine now writes (contracts' claimIdOf, same rule).
 */
export class Migration0010SharingAndNotifications extends Migration {
  override name = '0010-sharing-and-notifications';

  override up(): void {
    this.addSql(`alter table "debates" add column "view_count" int not null default 0;`);
    this.addSql(`create table "share_links" (
      "debate_id" uuid not null,
      "token_hash" varchar(64) not null,
      "allow_comments" boolean not null default false,
      "allow_fork" boolean not null default false,
      "show_cost" boolean not null default false,
      "require_sign_in" boolean not null default false,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      constraint "share_links_pkey" primary key ("debate_id"),
      constraint "share_links_debate_id_foreign" foreign key ("debate_id")
        references "debates" ("id") on delete cascade
    );`);
    this.addSql(
      `alter table "share_links" add constraint "share_links_token_hash_unique" unique ("token_hash");`,
    );
    this.addSql(`create table "comments" (
      "id" uuid not null default gen_random_uuid(),
      "debate_id" uuid not null,
      "author_id" uuid not null,
      "content" text not null,
      "created_at" timestamptz not null default now(),
      constraint "comments_pkey" primary key ("id"),
      constraint "comments_debate_id_foreign" foreign key ("debate_id")
        references "debates" ("id") on delete cascade,
      constraint "comments_author_id_foreign" foreign key ("author_id")
        references "users" ("id") on delete cascade
    );`);
    this.addSql(`create index "comments_author_id_index" on "comments" ("author_id");`);
    this.addSql(`create index "comments_debate_created_index" on "comments" ("debate_id", "created_at");`);
    this.addSql(`create table "notifications" (
      "id" uuid not null default gen_random_uuid(),
      "user_id" uuid not null,
      "type" varchar(20) not null,
      "message" text not null,
      "debate_id" uuid null,
      "actor_id" uuid null,
      "actor_name" varchar(100) null,
      "read" boolean not null default false,
      "email_state" varchar(10) not null default 'none',
      "email_attempts" int not null default 0,
      "email_next_at" timestamptz null,
      "created_at" timestamptz not null default now(),
      constraint "notifications_pkey" primary key ("id"),
      constraint "notifications_user_id_foreign" foreign key ("user_id")
        references "users" ("id") on delete cascade,
      constraint "notifications_debate_id_foreign" foreign key ("debate_id")
        references "debates" ("id") on delete set null,
      constraint "notifications_actor_id_foreign" foreign key ("actor_id")
        references "users" ("id") on delete set null,
      constraint "notifications_type_check" check ("type" in ('comment', 'fork')),
      constraint "notifications_email_state_check"
        check ("email_state" in ('none', 'pending', 'sent', 'failed'))
    );`);
    this.addSql(`create index "notifications_debate_id_index" on "notifications" ("debate_id");`);
    this.addSql(
      `create index "notifications_user_created_index" on "notifications" ("user_id", "created_at");`,
    );
    this.addSql(
      `create index "notifications_unread_index" on "notifications" ("user_id") where "read" = false;`,
    );
    this.addSql(`create index "notifications_email_pending_index" on "notifications" ("created_at")
      where "email_state" = 'pending';`);
    this.addSql(`create table "notification_preferences" (
      "user_id" uuid not null,
      "email_comments" boolean not null default true,
      "email_forks" boolean not null default true,
      "updated_at" timestamptz not null default now(),
      constraint "notification_preferences_pkey" primary key ("user_id"),
      constraint "notification_preferences_user_id_foreign" foreign key ("user_id")
        references "users" ("id") on delete cascade
    );`);
    this.addSql(`update "debate_events"
      set "data" = "data" || jsonb_build_object('claimId',
        'a' || "attempt" || '-r' || ("data"->>'round') || '-' ||
        regexp_replace(lower("data"->>'agent'), '[^a-z0-9]+', '-', 'g'))
      where "type" in ('argument', 'rebuttal') and ("data"->>'claimId') is null;`);
  }
}
