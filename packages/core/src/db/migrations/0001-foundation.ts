import { Migration } from '@mikro-orm/migrations';

/** Accounts, sessions, API keys, the credit ledger and rate-limit counters. */
export class Migration0001Foundation extends Migration {
  override name = '0001-foundation';

  override up(): void {
    this.addSql(`create table "users" (
      "id" uuid not null default gen_random_uuid(),
      "email" varchar(254) not null,
      "name" varchar(100) not null,
      "password_hash" varchar(255) null,
      "plan" varchar(255) not null default 'free',
      "credit_balance" int not null default 0,
      "created_at" timestamptz not null default now(),
      constraint "users_pkey" primary key ("id"),
      constraint "users_credit_balance_check" check ("credit_balance" >= 0)
    );`);
    this.addSql(`alter table "users" add constraint "users_email_unique" unique ("email");`);

    this.addSql(`create table "sessions" (
      "id" uuid not null default gen_random_uuid(),
      "user_id" uuid not null,
      "token_hash" varchar(64) not null,
      "expires_at" timestamptz not null,
      "created_at" timestamptz not null default now(),
      constraint "sessions_pkey" primary key ("id")
    );`);
    this.addSql(`alter table "sessions" add constraint "sessions_token_hash_unique" unique ("token_hash");`);
    this.addSql(`alter table "sessions" add constraint "sessions_user_id_foreign"
      foreign key ("user_id") references "users" ("id") on delete cascade;`);

    this.addSql(`create table "api_keys" (
      "id" uuid not null default gen_random_uuid(),
      "user_id" uuid not null,
      "name" varchar(100) not null,
      "key_prefix" varchar(16) not null,
      "key_hash" varchar(64) not null,
      "config" jsonb null,
      "created_at" timestamptz not null default now(),
      "revoked_at" timestamptz null,
      constraint "api_keys_pkey" primary key ("id")
    );`);
    this.addSql(`create index "api_keys_user_id_index" on "api_keys" ("user_id");`);
    this.addSql(`alter table "api_keys" add constraint "api_keys_key_hash_unique" unique ("key_hash");`);
    this.addSql(`alter table "api_keys" add constraint "api_keys_user_id_foreign"
      foreign key ("user_id") references "users" ("id") on delete cascade;`);

    this.addSql(`create table "credit_ledger" (
      "id" uuid not null default gen_random_uuid(),
      "user_id" uuid not null,
      "delta" int not null,
      "reason" varchar(50) not null,
      "note" varchar(500) null,
      "created_at" timestamptz not null default now(),
      constraint "credit_ledger_pkey" primary key ("id")
    );`);
    this.addSql(`create index "credit_ledger_user_id_index" on "credit_ledger" ("user_id");`);
    this.addSql(`alter table "credit_ledger" add constraint "credit_ledger_user_id_foreign"
      foreign key ("user_id") references "users" ("id") on delete cascade;`);

    // Fixed-window counters shared by every API process. Not an entity: only touched by one upsert.
    this.addSql(`create unlogged table "rate_limit_counters" (
      "bucket" varchar(200) not null,
      "window_start" bigint not null,
      "count" int not null,
      "expires_at" timestamptz not null,
      constraint "rate_limit_counters_pkey" primary key ("bucket", "window_start")
    );`);
    this.addSql(
      `create index "rate_limit_counters_expires_at_index" on "rate_limit_counters" ("expires_at");`,
    );
  }
}
